"""Settle detection on drawn frames: one event per roll, after the dice stop, never for a hand."""

import cv2
import numpy as np
import pytest

from scorer.dice import Die
from vision.camera.settle import SettleSettings, SettleWatcher, same_layout, same_reading
from vision.reading import ReadDie, Reading, ReadingFlag, UnreadableDie

SIZE = (320, 240)
FACES = [Die.from_text(text) for text in "5R 6O 7G 8B 9R 10O 1B 2G 3O WR".split()]


class SquareReader:
    """Reads white squares as dice (faces by position order); a skin-coloured blob is a hand."""

    def __init__(self):
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        mask = cv2.inRange(frame, (200, 200, 200), (255, 255, 255))
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        dice = []
        for index, contour in enumerate(sorted(contours, key=lambda c: tuple(c[0, 0]))):
            x, y, w, h = cv2.boundingRect(contour)
            corners = ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
            dice.append(ReadDie(FACES[index % 10], 0.99, (x + w / 2, y + h / 2), corners, False))
        hand = cv2.inRange(frame, (90, 130, 190), (130, 170, 230)).any()
        return Reading(tuple(dice), SIZE, (ReadingFlag.HAND,) if hand else ())


def table(positions, hand_at=None, noise=None):
    frame = np.full((SIZE[1], SIZE[0], 3), (40, 110, 30), np.uint8)
    for x, y in positions:
        cv2.rectangle(frame, (int(x) - 10, int(y) - 10), (int(x) + 10, int(y) + 10), (235,) * 3, -1)
    if hand_at is not None:
        cv2.circle(frame, (int(hand_at[0]), int(hand_at[1])), 40, (110, 150, 210), -1)
    if noise is not None:
        frame = cv2.add(frame, noise.integers(0, 4, frame.shape, dtype=np.uint8))
    return frame


REST = [(40 + 25 * i, 120) for i in range(10)]


def roll_frames(start, end, moving=8, still=8):
    """Dice sliding from start to end positions, then lying still."""
    frames = []
    for step in range(1, moving + 1):
        t = step / moving
        frames.append(table([(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
                             for a, b in zip(start, end, strict=True)]))
    return frames + [table(end)] * still


def feed_all(watcher, frames):
    return [(index, event) for index, frame in enumerate(frames)
            if (event := watcher.feed(frame)) is not None]


def test_one_event_per_roll_after_the_dice_stop():
    reader = SquareReader()
    watcher = SettleWatcher(reader)
    start = [(160, 20)] * 10
    fired = feed_all(watcher, [table([])] * 3 + roll_frames(start, REST))
    assert len(fired) == 1
    index, event = fired[0]
    assert index > 3 + 8  # only after the last moving frame
    assert event.roll_number == 1 and len(event.reading.dice) == 10
    # Still frames afterwards: nothing more, and no more reading either (CPU stays free).
    calls = reader.calls
    assert feed_all(watcher, [table(REST)] * 10) == []
    assert reader.calls == calls


def test_rolls_are_counted_within_a_turn_and_reset_by_new_turn():
    watcher = SettleWatcher(SquareReader())
    numbers = []
    layouts = [REST, [(x, y + 60) for x, y in REST], [(x, y - 60) for x, y in REST], REST]
    previous = [(160, 20)] * 10
    for layout in layouts:
        numbers += [event.roll_number for _, event in feed_all(watcher, roll_frames(previous,
                                                                                    layout))]
        previous = layout
    assert numbers == [1, 2, 3, 1]
    watcher.new_turn()
    assert watcher.roll_count == 0
    fired = feed_all(watcher, roll_frames(previous, [(x, y + 40) for x, y in previous]))
    assert [event.roll_number for _, event in fired] == [1]


def test_the_settle_settings_passed_in_are_the_ones_waited_by():
    frames = [table([])] * 3 + roll_frames([(160, 20)] * 10, REST)
    (index, _), = feed_all(SettleWatcher(SquareReader()), frames)
    (later, _), = feed_all(SettleWatcher(SquareReader(), SettleSettings(stable_readings=5)),
                           frames)
    assert later == index + 2


def test_dice_already_at_rest_when_watching_begins_do_not_fire():
    assert feed_all(SettleWatcher(SquareReader()), [table(REST)] * 20) == []


def test_a_hand_moving_over_still_dice_does_not_fire():
    watcher = SettleWatcher(SquareReader())
    frames = [table(REST)] * 6
    frames += [table(REST, hand_at=(20 + 12 * step, 110)) for step in range(25)]
    frames += [table(REST, hand_at=(170, 110))] * 6  # the hand pauses over the dice
    frames += [table(REST)] * 10  # and leaves: the dice have not moved
    assert feed_all(watcher, frames) == []


def test_a_hand_resting_in_the_frame_blocks_the_event_until_it_leaves():
    watcher = SettleWatcher(SquareReader())
    frames = roll_frames([(160, 20)] * 10, REST, still=0)
    frames += [table(REST, hand_at=(290, 200))] * 10
    fired = feed_all(watcher, frames)
    assert fired == []
    seen = watcher.latest_reading  # the hand is flagged, and the dice are still listed
    assert seen.has_flag(ReadingFlag.HAND) and len(seen.dice) == len(REST)
    fired = feed_all(watcher, [table(REST)] * 8)
    assert len(fired) == 1


def test_an_unreadable_die_counts_in_the_layout():
    read = SquareReader().read(table(REST))
    unread = UnreadableDie(read.dice[0].centre, read.dice[0].corners, 0.95, 0.05)
    partial = Reading(read.dice[1:], SIZE, (ReadingFlag.UNREADABLE,), (unread,))
    assert same_layout(read, partial) and not same_layout(read, Reading(read.dice[1:], SIZE))


def test_sensor_noise_is_not_motion():
    rng = np.random.default_rng(3)
    watcher = SettleWatcher(SquareReader())
    frames = [table([(160, 20)] * 10, noise=rng)] * 2
    frames += [table(REST, noise=rng) for _ in range(12)]
    fired = feed_all(watcher, frames)
    assert len(fired) == 1


@pytest.mark.parametrize("frame", [None, np.zeros((0, 0, 3), np.uint8), "frame"])
def test_bad_frames_are_ignored(frame):
    assert SettleWatcher(SquareReader()).feed(frame) is None


def test_same_layout_and_same_reading():
    reader = SquareReader()
    first = reader.read(table(REST))
    nudged = reader.read(table([(x + 2, y) for x, y in REST]))
    moved = reader.read(table([(x, y + 50) for x, y in REST]))
    assert same_layout(first, nudged) and same_reading(first, nudged)
    assert not same_layout(first, moved)
    assert not same_layout(first, Reading((), SIZE))

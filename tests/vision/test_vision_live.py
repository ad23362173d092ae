"""Settling on rendered frames, the demo table, and the TableWatcher the web app runs."""

import threading

import cv2
import numpy as np
import pytest

from vision.camera.demo import DemoSource, DemoTable
from vision.camera.live import TableWatcher
from vision.camera.settle import SettleWatcher
from vision.camera.sources import open_source
from vision.read.pipeline import DiceReader
from vision.reading import ReadingFlag
from vision.synth import random_conditions, random_placements, random_roll, render_scene

SIZE = (960, 720)


@pytest.fixture(scope="module")
def reader():
    return DiceReader(threads=1)


@pytest.mark.slow
def test_a_rendered_roll_fires_once_after_the_dice_stop(reader):
    table = DemoTable(11, size=SIZE, fps=4, rest_seconds=2.0, roll_seconds=1.5, hand_share=0.0)
    frames = table.frames()
    watcher = SettleWatcher(reader)
    events = []
    first_still = None
    for index in range(table.roll_frames + table.rest_frames):
        frame = next(frames)
        if not frame.moving and first_still is None:
            first_still = index
        event = watcher.feed(frame.image)
        if event is not None:
            events.append((index, event, frame))
    assert len(events) == 1
    index, event, frame = events[0]
    assert first_still is not None and index >= first_still + 1  # only once at rest
    assert event.roll_number == 1
    assert sorted(str(r.die) for r in event.reading.dice) == sorted(str(d) for d in frame.roll)


@pytest.mark.slow
def test_a_hand_moving_over_still_rendered_dice_does_not_fire(reader):
    rng = np.random.default_rng(21)
    conditions = random_conditions(rng, SIZE)
    placements = random_placements(rng, list(random_roll(rng)), conditions, SIZE)

    def table(seed, hand):
        """The same dice in the same places; each seed puts the hand somewhere else."""
        return render_scene(
            seed, placements=placements, conditions=conditions, size=SIZE, hand=hand
        ).image

    still = table(0, False)
    frames = [still] * 4  # the table as watching begins
    frames += [table(seed, True) for seed in range(1, 7)]  # a hand sweeps to and fro
    frames += [table(6, True)] * 4  # and rests over the tray a moment
    frames += [still] * 6  # then it is gone; the dice never moved
    assert reader.read(frames[-7]).has_flag(ReadingFlag.HAND)  # the resting hand is seen
    watcher = SettleWatcher(reader)
    assert [watcher.feed(frame) for frame in frames] == [None] * len(frames)


@pytest.mark.slow
def test_the_demo_plays_turns_of_three_rolls_keeping_some_dice():
    table = DemoTable(3, size=(480, 360), fps=2, rest_seconds=1.0, roll_seconds=1.0)
    frames = table.frames()
    rests: list = []
    for _ in range(3 * (table.roll_frames + table.rest_frames) + table.roll_frames):
        frame = next(frames)
        assert frame.image.shape == (360, 480, 3) and frame.image.dtype == np.uint8
        assert len(frame.roll) == 10 and frame.roll.is_explained_by_inventory()
        if not frame.moving and (not rests or rests[-1][0] != frame.roll_number):
            rests.append((frame.roll_number, frame.image))
    assert [number for number, _ in rests] == [1, 2, 3]
    assert frame.moving and frame.roll_number == 1  # the next turn starts with a throw
    # At rest the same picture is shown again (nothing re-rendered).
    first_rest = [f for f in [next(frames) for _ in range(table.rest_frames + 1)] if not f.moving]
    assert all(f.image is first_rest[0].image for f in first_rest)


def test_demo_spec_opens_a_paced_source():
    with open_source("demo") as source:
        assert isinstance(source, DemoSource)
        assert source.table is not None
    assert source.table is None


@pytest.mark.slow
def test_table_watcher_reports_rolls_readings_and_an_overlay(reader):
    source = DemoSource(5, size=SIZE, fps=4, realtime=False)
    with TableWatcher("demo", reader=reader, source=source) as watcher:
        assert watcher.latest_overlay_jpeg() is None
        events = []
        for event in watcher.events():
            events.append(event)
            if len(events) == 1:
                jpeg = watcher.latest_overlay_jpeg()
                assert jpeg is not None and jpeg[:2] == b"\xff\xd8"
                picture = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
                assert picture.shape == (SIZE[1], SIZE[0], 3)
                assert watcher.latest_reading() is event.reading
            if len(events) == 2:
                watcher.new_turn()
            if len(events) == 3:
                break
    assert [event.roll_number for event in events] == [1, 2, 1]
    assert all(event.reading.dice for event in events)


@pytest.mark.slow
def test_table_watcher_close_from_another_thread_ends_events(reader):
    source = DemoSource(6, size=(480, 360), fps=50, realtime=True)
    with TableWatcher("demo", reader=reader, source=source) as watcher:
        timer = threading.Timer(0.5, watcher.close)
        timer.start()
        consumed = list(watcher.events())
        timer.join()
    assert source.table is None
    assert isinstance(consumed, list)


def test_table_watcher_names_a_bad_spec():
    with pytest.raises(ValueError, match="not a frame source"):
        TableWatcher("webcam")

"""The set-up page's test reading says when the camera sees the dice too small to read
them well (`web/dice_size.py`)."""

from __future__ import annotations

import pytest

from scorer import parse_roll
from vision.reading import ReadDie, Reading, UnreadableDie
from web.dice_size import small_dice_advice


def _square(x: float, y: float, side: float) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + side, y), (x + side, y + side), (x, y + side))


def _reading(side: float, width: int = 1280, unreadable: int = 0,
             sides: tuple[float, ...] = ()) -> Reading:
    """Ten dice of `side` pixels (or of `sides`, die by die) in a frame `width` wide, the
    last `unreadable` of them not read."""
    sides = sides or (side,) * 10
    dice = tuple(ReadDie(die, 0.99, (100.0 * i, 50.0), _square(100.0 * i, 50.0, sides[i]), False)
                 for i, die in enumerate(parse_roll("8R 8B 6G 10O 10G 7R WR 2B 1G 3R").dice))
    odd = tuple(UnreadableDie((50.0, 600.0), _square(50.0, 600.0, side), 0.99, 0.1)
                for _ in range(unreadable))
    return Reading(dice[: 10 - unreadable], (width, width * 3 // 4), unreadable=odd)


def test_dice_under_a_twentieth_of_the_width_get_advice_and_larger_ones_none():
    assert small_dice_advice(_reading(70)) is None
    assert small_dice_advice(_reading(60)) is None
    advice = small_dice_advice(_reading(45))
    assert advice is not None and "about 45 pixels" in advice and "from 60" in advice
    assert small_dice_advice(_reading(45, width=640)) is None  # 45 of 640 is plenty
    assert small_dice_advice(_reading(45, sides=(45,) * 9 + (200,)))
    assert small_dice_advice(_reading(45, unreadable=1))  # the dice not read count too
    assert small_dice_advice(Reading((), (1280, 960))) is None
    cornerless = tuple(ReadDie(die, 0.99, (0.0, 0.0), (), False)
                       for die in parse_roll("8R 8B").dice)
    assert small_dice_advice(Reading(cornerless, (1280, 960))) is None


def test_the_test_reading_says_when_the_dice_look_too_small(camera_app, watcher):
    client = camera_app.test_client()
    watcher.now = _reading(40, unreadable=1)
    small = client.post("/api/camera/test-reading", json={}).json
    assert small["small_dice"] is True
    assert "the dice measure about 40 pixels across" in small["message"]
    assert "move the camera closer" in small["message"]
    watcher.now = _reading(80)
    fine = client.post("/api/camera/test-reading", json={}).json
    assert fine["small_dice"] is False
    assert fine["message"] == "10 dice found in the frame (no tray marked)"


@pytest.mark.parametrize(("die_scale", "small"), [(1.0, False), (0.55, True)])
def test_a_real_frame_of_small_dice_gets_the_advice(die_scale, small):
    """The reader's own boxes measure the dice: the same scene drawn with the dice at the
    camera's usual size and at about half of it."""
    from vision.evaluation import evaluation_scene
    from vision.read.pipeline import DiceReader
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    scene = evaluation_scene(HELD_OUT_SEED_BASE + 31, die_scale=die_scale)
    reading = DiceReader(threads=1).read(scene.image)
    assert len(reading.dice) + len(reading.unreadable) >= 8
    assert (small_dice_advice(reading) is not None) is small

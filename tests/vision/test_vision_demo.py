"""The demo table on request: it rests until asked, and each request is exactly one throw."""

from itertools import islice

import pytest

from scorer.dice import Roll
from vision.camera.demo import DemoBusyError, DemoSource, DemoTable, DemoThrow
from vision.camera.sources import open_source

SIZE = (320, 240)


def small_table(seed: int) -> DemoTable:
    return DemoTable(seed, size=SIZE, fps=4, rest_seconds=0.5, roll_seconds=1.0, hand_share=0.0)


def throws_in(frames: list) -> int:
    """How many times the dice started moving in these frames."""
    return sum(1 for before, after in zip([None, *frames], frames, strict=False)
               if after.moving and (before is None or not before.moving))


def test_the_table_rests_empty_until_a_throw_is_asked_for():
    table = small_table(1)
    frames = table.frames_on_request()
    idle = list(islice(frames, 60))  # fifteen seconds of the old timer's worth of rolls
    assert throws_in(idle) == 0 and all(len(frame.roll) == 0 for frame in idle)
    assert all(frame.image is idle[0].image for frame in idle)  # rendered once


def test_each_request_throws_once_then_the_dice_rest():
    table = small_table(2)
    frames = table.frames_on_request()
    next(frames)
    table.request_throw(DemoThrow(1))
    with pytest.raises(DemoBusyError, match="still rolling"):
        table.request_throw(DemoThrow(2))
    first = list(islice(frames, 40))
    assert throws_in(first) == 1 and not table.throwing
    rest = [frame for frame in first if not frame.moving]
    assert len(rest[-1].roll) == 10 and rest[-1].roll.is_explained_by_inventory()
    assert rest[-1].roll_number == 1

    lying = rest[-1].roll
    keep = lying.dice[:4]
    table.request_throw(DemoThrow(2, keep))
    second = list(islice(frames, 40))
    assert throws_in(second) == 1
    after = second[-1]
    assert not after.moving and after.roll_number == 2 and len(after.roll) == 10
    remaining = list(after.roll.dice)
    for die in keep:  # the kept faces still lie on the table
        remaining.remove(die)


def test_kept_faces_no_die_shows_are_turned_up_and_set_aside():
    """A roll typed by hand is what the player plays on: its kept faces lie on the table."""
    table = small_table(5)
    frames = table.frames_on_request()
    next(frames)
    keep = Roll.from_text("8R 8B 8G WR").dice
    table.request_throw(DemoThrow(2, keep))
    shown = list(islice(frames, 40))
    assert throws_in(shown) == 1
    after = shown[-1]
    assert len(after.roll) == 10 and after.roll.is_explained_by_inventory()
    remaining = list(after.roll.dice)
    for die in keep:
        remaining.remove(die)


def test_a_throw_outside_the_turn_is_refused():
    with pytest.raises(ValueError, match="outside 1-3"):
        small_table(3).request_throw(DemoThrow(4))


def test_the_demo_source_throws_only_on_request():
    source = DemoSource(4, size=SIZE, realtime=False, on_request=True)
    with source:
        frames = iter(source)
        for _ in range(30):
            next(frames)
        assert source.latest is not None and source.latest.roll == Roll(())
        source.throw(1)
        assert source.throwing
        while source.throwing:
            next(frames)
        assert len(source.latest.roll) == 10
    with pytest.raises(DemoBusyError, match="not open"):
        source.throw(1)


def test_the_demo_spec_is_the_table_on_request():
    source = open_source("demo")
    assert isinstance(source, DemoSource) and source.on_request and source.thrower is source
    assert DemoSource().thrower is None  # the timed table throws by itself, never when asked

"""A box's shape against the frame's dice: the size a die should have where it lies."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.die_shape import DieShape, SizeByPlace, median_ratios
from vision.read.tops import Located

FRAME_WIDTH = 1280
DOUBTFUL = DieShape(min_score=0.75, max_aspect=1.5, side_range=(0.7, 1.4), long_score=0.9)
MEDIAN_ONLY = DieShape(min_score=0.75, max_aspect=1.5, side_range=(0.7, 1.4), long_score=0.9,
                       by_place=None)


def square(x: float, y: float, side: float) -> np.ndarray:
    half = side / 2
    return np.array([(x - half, y - half), (x + half, y - half), (x + half, y + half),
                     (x - half, y + half)], np.float32)


def located(boxes: list[np.ndarray]) -> Located:
    sides = [float(np.linalg.norm(b - np.roll(b, 1, axis=0), axis=1).max()) for b in boxes]
    return Located(tuple(boxes), False, float(np.median(sides)), None,
                   tuple(0.97 for _ in boxes), 320, FRAME_WIDTH)


def side_seen(x: float, near: float = 80.0, far: float = 40.0) -> float:
    """A die's side at `x` when a camera seen at a slant shows the dice shrinking from the
    near (left) edge of the frame to the far (right) one."""
    return near * (far / near) ** ((x - 100) / 1080)


def slanted_frame(near: float = 80.0, far: float = 40.0) -> list[np.ndarray]:
    """Nine dice spread over the frame, seen at a slant (`side_seen`)."""
    return [square(x, y, side_seen(x, near, far))
            for x in (100, 640, 1180) for y in (250, 480, 710)]


def test_a_near_die_read_with_doubt_is_a_die_at_its_place_not_against_the_median():
    boxes = slanted_frame()
    boxes.append(square(60, 700, side_seen(60)))  # the nearest die, over 1.4 x the median
    frame = located(boxes)
    assert not MEDIAN_ONLY.fits(frame, len(boxes) - 1)
    assert DOUBTFUL.fits(frame, len(boxes) - 1)


def test_a_far_die_read_with_doubt_is_a_die_at_its_place():
    boxes = slanted_frame()
    boxes.append(square(1260, 300, side_seen(1260)))  # the farthest, under 0.7 x the median
    frame = located(boxes)
    assert not MEDIAN_ONLY.fits(frame, len(boxes) - 1)
    assert DOUBTFUL.fits(frame, len(boxes) - 1)


def test_a_box_twice_the_size_dice_have_there_is_still_no_die():
    boxes = slanted_frame()
    boxes.append(square(1150, 600, 2 * side_seen(1150)))  # a key cap twice a die there
    frame = located(boxes)
    assert not DOUBTFUL.fits(frame, len(boxes) - 1)


def test_an_odd_box_does_not_bend_the_plane_the_others_lie_on():
    boxes = slanted_frame()
    boxes.append(square(400, 380, 200.0))  # a laptop key far larger than any die
    boxes.append(square(900, 600, side_seen(900)))  # a die beside it
    frame = located(boxes)
    expected = SizeByPlace().side_at(frame, len(boxes) - 1)
    assert expected == pytest.approx(side_seen(900), rel=0.02)


def test_few_boxes_are_compared_with_the_median():
    boxes = [square(200, 400, 80.0), square(1000, 400, 40.0), square(600, 400, 60.0)]
    frame = located(boxes)
    assert SizeByPlace().side_at(frame, 0) == frame.die_side


def test_judged_against_the_median_a_slanted_frame_s_near_dice_look_too_large():
    """Against one size for the frame (no plane asked for), the near dice of a slanted view
    are 1.4 times the median and the far ones 0.7; by place, all of them are about 1."""
    boxes = slanted_frame()
    against_median = median_ratios(boxes)
    assert against_median[:3] == pytest.approx([80 / side_seen(640)] * 3, rel=1e-3)
    assert against_median[-3:] == pytest.approx([40 / side_seen(640)] * 3, rel=1e-3)
    assert np.median(against_median) == pytest.approx(1.0)
    assert SizeByPlace().ratios(boxes) == pytest.approx(np.ones(len(boxes)), abs=0.02)
    assert len(median_ratios([])) == 0


@settings(max_examples=60, deadline=None)
@given(st.floats(40, 120), st.integers(6, 12), st.floats(0, FRAME_WIDTH), st.floats(0, 960))
def test_dice_of_one_size_are_compared_with_that_size_everywhere(side, count, x, y):
    """Seen from above, every die has the same side, and the plane reads it anywhere."""
    xs = np.linspace(100, 1180, count)
    boxes = [square(px, 200 + 50 * (i % 3), side) for i, px in enumerate(xs)]
    frame = located([*boxes, square(x, y, side)])
    assert SizeByPlace().side_at(frame, count) == pytest.approx(side, rel=1e-4)


@settings(max_examples=60, deadline=None)
@given(st.floats(20, 300), st.floats(0.1, 10), st.floats(-2000, 4000), st.floats(-2000, 4000))
def test_the_plane_never_strays_past_its_bound_from_the_median(near, ratio, x, y):
    frame = located([*slanted_frame(near, near * ratio), square(x, y, near)])
    rule = SizeByPlace()
    expected = rule.side_at(frame, len(frame.boxes) - 1)
    assert frame.die_side / rule.max_ratio - 1e-6 <= expected
    assert expected <= frame.die_side * rule.max_ratio + 1e-6


class FirstBoxChanged:
    """The shipped locator, with its first box changed by `change` (corners in, out)."""

    def __init__(self, change) -> None:
        from vision.read.tops import TopFinder

        self.finder = TopFinder.load()
        self.change = change

    def locate(self, frame: np.ndarray, tray: np.ndarray | None = None) -> Located:
        from dataclasses import replace

        located = self.finder.locate(frame, tray)
        first = self.change(located.boxes[0].astype(np.float64)).astype(np.float32)
        return replace(located, boxes=(first, *located.boxes[1:]))


@pytest.mark.slow
def test_a_box_taking_in_a_side_face_is_marked_where_the_calibration_asks():
    """A located box half as large again as the dice around it (a top seen with its side
    face) has that size ratio, and a calibration with `max_size_ratio` marks its die."""
    from dataclasses import replace

    from vision.read.pipeline import DiceReader, size_ratios
    from vision.read.trust import Calibration
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    # The shipped locator, with its first box grown half as large again.
    enlarging = FirstBoxChanged(lambda box: (box - box.mean(axis=0)) * 1.5 + box.mean(axis=0))

    scene = render_scene(HELD_OUT_SEED_BASE + 4)  # its grown box still reads for sure
    shipped = Calibration.load()
    assert shipped is not None
    strict = replace(shipped, settings=replace(shipped.settings, max_size_ratio=1.3))
    reading = DiceReader(finder=enlarging, calibration=strict).read(scene.image)
    ratios = size_ratios(reading.dice, SizeByPlace())
    grown = int(np.argmax(ratios))
    assert ratios[grown] == pytest.approx(1.5, abs=0.15)
    assert np.all(np.delete(ratios, grown) < 1.2)
    assert reading.dice[grown].unsure and not reading.is_complete()
    plain = replace(shipped, settings=replace(shipped.settings, max_size_ratio=None))
    again = DiceReader(finder=enlarging, calibration=plain).read(scene.image)
    assert not again.dice[grown].unsure  # marked for its size alone
    assert again.dice[grown].probability == reading.dice[grown].probability


@pytest.mark.slow
def test_a_long_box_larger_than_its_place_is_marked_as_two_faces_of_one_die():
    """A located box stretched along one side to 1.27 times its length (as a leaning die's
    top and the side face beside it, boxed as one) is too small for `max_size_ratio` to mark,
    but long and large enough for the shipped calibration's `merged_aspect`."""
    from dataclasses import replace

    from vision.read.pipeline import DiceReader, box_aspect, size_ratios
    from vision.read.trust import Calibration
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    stretch = 1.27

    def stretched(box: np.ndarray) -> np.ndarray:
        """The box stretched along its first side about its centre."""
        along = (box[1] - box[0]) / np.linalg.norm(box[1] - box[0])
        offsets = box - box.mean(axis=0)
        return box + np.outer(offsets @ along, along) * (stretch - 1)

    stretching = FirstBoxChanged(stretched)

    scene = render_scene(HELD_OUT_SEED_BASE + 4)
    shipped = Calibration.load()
    assert shipped is not None and shipped.settings.merged_aspect is not None
    reading = DiceReader(finder=stretching, calibration=shipped).read(scene.image)
    ratios = size_ratios(reading.dice, SizeByPlace())
    long = int(np.argmax(ratios))
    assert ratios[long] == pytest.approx(stretch, abs=0.08)
    assert not shipped.settings.oversized(float(ratios[long]))
    assert box_aspect(reading.dice[long]) < shipped.settings.merged_aspect
    assert reading.dice[long].unsure
    square = replace(shipped, settings=replace(shipped.settings, merged_aspect=None))
    again = DiceReader(finder=stretching, calibration=square).read(scene.image)
    assert not again.dice[long].unsure  # marked for its shape alone

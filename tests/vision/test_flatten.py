"""A steep frame put back flat from its own dice (`vision.read.flatten`), and the reader
reading it so (`ReaderSettings.flatten`, off as shipped)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.flatten import _side, flattening, mapper, tilt_of
from vision.read.settings import FlattenSettings, ReaderSettings
from vision.reading import Reading
from vision.synth import render_scene
from vision.synth.views import FOCAL_WIDTHS, steep_scene

SIZE = (1280, 960)
LENS = FlattenSettings(above_degrees=10.0, focal_widths=FOCAL_WIDTHS)  # the renderer's lens


def _grid(side: float = 60.0) -> list[np.ndarray]:
    """Twelve equal die tops, turned every which way, spread over an upright frame."""
    tops = []
    for k, (x, y) in enumerate((x, y) for x in (250, 500, 780, 1030) for y in (220, 480, 740)):
        turn = 0.4 * k
        ring = [(math.cos(turn + q * math.pi / 2), math.sin(turn + q * math.pi / 2))
                for q in range(4)]
        tops.append(np.array([(x + side / math.sqrt(2) * c, y + side / math.sqrt(2) * s)
                              for c, s in ring], np.float64))
    return tops


def _tipped(tops: list[np.ndarray], degrees: float, azimuth: float) -> list[np.ndarray]:
    """The tops as the camera turned about its own centre sees them: `tilt_homography`
    before it zooms and shifts the picture to fit (which moves the lens's middle)."""
    focal = FOCAL_WIDTHS * SIZE[0]
    camera = np.array([[focal, 0, SIZE[0] / 2], [0, focal, SIZE[1] / 2], [0, 0, 1]])
    axis = np.array([-math.sin(azimuth), math.cos(azimuth), 0.0])
    rotation, _ = cv2.Rodrigues(axis * math.radians(degrees))
    homography = camera @ rotation @ np.linalg.inv(camera)
    return [cv2.perspectiveTransform(top.reshape(-1, 1, 2), homography).reshape(4, 2)
            for top in tops]


def _put_back_flat(tipped: list[np.ndarray], lens: FlattenSettings
                   ) -> tuple[list[np.ndarray], np.ndarray, float]:
    """The tops put back flat by `flattening` with `lens`, their sides (as squares of the
    same area) and the most oblong top's longest edge over its shortest."""
    homography = flattening(tipped, SIZE, lens)
    assert homography is not None
    flat = [cv2.perspectiveTransform(top.reshape(-1, 1, 2), homography).reshape(4, 2)
            for top in tipped]
    edges = np.array([np.linalg.norm(top - np.roll(top, 1, axis=0), axis=1) for top in flat])
    oblong = float((edges.max(axis=1) / edges.min(axis=1)).max())
    return flat, np.array([_side(top) for top in flat]), oblong


@settings(max_examples=25, deadline=None)
@given(degrees=st.floats(12.0, 35.0), azimuth=st.floats(0.0, 2 * math.pi))
def test_the_tilt_is_read_from_how_the_dice_shrink_across_the_frame(degrees, azimuth):
    tilt = tilt_of(_tipped(_grid(), degrees, azimuth), SIZE, LENS)
    assert tilt is not None
    assert tilt.degrees == pytest.approx(degrees, abs=1.5)
    heading = (math.cos(azimuth), math.sin(azimuth))
    assert abs(float(np.dot(tilt.direction, heading))) > 0.99


@settings(max_examples=25, deadline=None)
@given(degrees=st.floats(12.0, 35.0), azimuth=st.floats(0.0, 2 * math.pi))
def test_put_back_flat_every_top_is_one_square_size_again(degrees, azimuth):
    tipped = _tipped(_grid(), degrees, azimuth)
    flat, sides, oblong = _put_back_flat(tipped, LENS)
    assert sides.max() / sides.min() < 1.01
    assert oblong < 1.02  # squares, not oblongs
    kept = np.median(sides) / np.median([_side(top) for top in tipped])
    assert 0.8 < kept < 1.001  # as large as in the frame, unless the dice would not fit
    corners = np.concatenate(flat)
    assert (corners >= 0).all() and (corners[:, 0] <= SIZE[0]).all()
    assert (corners[:, 1] <= SIZE[1]).all()


def test_a_wrong_lens_leaves_the_tops_a_little_oblong_but_one_size():
    tipped = _tipped(_grid(), 30.0, 2.0)
    _, sides, oblong = _put_back_flat(tipped, FlattenSettings(above_degrees=10.0))  # lens 1.0
    assert sides.max() / sides.min() < 1.01
    assert oblong < 1.15


def test_an_upright_frame_is_left_as_it_is():
    tilt = tilt_of(_grid(), SIZE, LENS)
    assert tilt is None or tilt.degrees < 1.0
    assert flattening(_grid(), SIZE, LENS) is None


def test_off_as_shipped_and_with_too_few_dice():
    tipped = _tipped(_grid(), 30.0, 1.0)
    assert FlattenSettings().above_degrees is None
    assert flattening(tipped, SIZE, FlattenSettings()) is None
    assert tilt_of(tipped[:4], SIZE, LENS) is None
    assert flattening(tipped[:4], SIZE, LENS) is None


def test_one_die_boxed_with_its_sides_does_not_tip_the_estimate():
    tipped = _tipped(_grid(), 25.0, 0.5)
    centre = tipped[4].mean(axis=0)
    tipped[4] = centre + 1.6 * (tipped[4] - centre)  # a box half again too large
    tilt = tilt_of(tipped, SIZE, LENS)
    assert tilt is not None and tilt.degrees == pytest.approx(25.0, abs=2.0)


def test_settings_out_of_range_are_refused():
    with pytest.raises(ValueError, match="above_degrees"):
        FlattenSettings(above_degrees=95.0)
    with pytest.raises(ValueError, match="min_dice"):
        FlattenSettings(min_dice=2)


def test_a_point_goes_there_and_back():
    homography = flattening(_tipped(_grid(), 30.0, 1.0), SIZE, LENS)
    assert homography is not None
    there, back = mapper(homography), mapper(np.linalg.inv(homography))
    point = (333.0, 444.0)
    assert back(there(point)) == pytest.approx(point, abs=1e-6)


def test_a_reading_mapped_moves_every_die_and_keeps_the_rest():
    from scorer.dice import Die
    from vision.reading import ReadDie

    die = ReadDie(Die(5, "R"), 0.9, (10.0, 20.0),
                  ((0.0, 0.0), (20.0, 0.0), (20.0, 40.0), (0.0, 40.0)), False)
    reading = Reading((die,), (100, 100))
    moved = reading.mapped(lambda p: (p[0] * 2, p[1] + 1), (200, 101))
    assert moved.frame_size == (200, 101)
    assert moved.dice[0].centre == (20.0, 21.0)
    assert moved.dice[0].corners[2] == (40.0, 41.0)
    assert moved.dice[0].die == die.die and moved.dice[0].confidence == die.confidence
    assert reading.placed((1.0, 2.0), 3.0, (9, 9)).dice[0].centre == (33.0, 66.0)


@pytest.fixture(scope="module")
def steep():
    return steep_scene(render_scene(5), 32.0, 2.4)


def test_the_reader_reads_a_steep_frame_flat_and_places_the_dice_in_the_frame(steep):
    from vision.read.pipeline import DiceReader

    reader = DiceReader(settings=ReaderSettings(flatten=LENS))
    reading = reader.read(steep.image)
    assert reading.frame_size == SIZE
    assert len(reading.dice) == len(steep.dice)
    truth = {str(die.die) for die in steep.dice}
    for die in reading.dice:
        nearest = min(steep.dice, key=lambda true: math.dist(true.centre, die.centre))
        side = _side(np.asarray(nearest.corners, np.float64))
        assert math.dist(nearest.centre, die.centre) < 0.25 * side  # in the frame's pixels
        assert str(die.die) in truth
    read_as_is = DiceReader().read(steep.image)
    assert sorted(str(d.die) for d in reading.dice) == sorted(str(d.die) for d in read_as_is.dice)

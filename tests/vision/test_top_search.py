"""The top of a die boxed with its sides: closer quads tried inside an oversized box."""

from __future__ import annotations

import numpy as np
import pytest
from fakes import mark_offsets
from hypothesis import given
from hypothesis import strategies as st

from vision.read.classifier import FacePredictions
from vision.read.pipeline import DiceReader, size_ratios
from vision.read.settings import (
    ClassifySettings,
    ColourSettings,
    ReaderSettings,
    TopSearchSettings,
)
from vision.read.top_search import candidate_quads, face_scores, searched
from vision.read.tops import Located
from vision.reading import Reading


def _box(centre: tuple[float, float], side: float, angle: float = 0.0,
         stretch: float = 1.0) -> np.ndarray:
    a = np.radians(angle)
    u = np.array([np.cos(a), np.sin(a)]) * side / 2
    v = np.array([-np.sin(a), np.cos(a)]) * side * stretch / 2
    c = np.asarray(centre, np.float64)
    return np.array([c - u - v, c + u - v, c + u + v, c - u + v], np.float32)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def _inside(points: np.ndarray, quad: np.ndarray) -> bool:
    """Whether every point lies in the convex quad (up to rounding)."""
    quad = np.asarray(quad, np.float64)
    turn = np.sign(_cross(quad[1] - quad[0], quad[2] - quad[0]))
    for k in range(4):
        edge = quad[(k + 1) % 4] - quad[k]
        side = _cross(edge, np.asarray(points, np.float64) - quad[k]) * turn
        if (side < -1e-3 * float(np.dot(edge, edge))).any():
            return False
    return True


@given(st.floats(20, 200), st.floats(0, 360), st.floats(0.7, 1.4))
def test_the_closer_quads_start_with_the_box_and_stay_inside_it(side, angle, stretch):
    box = _box((300.0, 200.0), side, angle, stretch)
    settings = TopSearchSettings()
    quads = candidate_quads(box, settings)
    assert quads.shape == (1 + len(settings.scales) * settings.steps ** 2, 4, 2)
    np.testing.assert_allclose(quads[0], box)
    for quad in quads[1:]:
        assert _inside(quad, box)
    sides = np.linalg.norm(box[1] - box[0])
    scaled = sorted({round(float(np.linalg.norm(q[1] - q[0]) / sides), 4) for q in quads[1:]})
    assert scaled == pytest.approx(sorted(settings.scales), abs=1e-3)
    # the middle place of each size is the box's own centre
    middle = [q for q in quads[1:] if np.allclose(q.mean(axis=0), box.mean(axis=0), atol=1e-3)]
    assert len(middle) == len(settings.scales)


def test_only_boxes_larger_than_their_place_are_searched_the_largest_first():
    ratios = np.array([1.0, 1.5, 1.05, 1.2, 1.11, 2.0])
    assert list(searched(ratios, TopSearchSettings(above=1.1))) == [5, 1, 3, 4]
    assert list(searched(ratios, TopSearchSettings(above=1.1, most=2))) == [5, 1]
    assert list(searched(ratios, TopSearchSettings(above=None))) == []


def test_a_crop_scores_by_how_surely_it_shows_one_face():
    values = np.array([[0.9, 0.1], [0.5, 0.5]])
    colours = np.array([[1.0, 0.0], [0.8, 0.2]])
    np.testing.assert_allclose(face_scores(values, colours, np.array([0.5, 1.0])),
                               [0.45, 0.4])


@pytest.mark.parametrize("bad", [{"above": 0.9}, {"scales": ()}, {"scales": (1.0,)},
                                 {"steps": 0}, {"most": -1}, {"gain": 1.0}])
def test_search_settings_out_of_range_are_refused(bad):
    with pytest.raises(ValueError):
        TopSearchSettings(**bad)


def test_the_search_is_off_as_shipped():
    """Measured, not shipped (models/MODEL_CARD.md): a reader as shipped leaves the
    oversized box where the locator found it."""
    reader = _reader()
    assert reader.settings.classify.top_search.above is None
    big = _nearest(reader.read(_frame()), (230.0, 250.0))
    assert big.centre == pytest.approx((230.0, 250.0)) and big.found_corners is None


class _ReadsCentredMarks:
    """A classifier that reads a 5R wherever a crop shows a bright mark, the more surely
    the nearer the crop's centre the mark lies, and no face elsewhere."""

    sha256 = ""

    def predict(self, crops: np.ndarray) -> FacePredictions:
        value = np.full((len(crops), 11), 0.01)
        colour = np.tile([0.97, 0.01, 0.01, 0.01], (len(crops), 1))
        face = np.full(len(crops), 0.1)
        for i, off in enumerate(mark_offsets(crops)):
            if not np.isnan(off):
                value[i, 4] = 20.0 * max(1.0 - off, 0.05)
                face[i] = 1.0
        return FacePredictions(value / value.sum(axis=1, keepdims=True), colour, face)

    def predict_turns(self, crops: np.ndarray, turns: int = 1) -> FacePredictions:
        return self.predict(crops)


#: Eight dice 40 px across, and one boxed with its sides: 60 px, its top (42 px) in the
#: box's upper left corner.
_TOPS = [(60.0 + 80 * (k % 4), 60.0 + 90 * (k // 4)) for k in range(8)]
_BIG_BOX = _box((230.0, 250.0), 60.0)
_BIG_TOP = (221.0, 241.0)


class _Finder:
    def locate(self, frame: np.ndarray, tray=None) -> Located:
        boxes = tuple(_box(c, 40.0) for c in _TOPS) + (_BIG_BOX,)
        return Located(boxes=boxes, die_side=40.0, scores=(1.0,) * len(boxes),
                       frame_width=frame.shape[1])


def _frame() -> np.ndarray:
    frame = np.zeros((320, 400, 3), np.uint8)
    for x, y in [*_TOPS, _BIG_TOP]:
        frame[int(y) - 5:int(y) + 5, int(x) - 5:int(x) + 5] = 255
    return frame


def _reader(finder: object | None = None, search: TopSearchSettings | None = None
            ) -> DiceReader:
    """A reader of `_ReadsCentredMarks` over `finder`'s boxes (`_Finder`'s by default),
    without the frame's inks, searching oversized boxes as `search` says (None: as
    shipped)."""
    classify = ClassifySettings() if search is None else ClassifySettings(top_search=search)
    settings = ReaderSettings(colour=ColourSettings(frame_inks=False), classify=classify)
    return DiceReader(_ReadsCentredMarks(), finder=finder or _Finder(), settings=settings,
                      calibration=None, face_probe=False)


def _read(above: float | None) -> Reading:
    return _reader(search=TopSearchSettings(above=above)).read(_frame())


def _nearest(reading: Reading, point: tuple[float, float]):
    return min(reading.dice, key=lambda d: np.hypot(d.centre[0] - point[0],
                                                    d.centre[1] - point[1]))


def test_a_die_boxed_with_its_sides_is_placed_at_its_top_and_judged_by_its_box():
    searched_reading, plain = _read(1.1), _read(None)
    assert len(searched_reading.dice) == len(plain.dice) == 9
    big = _nearest(searched_reading, (230.0, 250.0))
    assert np.hypot(big.centre[0] - _BIG_TOP[0], big.centre[1] - _BIG_TOP[1]) < 1.5
    assert np.linalg.norm(np.subtract(big.corners[1], big.corners[0])) == pytest.approx(42.0)
    np.testing.assert_allclose(big.found_corners, _BIG_BOX)
    # without the search the die sits at its box's centre, off its top
    assert _nearest(plain, (230.0, 250.0)).centre == pytest.approx((230.0, 250.0))
    assert _nearest(plain, (230.0, 250.0)).found_corners is None
    # the dice of the right size are where they were
    for top in _TOPS:
        assert _nearest(searched_reading, top).centre == pytest.approx(top)
        assert _nearest(searched_reading, top).found_corners is None
    # the trust judges the die by the box as found: still 1.5 times the others' size
    ratios = size_ratios(searched_reading.dice, None)
    assert max(ratios) == pytest.approx(1.5, abs=0.01)


def test_a_reading_moved_into_a_crops_pixels_moves_the_box_as_found_too():
    reading = _read(1.1)
    big = _nearest(reading, (230.0, 250.0))
    moved = _nearest(reading.within((100, 100, 400, 320)), (130.0, 150.0))
    np.testing.assert_allclose(moved.found_corners, np.asarray(big.found_corners) - 100)
    np.testing.assert_allclose(moved.corners, np.asarray(big.corners) - 100)


def test_a_die_whose_mark_lies_at_its_box_centre_stays_there():
    """A mark at the oversized box's centre: whichever quad reads it best is centred on
    it, so the die stays where its box is."""
    frame = _frame()
    frame[235:247, 216:228] = 0
    frame[245:255, 225:235] = 255
    big = _nearest(_reader(search=TopSearchSettings(above=1.1)).read(frame), (230.0, 250.0))
    assert big.centre == pytest.approx((230.0, 250.0), abs=0.5)


@pytest.mark.parametrize("read_there", [False, True])
def test_the_die_is_read_from_its_box_as_found_unless_read_there(read_there):
    """Placed at its top either way; its crop is the box's as found unless `read_there`,
    and the web's taught crops (`cut_crops`) cut what the reader read."""
    from web.crop_images import cut_crops

    reader = _reader(search=TopSearchSettings(above=1.1, read_there=read_there))
    frame = _frame()
    readout = reader.readout(frame)
    big = len(_TOPS)  # the finder's last box
    top = readout.top(big)
    assert np.hypot(*(top.mean(axis=0) - _BIG_TOP)) < 1.5
    expected = reader.crop(frame, top if read_there else _BIG_BOX)
    assert np.array_equal(readout.crops[big], expected)
    if not read_there:  # the web's crops follow the shipped setting (read from the box)
        reading = reader.read(frame)
        index = reading.dice.index(_nearest(reading, _BIG_TOP))
        assert np.array_equal(cut_crops(reading, frame)[index], expected)


class _TwoBigFinder:
    """Twelve dice 40 px across and two far apart boxed with their sides, their tops in
    opposite corners of their boxes."""

    small = tuple((50.0 + 100 * (k % 4), 40.0 + 70 * (k // 4)) for k in range(12))
    big = (_box((90.0, 270.0), 60.0), _box((310.0, 270.0), 60.0))
    tops = ((81.0, 261.0), (319.0, 279.0))

    def locate(self, frame: np.ndarray, tray=None) -> Located:
        boxes = tuple(_box(c, 40.0) for c in self.small) + self.big
        return Located(boxes=boxes, die_side=40.0, scores=(1.0,) * len(boxes),
                       frame_width=frame.shape[1])


@pytest.mark.parametrize("read_there", [False, True])
def test_each_of_several_boxed_dice_is_placed_at_its_own_top(read_there):
    frame = np.zeros((320, 400, 3), np.uint8)
    for x, y in [*_TwoBigFinder.small, *_TwoBigFinder.tops]:
        frame[int(y) - 5:int(y) + 5, int(x) - 5:int(x) + 5] = 255
    reader = _reader(_TwoBigFinder(), TopSearchSettings(above=1.1, read_there=read_there))
    readout = reader.readout(frame)
    for index, (box, top) in enumerate(zip(_TwoBigFinder.big, _TwoBigFinder.tops,
                                           strict=True), start=12):
        quad = readout.top(index)
        assert np.hypot(*(quad.mean(axis=0) - top)) < 1.5
        expected = reader.crop(frame, quad if read_there else box)
        assert np.array_equal(readout.crops[index], expected)

"""A frame whose first reading is not a whole roll read sure, looked at once more with
the locator at its dice's size (`DiceReader.read`, `ReaderSettings.second_look`)."""

from __future__ import annotations

import numpy as np
import pytest
from fakes import mark_offsets

from scorer.dice import Die
from vision.read.classifier import FacePredictions
from vision.read.looks import better_reading, for_photos
from vision.read.pipeline import DiceReader
from vision.read.settings import (
    ColourSettings,
    KeptLook,
    ReaderSettings,
    SecondLookSettings,
)
from vision.read.tops import Located
from vision.reading import ReadDie, Reading

#: Ten die tops 40 px across, a white mark at the middle of each.
_TOPS = [(60.0 + 80 * (k % 5), 60.0 + 90 * (k // 5)) for k in range(10)]


def _box(centre: tuple[float, float], side: float) -> np.ndarray:
    x, y = centre
    h = side / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]],
                    np.float32)


def _frame() -> np.ndarray:
    frame = np.zeros((240, 440, 3), np.uint8)
    for x, y in _TOPS:
        frame[int(y) - 5:int(y) + 5, int(x) - 5:int(x) + 5] = 255
    return frame


class _ReadsCentredMarks:
    """A stand-in classifier: a crop whose white mark lies at its middle is a 5 read for
    sure; the further off, the less sure."""

    sha256 = ""

    def predict(self, crops: np.ndarray) -> FacePredictions:
        value = np.full((len(crops), 11), 0.01)
        colour = np.tile([0.97, 0.01, 0.01, 0.01], (len(crops), 1))
        for i, off in enumerate(mark_offsets(crops)):
            if not np.isnan(off):
                value[i, 4] = 20.0 * max(1.0 - 2.5 * off, 0.0) + 0.02
        return FacePredictions(value / value.sum(axis=1, keepdims=True), colour,
                               np.ones(len(crops)))

    def predict_turns(self, crops: np.ndarray, turns: int = 1) -> FacePredictions:
        return self.predict(crops)


class _Finder:
    """Its own search boxes three dice off their marks; told a width, it boxes them all
    where they lie. Counts the widths it was told."""

    def __init__(self) -> None:
        self.told: list[int] = []

    def _located(self, frame: np.ndarray, off: int) -> Located:
        boxes = tuple(_box((x + (12.0 if k < off else 0.0), y), 40.0)
                      for k, (x, y) in enumerate(_TOPS))
        return Located(boxes=boxes, die_side=40.0, scores=(1.0,) * len(boxes),
                       frame_width=frame.shape[1])

    def locate(self, frame: np.ndarray, tray=None) -> Located:
        return self._located(frame, 3)

    def locate_at(self, frame: np.ndarray, tray, net_width: int) -> Located:
        self.told.append(net_width)
        return self._located(frame, 0)


LOOKING = SecondLookSettings(frames=True)


def _reader(finder: _Finder, look: SecondLookSettings = LOOKING) -> DiceReader:
    settings = ReaderSettings(colour=ColourSettings(frame_inks=False), use_inventory=False,
                              second_look=look)
    return DiceReader(_ReadsCentredMarks(), finder=finder, settings=settings,
                      calibration=None, face_probe=False)


def test_a_roll_not_read_sure_is_read_again_at_its_dice_size_and_the_better_kept():
    finder = _Finder()
    reading = _reader(finder).read(_frame())
    assert len(finder.told) == 1
    assert reading.is_complete()  # all ten sure at the second look
    np.testing.assert_allclose(sorted(die.centre for die in reading.dice), sorted(_TOPS),
                               atol=0.5)


def test_without_the_second_look_the_first_reading_stands():
    assert not SecondLookSettings().frames  # off as shipped
    finder = _Finder()
    reading = _reader(finder, SecondLookSettings(frames=False)).read(_frame())
    assert finder.told == []
    assert not reading.is_complete()
    assert sum(die.unsure for die in reading.dice) == 3


def test_a_whole_roll_read_sure_takes_no_second_look():
    class SureFinder(_Finder):
        def locate(self, frame: np.ndarray, tray=None) -> Located:
            return self._located(frame, 0)

    finder = SureFinder()
    assert _reader(finder).read(_frame()).is_complete()
    assert finder.told == []


def test_a_photo_reader_takes_no_second_look_of_its_own_frames():
    reader = _reader(_Finder())
    once = for_photos(reader)
    assert once is not reader and not once.settings.second_look.frames
    assert once.classifier is reader.classifier and reader.settings.second_look.frames
    assert for_photos(once) is once


def test_the_better_reading_finds_more_dice_then_doubts_fewer():
    finder = _Finder()
    first = _reader(finder, SecondLookSettings(frames=False)).read(_frame())
    second = _reader(finder).read(_frame())
    assert better_reading(second, first) and not better_reading(first, second)


def _read(count: int, unsure: int) -> Reading:
    """`count` dice read 5 red, the first `unsure` of them marked."""
    dice = tuple(ReadDie(Die.from_text("5R"), 0.9, (x, y), tuple(map(tuple, _box((x, y), 40))),
                         index < unsure) for index, (x, y) in enumerate(_TOPS[:count]))
    return Reading(dice, (440, 240))


@pytest.mark.parametrize(("later", "first", "surer", "more_dice"), [
    ((10, 0), (10, 2), True, False),  # as many dice, fewer marked: only the surer takes it
    ((10, 0), (10, 0), True, False),  # the same: the surer takes the later, else the first
    ((10, 3), (9, 0), True, True),  # more dice found: both take it, however marked
    ((9, 0), (10, 3), False, False),  # fewer dice found: neither
])
def test_which_reading_each_kept_look_keeps(later, first, surer, more_dice):
    """`KeptLook.MORE_DICE` keeps the later reading only for the dice it adds, so which
    reading is kept never rests on how sure either is."""
    assert better_reading(_read(*later), _read(*first), KeptLook.SURER) is surer
    assert better_reading(_read(*later), _read(*first), KeptLook.MORE_DICE) is more_dice


def test_out_of_range_settings_are_refused():
    with pytest.raises(ValueError, match="finer_look"):
        SecondLookSettings(finer_look=0.5)
    with pytest.raises(ValueError, match="first_look_range"):
        SecondLookSettings(first_look_range=(30.0, 20.0))

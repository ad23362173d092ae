"""A second look with the locator at the dice's own size, for a frame or a photo whose
first reading is not a whole roll read sure.

The locator's own search keeps its first look whenever its dice fit there and it is sure
of them, which falls short at either end (small dice missed, large ones split) and leaves
some dice boxed over their sides. The die size measured on the first reading settles the
width of one more look (`OneLook`, through the locator's own `locate_at`), and the
reading kept is the better of the two (`better_reading`). The photos
(`vision.read.photo`) take it; the camera's frames can (`DiceReader.read`,
`ReaderSettings.second_look`), but do not as shipped: how that was measured is in
models/MODEL_CARD.md ("A second look at the dice's size for the camera's frames").
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

import numpy as np

from scorer.dice import FULL_ROLL
from vision.read.settings import KeptLook, ReaderSettings, SecondLookSettings
from vision.read.tops import TRAINED_DIE_PX, Located, TopFinder
from vision.read.tops_input import NET_GRID, NET_WIDTH
from vision.reading import Reading

R = TypeVar("R")


@runtime_checkable
class LookingReader(Protocol):
    """What can look again: a `vision.read.pipeline.DiceReader` (named by what it does, so
    that this module, which the pipeline uses, does not import it back)."""

    settings: ReaderSettings
    finder: Any
    tray: np.ndarray | None
    calibration: Any  # a vision.read.trust.Calibration, or None
    photo_calibration: Any

    def sharing(self, *, tray: np.ndarray | None = None,
                finder: Any = None) -> LookingReader: ...

    def read(self, frame: np.ndarray) -> Reading: ...


@dataclass(frozen=True)
class OneLook:
    """A frame locator that looks once, at one network input width, through the camera
    locator's own `locate_at`."""

    finder: Any  # a TopFinder (or what stands in for one)
    net_width: int

    def locate(self, frame: np.ndarray, tray: np.ndarray | None = None) -> Located:
        finder: TopFinder = self.finder
        return finder.locate_at(frame, tray, self.net_width)


def reader_at_die_size(reader: object, width: int, side: float, complete: bool,
                       settings: SecondLookSettings = SecondLookSettings()
                       ) -> LookingReader | None:
    """A reader sharing `reader`'s networks whose locator looks once, at the input width
    that shows dice of `side` pixels (in an image `width` wide) at the trained size, and
    looks no further itself; None when the reader's own first look already did and read
    ten dice sure (`complete`), or `reader` is not a `LookingReader` (a DiceReader).

    A look that missed small dice measures the ones it found too large (boxes grown over
    their sides), so small dice are looked at at least `settings.finer_look` finer than
    the first look, and so is a reading that seems the right size but is not ten dice
    read sure. None too when `reader`'s locator cannot be told a width (no `locate_at`)."""
    if side <= 0 or not isinstance(reader, LookingReader):
        return None
    if not hasattr(reader.finder, "locate_at"):
        return None  # a locator that cannot be told the width to look at
    at_first_look = side * NET_WIDTH / width
    finer = int(round(NET_WIDTH * settings.finer_look / NET_GRID)) * NET_GRID
    low_fit, high_fit = settings.first_look_range
    if low_fit <= at_first_look <= high_fit:
        if complete:
            return None
        wanted = finer
    else:
        wanted = int(round(width * TRAINED_DIE_PX / side / NET_GRID)) * NET_GRID
        if at_first_look < low_fit:  # small dice: measured too large, if anything
            wanted = max(wanted, finer)
    low, high = reader.settings.locate.net_width_range
    wanted = int(min(max(wanted, low), high))
    return _without_frame_look(
        reader.sharing(tray=reader.tray, finder=OneLook(reader.finder, wanted)))


def for_photos(reader: R) -> R:
    """`reader` itself, or where it is a DiceReader a copy of it sharing its networks
    that takes no second look of its own frames (a photo takes its looks as
    `vision.read.photo` decides) and marks its dice by the photos' calibration where one
    is fitted (`photo_calibration`): a photo keeps the surer of its readings
    (`better_reading`), which the frames' calibration, fitted on frames read once, may take
    for surer than it is."""
    if not isinstance(reader, LookingReader):
        return reader
    looks = reader.settings.second_look.frames
    if not looks and reader.photo_calibration is reader.calibration:
        return reader
    copy = reader.sharing(tray=reader.tray)
    copy.calibration = reader.photo_calibration
    return cast(R, _without_frame_look(copy) if looks else copy)


def _without_frame_look(copy: LookingReader) -> LookingReader:
    """`copy` (a reader of its own, from `sharing`) set to take no second look of its own
    frames."""
    copy.settings = replace(copy.settings, second_look=replace(
        copy.settings.second_look, frames=False))
    return copy


def better_reading(candidate: Reading, current: Reading,
                   keeps: KeptLook = KeptLook.SURER) -> bool:
    """Whether the reading `candidate` (at the trained scale) is to be kept over `current`:
    a roll (at most ten dice) over none, then more dice found (when both found more than
    ten, the one with fewer), then, where `keeps` is `KeptLook.SURER`, fewer unsure; a
    tie goes to `candidate` when kept the surer, to `current` when kept for more dice."""

    def found_rank(reading: Reading) -> tuple[int, int]:
        found = reading.found_count()
        fits = found <= FULL_ROLL
        return int(fits), found if fits else -found

    if keeps is KeptLook.MORE_DICE:
        return found_rank(candidate) > found_rank(current)

    def rank(reading: Reading) -> tuple[int, int, int]:
        return (*found_rank(reading),
                -(reading.unsure_count() + len(reading.unreadable)))

    return rank(candidate) >= rank(current)

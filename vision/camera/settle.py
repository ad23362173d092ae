"""Settle detection: turn a stream of frames into one event per roll, once the dice rest.

Motion is measured cheaply by differencing downscaled grey frames; only frames at
rest are read (the expensive part). A roll event fires when the table has been
still for a few frames, the reading has held steady for a few readings, no hand
is in the frame, and something moved since the last settled state. Dice that
were already lying there when watching began, or a hand that passes over the
dice without moving them, never produce an event. A reading flagged for a hand
still lists its dice (`latest_reading` shows them), but the watcher waits for the
hand to go before it settles. How still is still, and how steady is steady, is a
`SettleSettings`, the shipped ones by default.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from scorer import ROLLS_PER_TURN
from vision.camera.camera_contract import RollEvent
from vision.reading import Reading, ReadingFlag

logger = logging.getLogger(__name__)



@dataclass(frozen=True)
class SettleSettings:
    """When the table is still and the reading steady enough for a roll to settle."""

    motion_width: int = 160
    """Motion is measured on a grey copy this wide: a die rolling moves many of its
    pixels, and a small copy is cheap to difference every frame."""
    motion_level: int = 16
    """A pixel of that copy changed when its grey level moved more than this (sensor
    noise and flicker move less)."""
    motion_fraction: float = 0.0015
    """A frame moved when more than this share of the copy's pixels changed."""
    still_frames: int = 2
    """Still frames in a row before a frame is read."""
    stable_readings: int = 3
    """Equal readings in a row (same dice, places and faces) that settle a roll."""
    patience: int = 8
    """Readings with the dice in place but a face flickering after which the latest
    settles anyway (its doubtful dice are marked unsure)."""
    drift: float = 0.02
    """A die's centre may drift this share of the frame's diagonal between two readings
    and still be in the same place."""


class Reader(Protocol):
    """Anything that reads a frame into a Reading (the DiceReader, or a test double)."""

    def read(self, frame: np.ndarray) -> Reading: ...


def motion_image(frame: np.ndarray, width: int = SettleSettings().motion_width) -> np.ndarray:
    """A small blurred grey copy of the frame, `width` wide, the unit that motion is
    measured on."""
    height, frame_width = frame.shape[:2]
    small_height = max(1, round(height * width / frame_width))
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (width, small_height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (5, 5), 0)


def same_layout(first: Reading, second: Reading, *, tolerance: float = 0.02) -> bool:
    """Whether two readings show the same dice at the same places (faces ignored; dice
    found but unreadable count as dice).

    `tolerance` is a fraction of the frame's diagonal that a centre may drift.
    """
    if first.found_count() != second.found_count():
        return False
    width, height = first.frame_size
    limit = tolerance * float(np.hypot(width, height))
    remaining = list(second.centres())
    for centre in first.centres():
        if not remaining:
            return False
        distances = [np.hypot(centre[0] - x, centre[1] - y) for x, y in remaining]
        nearest = int(np.argmin(distances))
        if distances[nearest] > limit:
            return False
        remaining.pop(nearest)
    return True


def same_reading(first: Reading, second: Reading, *, tolerance: float = 0.02) -> bool:
    """Same dice at the same places showing the same faces."""
    faces = sorted(str(read.die) for read in first.dice)
    return faces == sorted(str(read.die) for read in second.dice) and same_layout(
        first, second, tolerance=tolerance
    )


class SettleWatcher:
    """Feed it frames; it returns a RollEvent when a roll has come to rest, else None."""

    def __init__(self, reader: Reader, settings: SettleSettings = SettleSettings()) -> None:
        """`settings`: when the table is still and the reading steady (`SettleSettings`)."""
        self.reader = reader
        self.settings = settings
        self.latest_reading: Reading | None = None
        self.moving = False
        self._previous: np.ndarray | None = None
        self._still = 0
        self._candidate: Reading | None = None
        self._equal = 0
        self._in_place = 0
        self._decided = False  # this rest period has been judged already
        self._moved = False  # motion seen since the last settled state
        self._settled: Reading | None = None
        self._rolls = 0

    @property
    def roll_count(self) -> int:
        """Rolls counted so far in this turn (0..3)."""
        return self._rolls

    def new_turn(self) -> None:
        """The next roll event is roll 1 of a new turn."""
        self._rolls = 0

    def is_moving(self, frame: np.ndarray) -> bool:
        """Difference this frame with the previous one (and remember it)."""
        settings = self.settings
        small = motion_image(frame, settings.motion_width)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return previous is not None
        changed = cv2.absdiff(small, previous) > settings.motion_level
        return float(np.count_nonzero(changed)) > settings.motion_fraction * changed.size

    def feed(self, frame: np.ndarray) -> RollEvent | None:
        """Take the next frame; a RollEvent when this frame completes a settled roll."""
        if not isinstance(frame, np.ndarray) or frame.ndim not in (2, 3) or frame.size == 0:
            logger.debug("ignoring a frame that is not an image")
            return None
        self.moving = self.is_moving(frame)
        if self.moving:
            self._on_motion()
            return None
        self._still += 1
        if self._decided or self._still < self.settings.still_frames:
            return None
        reading = self.reader.read(frame)
        self.latest_reading = reading
        if reading.has_flag(ReadingFlag.HAND):
            self._candidate, self._equal, self._in_place = None, 0, 0
            return None
        if not self._is_settled(reading):
            return None
        return self._settle(reading)

    def _on_motion(self) -> None:
        self._still = 0
        self._moved = True
        self._decided = False
        self._candidate, self._equal, self._in_place = None, 0, 0

    def _is_settled(self, reading: Reading) -> bool:
        settings = self.settings
        candidate, self._candidate = self._candidate, reading
        if candidate is not None and same_layout(candidate, reading, tolerance=settings.drift):
            self._in_place += 1
            same = same_reading(candidate, reading, tolerance=settings.drift)
            self._equal = self._equal + 1 if same else 1
        else:
            self._in_place, self._equal = 1, 1
        return self._equal >= settings.stable_readings or self._in_place >= settings.patience

    def _settle(self, reading: Reading) -> RollEvent | None:
        self._decided = True
        previous, self._settled = self._settled, reading
        moved, self._moved = self._moved, False
        if not moved:
            logger.debug("dice at rest since watching began: taken as the starting table")
            return None
        if not reading.found_count():
            return None
        if previous is not None and same_reading(previous, reading, tolerance=self.settings.drift):
            logger.debug("the table moved but the dice did not: no new roll")
            return None
        self._rolls = self._rolls % ROLLS_PER_TURN + 1
        logger.info("roll %d settled: %s", self._rolls, reading.notation())
        return RollEvent(reading, self._rolls)

"""What the camera saw on the table: the `Reading` handed from vision to the scorer and web.

A reading is a frozen value with one `ReadDie` per die read: its face, how sure
the pipeline is, where it lies in the frame, and the runner-up faces. Dice the
pipeline is unsure of stay in the reading, marked, so the web page can ask the
players instead of guessing. A die that was found but whose face could not be
read at all (a pip die, a face under glare) is an `UnreadableDie`: it has a place
but no face, it is listed all the same, and it makes the reading incomplete
(`ReadingFlag.UNREADABLE`), never silently dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, TypeVar

from scorer.dice import FULL_ROLL, Die, InvalidRollError, Roll


class ReadingFlag(StrEnum):
    """One word per condition of a reading the players should know about; its value is
    the word the JSON carries (the API, the stored roll, `phase10 read --json`)."""

    NOT_EXPLAINED = "not-explained-by-inventory"
    HAND = "hand-in-frame"
    TOO_MANY = "too-many-dice"
    BAD_COMPOSITION = "too-many-high-or-low"
    BAD_FRAME = "unreadable-frame"
    UNREADABLE = "unreadable-dice"  # some found dice could not be read
    SOFT_FOCUS = "out-of-focus"  # a soft picture: its dice were sharpened to be read


def _point(point: tuple[float, float]) -> list[float]:
    return [round(float(point[0]), 1), round(float(point[1]), 1)]


@dataclass(frozen=True)
class ReadDie:
    """One die as read: its face, the confidence in that face and where it lies (pixels)."""

    die: Die
    confidence: float
    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    unsure: bool
    alternatives: tuple[tuple[Die, float], ...] = ()
    face_prob: float = 1.0
    """The classifier's belief that the crop is a Phase 10 face at all."""
    network_prob: float = 1.0
    """The classifier's own probability of the face read, before the frame's inks, the
    profile and the dice table weighed in."""
    probability: float | None = None
    """The share of dice read like this one that are right (`vision.read.trust`); None where
    the reader has no calibration (then `confidence` is all there is)."""
    agreement: float = 1.0
    """The classifier's belief in the value read, averaged over its looks at the crop (a
    doubtful crop is looked at three ways, `TrustSettings.second_look_below`); 1.0 where
    the reader takes no second look."""
    locator_score: float = 1.0
    """The locator's confidence that the box is a die's top (`vision.read.tops.box_score`):
    a die leaning on the tray's wall, its side face boxed in place of its top, scores
    lower than a die lying flat however surely its face is read."""
    phase10_odds: float | None = None
    """The face probe's log-odds that the crop is a Phase 10 face rather than another
    numeral die's (`vision.read.face_probe`); None where the reader has no probe."""
    value_confidence: float | None = None
    """The decoder's posterior of the value read, whatever the colour; None: `confidence`."""
    value_probability: float | None = None
    """The share of dice read like this one whose value is right (`vision.read.trust`);
    None where the calibration has no value maps."""
    value_unsure: bool | None = None
    """The value is doubtful too: what a phase that does not count colour may need checked,
    as `unsure` is for phase 8 (the scorepad asks only where some face the die could show
    changes the score: `scorer.dice_to_check`). Judged by the calibration's value maps
    (`vision.read.trust.ValueTrust`) among the dice marked `unsure`: a die unsure of its
    colour alone keeps a sure value. None where the reader did not judge the value apart:
    then it is as doubtful as the face."""
    likely: tuple[Die, ...] | None = None
    """The other faces the die may truly show, most likely first (a 5 read where a 3 is
    likely too): where it is in doubt, the scorepad tries only these. None where the reader
    cannot tell which (a die marked for its box or its kind, or read as surely as dice
    read wrong): then it may show any face."""
    found_corners: tuple[tuple[float, float], ...] | None = None
    """The box as the locator found it, where the reader found the top inside a box larger
    than the dice have there (a die seen at a slant boxed with its sides,
    `vision.read.top_search`) and placed the die there (`corners`); None: `corners`. The
    trust judges a die's box by this one, so a die found so keeps its box's doubt."""

    @property
    def found_box(self) -> tuple[tuple[float, float], ...]:
        """The box as the locator found it (`found_corners`, else `corners`)."""
        return self.corners if self.found_corners is None else self.found_corners

    @property
    def value_doubtful(self) -> bool:
        """Whether the value must be checked: `unsure`, and `value_unsure` unless unjudged.
        Never a die whose face is sure: a value read wrong is a face read wrong, which
        the face's marks hold in check."""
        return self.unsure and (self.value_unsure is None or self.value_unsure)

    @property
    def right_probability(self) -> float:
        """The calibrated probability, or the posterior times the face belief without one."""
        if self.probability is not None:
            return self.probability
        return self.confidence * self.face_prob

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe summary: value (1..10 or "W"), colour letter, notation, centre,
        confidence (the decoder's posterior), probability (how often such a die is right)."""
        return {
            "value": "W" if self.die.is_wild() else self.die.value,
            "colour": self.die.colour,
            "notation": str(self.die),
            "centre": [round(float(self.centre[0]), 1), round(float(self.centre[1]), 1)],
            "confidence": round(float(self.confidence), 4),
            "probability": round(float(self.right_probability), 4),
            "unsure": bool(self.unsure),
            "value_probability": (None if self.value_probability is None
                                  else round(float(self.value_probability), 4)),
            "value_unsure": self.value_doubtful,
            "likely": (None if self.likely is None or not self.unsure
                       else [str(face) for face in self.likely]),
            "unreadable": False,
            "box": [_point(corner) for corner in self.corners],
        }


@dataclass(frozen=True)
class UnreadableDie:
    """A die the locator is sure of whose face the classifier cannot read: where it lies
    (pixels), the locator's confidence in it and the classifier's face probability."""

    centre: tuple[float, float]
    corners: tuple[tuple[float, float], ...]
    locator_score: float
    face_prob: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe summary in the shape of `ReadDie.to_dict`, with no face: value,
        colour and notation null, `unreadable` true."""
        return {
            "value": None,
            "colour": None,
            "notation": None,
            "centre": _point(self.centre),
            "confidence": 0.0,
            "probability": 0.0,
            "unsure": True,
            "value_probability": 0.0,
            "value_unsure": True,
            "likely": None,
            "unreadable": True,
            "box": [_point(corner) for corner in self.corners],
        }


_Found = TypeVar("_Found", "ReadDie", "UnreadableDie")
"""A die found in a frame, read or not: `Reading.placed` moves either kind alike."""


@dataclass(frozen=True)
class Reading:
    """The dice read from one frame, in a stable order (top to bottom, left to right).

    `dice` are the dice read (what a Roll is made of); `unreadable` the dice found
    whose face could not be read, in the same order among themselves.
    """

    dice: tuple[ReadDie, ...] = ()
    frame_size: tuple[int, int] = (0, 0)  # (width, height) in pixels
    flags: tuple[ReadingFlag, ...] = field(default=())
    unreadable: tuple[UnreadableDie, ...] = ()
    roll_probability: float | None = None
    """The probability that every die read is right (`vision.read.trust`), None where unknown."""
    value_probability: float | None = None
    """The probability that every die's value is read right, whatever the colours: what the
    score of a phase that does not count colour rests on; None where unknown."""

    @classmethod
    def empty(cls, frame_size: tuple[int, int] = (0, 0), *flags: ReadingFlag) -> Reading:
        """A reading with no dice (an empty tray, or a frame that could not be read)."""
        return cls((), frame_size, tuple(flags))

    def roll(self) -> Roll | None:
        """The dice as a scorer Roll, or None when no roll has this composition."""
        try:
            return Roll(tuple(read.die for read in self.dice))
        except InvalidRollError:
            return None

    def is_complete(self) -> bool:
        """All ten dice are on the table, read, and none of them is unsure."""
        return (
            len(self.dice) == FULL_ROLL
            and not self.unreadable
            and not any(read.unsure for read in self.dice)
        )

    def values_complete(self) -> bool:
        """All ten dice are on the table and read, and no die's value is doubtful: the
        score of a phase that does not count colour can be taken as read."""
        return (
            len(self.dice) == FULL_ROLL
            and not self.unreadable
            and not any(read.value_doubtful for read in self.dice)
        )

    def found_count(self) -> int:
        """Dice found, read or not."""
        return len(self.dice) + len(self.unreadable)

    def _found(self) -> tuple[ReadDie | UnreadableDie, ...]:
        """Every die found, read or not (read ones first)."""
        return (*self.dice, *self.unreadable)

    def centres(self) -> tuple[tuple[float, float], ...]:
        """Where every die found lies, read or not (read ones first)."""
        return tuple(die.centre for die in self._found())

    def unsure_count(self) -> int:
        return sum(read.unsure for read in self.dice)

    def unsure_indices(self) -> tuple[int, ...]:
        """The dice read (by index) marked for the players to check."""
        return tuple(i for i, read in enumerate(self.dice) if read.unsure)

    def value_unsure_indices(self) -> tuple[int, ...]:
        """The dice read (by index) whose value is doubtful: those to check where the phase
        does not count colour (`ReadDie.value_doubtful`)."""
        return tuple(i for i, read in enumerate(self.dice) if read.value_doubtful)

    def likely_faces(self) -> dict[int, tuple[Die, ...]]:
        """The other faces each die marked unsure may truly show, by index, where the
        reader can tell (`ReadDie.likely`); a marked die not listed may show any face."""
        return {i: read.likely for i, read in enumerate(self.dice)
                if read.unsure and read.likely is not None}

    def within(self, box: tuple[int, int, int, int]) -> Reading:
        """This reading in the pixels of the crop `box` (left, top, right, bottom) of its
        frame: every die moved with the crop, the frame the crop's size."""
        left, top, right, bottom = box
        return self.placed((-left, -top), 1.0, (right - left, bottom - top))

    def placed(self, offset: tuple[float, float], scale: float,
               frame_size: tuple[int, int]) -> Reading:
        """This reading with every point moved by `offset` and then scaled by `scale`, in
        a frame of `frame_size`: a reading of a crop or of a shrunk copy of a picture, in
        the picture's own pixels."""
        dx, dy = offset

        def moved(point: tuple[float, float]) -> tuple[float, float]:
            return (point[0] + dx) * scale, (point[1] + dy) * scale

        return self.mapped(moved, frame_size)

    def mapped(self, move: Callable[[tuple[float, float]], tuple[float, float]],
               frame_size: tuple[int, int]) -> Reading:
        """This reading with every point (centres and corners) taken through `move`, in a
        frame of `frame_size`: a reading of a warped copy of a picture, in the picture's
        own pixels."""

        def place(die: _Found) -> _Found:
            return replace(die, centre=move(die.centre),
                           corners=tuple(move(corner) for corner in die.corners))

        def place_read(die: ReadDie) -> ReadDie:
            placed = place(die)
            if die.found_corners is None:
                return placed
            return replace(placed, found_corners=tuple(move(c) for c in die.found_corners))

        return replace(self, dice=tuple(place_read(die) for die in self.dice),
                       unreadable=tuple(place(die) for die in self.unreadable),
                       frame_size=(int(frame_size[0]), int(frame_size[1])))

    def has_flag(self, flag: ReadingFlag) -> bool:
        return flag in self.flags

    def notation(self) -> str:
        """The dice in notation, unsure ones marked with a trailing '?', each unreadable
        die as '??' at the end."""
        read = [f"{die.die}{'?' if die.unsure else ''}" for die in self.dice]
        return " ".join(read + ["??"] * len(self.unreadable))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form for the API and `phase10 read --json`: every die found, read or
        unreadable, in one list top to bottom, left to right."""
        found = sorted(self._found(), key=lambda d: (d.centre[1], d.centre[0]))
        return {
            "frame_size": [int(self.frame_size[0]), int(self.frame_size[1])],
            "flags": [str(flag) for flag in self.flags],
            "complete": self.is_complete(),
            "roll_probability": (None if self.roll_probability is None
                                 else round(float(self.roll_probability), 4)),
            "value_probability": (None if self.value_probability is None
                                  else round(float(self.value_probability), 4)),
            "dice": [die.to_dict() for die in found],
        }

    def __len__(self) -> int:
        return len(self.dice)

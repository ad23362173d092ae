"""The roll on the table: the dice a player may still score this turn, and where they came from.

It is kept in the store as a small JSON object (`to_dict`) beside the game's
event log, since it is no game event: typing, reading or fixing a die changes
it, only scoring or failing the turn ends it. `from_dict` reads every form the
scorepad has stored (older ones lack `id` and `unreadable`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from scorer import Die, Roll, dice_to_check
from vision.reading import ReadingFlag


class RollSource(StrEnum):
    """Who put the roll on the table (the page says so beside the dice)."""

    HAND = "hand"  # typed or tapped on a phone
    CAMERA = "camera"  # read by the table's camera (the demo table's too)
    PHOTO = "photo"  # read from a phone's photo


@dataclass(frozen=True)
class TableRoll:
    """The roll on the table: the dice read or typed, which roll of the turn, and its marks.

    `unreadable` counts dice the camera found but could not read: they come
    after `roll`'s dice, and the roll cannot be scored until each is fixed.
    `unsure` holds indices of dice the reader was not sure of (sorted, once
    each); `value_unsure` those of them whose value it was not sure of either, judged
    apart (None: not judged apart, all of them). A die unsure but of sure value is
    doubted for its colour alone (red against orange). A doubt needs no check where no
    face the die could truly show changes the phase's score (`to_check`); `likely` holds,
    for unsure dice where the camera could tell, the other faces each may show (index,
    faces), and only those are tried. `flags` are the reading's flags, what the players
    should know.
    """

    roll: Roll
    roll_number: int
    source: RollSource
    roll_id: int | None = None
    unsure: tuple[int, ...] = ()
    flags: tuple[ReadingFlag, ...] = ()
    unreadable: int = 0
    value_unsure: tuple[int, ...] | None = None
    likely: tuple[tuple[int, tuple[Die, ...]], ...] = ()

    @classmethod
    def new(cls, roll: Roll, *, roll_number: int, source: RollSource, roll_id: int | None,
            unsure: Sequence[int] = (), flags: Sequence[str] = (),
            unreadable: int = 0, value_unsure: Sequence[int] | None = None,
            likely: Mapping[int, Sequence[Die]] | None = None) -> TableRoll:
        """A roll put on the table; unsure indices (of faces and of values) are sorted and
        kept once each, flags read from their words (a stored roll's) or given as they are,
        likely faces kept for the unsure dice only."""
        marked = sorted(set(unsure))
        told = {} if likely is None else likely
        return cls(roll, roll_number, source, roll_id, tuple(marked),
                   tuple(ReadingFlag(flag) for flag in flags), int(unreadable),
                   None if value_unsure is None else tuple(sorted(set(value_unsure))),
                   tuple((i, tuple(told[i])) for i in marked if i in told))

    @property
    def value_doubts(self) -> tuple[int, ...]:
        """The unsure dice whose value is doubtful too (all of them, not judged apart)."""
        if self.value_unsure is None:
            return self.unsure
        doubtful = set(self.value_unsure)
        return tuple(i for i in self.unsure if i in doubtful)

    def to_check(self, phase: int | None) -> tuple[int, ...]:
        """The dice the players must check before scoring for `phase`
        (`scorer.dice_to_check`): the unsure dice whose true faces could change its score
        (a die doubted for its colour alone only where the phase counts colour: phase 8,
        "7 of all one colour"), and every unsure die where no phase is known."""
        values = set(self.value_doubts)
        return dice_to_check(self.roll, phase, value_doubts=sorted(values),
                             colour_doubts=[i for i in self.unsure if i not in values],
                             unread=self.unreadable, likely=dict(self.likely))

    def likely_faces(self, index: int) -> tuple[Die, ...] | None:
        """The other faces unsure die `index` may show, as the camera told them (None: any
        face)."""
        return dict(self.likely).get(index)

    def as_checked(self, phase: int | None) -> TableRoll:
        """This roll as the players scored it for `phase`: marked only where they were
        asked to check (`to_check`), so a die taken unchecked because no face it could
        show changes the score is no longer among the dice they vouched for."""
        return replace(self, unsure=self.to_check(phase), value_unsure=None)

    def unchecked(self, phase: int | None) -> tuple[int, ...]:
        """The unsure dice `phase` needs no check of: no face they could truly show
        changes its score."""
        checked = set(self.to_check(phase))
        return tuple(i for i in self.unsure if i not in checked)

    @property
    def dice_count(self) -> int:
        """All dice on the table: those read and those found but not read."""
        return len(self.roll.dice) + self.unreadable

    def scorable_roll(self) -> Roll | None:
        """The dice read, as the roll a score or fail defaults to (None: no dice read)."""
        return self.roll if self.roll.dice else None

    def with_die(self, index: int, die: Die) -> TableRoll:
        """This roll with die `index` set to `die`; it is no longer unsure.

        An index past the dice read is one the camera could not read: its face
        joins the roll. The caller checks `index` against `dice_count`, and gives
        the new roll its id (none yet: it is not on the table).
        """
        dice = list(self.roll.dice)
        unreadable = self.unreadable
        if index < len(dice):
            dice[index] = die
        else:
            dice.append(die)
            unreadable -= 1
        return replace(self, roll=Roll.from_dice(dice), roll_id=None,
                       unsure=tuple(i for i in self.unsure if i != index),
                       value_unsure=None if self.value_unsure is None
                       else tuple(i for i in self.value_unsure if i != index),
                       likely=tuple(item for item in self.likely if item[0] != index),
                       unreadable=unreadable)

    def to_dict(self) -> dict[str, Any]:
        """The stored form (`id`: the roll id; `unreadable` only when some dice are,
        `value_unsure` only when the values were judged apart, `likely` only when the
        camera told some unsure die's faces: index as text, the faces' notation)."""
        stored: dict[str, Any] = {
            "id": self.roll_id,
            "dice": [str(die) for die in self.roll.dice],
            "roll_number": self.roll_number,
            "source": self.source.value,
            "unsure": list(self.unsure),
            "flags": [str(flag) for flag in self.flags],
        }
        if self.unreadable:
            stored["unreadable"] = self.unreadable
        if self.value_unsure is not None:
            stored["value_unsure"] = list(self.value_unsure)
        if self.likely:
            stored["likely"] = {str(i): [str(face) for face in faces] for i, faces in self.likely}
        return stored

    @classmethod
    def from_dict(cls, stored: Mapping[str, Any]) -> TableRoll:
        """A stored roll, of this or an older form: what is missing takes its default."""
        return cls.new(
            Roll.from_text(" ".join(stored.get("dice", ()))),
            roll_number=int(stored.get("roll_number", 1)),
            source=RollSource(stored.get("source", RollSource.HAND.value)),
            roll_id=stored.get("id"),
            unsure=stored.get("unsure", ()),
            flags=stored.get("flags", ()),
            unreadable=int(stored.get("unreadable", 0)),
            value_unsure=stored.get("value_unsure"),
            likely={int(i): [Die.from_text(face) for face in faces]
                    for i, faces in stored.get("likely", {}).items()},
        )

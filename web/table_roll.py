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

from scorer import Die, Roll
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
    each); `colour_doubt` those of them whose value the reader was sure of, doubted
    for their colour alone (red against orange): a phase that does not count colour
    needs no check of them (`to_check`). `flags` are the reading's flags, what the
    players should know.
    """

    roll: Roll
    roll_number: int
    source: RollSource
    roll_id: int | None = None
    unsure: tuple[int, ...] = ()
    flags: tuple[ReadingFlag, ...] = ()
    unreadable: int = 0
    colour_doubt: tuple[int, ...] = ()

    @classmethod
    def new(cls, roll: Roll, *, roll_number: int, source: RollSource, roll_id: int | None,
            unsure: Sequence[int] = (), flags: Sequence[str] = (),
            unreadable: int = 0, colour_doubt: Sequence[int] = ()) -> TableRoll:
        """A roll put on the table; unsure indices are sorted and kept once each (and
        `colour_doubt` only among them), flags read from their words (a stored roll's) or
        given as they are."""
        marked = tuple(sorted(set(unsure)))
        return cls(roll, roll_number, source, roll_id, marked,
                   tuple(ReadingFlag(flag) for flag in flags), int(unreadable),
                   tuple(i for i in marked if i in set(colour_doubt)))

    def to_check(self, colour_counts: bool) -> tuple[int, ...]:
        """The unsure dice the players must check before scoring: all of them where
        `colour_counts` (phase 8, "7 of all one colour"), else only those whose value is
        doubtful too, since no other phase's score depends on a die's colour."""
        if colour_counts:
            return self.unsure
        return tuple(i for i in self.unsure if i not in self.colour_doubt)

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
                       colour_doubt=tuple(i for i in self.colour_doubt if i != index),
                       unreadable=unreadable)

    def to_dict(self) -> dict[str, Any]:
        """The stored form (`id`: the roll id; `unreadable` and `colour_doubt` only when some
        dice are)."""
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
        if self.colour_doubt:
            stored["colour_doubt"] = list(self.colour_doubt)
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
            colour_doubt=stored.get("colour_doubt", ()),
        )

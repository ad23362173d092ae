"""The dice a table plays with, as one value: the palette and the ten dice's faces.

A household's dice may differ from the printed table (`scorer.inventory`), so what
depends on the faces (matching a roll to the dice, the joint decoding of a reading,
the colour phase's odds, the layout check) takes a `DiceSet` instead of reading a
module constant; two sets can live in one process and be compared by value. Nothing
here reads the environment: `cli` builds the household's set and the scorepad holds it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from scorer.dice import Die, PhysicalDie, Roll, inventory_matching, physical_dice, unmatched_dice
from scorer.inventory import DEFAULT_LAYOUT, PALETTE

#: (name, letter, reference RGB) per colour, as `scorer.inventory.PALETTE`.
Palette = tuple[tuple[str, str, tuple[int, int, int]], ...]
#: (name, faces in dice notation separated by spaces) per die.
Layout = tuple[tuple[str, str], ...]


@dataclass(frozen=True, eq=False)
class DiceSet:
    """A palette and its physical dice; equal (and hashed) by what they show."""

    palette: Palette
    dice: tuple[PhysicalDie, ...]

    @classmethod
    def from_layout(cls, layout: Sequence[tuple[str, str]], palette: Palette = PALETTE
                    ) -> DiceSet:
        """The set whose dice a layout writes as (name, "faces") rows."""
        return cls(tuple(palette), physical_dice(layout))

    @cached_property
    def layout(self) -> Layout:
        """The dice as (name, faces) rows, as `scorer.layout_file` writes them."""
        return tuple((die.name, " ".join(str(face) for face in die.faces)) for die in self.dice)

    @cached_property
    def key(self) -> str:
        """A fingerprint of the palette and the faces (what the shipped odds name)."""
        return hashlib.sha256(repr((self.palette, self.layout)).encode()).hexdigest()

    @property
    def letters(self) -> tuple[str, ...]:
        """The colours' letters, in palette order."""
        return tuple(letter for _, letter, _ in self.palette)

    @cached_property
    def faces(self) -> tuple[Die, ...]:
        """Every face of every die, die by die."""
        return tuple(face for die in self.dice for face in die.faces)

    def by_name(self, name: str) -> PhysicalDie:
        """The die of that name; KeyError when the set has none."""
        return self._names[name]

    @cached_property
    def _names(self) -> dict[str, PhysicalDie]:
        return {die.name: die for die in self.dice}

    def carriers(self, face: Die) -> tuple[str, ...]:
        """The names of the dice carrying this face, in set order."""
        return tuple(die.name for die in self.dice if face in die.faces)

    def matching(self, roll: Roll) -> dict[int, str] | None:
        """Each die of the roll (by index) on a distinct die of this set showing it, or
        None when no such placement exists."""
        return inventory_matching(roll, self.dice)

    def impossible(self, roll: Roll) -> tuple[int, ...]:
        """The dice of the roll (indices) to check because these dice cannot show them
        together; () when they can (`scorer.dice.unmatched_dice`)."""
        return unmatched_dice(roll, self.dice)

    def explains(self, roll: Roll) -> bool:
        """Whether these dice can show this roll all at once."""
        return self.matching(roll) is not None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DiceSet) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)


#: The printed set (`scorer.inventory.DEFAULT_LAYOUT`): what a caller naming no set gets.
#: The household's own set is built from its layout file by `cli` and passed down.
PRINTED_DICE: DiceSet = DiceSet.from_layout(DEFAULT_LAYOUT)

"""Dice, rolls and the dice notation shared by every layer (`8R`, `10O`, `WG`).

A die is a value (1..10, or Wild) and a palette colour letter. A roll is the
dice on the table; a full roll is one face of each of the ten dice, so it shows
exactly six high dice (5..10) and four low dice (1..4 or Wild).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scorer.inventory import DEFAULT_LAYOUT, PALETTE

WILD: Final[int] = 0
"""The value a Wild face carries: it stands for no number of its own."""

HIGH_VALUES: Final[tuple[int, ...]] = (5, 6, 7, 8, 9, 10)
LOW_VALUES: Final[tuple[int, ...]] = (1, 2, 3, 4, WILD)
HIGH_DICE: Final[int] = 6
LOW_DICE: Final[int] = 4
FULL_ROLL: Final[int] = HIGH_DICE + LOW_DICE

COLOUR_LETTERS: Final[tuple[str, ...]] = tuple(letter for _, letter, _ in PALETTE)
COLOUR_NAMES: Final[Mapping[str, str]] = {letter: name for name, letter, _ in PALETTE}
COLOUR_RGB: Final[Mapping[str, tuple[int, int, int]]] = {
    letter: rgb for _, letter, rgb in PALETTE
}

_DIE_PATTERN = re.compile(r"^(10|[1-9]|W)([A-Z])$")


class InvalidDieError(ValueError):
    """A token of dice notation that is not a die."""

    def __init__(self, token: str) -> None:
        self.token = token
        letters = "/".join(COLOUR_LETTERS)
        super().__init__(f"{token!r} is not a die: expected 1-10 or W, then {letters}")


class InvalidRollError(ValueError):
    """Dice that cannot all be on the table at once (too many, or too many of a kind)."""


def value_text(value: int) -> str:
    """A face value as dice notation writes it: "1".."10", or "W" for a Wild."""
    return "W" if value == WILD else str(value)


@dataclass(frozen=True, order=True)
class Die:
    """One die's top face: a value (1..10, or WILD) and a palette colour letter."""

    value: int
    colour: str

    def __post_init__(self) -> None:
        if self.value not in HIGH_VALUES and self.value not in LOW_VALUES:
            raise InvalidDieError(f"{self.value}{self.colour}")
        if self.colour not in COLOUR_LETTERS:
            raise InvalidDieError(f"{self.value}{self.colour}")

    @classmethod
    def from_text(cls, token: str) -> Die:
        """Parse one die of notation, case-insensitively: `8r` -> Die(8, 'R')."""
        match = _DIE_PATTERN.match(token.strip().upper())
        if match is None or match.group(2) not in COLOUR_LETTERS:
            raise InvalidDieError(token)
        value_text, colour = match.groups()
        return cls(WILD if value_text == "W" else int(value_text), colour)

    def is_wild(self) -> bool:
        return self.value == WILD

    def is_high(self) -> bool:
        """A face of one of the six high dice (5..10)."""
        return self.value in HIGH_VALUES

    def is_low(self) -> bool:
        """A face of one of the four low dice (1..4 or Wild)."""
        return not self.is_high()

    @property
    def colour_name(self) -> str:
        return COLOUR_NAMES[self.colour]

    def __str__(self) -> str:
        return f"{value_text(self.value)}{self.colour}"


@dataclass(frozen=True)
class Roll:
    """The dice on the table, in the order they were read or typed.

    Any subset of the ten dice is a valid roll (dice set aside, a die off the
    tray); more than six high or four low dice is not.
    """

    dice: tuple[Die, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", tuple(self.dice))
        for die in self.dice:
            if not isinstance(die, Die):
                raise InvalidRollError(f"{die!r} is not a Die")
        high = sum(die.is_high() for die in self.dice)
        low = len(self.dice) - high
        if high > HIGH_DICE or low > LOW_DICE:
            raise InvalidRollError(
                f"{self}: {high} high dice (5-10) and {low} low dice (1-4/W); "
                f"the game has only {HIGH_DICE} high and {LOW_DICE} low dice"
            )

    @classmethod
    def from_text(cls, text: str) -> Roll:
        """Parse dice separated by spaces or commas: `8R 8B 8G 10O WR`."""
        tokens = [token for token in re.split(r"[\s,]+", text.strip()) if token]
        return cls(tuple(Die.from_text(token) for token in tokens))

    @classmethod
    def from_dice(cls, dice: Iterable[Die]) -> Roll:
        return cls(tuple(dice))

    def is_full(self) -> bool:
        """All ten dice: six high and four low."""
        return len(self.dice) == FULL_ROLL

    def require_full(self) -> Roll:
        """This roll, or an InvalidRollError when it is not all ten dice."""
        if not self.is_full():
            raise InvalidRollError(
                f"{self or 'an empty roll'!s}: a roll needs all {FULL_ROLL} dice "
                f"({HIGH_DICE} high, {LOW_DICE} low), got {len(self.dice)}"
            )
        return self

    def is_explained_by_inventory(self, dice: Sequence[PhysicalDie] | None = None) -> bool:
        """Whether some assignment of the shown faces to distinct physical dice (of `dice`,
        the printed table by default) exists.

        The face layout is unconfirmed, so callers only flag a roll that fails this.
        """
        return inventory_matching(self, PHYSICAL_DICE if dice is None else dice) is not None

    def __iter__(self) -> Iterator[Die]:
        return iter(self.dice)

    def __len__(self) -> int:
        return len(self.dice)

    def __bool__(self) -> bool:
        return bool(self.dice)

    def __str__(self) -> str:
        return " ".join(str(die) for die in self.dice)


def parse_roll(text: str) -> Roll:
    """Parse dice notation into a Roll (any number of dice up to the ten)."""
    return Roll.from_text(text)


@dataclass(frozen=True)
class PhysicalDie:
    """One of the ten dice in the box, with the six faces it carries."""

    name: str
    faces: tuple[Die, ...]

    def is_high(self) -> bool:
        return all(face.is_high() for face in self.faces)


def physical_dice(layout: Sequence[tuple[str, str]]) -> tuple[PhysicalDie, ...]:
    """The dice of a layout written as `scorer.inventory.DEFAULT_LAYOUT` is."""
    return tuple(PhysicalDie(name, tuple(Die.from_text(face) for face in faces.split()))
                 for name, faces in layout)


#: The printed table's dice (`scorer.dice_set.PRINTED_DICE` as a tuple).
PHYSICAL_DICE: Final[tuple[PhysicalDie, ...]] = physical_dice(DEFAULT_LAYOUT)


def _largest_matching(roll: Roll, dice: Sequence[PhysicalDie]
                      ) -> tuple[dict[str, int], list[int]]:
    """A largest matching of the roll's dice to distinct physical dice showing them, as
    (physical die name -> roll index), and the roll's indices it leaves without a die.
    Augmenting paths: at most ten dice, so this is instant."""
    owner: dict[str, int] = {}  # physical die name -> roll index

    def assign(index: int, seen: set[str]) -> bool:
        die = roll.dice[index]
        for physical in dice:
            if die in physical.faces and physical.name not in seen:
                seen.add(physical.name)
                if physical.name not in owner or assign(owner[physical.name], seen):
                    owner[physical.name] = index
                    return True
        return False

    unmatched = [index for index in range(len(roll.dice)) if not assign(index, set())]
    return owner, unmatched


def inventory_matching(
    roll: Roll, dice: Sequence[PhysicalDie] = PHYSICAL_DICE
) -> dict[int, str] | None:
    """Map each die of the roll (by index) to a distinct physical die (of `dice`, the
    printed table by default) showing that face; None when no such matching exists."""
    owner, unmatched = _largest_matching(roll, dice)
    if unmatched:
        return None
    return {index: name for name, index in owner.items()}


def matching_shortfall(roll: Roll, dice: Sequence[PhysicalDie] = PHYSICAL_DICE) -> int:
    """How many of the roll's dice a largest matching leaves without a physical die: 0 when
    the roll is possible. A changed face changes one die, which matches at most one more,
    so it tells how near a changed layout brings an impossible roll to being thrown."""
    return len(_largest_matching(roll, dice)[1])


def unmatched_dice(roll: Roll, dice: Sequence[PhysicalDie] = PHYSICAL_DICE) -> tuple[int, ...]:
    """The dice of a roll (indices) whose faces `dice` cannot show together: () when the
    roll is possible (`inventory_matching`).

    A largest matching leaves some faces without a die; these, and every face that
    competes with them for the same dice (reached by alternating paths), are the ones
    to check: with 5G twice (one die has 5G), both 5G; a face no die has, that face alone.
    """
    owner, unmatched = _largest_matching(roll, dice)
    carriers = [[p.name for p in dice if die in p.faces] for die in roll.dice]
    marked, frontier = set(unmatched), list(unmatched)
    while frontier:
        index = frontier.pop()
        for name in carriers[index]:
            other = owner.get(name)
            if other is not None and other not in marked:
                marked.add(other)
                frontier.append(other)
    return tuple(sorted(marked))

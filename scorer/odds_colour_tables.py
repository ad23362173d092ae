"""Exact chance tables for the colour phase, by dynamic programming over dice types.

For the chance of "7 of all one colour" only the colour each die shows matters,
and dice with the same number of faces of each colour are interchangeable. The
inventory's ten dice fall into a few such types (four for the default layout:
3, 2, 3 and 2 dice), so a state is one multiset of colours per type (40,000 full
states, 275,625 keeps for the default layout) and the set/run tables' method
applies with one side per type: expectations over a re-roll contract one side at
a time, the best sub-multiset is a closure over each side's lattice.

Only the chance is tabled; the colour phase's expected score comes from the
target-colour walk (scorer.odds_colour). A layout whose dice are all different
would make ~4^10 states: the build time grows with the number of types.
"""

from __future__ import annotations

import logging
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from math import prod
from typing import Final

from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.odds_tables import MAX_ROLLS_LEFT, Counts, Side

logger = logging.getLogger(__name__)

COLOUR_GROUP: Final[int] = 7


@dataclass(frozen=True)
class ColourTable:
    """Chances of the colour phase per dice type multisets, for one dice set."""

    type_faces: tuple[Counts, ...]  # per type: its faces of each colour (palette order)
    die_type: dict[str, int]  # physical die name -> type
    sides: tuple[Side, ...]
    keep_chance: tuple[array[float], ...]  # [k - 1]: keep then play on, flat over keeps
    best_chance: tuple[array[float], ...]  # [k - 1]: the best keep of a full state, flat over fulls
    turn_chance: float
    build_seconds: float

    def _flat(self, per_type: Sequence[Counts], full: bool) -> int:
        at = 0
        for side, counts in zip(self.sides, per_type, strict=True):
            index = side.index[tuple(counts)]
            if full:
                at = at * len(side.fulls) + side.full_index[index]
            else:
                at = at * len(side.keeps) + index
        return at

    def keep_value(self, rolls_left: int, per_type: Sequence[Counts]) -> float:
        """Chance of keeping these colours (per type) and re-rolling the rest, then
        playing optimally."""
        return self.keep_chance[rolls_left - 1][self._flat(per_type, full=False)]

    def best_value(self, rolls_left: int, per_type: Sequence[Counts]) -> float:
        """Chance of the best keep (any sub-multiset, or stopping) of a full state."""
        return self.best_chance[rolls_left - 1][self._flat(per_type, full=True)]


def _contract(values: list[float], dims: list[int], axis: int, side: Side) -> list[float]:
    """Expectation over a re-roll on one side: its full axis becomes its keep axis."""
    outer = prod(dims[:axis])
    inner = prod(dims[axis + 1 :])
    width = dims[axis]
    out: list[float] = []
    for o in range(outer):
        base = o * width * inner
        rows = [values[base + f * inner : base + (f + 1) * inner] for f in range(width)]
        for completions in side.completions:
            acc = [0.0] * inner
            for f, chance in completions:
                acc = [a + chance * v for a, v in zip(acc, rows[f], strict=True)]
            out.extend(acc)
    dims[axis] = len(side.keeps)
    return out


def _closure(values: list[float], dims: list[int], axis: int, side: Side) -> list[float]:
    """Best over sub-multisets on one side's keep axis (smaller keeps come first)."""
    outer = prod(dims[:axis])
    inner = prod(dims[axis + 1 :])
    width = dims[axis]
    out: list[float] = []
    for o in range(outer):
        base = o * width * inner
        rows = [values[base + k * inner : base + (k + 1) * inner] for k in range(width)]
        for k, smaller in enumerate(side.smaller):
            for sub in smaller:
                rows[k] = [a if a >= b else b for a, b in zip(rows[k], rows[sub], strict=True)]
        for row in rows:
            out.extend(row)
    return out


def _restrict(values: list[float], sides: Sequence[Side]) -> list[float]:
    """The full states of a table over keeps."""
    dims = [len(side.keeps) for side in sides]
    out = []
    for fulls in product(*(side.fulls for side in sides)):
        at = 0
        for dim, index in zip(dims, fulls, strict=True):
            at = at * dim + index
        out.append(values[at])
    return out


def _made(sides: Sequence[Side], colours: int) -> list[float]:
    """1 where a full state shows seven of one colour, flat over fulls."""
    out = []
    for fulls in product(*(side.fulls for side in sides)):
        totals = [0] * colours
        for side, index in zip(sides, fulls, strict=True):
            for c, count in enumerate(side.keeps[index]):
                totals[c] += count
        out.append(1.0 if max(totals) >= COLOUR_GROUP else 0.0)
    return out


def colour_layout(dice: DiceSet = PRINTED_DICE
                  ) -> tuple[list[Counts], dict[str, int], tuple[Side, ...]]:
    """The set's dice types (faces per colour), each die's type, and one side per type."""
    types: list[Counts] = []
    die_type: dict[str, int] = {}
    for die in dice.dice:
        faces = tuple(sum(face.colour == c for face in die.faces) for c in dice.letters)
        if faces not in types:
            types.append(faces)
        die_type[die.name] = types.index(faces)
    sizes = [sum(1 for t in die_type.values() if t == i) for i in range(len(types))]
    sides = tuple(
        Side.build(size, tuple(n / sum(faces) for n in faces))
        for size, faces in zip(sizes, types, strict=True)
    )
    return types, die_type, sides


def build_colour_table(dice: DiceSet = PRINTED_DICE) -> ColourTable:
    """Build the exact chance tables of the colour phase for `dice` (a few seconds)."""
    started = time.perf_counter()
    types, die_type, sides = colour_layout(dice)
    values = _made(sides, len(dice.letters))
    keep_chance, best_chance = [], []
    for _ in range(MAX_ROLLS_LEFT):
        dims = [len(side.fulls) for side in sides]
        for axis, side in enumerate(sides):
            values = _contract(values, dims, axis, side)
        keep_chance.append(array("d", values))
        for axis, side in enumerate(sides):
            values = _closure(values, dims, axis, side)
        values = _restrict(values, sides)
        best_chance.append(array("d", values))
    # The whole turn: roll all ten (each side's empty keep), then play on optimally.
    turn = 0.0
    for parts in product(*(side.completions[0] for side in sides)):
        at = 0
        for side, (f, _) in zip(sides, parts, strict=True):
            at = at * len(side.fulls) + f
        turn += prod(chance for _, chance in parts) * values[at]
    seconds = time.perf_counter() - started
    logger.debug("colour phase tables: %d types, built in %.2f s", len(types), seconds)
    return ColourTable(
        tuple(types),
        die_type,
        sides,
        tuple(keep_chance),
        tuple(best_chance),
        turn,
        seconds,
    )

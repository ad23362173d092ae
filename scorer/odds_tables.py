"""Exact value tables for the set/run phases: optimal keeping by dynamic programming.

For these phases only the numbers on the dice matter, and the six high dice are
identical (5..10), as are the four low dice (1, 2, 3, 4, W, W). A table state is
therefore a pair of multisets: the high dice kept (924 multisets of 0..6 dice)
and the low dice kept (126 multisets of 0..4 dice); the full rolls are the
462 x 70 pairs with all ten dice.

A value is the pair (chance of making the phase, expected score), compared
lexicographically: the chance first, then (within TOLERANCE) the expected score.
`keep_values[k]` holds, for every kept multiset, the value of keeping it and
re-rolling the rest with k rolls left (this roll included), playing optimally
afterwards. One level costs a few million float operations because the
expectation over a re-roll separates: sum over the low outcomes for each full
high multiset first, then over the high outcomes.
"""

from __future__ import annotations

import logging
import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Final

from scorer.dice import HIGH_DICE, HIGH_VALUES, LOW_DICE, LOW_VALUES
from scorer.phases import Phase
from scorer.rules import ROLLS_PER_TURN
from scorer.solver import best_score

logger = logging.getLogger(__name__)

TOLERANCE: Final[float] = 1e-12
"""Chances closer than this are equal; the expected score then decides."""

MAX_ROLLS_LEFT: Final[int] = ROLLS_PER_TURN - 1
"""After a turn's first roll, the re-rolls left."""

#: Chance of each face, in HIGH_VALUES / LOW_VALUES order (a low die shows W twice).
HIGH_FACE_CHANCES: Final[tuple[float, ...]] = tuple(1 / 6 for _ in HIGH_VALUES)
LOW_FACE_CHANCES: Final[tuple[float, ...]] = tuple(
    (2 if value == 0 else 1) / 6 for value in LOW_VALUES
)

Counts = tuple[int, ...]


def _multisets(kinds: int, size: int) -> list[Counts]:
    """Every multiset of `size` items over `kinds` kinds, as count tuples."""
    out = []
    for combo in combinations_with_replacement(range(kinds), size):
        counts = [0] * kinds
        for kind in combo:
            counts[kind] += 1
        out.append(tuple(counts))
    return out


def _multinomial_chance(counts: Counts, chances: Sequence[float]) -> float:
    """Chance that sum(counts) dice show exactly these counts of faces."""
    ways = factorial(sum(counts)) // prod(factorial(c) for c in counts)
    return ways * prod(p**c for p, c in zip(chances, counts, strict=True))


@dataclass(frozen=True)
class Side:
    """The multisets of one kind of dice (high or low) and how re-rolls complete them."""

    keeps: tuple[Counts, ...]  # every multiset of 0..n dice, smallest first
    index: dict[Counts, int]
    fulls: tuple[int, ...]  # keep index of each full multiset, in full order
    full_index: dict[int, int]  # keep index -> full order
    completions: tuple[tuple[tuple[int, float], ...], ...]  # keep -> ((full order, chance), ...)
    smaller: tuple[tuple[int, ...], ...]  # keep -> keeps with one die fewer

    @classmethod
    def build(cls, dice: int, chances: Sequence[float]) -> Side:
        kinds = len(chances)
        keeps = tuple(m for size in range(dice + 1) for m in _multisets(kinds, size))
        index = {m: i for i, m in enumerate(keeps)}
        fulls = tuple(i for i, m in enumerate(keeps) if sum(m) == dice)
        full_index = {k: f for f, k in enumerate(fulls)}
        completions = []
        for kept in keeps:
            rows = []
            for outcome in _multisets(kinds, dice - sum(kept)):
                whole = tuple(a + b for a, b in zip(kept, outcome, strict=True))
                rows.append((full_index[index[whole]], _multinomial_chance(outcome, chances)))
            completions.append(tuple(rows))
        smaller = tuple(
            tuple(
                index[kept[:kind] + (kept[kind] - 1,) + kept[kind + 1 :]]
                for kind in range(kinds)
                if kept[kind]
            )
            for kept in keeps
        )
        return cls(keeps, index, fulls, full_index, tuple(completions), smaller)


@lru_cache(maxsize=1)
def sides() -> tuple[Side, Side]:
    """The high side (6 dice over 5..10) and the low side (4 dice over 1..4, W)."""
    return Side.build(HIGH_DICE, HIGH_FACE_CHANCES), Side.build(LOW_DICE, LOW_FACE_CHANCES)


def counts_of(high: Counts, low: Counts) -> tuple[list[int], int]:
    """Number counts (index 1..10) and Wilds of a high and a low multiset."""
    counts = [0] * 11
    for value, count in zip(HIGH_VALUES, high, strict=True):
        counts[value] += count
    for value, count in zip(LOW_VALUES, low, strict=True):
        if value:
            counts[value] += count
    return counts, low[LOW_VALUES.index(0)]


# A table of values: (chances, expected scores), each a list of rows.
_Grid = tuple[list[list[float]], list[list[float]]]


def _final_values(phase: Phase, high: Side, low: Side) -> _Grid:
    """Value of each full roll with no roll left, as rows [low full][high full]."""
    chance = [[0.0] * len(high.fulls) for _ in low.fulls]
    score = [[0.0] * len(high.fulls) for _ in low.fulls]
    for lf, lk in enumerate(low.fulls):
        for hf, hk in enumerate(high.fulls):
            counts, wilds = counts_of(high.keeps[hk], low.keeps[lk])
            best = best_score(counts, wilds, phase)
            if best is not None:
                chance[lf][hf] = 1.0
                score[lf][hf] = float(best)
    return chance, score


def _expect(values: list[list[float]], high: Side, low: Side) -> list[list[float]]:
    """Expected value of each kept multiset after re-rolling the rest: rows [high keep][low keep].

    `values` holds the full rolls as rows [low full][high full].
    """
    width = len(high.fulls)
    per_low_keep = []  # [low keep][high full]
    for rows in low.completions:
        acc = [0.0] * width
        for lf, chance in rows:
            row = values[lf]
            acc = [a + chance * v for a, v in zip(acc, row, strict=True)]
        per_low_keep.append(acc)
    # Transposed: [high full][low keep].
    by_high_full = [list(column) for column in zip(*per_low_keep, strict=True)]
    width = len(low.keeps)
    out = []
    for rows in high.completions:
        acc = [0.0] * width
        for hf, chance in rows:
            row = by_high_full[hf]
            acc = [a + chance * v for a, v in zip(acc, row, strict=True)]
        out.append(acc)
    return out


def _row_max(
    p: list[float], e: list[float], q: list[float], f: list[float]
) -> tuple[list[float], list[float]]:
    """Element-wise lexicographic maximum of two rows of values.

    (b, y) beats (a, x) with a higher chance, or an equal chance (within
    TOLERANCE) and a higher score; written inline, as this runs a million times.
    """
    pick = [
        b > a + TOLERANCE or (b > a - TOLERANCE and y > x)
        for a, x, b, y in zip(p, e, q, f, strict=True)
    ]
    if not any(pick):
        return p, e
    return (
        [b if t else a for a, b, t in zip(p, q, pick, strict=True)],
        [y if t else x for x, y, t in zip(e, f, pick, strict=True)],
    )


def _best_subset_values(
    chance: list[list[float]], score: list[list[float]], high: Side, low: Side
) -> _Grid:
    """Value of each full roll when the best sub-multiset is kept: rows [low full][high full].

    The maximum over all sub-multisets is a closure over the lattice: first over
    the high side (each row one high keep), then over the low side.
    """
    p, e = [row[:] for row in chance], [row[:] for row in score]
    for hk, smaller in enumerate(high.smaller):  # smaller keeps come first
        for sub in smaller:
            p[hk], e[hk] = _row_max(p[hk], e[hk], p[sub], e[sub])
    p_t = [list(column) for column in zip(*p, strict=True)]  # [low keep][high keep]
    e_t = [list(column) for column in zip(*e, strict=True)]
    for lk, smaller in enumerate(low.smaller):
        for sub in smaller:
            p_t[lk], e_t[lk] = _row_max(p_t[lk], e_t[lk], p_t[sub], e_t[sub])
    return (
        [[p_t[lk][hk] for hk in high.fulls] for lk in low.fulls],
        [[e_t[lk][hk] for hk in high.fulls] for lk in low.fulls],
    )


@dataclass(frozen=True)
class OddsTable:
    """The values of one set/run phase: per rolls left, per kept multiset."""

    phase: Phase
    keep_chance: tuple[array[float], ...]  # [k - 1]: flat [high keep * n_low_keeps + low keep]
    keep_score: tuple[array[float], ...]
    turn_chance: float  # one full turn from the first roll, optimal keeping
    turn_score: float
    build_seconds: float

    def keep_value(self, rolls_left: int, high: Counts, low: Counts) -> tuple[float, float]:
        """(chance, expected score) of keeping these multisets and re-rolling the rest."""
        high_side, low_side = sides()
        at = high_side.index[high] * len(low_side.keeps) + low_side.index[low]
        return self.keep_chance[rolls_left - 1][at], self.keep_score[rolls_left - 1][at]


def build_odds_table(phase: Phase) -> OddsTable:
    """Build the exact value tables of a set/run phase (about a second)."""
    started = time.perf_counter()
    high, low = sides()
    chance, score = _final_values(phase, high, low)
    keep_chance, keep_score = [], []
    for _ in range(MAX_ROLLS_LEFT):
        kept_p, kept_e = _expect(chance, high, low), _expect(score, high, low)
        keep_chance.append(array("d", (v for row in kept_p for v in row)))
        keep_score.append(array("d", (v for row in kept_e for v in row)))
        chance, score = _best_subset_values(kept_p, kept_e, high, low)
    # The whole turn: roll all ten (the empty keep's completions), then play on optimally.
    turn_chance = turn_score = 0.0
    for lf, low_chance in low.completions[0]:
        for hf, high_chance in high.completions[0]:
            turn_chance += low_chance * high_chance * chance[lf][hf]
            turn_score += low_chance * high_chance * score[lf][hf]
    seconds = time.perf_counter() - started
    logger.debug("odds table for %s built in %.2f s", phase, seconds)
    return OddsTable(
        phase,
        tuple(keep_chance),
        tuple(keep_score),
        turn_chance,
        turn_score,
        seconds,
    )

"""Whether value counts make a set/run phase, and for how much: the advisor's own check.

The odds tables judge every distinct full roll (32,340 of them) once per phase,
so they need a check over counts of numbers, not over concrete dice. A grouping
is fixed by its targets (each set's number, each run's lowest number); every
demanded slot takes a natural die while one is left and a Wild otherwise, which
is optimal for those targets because a natural die scores its value and a Wild
scores 0. Trying every target tuple gives the best score.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache
from typing import Final

from scorer.phases import GroupKind, GroupSpec, Phase

logger = logging.getLogger(__name__)

NUMBERS: Final[range] = range(1, 11)

#: An option for one group: the numbers it demands (a number repeats for a set).
_Option = tuple[int, ...]


def _options(spec: GroupSpec) -> tuple[_Option, ...]:
    """Every target of a set or run group, as the numbers it demands."""
    if spec.kind is GroupKind.SET:
        return tuple((number,) * spec.size for number in NUMBERS)
    if spec.kind is GroupKind.RUN:
        return tuple(
            tuple(range(low, low + spec.size)) for low in range(1, NUMBERS.stop - spec.size + 1)
        )
    raise ValueError(f"{spec}: the multiset check judges only sets and runs")


@cache
def _phase_options(phase: Phase) -> tuple[tuple[_Option, ...], ...]:
    return tuple(_options(spec) for spec in phase.groups)


def best_score(counts: Sequence[int], wilds: int, phase: Phase) -> int | None:
    """The best score of a set/run phase, or None when the dice do not make it.

    `counts[v]` is the number of natural dice showing v (index 0 is ignored),
    `wilds` the number of Wilds.
    """
    left = list(counts)
    if len(left) < NUMBERS.stop:
        raise ValueError(f"counts needs an entry for each number 1-10, got {len(left)}")
    return _best(left, wilds, _phase_options(phase), 0)


def _best(
    left: list[int], wilds: int, options: tuple[tuple[_Option, ...], ...], at: int
) -> int | None:
    if at == len(options):
        return 0
    best: int | None = None
    all_wild_tried = False  # groups of Wilds only are all alike: try one
    for option in options[at]:
        taken: list[int] = []
        for number in option:
            if left[number]:
                left[number] -= 1
                taken.append(number)
        wilds_needed = len(option) - len(taken)
        if not taken:
            if all_wild_tried:
                continue
            all_wild_tried = True
        if wilds_needed <= wilds:
            rest = _best(left, wilds - wilds_needed, options, at + 1)
            if rest is not None:
                score = sum(taken) + rest
                if best is None or score > best:
                    best = score
        for number in taken:
            left[number] += 1
    return best

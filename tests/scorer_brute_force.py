"""A slow, obviously-correct phase scorer, the reference the fast solver is checked against.

It tries every way to pick each group's dice from the roll (exact sizes, no die
twice), checks each group straight from the rules, and keeps the best score.
Independent of scorer.solver on purpose: it uses only the dice and phase types.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from scorer import WILD, Die, GroupKind, GroupSpec, Phase

MAX_VALUE = 10


def is_valid_group(spec: GroupSpec, dice: Sequence[Die]) -> bool:
    """The rules, read literally: exact size; a set is one number, a run consecutive
    numbers inside 1..10 (Wilds fill any number), a colour group one colour
    (a Wild counts only in its own colour)."""
    if len(dice) != spec.size:
        return False
    naturals = [die.value for die in dice if die.value != WILD]
    if spec.kind is GroupKind.SET:
        return len(set(naturals)) <= 1
    if spec.kind is GroupKind.RUN:
        if len(set(naturals)) != len(naturals):
            return False
        return any(
            all(low <= value < low + spec.size for value in naturals)
            for low in range(1, MAX_VALUE - spec.size + 2)
        )
    return len({die.colour for die in dice}) == 1


def is_valid_stand_ins(spec: GroupSpec, dice: Sequence[Die], numbers: Sequence[int | None]) -> bool:
    """Whether the stand-in numbers a solver reports are consistent with the group."""
    if len(numbers) != len(dice):
        return False
    for die, number in zip(dice, numbers, strict=True):
        if die.value != WILD and number != die.value:
            return False
    if spec.kind is GroupKind.COLOUR:
        return all(number is None or 1 <= number <= MAX_VALUE for number in numbers)
    if any(number is None or not 1 <= number <= MAX_VALUE for number in numbers):
        return False
    if spec.kind is GroupKind.SET:
        return len(set(numbers)) == 1
    return sorted(numbers) == list(range(min(numbers), min(numbers) + spec.size))


def groupings(dice: Sequence[Die], phase: Phase) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every valid grouping: one tuple of roll indices per group, groups disjoint."""

    def extend(
        done: tuple[tuple[int, ...], ...], left: tuple[int, ...]
    ) -> Iterator[tuple[tuple[int, ...], ...]]:
        if len(done) == len(phase.groups):
            yield done
            return
        spec = phase.groups[len(done)]
        for chosen in combinations(left, spec.size):
            if is_valid_group(spec, [dice[i] for i in chosen]):
                rest = tuple(i for i in left if i not in chosen)
                yield from extend(done + (chosen,), rest)

    yield from extend((), tuple(range(len(dice))))


def best_score(dice: Sequence[Die], phase: Phase) -> int | None:
    """The highest score of any valid grouping (sum of natural dice used), or None."""
    best = None
    for grouping in groupings(dice, phase):
        score = sum(dice[i].value for group in grouping for i in group)
        if best is None or score > best:
            best = score
    return best


def fewest_wilds(dice: Sequence[Die], phase: Phase) -> int | None:
    """The fewest Wilds any best-scoring grouping uses (the solver's first tie-break)."""
    best: tuple[int, int] | None = None
    for grouping in groupings(dice, phase):
        used = [dice[i] for group in grouping for i in group]
        key = (sum(die.value for die in used), -sum(die.value == WILD for die in used))
        if best is None or key > best:
            best = key
    return None if best is None else -best[1]

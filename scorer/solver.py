"""The best-score solver: does a roll make a phase, and for how many points?

Rules (see the design card): a phase uses EXACTLY the group sizes it names; a
set is one number, a run is consecutive numbers inside 1..10 (no wrap); Wilds
stand for any number in sets and runs; in "7 of all one colour" a Wild counts
only in its own colour. Score = sum of the natural dice used (Wilds 0; dice not
used score nothing). The solver returns the highest score and one grouping.

How (why it is fast): for set/run phases only the count of each value and the
number of Wilds matter. A grouping is fixed by its *targets* (each set's
number, each run's lowest number); the targets demand so many dice of each
value, every demanded slot takes a natural die when one is left and a Wild
otherwise, and that is optimal for those targets. So the solver tries every
target tuple (at most 100 per phase), best upper bound first, and stops once no
remaining bound can reach the best score. The result per value-count signature
is cached. The odds tables judge every distinct roll with the same search
(`best_score`). The colour phase takes, per colour, the 7 best dice of that colour.

Deterministic choices among equal-score groupings (documented tie-breaks):
  1. the highest score; 2. the fewest Wilds used; 3. for set/run phases the
  highest targets, compared group by group in the phase's order (set number,
  run's lowest number); for phases with two sets the first set is the higher
  number; for the colour phase the earlier colour of the palette (R, O, G, B).
Concrete dice: natural dice of one value are taken in palette order of their
colour (then roll order), Wilds likewise; the first group of the phase is filled
first. A Wild in a set stands for the set's number; in a run it stands for a
missing number, the lowest missing number getting the first Wild.
``GroupResult.stands_for``: a natural die's own value; a Wild's chosen number;
in a colour group a Wild stands for no number (None) and natural dice keep
their value.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, NamedTuple

from scorer.dice import COLOUR_LETTERS, Die, Roll
from scorer.phases import PHASES, GroupKind, GroupSpec, Phase, get_phase

logger = logging.getLogger(__name__)

MAX_VALUE: Final[int] = 10
#: How a group is named in text: kind -> format with its size.
_GROUP_LABELS: Final[dict[GroupKind, str]] = {
    GroupKind.SET: "set of {size}",
    GroupKind.RUN: "run of {size}",
    GroupKind.COLOUR: "{size} of one colour",
}
_PALETTE_RANK: Final[dict[str, int]] = {letter: rank for rank, letter in enumerate(COLOUR_LETTERS)}


@dataclass(frozen=True)
class GroupResult:
    """One group of a made phase: its dice in canonical order and what each stands for.

    Canonical order: a set lists natural dice, then Wilds; a run lists dice by
    the number they stand for; a colour group lists natural dice high to low,
    then Wilds.
    """

    spec: GroupSpec
    dice: tuple[Die, ...]
    stands_for: tuple[int | None, ...]

    @property
    def score(self) -> int:
        """Sum of the natural dice (a Wild's value is 0)."""
        return sum(die.value for die in self.dice)

    @property
    def label(self) -> str:
        return _GROUP_LABELS[self.spec.kind].format(size=self.spec.size)

    def dice_text(self) -> tuple[str, ...]:
        """Each die in notation, a Wild with its stand-in: `WR(=10)`."""
        return tuple(
            f"{die}(={number})" if die.is_wild() and number is not None else str(die)
            for die, number in zip(self.dice, self.stands_for, strict=True)
        )

    def __str__(self) -> str:
        return f"{self.label}: {' '.join(self.dice_text())}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.spec.kind.value,
            "size": self.spec.size,
            "label": self.label,
            "dice": [str(die) for die in self.dice],
            "stands_for": list(self.stands_for),
            "text": " ".join(self.dice_text()),
            "score": self.score,
        }


@dataclass(frozen=True)
class PhaseResult:
    """The verdict on one phase for one roll; when not made: score 0, no groups, all unused."""

    phase: Phase
    roll: Roll
    made: bool
    score: int
    groups: tuple[GroupResult, ...]
    unused: tuple[Die, ...]

    def is_made(self) -> bool:
        return self.made

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form for the web API and `phase10 score --json`."""
        return {
            "phase": self.phase.number,
            "label": self.phase.label,
            "roll": str(self.roll),
            "made": self.made,
            "score": self.score,
            "groups": [group.to_dict() for group in self.groups],
            "unused": [str(die) for die in self.unused],
        }


# --- set/run phases: targets over value counts --------------------------------------


class _Candidate(NamedTuple):
    """One target tuple of a set/run phase and the dice it demands (a tuple: the search
    unpacks hundreds of thousands of them when the odds tables are built)."""

    targets: tuple[int, ...]  # per group: a set's number or a run's lowest number
    demand: tuple[tuple[int, int], ...]  # (value, how many dice of it), all groups together
    bound: int  # the score if every demanded die were natural


def _group_numbers(spec: GroupSpec, target: int) -> tuple[int, ...]:
    """The numbers a group's slots stand for, given its target."""
    if spec.kind is GroupKind.SET:
        return (target,) * spec.size
    return tuple(range(target, target + spec.size))


def _targets_for(spec: GroupSpec) -> range:
    if spec.kind is GroupKind.SET:
        return range(1, MAX_VALUE + 1)
    return range(1, MAX_VALUE - spec.size + 2)


def _candidates(phase: Phase) -> tuple[_Candidate, ...]:
    """Every target tuple of a set/run phase, best bound (then tie-break order) first."""
    tuples: list[tuple[int, ...]] = [()]
    for spec in phase.groups:
        tuples = [done + (target,) for done in tuples for target in _targets_for(spec)]
    same_sets = len(phase.groups) == 2 and phase.groups[0] == phase.groups[1]
    if same_sets:  # two equal sets: the pair is unordered, the first is the higher number
        tuples = [targets for targets in tuples if targets[0] >= targets[1]]
    candidates = []
    for targets in tuples:
        demand: dict[int, int] = {}
        for spec, target in zip(phase.groups, targets, strict=True):
            for number in _group_numbers(spec, target):
                demand[number] = demand.get(number, 0) + 1
        bound = sum(value * count for value, count in demand.items())
        candidates.append(_Candidate(targets, tuple(sorted(demand.items())), bound))
    candidates.sort(key=lambda candidate: (candidate.bound, candidate.targets), reverse=True)
    return tuple(candidates)


_CANDIDATES: Final[dict[int, tuple[_Candidate, ...]]] = {
    phase.number: _candidates(phase) for phase in PHASES if not phase.is_colour_phase()
}


@lru_cache(maxsize=65536)
def _best_targets(phase_number: int, counts: tuple[int, ...]) -> tuple[int, tuple[int, ...]] | None:
    """Best score and target tuple for value counts (counts[v] = dice showing v; counts[0]
    = Wilds), or None when no target tuple can be filled.

    Key: highest score, then fewest Wilds, then highest targets (the candidate
    order). Candidates come best bound first, so the loop stops once no bound
    can reach the best score found.
    """
    wilds = counts[0]
    best: tuple[int, int, tuple[int, ...]] | None = None
    best_score = -1
    for targets, demand, bound in _CANDIDATES[phase_number]:
        if bound < best_score:
            break
        score = bound
        missing = 0
        for value, wanted in demand:
            short = wanted - counts[value]
            if short > 0:
                missing += short
                if missing > wilds:
                    break
                score -= value * short
        if missing > wilds:
            continue
        key = (score, -missing, targets)
        if best is None or key > best:
            best, best_score = key, score
            if not missing:  # no Wild used and score == bound: no later candidate beats it
                break
    return None if best is None else (best[0], best[2])


def best_score(counts: Sequence[int], wilds: int, phase: Phase) -> int | None:
    """The best score of a set/run phase over value counts, or None when they do not make it.

    `counts[v]` is the number of natural dice showing v (index 0 is ignored), `wilds`
    the number of Wilds: all a set/run phase depends on, so the odds tables judge
    every distinct roll by its counts with the solver's own search.
    """
    if phase.is_colour_phase():
        raise ValueError(f"{phase}: best_score judges only set and run phases")
    if len(counts) < MAX_VALUE + 1:
        raise ValueError(f"counts needs an entry for each number 1-10, got {len(counts)}")
    best = _best_targets(phase.number, (wilds, *counts[1 : MAX_VALUE + 1]))
    return None if best is None else best[0]


def _signature(roll: Roll) -> tuple[int, ...]:
    """How many dice show each value (index 0: Wilds): all a set/run phase depends on."""
    counts = [0] * (MAX_VALUE + 1)
    for die in roll.dice:
        counts[die.value] += 1
    return tuple(counts)


class _Pools:
    """The roll's dice by value, each pool in palette order, handed out first-come."""

    def __init__(self, roll: Roll) -> None:
        order = sorted(range(len(roll.dice)), key=lambda i: (_PALETTE_RANK[roll.dice[i].colour], i))
        self.pools: list[list[int]] = [[] for _ in range(MAX_VALUE + 1)]
        for index in order:
            self.pools[roll.dice[index].value].append(index)
        self.cursor = [0] * (MAX_VALUE + 1)

    def take(self, value: int) -> int | None:
        """The next unused die (roll index) showing value, or None."""
        at = self.cursor[value]
        pool = self.pools[value]
        if at >= len(pool):
            return None
        self.cursor[value] = at + 1
        return pool[at]


def _build_group(
    roll: Roll, spec: GroupSpec, target: int, pools: _Pools, used: list[int]
) -> GroupResult:
    """Take the dice of one group from the pools: a natural die per slot, else a Wild."""
    naturals: list[tuple[int, int]] = []  # (roll index, number)
    wilds: list[tuple[int, int]] = []
    for number in _group_numbers(spec, target):
        index = pools.take(number)
        if index is not None:
            naturals.append((index, number))
        else:
            wild = pools.take(0)
            if wild is None:  # the cached targets guarantee enough Wilds
                raise AssertionError(f"no Wild left for {spec} at {target} in {roll}")
            wilds.append((wild, number))
    if spec.kind is GroupKind.RUN:
        slots = sorted(naturals + wilds, key=lambda slot: slot[1])
    else:
        slots = naturals + wilds
    used.extend(index for index, _ in slots)
    return GroupResult(
        spec, tuple(roll.dice[index] for index, _ in slots), tuple(n for _, n in slots)
    )


def _evaluate_sets_runs(roll: Roll, phase: Phase, signature: tuple[int, ...]) -> PhaseResult:
    best = _best_targets(phase.number, signature)
    if best is None:
        return _not_made(roll, phase)
    targets = best[1]
    pools = _Pools(roll)
    used: list[int] = []
    groups = tuple(
        _build_group(roll, spec, target, pools, used)
        for spec, target in zip(phase.groups, targets, strict=True)
    )
    return _made(roll, phase, groups, used)


# --- the colour phase -----------------------------------------------------------------


def _evaluate_colour(roll: Roll, phase: Phase) -> PhaseResult:
    """Per colour: that colour's natural dice high to low, then its Wilds; the best 7."""
    (spec,) = phase.groups
    best: tuple[tuple[int, int, int], list[int]] | None = None
    for rank, letter in enumerate(COLOUR_LETTERS):
        indices = [i for i, die in enumerate(roll.dice) if die.colour == letter]
        if len(indices) < spec.size:
            continue
        indices.sort(key=lambda i: (-roll.dice[i].value, i))
        chosen = indices[: spec.size]
        wilds = sum(roll.dice[i].is_wild() for i in chosen)
        key = (sum(roll.dice[i].value for i in chosen), -wilds, -rank)
        if best is None or key > best[0]:
            best = (key, chosen)
    if best is None:
        return _not_made(roll, phase)
    chosen = best[1]
    dice = tuple(roll.dice[i] for i in chosen)
    group = GroupResult(spec, dice, tuple(None if die.is_wild() else die.value for die in dice))
    return _made(roll, phase, (group,), chosen)


# --- results ----------------------------------------------------------------------


def _not_made(roll: Roll, phase: Phase) -> PhaseResult:
    return PhaseResult(phase, roll, False, 0, (), roll.dice)


def _made(
    roll: Roll, phase: Phase, groups: tuple[GroupResult, ...], used: Sequence[int]
) -> PhaseResult:
    taken = set(used)
    unused = tuple(die for index, die in enumerate(roll.dice) if index not in taken)
    return PhaseResult(phase, roll, True, sum(group.score for group in groups), groups, unused)


def _evaluate(roll: Roll, phase: Phase, signature: tuple[int, ...]) -> PhaseResult:
    if phase.is_colour_phase():
        return _evaluate_colour(roll, phase)
    return _evaluate_sets_runs(roll, phase, signature)


def evaluate(roll: Roll, phase: int | Phase) -> PhaseResult:
    """Whether the roll makes the phase, its highest score and the winning grouping.

    Works on partial rolls too (any dice on the table); the tie-breaks among
    equal scores are in the module docstring.
    """
    if not isinstance(roll, Roll):
        raise TypeError(f"evaluate needs a Roll, got {type(roll).__name__}")
    phase = get_phase(phase)
    return _evaluate(roll, phase, _signature(roll))


def evaluate_all(roll: Roll) -> tuple[PhaseResult, ...]:
    """The verdict on each of the ten phases, in phase order."""
    if not isinstance(roll, Roll):
        raise TypeError(f"evaluate_all needs a Roll, got {type(roll).__name__}")
    signature = _signature(roll)
    return tuple(_evaluate(roll, phase, signature) for phase in PHASES)


def clear_cache() -> None:
    """Forget the cached value-count results (for cold-cache benchmarks)."""
    _best_targets.cache_clear()

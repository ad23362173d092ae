"""The odds: which dice to keep, and the chance of making the phase by the end of the turn.

`advise(roll, phase, rolls_left)` answers "keep 8 8 8 W, re-roll 6 dice: 71 % to
make Phase 1". The objective is the chance of making the phase; among equal
chances (within 1e-12) the expected score (a failed phase scores 0). Set/run
phases are exact (scorer.odds_tables, built once per phase and cached); so is
the colour phase's chance (scorer.odds_colour_tables, weighed over the ways the
faces shown can lie on the physical dice), whose expected score is that of
keeping the advised colour on the rolls left (scorer.odds_colour).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, Final

from scorer.dice import HIGH_VALUES, LOW_VALUES, Die, Roll
from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.odds_cache import colour_table, odds_table
from scorer.odds_colour import best_target, made_score
from scorer.odds_tables import MAX_ROLLS_LEFT, TOLERANCE, Counts, counts_of
from scorer.phases import Phase, get_phase
from scorer.solver import best_score

logger = logging.getLogger(__name__)

ROLLS_LEFT: Final[tuple[int, ...]] = tuple(range(MAX_ROLLS_LEFT + 1))


class InvalidRollsLeftError(ValueError):
    """A number of rolls left outside 0..2."""


@dataclass(frozen=True)
class MadeNow:
    """Whether the dice showing already make the phase, and the best score if so."""

    made: bool
    score: int


@dataclass(frozen=True)
class Advice:
    """The advised keep for a roll, and the chance and expected score of playing on."""

    phase: Phase
    rolls_left: int
    probability: float
    keep: tuple[Die, ...]
    reroll: tuple[Die, ...]
    expected_score: float
    made_now: MadeNow
    #: The probability is the exact optimum; False only for a colour-phase roll that
    #: no matching of the inventory explains (then it is the target-colour policy's),
    #: or whose possible placements on the dice make some keep of several colours
    #: better than the advised one colour (then it is that colour's exact chance).
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready view, dice in notation."""
        return {
            "phase": self.phase.number,
            "phase_label": self.phase.label,
            "rolls_left": self.rolls_left,
            "probability": self.probability,
            "keep": [str(die) for die in self.keep],
            "reroll": [str(die) for die in self.reroll],
            "expected_score": self.expected_score,
            "made_now": {"made": self.made_now.made, "score": self.made_now.score},
            "exact": self.exact,
        }

    def __str__(self) -> str:
        kept = " ".join(str(die) for die in self.keep) or "nothing"
        chance = f"{100 * self.probability:.1f} %"
        if self.rolls_left == 0 or not self.reroll:
            action = f"keep {kept}, stop"
        else:
            count = len(self.reroll)
            action = f"keep {kept}, re-roll {count} {'die' if count == 1 else 'dice'}"
        return (
            f"{action}: {chance} to make Phase {self.phase.number} "
            f"(expected score {self.expected_score:.1f})"
        )


def _check_rolls_left(rolls_left: int) -> int:
    is_int = isinstance(rolls_left, int) and not isinstance(rolls_left, bool)
    if not is_int or rolls_left not in ROLLS_LEFT:
        raise InvalidRollsLeftError(
            f"{rolls_left!r} is not a number of rolls left: expected 0, 1 or 2"
        )
    return rolls_left


def _multisets_of(dice: tuple[Die, ...]) -> tuple[Counts, Counts]:
    high = tuple(sum(die.value == value for die in dice) for value in HIGH_VALUES)
    low = tuple(sum(die.value == value for die in dice) for value in LOW_VALUES)
    return high, low


def _made_now(roll: Roll, phase: Phase) -> MadeNow:
    if phase.is_colour_phase():
        score = made_score(roll.dice)
    else:
        counts, wilds = counts_of(*_multisets_of(roll.dice))
        score = best_score(counts, wilds, phase)
    return MadeNow(score is not None, score or 0)


def _pick(roll: Roll, high: Counts, low: Counts) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
    """Split the roll into the dice to keep (these counts per value, roll order) and the rest."""
    wanted = dict(zip(HIGH_VALUES, high, strict=True))
    wanted.update(zip(LOW_VALUES, low, strict=True))
    keep, reroll = [], []
    for die in roll:
        if wanted[die.value]:
            wanted[die.value] -= 1
            keep.append(die)
        else:
            reroll.append(die)
    return tuple(keep), tuple(reroll)


def _best_keep(
    roll: Roll, phase: Phase, rolls_left: int, made_now: MadeNow, dice_set: DiceSet
) -> tuple[Counts, Counts, float, float]:
    """The best keep: stop (keep all ten) or a smaller sub-multiset re-rolling the rest.

    Keeping all ten is valued as stopping; the tables' value of keeping all ten
    (skip a roll, play on later) is never better than some smaller keep. Ties
    keep more dice.
    """
    table = odds_table(phase, dice_set)
    high, low = _multisets_of(roll.dice)
    best = (high, low, float(made_now.made), float(made_now.score))
    subs = sorted(
        product(product(*(range(c + 1) for c in high)), product(*(range(c + 1) for c in low))),
        key=lambda pair: sum(pair[0]) + sum(pair[1]),
        reverse=True,
    )
    for h, lo in subs[1:]:  # the first is the whole roll: stopping, above
        chance, score = table.keep_value(rolls_left, h, lo)
        if chance > best[2] + TOLERANCE or (chance > best[2] - TOLERANCE and score > best[3]):
            best = (h, lo, chance, score)
    return best


def advise(
    roll: Roll, phase: int | Phase, rolls_left: int, *, dice: Sequence[str] | None = None,
    dice_set: DiceSet = PRINTED_DICE,
) -> Advice:
    """The best keep for this full roll with `rolls_left` re-rolls left in the turn (0..2).

    `dice`: the physical die showing each die of the roll (names such as "H3", roll
    order), when the camera matched them; only the colour phase depends on it, and on
    `dice_set`, the faces of the table's dice.
    """
    phase = get_phase(phase)
    rolls_left = _check_rolls_left(rolls_left)
    roll = roll.require_full()
    made_now = _made_now(roll, phase)
    exact = True
    if rolls_left == 0:
        return Advice(
            phase, 0, float(made_now.made), roll.dice, (), float(made_now.score), made_now, exact
        )
    if phase.is_colour_phase():
        choice = best_target(roll, rolls_left, TOLERANCE, dice, dice_set=dice_set)
        keep = tuple(roll.dice[i] for i in choice.keep)
        reroll = tuple(die for i, die in enumerate(roll) if i not in choice.keep)
        chance, score, exact = choice.chance, choice.expected_score, choice.exact
    else:
        high, low, chance, score = _best_keep(roll, phase, rolls_left, made_now, dice_set)
        keep, reroll = _pick(roll, high, low)
    return Advice(phase, rolls_left, chance, keep, reroll, score, made_now, exact)


def turn_odds(phase: int | Phase, dice_set: DiceSet = PRINTED_DICE) -> float:
    """Chance of making the phase in one full turn (three rolls, keeping optimally), exactly."""
    phase = get_phase(phase)
    if phase.is_colour_phase():
        return colour_table(dice_set).turn_chance
    return odds_table(phase, dice_set).turn_chance

"""Kept dice that make no difference: the advisor keeps them only because ties keep more.

Among keeps of equal chance and expected score the advisor keeps the most dice
(`scorer.odds._best_keep`), so its keep can hold a 1 or a 3 that neither helps the
phase nor scores (dice a phase does not use score nothing, Wilds score 0). The
hint must not give such dice a reason; `spare_dice` finds them.
"""

from __future__ import annotations

from scorer.dice import HIGH_VALUES, LOW_VALUES, Die
from scorer.odds import Advice
from scorer.odds_cache import odds_table
from scorer.odds_tables import TOLERANCE

#: Expected scores are sums of many small products: closer than this, they are equal.
SCORE_TOLERANCE = 1e-9


def _counts(dice: list[Die]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    high = tuple(sum(die.value == value for die in dice) for value in HIGH_VALUES)
    low = tuple(sum(die.value == value for die in dice) for value in LOW_VALUES)
    return high, low


def spare_dice(advice: Advice) -> tuple[Die, ...]:
    """The kept dice that may be re-rolled too with the same chance and expected score.

    Dropped one at a time, lowest value first (Wilds last), while the keep's value
    stays the advice's; together they can all go. Empty for the colour phase (its keep
    is one colour, no spare die) and when nothing is re-rolled.
    """
    if advice.phase.is_colour_phase() or advice.rolls_left == 0 or not advice.reroll:
        return ()
    table = odds_table(advice.phase)
    keep = list(advice.keep)
    spare: list[Die] = []
    order = sorted(advice.keep, key=lambda die: (die.is_wild(), die.value))
    for die in order:
        trial = list(keep)
        trial.remove(die)
        chance, score = table.keep_value(advice.rolls_left, *_counts(trial))
        if (chance >= advice.probability - TOLERANCE
                and score >= advice.expected_score - SCORE_TOLERANCE):
            keep = trial
            spare.append(die)
    return tuple(spare)

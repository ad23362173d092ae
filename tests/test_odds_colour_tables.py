"""The colour phase's exact chance tables against a direct computation over every die.

The tables group the ten dice into types; here numpy recomputes the optimum over
all 4^10 colour states of the ten individual dice, keeping any of the 1,024
subsets after each roll, so the grouping and the lattice closure are checked
independently.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from scorer import Roll, advise, turn_odds
from scorer.dice import COLOUR_LETTERS, PHYSICAL_DICE, inventory_matching
from scorer.odds_colour_tables import colour_table

DICE = len(PHYSICAL_DICE)


def _average_over(values: np.ndarray, die: int, chances: list[np.ndarray]) -> np.ndarray:
    shape = [1] * DICE
    shape[die] = len(COLOUR_LETTERS)
    return (values * chances[die].reshape(shape)).sum(axis=die, keepdims=True)


def _best_keep(values: np.ndarray, chances: list[np.ndarray]) -> np.ndarray:
    """Per colour state, the best over every subset of dice re-rolled (none: stop)."""
    best = values.copy()

    def walk(table: np.ndarray, first: int) -> None:
        for die in range(first, DICE):
            averaged = _average_over(table, die, chances)
            np.maximum(best, averaged, out=best)
            walk(averaged, die + 1)

    walk(values, 0)
    return best


@pytest.fixture(scope="module")
def direct() -> tuple[np.ndarray, np.ndarray, float]:
    """Optimal chance with one and two rolls left per colour state, and of a turn."""
    chances = [
        np.array([sum(f.colour == c for f in die.faces) / 6 for c in COLOUR_LETTERS])
        for die in PHYSICAL_DICE
    ]
    shown = np.indices((len(COLOUR_LETTERS),) * DICE, dtype=np.int8)
    counts = np.stack([(shown == c).sum(axis=0) for c in range(len(COLOUR_LETTERS))])
    made = (counts.max(axis=0) >= 7).astype(np.float64)
    one_left = _best_keep(made, chances)
    two_left = _best_keep(one_left, chances)
    turn = two_left
    for die in range(DICE):
        turn = _average_over(turn, die, chances)
    return one_left, two_left, float(turn.ravel()[0])


def test_turn_chance_equals_the_direct_optimum(direct):
    assert turn_odds(8) == pytest.approx(direct[2], abs=1e-12)
    assert colour_table().turn_chance == turn_odds(8)


def test_advice_chance_equals_the_direct_optimum_on_random_rolls(direct):
    rng = random.Random(808)
    names = [die.name for die in PHYSICAL_DICE]
    for _ in range(300):
        roll = Roll(tuple(rng.choice(die.faces) for die in PHYSICAL_DICE))
        state = [0] * DICE
        for index, name in inventory_matching(roll).items():
            state[names.index(name)] = COLOUR_LETTERS.index(roll.dice[index].colour)
        for rolls_left, table in ((1, direct[0]), (2, direct[1])):
            advice = advise(roll, 8, rolls_left)
            assert advice.exact
            assert advice.probability == pytest.approx(table[tuple(state)], abs=1e-12), roll
            assert len({die.colour for die in advice.keep}) <= 1


def test_one_colour_keeps_reach_the_optimum_in_every_state():
    """Over all colour states of the types: stopping or keeping one colour is never beaten."""
    table = colour_table()
    colours = len(COLOUR_LETTERS)
    for fulls in itertools.product(*(side.fulls for side in table.sides)):
        state = [side.keeps[f] for side, f in zip(table.sides, fulls, strict=True)]
        made = max(sum(m[c] for m in state) for c in range(colours)) >= 7
        keeps = [
            [tuple(n * (j == c) for j, n in enumerate(m)) for m in state] for c in range(colours)
        ]
        for rolls_left in (1, 2):
            one_colour = max(table.keep_value(rolls_left, keep) for keep in keeps)
            assert max(one_colour, float(made)) == table.best_value(rolls_left, state)

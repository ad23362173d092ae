"""Speed of the best-score solver: `evaluate_all` on full rolls of the real dice.

Target: all ten phases of a ten-dice roll in at most 1 ms (median), pure Python.
Each round scores 200 distinct seeded rolls, so the per-roll median is the
reported median divided by 200. The solver caches its set/run verdicts by
value counts; the cold variant clears that cache before every roll.

    .venv/bin/python -m pytest benchmarks/bench_scorer.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import random

import pytest

from scorer import Roll, evaluate_all
from scorer.dice import PHYSICAL_DICE
from scorer.solver import clear_cache

ROLLS_PER_ROUND = 200


@pytest.fixture(scope="module")
def rolls() -> list[Roll]:
    rng = random.Random(1010)
    return [
        Roll(tuple(rng.choice(die.faces) for die in PHYSICAL_DICE)) for _ in range(ROLLS_PER_ROUND)
    ]


def score_all(rolls: list[Roll]) -> int:
    return sum(result.score for roll in rolls for result in evaluate_all(roll))


def score_all_cold(rolls: list[Roll]) -> int:
    total = 0
    for roll in rolls:
        clear_cache()
        total += sum(result.score for result in evaluate_all(roll))
    return total


def test_evaluate_all_warm_cache(benchmark, rolls):
    score_all(rolls)  # fill the cache
    assert benchmark(score_all, rolls) > 0


def test_evaluate_all_cold_cache(benchmark, rolls):
    assert benchmark(score_all_cold, rolls) > 0


def test_evaluate_all_one_roll_cold(benchmark, rolls):
    """A single roll, as the live camera path scores it, with nothing cached."""

    def one() -> int:
        clear_cache()
        return sum(result.score for result in evaluate_all(rolls[0]))

    assert benchmark(one) >= 0

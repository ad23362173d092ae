"""Speed of the odds advisor: the one-time table build per phase, then advice per roll.

Target: advice for any roll with 2 rolls left in at most 200 ms once the phase's
table is built (it is built once per phase, lazily, and cached in memory). The
build is measured per phase on its own (a fresh build each round). Advice is
measured over 200 seeded random rolls of the real dice, per phase.

    .venv/bin/python -m pytest benchmarks/bench_odds.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import random

import pytest

from scorer import PHASES, Roll, advise, turn_odds
from scorer.dice import PHYSICAL_DICE
from scorer.odds_cache import colour_table, odds_table

ROLLS = 200


def seeded_rolls(seed: int) -> list[Roll]:
    rng = random.Random(seed)
    return [Roll(tuple(rng.choice(die.faces) for die in PHYSICAL_DICE)) for _ in range(ROLLS)]


@pytest.mark.parametrize("phase", [p.number for p in PHASES])
def test_table_build(benchmark, phase):
    """One fresh build of a phase's tables."""
    build = odds_table.__wrapped__ if phase != 8 else colour_table.__wrapped__
    benchmark.pedantic(build, args=(PHASES[phase - 1],) if phase != 8 else (), rounds=3)


@pytest.mark.parametrize("phase", [p.number for p in PHASES])
def test_advice_two_rolls_left(benchmark, phase):
    """Advice for 200 rolls with two rolls left (table already built): per roll = mean / 200."""
    turn_odds(phase)  # build and cache the table first
    rolls = seeded_rolls(phase)

    def advise_all() -> None:
        for roll in rolls:
            advise(roll, phase, 2)

    benchmark.pedantic(advise_all, rounds=5)


@pytest.mark.parametrize("phase", [1, 8])
def test_slowest_single_advice(benchmark, phase):
    """The slowest of the seeded rolls, timed alone, against the 200 ms target."""
    import time

    turn_odds(phase)
    rolls = seeded_rolls(100 + phase)
    times = []
    for roll in rolls:
        started = time.perf_counter()
        advise(roll, phase, 2)
        times.append((time.perf_counter() - started, roll))
    slowest = max(times, key=lambda pair: pair[0])[1]
    benchmark(advise, slowest, phase, 2)

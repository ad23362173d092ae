"""Print the README's table of the odds: the chance of making each phase in one full turn.

Three rolls, keeping optimally (the advisor's own exact tables). A seeded
simulation of turns that ask the advisor after every roll adds the rate and the
mean score a player following the advice gets (the colour phase's expected
score is not tabled: its tables hold chances only).

    .venv/bin/python benchmarks/odds_table.py [--turns 10000]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from scorer import PHASES, Roll, advise, evaluate, turn_odds
from scorer.dice import PHYSICAL_DICE
from scorer.odds_cache import odds_table


def simulate(phase: int, turns: int, seed: int) -> tuple[float, float]:
    """Rate of making the phase and mean score, re-asking the advisor after each roll."""
    rng = random.Random(seed)
    owner = {id(face): n for n, die in enumerate(PHYSICAL_DICE) for face in die.faces}
    made = total = 0
    for _ in range(turns):
        roll = Roll(tuple(rng.choice(die.faces) for die in PHYSICAL_DICE))
        for rolls_left in (2, 1):
            rerolled = {id(die) for die in advise(roll, phase, rolls_left).reroll}
            roll = Roll(
                tuple(
                    rng.choice(PHYSICAL_DICE[owner[id(d)]].faces) if id(d) in rerolled else d
                    for d in roll
                )
            )
        verdict = evaluate(roll, phase)
        made += verdict.made
        total += verdict.score
    return made / turns, total / turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=10000, help="simulated turns per phase")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print("| phase | needs | chance in one turn | expected score | simulated turns |")
    print("|---|---|---|---|---|")
    for phase in PHASES:
        started = time.perf_counter()
        chance = turn_odds(phase)
        built = time.perf_counter() - started
        rate, mean = simulate(phase.number, args.turns, args.seed + phase.number)
        error = math.sqrt(rate * (1 - rate) / args.turns)
        exact = f"{100 * chance:.1f} %"
        score = "—" if phase.is_colour_phase() else f"{odds_table(phase).turn_score:.1f}"
        print(
            f"| {phase.number} | {phase.label} | {exact} | {score} | "
            f"{100 * rate:.1f} ± {100 * error:.1f} %, mean {mean:.1f} |"
        )
        print(f"<!-- phase {phase.number}: built in {built:.2f} s -->", flush=True)


if __name__ == "__main__":
    main()

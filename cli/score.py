"""`phase10 score "ROLL" --phase N`: does a roll make a phase, and for how many points?

Prints the verdict, the winning grouping (a Wild with the number it stands for,
`WR(=10)`) and the score; without `--phase` (or with `--all`) a table of all ten
phases. `--json` prints the same as JSON (a list for all phases). A full roll
that no assignment of faces to the ten physical dice explains is only flagged:
the face layout is unconfirmed, so the roll is still scored.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorer import PhaseResult

COMMAND = "score"
HELP = "score a roll against one phase or all ten"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Judge a roll (dice notation, e.g. '8R 8B 8G 10O 5G 7R WR WB 1G 3R'): "
        "made or not, the best grouping and its score.",
    )
    parser.add_argument("roll", metavar="ROLL", nargs="+",
                        help="the dice, quoted or not: '8R 8B 8G 10O WR' or 8R 8B 8G 10O WR")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--phase", type=int, metavar="N", help="the phase to judge (1-10)")
    which.add_argument("--all", action="store_true", help="all ten phases (the default)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def run(args: argparse.Namespace) -> int:
    from cli.dice_layout import household_dice
    from scorer import evaluate, evaluate_all, get_phase

    roll = roll_argument(args.roll)  # a ValueError naming the bad token -> exit 2
    explained = household_dice().explains(roll)
    if args.phase is not None:
        results = (evaluate(roll, get_phase(args.phase)),)
    else:
        results = evaluate_all(roll)
    if args.json:
        payload = [_json_result(result, explained) for result in results]
        print(json.dumps(payload if args.phase is None else payload[0], indent=2))
        return 0
    if not explained:
        print(
            f"warning: no assignment of these faces to the {len(roll)} dice of the inventory "
            "explains this roll (check the reading or the face layout)",
            file=sys.stderr,
        )
    print(_single(results[0]) if args.phase is not None else _table(results))
    return 0


def roll_argument(words: list[str]) -> Any:
    """The ROLL of the command line, quoted as one word or given as one word per die.

    A roll with no dice (`phase10 score ""`) is an error, not a verdict on nothing.
    """
    from scorer import parse_roll

    roll = parse_roll(" ".join(words))
    if not roll.dice:
        raise ValueError("ROLL has no dice: give the dice showing, "
                         "e.g. 8R 8B 8G 10O 5G 7R WR WB 1G 3R")
    return roll


def _json_result(result: PhaseResult, explained: bool) -> dict[str, Any]:
    return {**result.to_dict(), "explained": explained}


def _single(result: PhaseResult) -> str:
    verdict = "made" if result.is_made() else "not made"
    phase = result.phase
    lines = [f"Roll: {result.roll}", f"Phase {phase.number} ({phase.label}): {verdict}"]
    lines += [f"  {group}" for group in result.groups]
    if result.is_made() and result.unused:
        lines.append(f"  unused: {' '.join(str(die) for die in result.unused)}")
    lines.append(f"Score: {result.score}")
    return "\n".join(lines)


def _table(results: tuple[PhaseResult, ...]) -> str:
    lines = [f"Roll: {results[0].roll}", f"{'Phase':<28} {'Made':<5} {'Score':>5}  Grouping"]
    for result in results:
        grouping = "; ".join(str(group) for group in result.groups) or "-"
        made = "yes" if result.is_made() else "no"
        name = f"{result.phase.number:>2}. {result.phase.label}"
        lines.append(f"{name:<28} {made:<5} {result.score:>5}  {grouping}")
    return "\n".join(lines)

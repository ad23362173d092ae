"""`phase10 odds "ROLL" --phase N --rolls-left K`: which dice to keep, and the chance.

Prints the advisor's answer for the dice on the table, e.g. "keep 8R 8B 8G WR,
re-roll 6 dice: 71.0 % to make Phase 1 (expected score 30.2)", or the same as
JSON for scripts.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

COMMAND = "odds"
HELP = "which dice to keep, and the chance of making the phase this turn"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description=(
            "Advise which dice to keep for ROLL (all ten dice in notation, e.g. "
            "'8R 8B 8G 10O 5G 7R WR WB 1G 3R') with K re-rolls left in the turn."
        ),
    )
    parser.add_argument("roll", metavar="ROLL", nargs="+",
                        help="the ten dice showing, quoted or not, e.g. "
                             "'8R 8B 8G 10O 5G 7R WR WB 1G 3R'")
    parser.add_argument("--phase", type=int, required=True, metavar="N", help="the phase, 1-10")
    parser.add_argument(
        "--rolls-left",
        type=int,
        required=True,
        metavar="K",
        help="re-rolls left in the turn: 2 after the first roll, 1, or 0",
    )
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")
    return parser


def run(args: argparse.Namespace) -> int:
    from cli.dice_layout import household_dice
    from cli.score import roll_argument
    from scorer import advise

    advice = advise(roll_argument(args.roll), args.phase, args.rolls_left,
                    dice_set=household_dice())
    if args.json:
        print(json.dumps(advice.to_dict(), indent=2))
    else:
        print(advice)
        if advice.made_now.made:
            print(f"made now: {advice.made_now.score} points")
        if not advice.exact:
            print("(no matching of the inventory explains this roll: an approximate chance)")
    return 0

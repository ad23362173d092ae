"""Named rolls and small drivers shared by the game engine tests.

Each roll is written in dice notation with the score the solver must give it,
so a test reads like a game at the table.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from scorer import Game, Roll, parse_roll
from scorer.dice import PHYSICAL_DICE


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything an illegal action must leave unchanged."""
    return game.events, game.scorepad, game.turns, game.active_player, game.round


#: A roll reaching each phase's maximum score (dice.md: 60 57 59 49 52 54 60 56 60 62).
MAX_ROLLS: Mapping[int, tuple[Roll, int]] = {
    1: (parse_roll("10G 10R 10O 10B 10G 10O 1B 2B 3R 4R"), 60),
    2: (parse_roll("WO WB 1O 4R 10G 9B 8B 10B 10G 10O"), 57),
    3: (parse_roll("WO WO WG 4R 10G 9B 10O 10B 10G 10O"), 59),
    4: (parse_roll("4G 1R 2R WG 7B 5G 10O 6G 8O 9G"), 49),
    5: (parse_roll("WR 4O 3R 2O 8G 10R 5O 6G 7R 9G"), 52),
    6: (parse_roll("WR 4O 3R 2O 8G 10R 5O 6G 7R 9G"), 54),
    7: (parse_roll("1B WB 1O WR 10G 10R 10O 10B 10G 10O"), 60),
    8: (parse_roll("WR 4O 2R 1G 9O 8O 10O 7O 8O 10O"), 56),
    9: (parse_roll("1B WB 1O WR 10G 10R 10O 10B 10G 10O"), 60),
    10: (parse_roll("4G 4O WB 4R 10G 5G 10O 10B 10G 10O"), 62),
}

#: Makes no phase at all: no three alike, no long run, at most three of a colour.
NEVER = parse_roll("5R 5G 7B 7G 9O 9R 1B 1R 3O 3G")

#: Low-scoring makes for phases 4 and 5, to steer the phase 1-5 total.
RUN7_18 = parse_roll("WR WO WB WG 6O 7G 5O 7O 5B 6O")
RUN8_26 = parse_roll("WO WO WB WR 7B 5G 8B 7O 6B 6O")
RUN8_27 = parse_roll("WO WB 1O WR 8G 6R 8B 5R 6B 7G")


def best_roll(phase: int) -> Roll:
    return MAX_ROLLS[phase][0]


def random_full_roll(rng: random.Random) -> Roll:
    """One face of each physical die, in a shuffled order."""
    dice = [rng.choice(die.faces) for die in PHYSICAL_DICE]
    rng.shuffle(dice)
    return Roll(tuple(dice))


def take_turn(game: Game, made: bool) -> None:
    """The active player makes their phase with its best roll, or fails."""
    player = game.active_player
    assert player is not None and game.active_phase is not None
    if made:
        game.score_turn(player, best_roll(game.active_phase))
    else:
        game.fail_turn(player, NEVER)


def play_round(game: Game, outcomes: Mapping[str, bool]) -> None:
    """Each named player, in turn order, makes (True) or fails (False) their phase."""
    for player, made in outcomes.items():
        assert game.active_player == player, (game.active_player, player)
        take_turn(game, made)


def play_all_make(game: Game, rounds: int) -> None:
    """Every player makes their phase for `rounds` rounds."""
    for _ in range(rounds):
        play_round(game, dict.fromkeys(game.play_order, True))

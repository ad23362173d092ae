"""Speed of the game engine on a long seeded game (six players, random rolls of the real dice).

The web app rebuilds a game from its stored log (replay) and then adds one
action at a time; undo and corrections rebuild the table by replay too.
The seeded game has 380 turns over 64 rounds. Targets: loading the whole stored
log (JSON, parsing, replay) under 50 ms; an undo or a correction (each a full
rebuild of the table) under 5 ms.

    .venv/bin/python -m pytest benchmarks/bench_game.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import json
import random

import pytest

from scorer import Game, Roll, evaluate, event_from_dict
from scorer.dice import PHYSICAL_DICE
from scorer.solver import clear_cache
from scorer.table import verdict

PLAYERS = ("Al", "Bea", "Cy", "Di", "Ed", "Flo")


def random_roll(rng: random.Random) -> Roll:
    return Roll(tuple(rng.choice(die.faces) for die in PHYSICAL_DICE))


def play_to_the_end(seed: int) -> Game:
    """Every turn a random roll: scored when it makes the phase, else failed with it."""
    rng = random.Random(seed)
    game = Game.new(PLAYERS)
    while not game.is_over:
        player, phase, roll = game.active_player, game.active_phase, random_roll(rng)
        assert player is not None and phase is not None
        if evaluate(roll, phase).made:
            game.score_turn(player, roll)
        else:
            game.fail_turn(player, roll)
    return game


@pytest.fixture(scope="module")
def long_game() -> Game:
    return play_to_the_end(2026)


@pytest.fixture(scope="module")
def stored_log(long_game: Game) -> str:
    return json.dumps([event.to_dict() for event in long_game.events])


def load(text: str) -> Game:
    return Game.replay(event_from_dict(data) for data in json.loads(text))


def test_replay_stored_log_cold(benchmark, stored_log, long_game):
    """Loading a finished game from its JSON log with nothing cached."""

    def cold() -> Game:
        verdict.cache_clear()
        clear_cache()
        return load(stored_log)

    game = benchmark(cold)
    benchmark.extra_info["turns"] = len(game.turns)
    assert game.scorepad == long_game.scorepad


def test_replay_stored_log_warm(benchmark, stored_log, long_game):
    load(stored_log)
    assert benchmark(load, stored_log).scorepad == long_game.scorepad


def test_one_turn_late_in_a_long_game(benchmark, long_game):
    """Undo the last turn (a rebuild), then play it again (incremental)."""
    game = Game.replay(long_game.events)
    last = game.turns[-1]

    def redo() -> None:
        game.undo()
        if last.made:
            game.score_turn(last.player, last.roll)
        else:
            game.fail_turn(last.player, last.roll)

    benchmark(redo)
    assert game.scorepad == long_game.scorepad


def test_correct_the_first_turn_of_a_long_game(benchmark, long_game):
    game = Game.replay(long_game.events)
    first = game.turns[0]
    benchmark(game.correct_turn, 0, first.roll, first.made)
    assert game.scorepad == long_game.scorepad

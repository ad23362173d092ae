"""Property tests: random legal play, checked against replay and undo.

Hypothesis drives a game through the engine's own queries (whose turn, which
phase), mixing good rolls, random rolls, failures, undos and corrections; after
every action the JSON-serialised log must replay to the same game, and every
undo must give back exactly the game before the undone action.
"""

from __future__ import annotations

import json

from game_rolls import best_roll
from hypothesis import event, given, settings
from hypothesis import strategies as st

from scorer import (
    Game,
    GameError,
    InvalidCorrectionError,
    NotYourTurnError,
    PhaseNotMadeError,
    Roll,
    evaluate,
    event_from_dict,
)
from scorer.dice import PHYSICAL_DICE
from scorer.scorepad import FAILED_TURN_PENALTY

NAMES = ("Al", "Bea", "Cy", "Di", "Ed")

full_rolls = st.tuples(*(st.sampled_from(die.faces) for die in PHYSICAL_DICE)).map(Roll)


def state(game: Game):
    return (
        game.scorepad,
        game.turns,
        game.active_player,
        game.active_phase,
        game.round,
        game.is_over,
        game.winners,
        game.play_order,
        game.roll_off_pending,
    )


def replayed(game: Game) -> Game:
    text = json.dumps([event.to_dict() for event in game.events])
    return Game.replay(event_from_dict(data) for data in json.loads(text))


def check_invariants(game: Game) -> None:
    pad = game.scorepad
    for column in pad.columns:
        made = [score for score in column.phase_scores if score is not None]
        assert column.phase_scores[: len(made)] == tuple(made)  # phases are made in order
        penalty = FAILED_TURN_PENALTY * column.failed_turns if game.solitaire else 0
        expected = sum(made) + column.five_phase_bonus + column.first_finish_bonus - penalty
        assert column.grand_total == expected
        turns = [t for t in game.turns if t.player == column.player]
        assert column.failed_turns == sum(not t.made for t in turns)
        assert [t.score for t in turns if t.made] == made
    assert [t.index for t in game.turns] == list(range(len(game.turns)))
    if game.active_player is not None:
        column = pad.column(game.active_player)
        assert not column.finished and not column.out and not game.is_over
        assert column.current_phase == game.active_phase
    assert (game.winners != ()) == game.is_over


def pick_roll_off(data, game: Game) -> None:
    player = data.draw(st.sampled_from(game.roll_off_pending))
    game.roll_off(player, data.draw(st.integers(5, 10)))


def pick_turn(data, game: Game, make_chance: int) -> None:
    player, phase = game.active_player, game.active_phase
    assert player is not None and phase is not None
    choice = data.draw(st.integers(0, 99))
    if choice < make_chance:
        game.score_turn(player, best_roll(phase))
    elif choice < 90:
        roll = data.draw(full_rolls)
        if evaluate(roll, phase).made:
            game.score_turn(player, roll)
        else:
            game.fail_turn(player, roll)
    else:
        game.fail_turn(player)


def try_correction(data, game: Game) -> bool:
    """A random correction; refused ones must leave the game untouched."""
    record = game.turns[data.draw(st.integers(0, len(game.turns) - 1))]
    roll, made = data.draw(
        st.sampled_from(
            [(None, False), (best_roll(record.phase), True), (record.roll, not record.made)]
        )
    )
    before = (game.events, state(game))
    try:
        game.correct_turn(record.index, roll, made)
    except (InvalidCorrectionError, PhaseNotMadeError):
        assert (game.events, state(game)) == before
        event("correction refused")
        return False
    event("correction accepted")
    return True


def try_wrong_player(game: Game) -> None:
    others = [p for p in game.players if p != game.active_player]
    before = (game.events, state(game))
    try:
        game.fail_turn(others[0])
    except GameError:
        assert (game.events, state(game)) == before
    else:
        raise AssertionError("a turn out of order was accepted")


def play(data, steps: int, make_chance: int) -> Game:
    count = data.draw(st.integers(1, len(NAMES)))
    roll_off = data.draw(st.booleans())
    game = Game.new(NAMES[:count], solitaire=count == 1, roll_off=roll_off)
    undo_stack = []  # the state before each action still standing
    for _ in range(steps):
        before = state(game)
        move = data.draw(st.integers(0, 99))
        if move < 8 and undo_stack:
            game.undo()
            assert state(game) == undo_stack.pop()
        elif move < 14 and game.turns:
            if try_correction(data, game):
                undo_stack.append(before)
        elif game.is_over:
            break
        elif game.roll_off_pending:
            pick_roll_off(data, game)
            undo_stack.append(before)
        else:
            if move < 16 and len(game.players) > 1:
                try_wrong_player(game)
                assert isinstance(game.active_player, str)
            pick_turn(data, game, make_chance)
            undo_stack.append(before)
        check_invariants(game)
        assert state(replayed(game)) == state(game)
    event(f"game over: {game.is_over}")
    event(f"turns: {len(game.turns) // 20 * 20}+")
    return game


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_short_random_games_replay_and_undo_exactly(data):
    play(data, steps=25, make_chance=40)


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_long_random_games_reach_the_end_and_replay_exactly(data):
    game = play(data, steps=250, make_chance=75)
    copy = replayed(game)
    assert copy.events == game.events and state(copy) == state(game)


def test_not_your_turn_is_the_error_for_a_wrong_player():
    game = Game.new(["Al", "Bea"])
    try_wrong_player(game)
    try:
        game.fail_turn("Bea")
    except NotYourTurnError as error:
        assert "it is Al's turn, not Bea's" in str(error)
    else:
        raise AssertionError("Bea played out of turn")

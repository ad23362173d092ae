"""Property tests: random legal play, checked against replay and undo.

Hypothesis drives a game through the engine's own queries (whose turn, which
phase), mixing good rolls, random rolls, failures, undos and corrections; after
every action the JSON-serialised log must replay to the same game, and every
undo must give back exactly the game before the undone action.
"""

from __future__ import annotations

import json
from dataclasses import replace

from game_rolls import best_roll
from hypothesis import event, given, settings
from hypothesis import strategies as st
from property_budget import examples

from scorer import (
    FirstFinishRule,
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
from scorer.event_log import MAX_PLAYERS
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


def check_last_tries(game: Game) -> None:
    """After the first finish, a made phase short of 10 is followed by the same player's turn."""
    turns = game.turns
    first = next((t.index for t in turns if t.made and t.phase == 10), None)
    if first is None or game.solitaire:
        return
    for turn, after in zip(turns[first + 1 :], turns[first + 2 :], strict=False):
        if turn.made and turn.phase < 10:
            assert (after.player, after.phase, after.round) == (
                turn.player,
                turn.phase + 1,
                turn.round,
            )
    last = turns[-1]
    if last.index > first and last.made and last.phase < 10:
        assert (game.active_player, game.active_phase) == (last.player, last.phase + 1)


def with_rule(game: Game, rule: FirstFinishRule) -> Game:
    """The same log replayed under the other printing's First Finish Bonus."""
    created = replace(game.events[0], first_finish=rule)
    return Game.replay((created, *game.events[1:]))


def check_first_finish_readings(game: Game) -> None:
    """The 2010 reading pays a subset of the newest one's; nothing else on the pad differs."""
    newest, oldest = (with_rule(game, rule).scorepad for rule in FirstFinishRule)
    paid = {c.player for c in newest.columns if c.first_finish_bonus}
    paid_2010 = {c.player for c in oldest.columns if c.first_finish_bonus}
    assert paid_2010 <= paid
    for a, b in zip(newest.columns, oldest.columns, strict=True):
        assert replace(a, first_finish_bonus=0, grand_total=0) == replace(
            b, first_finish_bonus=0, grand_total=0
        )
    first = next((t for t in game.turns if t.made and t.phase == 10), None)
    if first is not None and not game.solitaire:
        assert first.player in paid_2010  # the first finisher always gets it
    for column in newest.columns:
        finish = next(
            (t for t in game.turns if t.player == column.player and t.made and t.phase == 10), None
        )
        if column.first_finish_bonus and not game.solitaire:
            assert finish is not None and first is not None and finish.round == first.round


def check_invariants(game: Game) -> None:
    check_last_tries(game)
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
    rule = data.draw(st.sampled_from(FirstFinishRule))
    game = Game.new(NAMES[:count], solitaire=count == 1, roll_off=roll_off, first_finish=rule)
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


@settings(max_examples=examples(200), deadline=None)
@given(st.data())
def test_short_random_games_replay_and_undo_exactly(data):
    play(data, steps=25, make_chance=40)


@settings(max_examples=examples(25), deadline=None)
@given(st.data())
def test_long_random_games_reach_the_end_and_replay_exactly(data):
    game = play(data, steps=250, make_chance=75)
    copy = replayed(game)
    assert copy.events == game.events and state(copy) == state(game)
    check_first_finish_readings(game)


@settings(max_examples=examples(300), deadline=None)
@given(st.integers(2, MAX_PLAYERS), st.data())
def test_roll_off_ranks_every_player_by_their_throws(count, data):
    """Settled order = throws compared first throw first, highest first; re-throws only in ties."""
    players = [f"P{i}" for i in range(count)]
    game = Game.new(players, roll_off=True)
    while game.roll_off_pending:
        # Everyone waiting throws, in any order; each throw is shifted by the thrower's
        # place in the queue, so the simplest draws settle (rather than tie forever).
        for at, player in enumerate(data.draw(st.permutations(game.roll_off_pending))):
            game.roll_off(player, 10 - (data.draw(st.integers(0, 5)) + at) % 6)
    throws = game.roll_off_throws
    assert len(set(throws.values())) == count  # everyone's sequence differs
    assert list(game.play_order) == sorted(players, key=lambda p: throws[p], reverse=True)
    for player, values in throws.items():
        # A second throw only for one who tied with someone on every throw before it.
        for k in range(1, len(values)):
            assert any(throws[o][:k] == values[:k] for o in players if o != player)


def test_not_your_turn_is_the_error_for_a_wrong_player():
    game = Game.new(["Al", "Bea"])
    try_wrong_player(game)
    try:
        game.fail_turn("Bea")
    except NotYourTurnError as error:
        assert "it is Al's turn, not Bea's" in str(error)
    else:
        raise AssertionError("Bea played out of turn")

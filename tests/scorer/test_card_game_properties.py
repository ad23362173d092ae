"""Property tests of the card game: random legal hands, undos and corrections.

Hypothesis plays whole card games hand by hand. After every action the
JSON-serialised log must replay to the same game, an undo must give back exactly
the game before the undone action, and the sheet must agree with the rules
recomputed here from the hands alone: totals are the sum of each player's points,
a player's phase is one past the phases made, the game ends with the hand in which
phase 10 is completed and the winner is the lowest total (among the finishers, by
the printed rule).
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from property_budget import examples

from scorer import CardGame, CardWinnerRule, HandResult, replay_log

NAMES = ("Al", "Bea", "Cy", "Di", "Ed")


@st.composite
def hands(draw, players: tuple[str, ...]) -> tuple[HandResult, ...]:
    """A legal hand: one player out at 0 with their phase made, the others any multiple of 5."""
    going_out = draw(st.sampled_from(players))
    results = []
    for player in players:
        if player == going_out:
            results.append(HandResult(player, True, 0))
        else:
            made = draw(st.booleans())
            results.append(HandResult(player, made, 5 * draw(st.integers(1, 50))))
    return tuple(draw(st.permutations(results)))


def state(game: CardGame):
    return (game.scorepad, game.hands, game.is_over, game.winners, game.hand_number)


def check_sheet(game: CardGame) -> None:
    """The sheet recomputed from the hands as the rules say."""
    pad = game.scorepad
    for column in pad.columns:
        lines = [line for record in game.hands for line in record.lines
                 if line.player == column.player]
        assert column.grand_total == sum(line.points for line in lines)
        made = [line for line in lines if line.made]
        assert [line.phase for line in made] == list(range(1, len(made) + 1))
        assert column.current_phase == (None if len(made) == 10 else len(made) + 1)
    finished = [c for c in pad.columns if c.finished]
    assert game.is_over == bool(finished)
    if game.is_over:
        last = game.hands[-1]
        assert all(line.phase == 10 and line.made for line in last.lines
                   if pad.column(line.player).finished)
        running = finished if pad.winner is CardWinnerRule.LOWEST_WITH_PHASE_10 else pad.columns
        best = min(c.grand_total for c in running)
        assert game.winners == tuple(c.player for c in running if c.grand_total == best)
    else:
        assert game.winners == ()


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data(), count=st.integers(2, 5), rule=st.sampled_from(list(CardWinnerRule)))
def test_random_card_games_replay_undo_and_follow_the_rules(data, count, rule):
    players = NAMES[:count]
    game = CardGame.new(players, winner=rule)
    history = [state(game)]
    for _ in range(data.draw(st.integers(1, 40), label="actions")):
        if game.is_over:
            break
        choice = data.draw(st.sampled_from(["hand", "hand", "hand", "undo", "correct"]))
        if choice == "undo" and game.hands:
            game.undo()
            history.pop()
            assert state(game) == history[-1]
        elif choice == "correct" and game.hands:
            index = data.draw(st.integers(0, len(game.hands) - 1), label="hand to correct")
            same = [HandResult(x.player, x.made, x.points) for x in game.hands[index].lines]
            before = state(game)
            game.correct_hand(index, same)  # a correction to the same results changes nothing
            assert state(game) == before
            history.append(before)
        else:
            game.play_hand(data.draw(hands(players), label="hand"))
            history.append(state(game))
        check_sheet(game)
        stored = json.loads(json.dumps([event.to_dict() for event in game.events]))
        assert state(replay_log(stored)) == state(game)


@settings(max_examples=examples(30), deadline=None)
@given(data=st.data(), count=st.integers(2, 4))
def test_a_game_where_everyone_always_makes_their_phase_ends_after_ten_hands(data, count):
    players = NAMES[:count]
    game = CardGame.new(players)
    for _ in range(10):
        assert not game.is_over
        drawn = data.draw(hands(players))
        game.play_hand([HandResult(r.player, True, r.points) for r in drawn])
    assert game.is_over and all(c.finished for c in game.scorepad.columns)
    assert game.hand_number == 10

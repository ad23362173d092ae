"""The card game engine: hands, phases, points, the end of the game, the winner rule,
refused hands, undo, corrections and the stored log."""

from __future__ import annotations

import json

import pytest

from scorer import (
    CardGame,
    CardWinnerRule,
    GameKind,
    GameOverError,
    HandResult,
    InvalidCorrectionError,
    InvalidEventError,
    InvalidHandError,
    InvalidPlayersError,
    InvalidWinnerRuleError,
    NothingToUndoError,
    UnknownPlayerError,
    hand_from_dicts,
    replay_log,
)


def hand(*lines: tuple[str, bool, int]) -> tuple[HandResult, ...]:
    return tuple(HandResult(*line) for line in lines)


def out(winner: str, players: tuple[str, ...], points: int = 25,
        made: tuple[str, ...] = ()) -> tuple[HandResult, ...]:
    """`winner` goes out; the others hold `points`, and those in `made` laid down."""
    return tuple(HandResult(p, True, 0) if p == winner else HandResult(p, p in made, points)
                 for p in players)


PLAYERS = ("Ann", "Bob", "Cy")


def test_a_hand_moves_on_who_made_their_phase_and_adds_everyones_points():
    game = CardGame.new(PLAYERS)
    game.play_hand(hand(("Ann", True, 0), ("Bob", False, 55), ("Cy", True, 10)))
    pad = game.scorepad
    assert [c.current_phase for c in pad.columns] == [2, 1, 2]
    assert [c.grand_total for c in pad.columns] == [0, 55, 10]
    assert pad.column("Cy").phase_hands[0] == 1 and pad.column("Bob").phase_hands[0] is None
    assert game.hand_number == 2 and not game.is_over and game.winners == ()
    (record,) = game.hands
    assert record.went_out == ("Ann",)
    assert record.to_dict()["results"][1] == {"player": "Bob", "phase": 1, "made": False,
                                              "points": 55}


def test_names_match_ignoring_case_and_the_hand_is_kept_in_seat_order():
    game = CardGame.new(PLAYERS)
    event = game.play_hand(hand(("cy ", False, 5), ("ANN", True, 0), ("bob", False, 5)))
    assert [r.player for r in event.results] == ["Ann", "Bob", "Cy"]


def _to_phase_10(game: CardGame, player: str = "Ann") -> None:
    for _ in range(9):
        game.play_hand(out(player, game.players))
    assert game.phase_of(player) == 10


def test_the_hand_in_which_phase_10_is_completed_ends_the_game_and_the_lowest_total_wins():
    game = CardGame.new(PLAYERS)
    _to_phase_10(game)
    game.play_hand(hand(("Ann", False, 50), ("Bob", True, 0), ("Cy", False, 5)))
    assert not game.is_over
    game.play_hand(hand(("Ann", True, 0), ("Bob", False, 5), ("Cy", False, 5)))
    assert game.is_over and game.hand_number == 11
    totals = {c.player: c.grand_total for c in game.scorepad.columns}
    assert totals == {"Ann": 50, "Bob": 10 * 25 - 25 + 5, "Cy": 9 * 25 + 10}
    assert game.winners == ("Ann",)
    with pytest.raises(GameOverError, match="Ann completed phase 10 in hand 11"):
        game.play_hand(out("Bob", PLAYERS))


def test_the_printed_rule_crowns_the_lowest_total_among_those_who_completed_phase_10():
    for rule, winners in ((CardWinnerRule.LOWEST_TOTAL, ("Cy",)),
                          (CardWinnerRule.LOWEST_WITH_PHASE_10, ("Ann",))):
        game = CardGame.new(PLAYERS, winner=rule)
        for _ in range(9):  # Ann goes out each time; Cy holds little, Bob much
            game.play_hand(hand(("Ann", True, 0), ("Bob", False, 100), ("Cy", False, 5)))
        game.play_hand(hand(("Ann", False, 80), ("Bob", False, 5), ("Cy", True, 0)))
        game.play_hand(hand(("Ann", True, 0), ("Bob", False, 5), ("Cy", False, 5)))
        assert game.is_over and game.winners == winners, rule
        assert game.scorepad.winner is rule


def test_a_tie_for_the_lowest_total_has_several_winners():
    game = CardGame.new(("Ann", "Bob"))
    for _ in range(9):
        game.play_hand(hand(("Ann", True, 0), ("Bob", True, 0 + 5)))
    game.play_hand(hand(("Ann", True, 45), ("Bob", True, 0)))
    assert game.winners == ("Ann", "Bob")


@pytest.mark.parametrize(("lines", "message"), [
    ((("Ann", True, 0), ("Bob", False, 5)), "no result for Cy"),
    ((("Ann", True, 0), ("Bob", False, 5), ("Cy", False, 5), ("ann", False, 5)),
     "Ann is in this hand twice"),
    ((("Ann", True, 0), ("Bob", False, -5), ("Cy", False, 5)), "Bob's points are -5"),
    ((("Ann", True, 0), ("Bob", False, 12), ("Cy", False, 5)), "not a multiple of 5"),
    ((("Ann", True, 0), ("Bob", False, 280), ("Cy", False, 5)),
     "Bob's points are 280: a player holds at most 11 cards .* 275 points"),
    ((("Ann", True, 0), ("Bob", False, 10**30), ("Cy", False, 5)), "at most 11 cards"),
    ((("Ann", True, 5), ("Bob", False, 5), ("Cy", False, 5)), "nobody has 0 points"),
    ((("Ann", True, 0), ("Bob", False, 0), ("Cy", False, 5)), "Ann and Bob all have 0"),
    ((("Ann", False, 0), ("Bob", False, 5), ("Cy", False, 5)), "did not make the phase"),
])
def test_an_impossible_hand_is_refused_by_name_and_changes_nothing(lines, message):
    game = CardGame.new(PLAYERS)
    with pytest.raises(InvalidHandError, match=message):
        game.play_hand(hand(*lines))
    assert game.hands == () and len(game.events) == 1


def test_a_hand_of_eleven_skips_or_wilds_is_the_most_a_player_can_hold():
    game = CardGame.new(PLAYERS)
    game.play_hand(hand(("Ann", True, 0), ("Bob", False, 11 * 25), ("Cy", False, 5)))
    assert game.scorepad.columns[1].grand_total == 275


def test_unknown_players_and_bad_shapes_are_refused():
    game = CardGame.new(PLAYERS)
    with pytest.raises(UnknownPlayerError, match="'Dee' is not a player"):
        game.play_hand(hand(("Ann", True, 0), ("Bob", False, 5), ("Dee", False, 5)))
    for bad, message in (("x", "a list"), ([1], "not an object"),
                         ([{"player": "Ann", "made": 1, "points": 0}], "true or false"),
                         ([{"player": "Ann", "made": True, "points": 2.5}], "whole number"),
                         ([{"player": "Ann", "made": True}], "missing 'points'"),
                         ([{"player": "Ann", "made": True, "points": 0, "x": 1}], "'x'")):
        with pytest.raises(InvalidHandError, match=message):
            hand_from_dicts(bad)


def test_players_and_winner_rule_are_checked_at_the_start():
    with pytest.raises(InvalidPlayersError):
        CardGame.new(["Solo"])
    with pytest.raises(InvalidWinnerRuleError, match="'highest'"):
        CardGame.new(PLAYERS, winner="highest")
    assert CardGame.new(PLAYERS, winner="lowest_with_phase_10").winner_rule is (
        CardWinnerRule.LOWEST_WITH_PHASE_10)


def test_undo_goes_back_one_action_at_a_time():
    game = CardGame.new(PLAYERS)
    with pytest.raises(NothingToUndoError):
        game.undo()
    first = out("Ann", PLAYERS)
    game.play_hand(first)
    after_first = game.scorepad
    game.play_hand(out("Bob", PLAYERS))
    game.undo()
    assert game.scorepad == after_first
    game.undo()
    assert game.hands == () and game.scorepad.column("Ann").current_phase == 1


def test_correcting_an_earlier_hand_re_derives_the_later_ones():
    game = CardGame.new(PLAYERS)
    game.play_hand(out("Ann", PLAYERS))
    game.play_hand(out("Ann", PLAYERS))
    game.correct_hand(0, hand(("Ann", True, 0), ("Bob", True, 10), ("Cy", False, 25)))
    assert game.scorepad.column("Bob").current_phase == 2  # made phase 1 in hand 1 now
    assert [line.phase for line in game.hands[1].lines] == [2, 2, 1]
    assert game.scorepad.column("Bob").grand_total == 35
    game.undo()  # the correction is an action too
    assert game.scorepad.column("Bob").current_phase == 1


def test_a_correction_that_ends_the_game_early_is_refused():
    game = CardGame.new(("Ann", "Bob"))
    _to_phase_10(game)
    game.play_hand(hand(("Ann", False, 5), ("Bob", True, 0)))
    game.play_hand(hand(("Ann", False, 5), ("Bob", True, 0)))
    with pytest.raises(InvalidCorrectionError, match="hand 11 impossible: the game is over"):
        game.correct_hand(9, hand(("Ann", True, 5), ("Bob", True, 0)))
    with pytest.raises(InvalidCorrectionError, match="hands are 0-10"):
        game.correct_hand(11, out("Ann", ("Ann", "Bob")))
    with pytest.raises(InvalidHandError, match="nobody has 0"):
        game.correct_hand(0, hand(("Ann", True, 5), ("Bob", True, 5)))


def test_the_log_replays_through_json_and_names_its_kind():
    game = CardGame.new(PLAYERS, winner="lowest_with_phase_10")
    game.play_hand(out("Ann", PLAYERS, made=("Cy",)))
    game.play_hand(out("Bob", PLAYERS))
    game.correct_hand(1, out("Cy", PLAYERS, 10))
    game.undo()
    stored = json.loads(json.dumps([event.to_dict() for event in game.events]))
    assert stored[0] == {"type": "card_game_created", "players": list(PLAYERS),
                         "winner": "lowest_with_phase_10"}
    again = replay_log(stored)
    assert isinstance(again, CardGame) and GameKind.of(again) is GameKind.CARDS
    assert again.events == game.events and again.scorepad == game.scorepad
    assert again.hands == game.hands


def test_a_log_that_cheats_is_refused_on_replay():
    game = CardGame.new(PLAYERS)
    game.play_hand(out("Ann", PLAYERS))
    stored = [event.to_dict() for event in game.events]
    stored[1]["results"][1]["points"] = 7
    with pytest.raises(InvalidHandError, match="event 1 .*not a multiple of 5"):
        replay_log(stored)
    stored[1]["results"][1]["points"] = 25
    stored[1]["results"].reverse()
    with pytest.raises(InvalidEventError):
        replay_log(stored)
    with pytest.raises(InvalidEventError, match="card game event type"):
        replay_log([stored[0], {"type": "turn_scored"}])


def test_an_old_dice_log_replays_unchanged_through_the_kind_dispatch():
    """Logs stored before the card game (game_created first) are dice games, as before."""
    from pathlib import Path

    from scorer import Game, event_from_dict

    stored = json.loads((Path(__file__).parents[1] / "data" / "legacy_game_logs.json").read_text())
    for logged in stored["games"]:
        game = replay_log(logged["events"])
        assert isinstance(game, Game) and GameKind.of(game) is GameKind.DICE
        direct = Game.replay(event_from_dict(event) for event in logged["events"])
        assert game.scorepad == direct.scorepad and game.turns == direct.turns
        assert game.scorepad.to_dict() == logged["state"]["scorepad"]
        assert [event.to_dict() for event in game.events] == logged["events"]


def test_each_game_s_log_refuses_the_other_s_events_by_its_own_names():
    """Both games keep their log through `scorer.event_log`; each names its own start."""
    from scorer import Game, Undone

    dice, cards = Game.new(PLAYERS), CardGame.new(PLAYERS)
    with pytest.raises(InvalidEventError, match="a card game log starts with card_game_created"):
        CardGame.replay(dice.events)
    with pytest.raises(InvalidEventError, match="a game log starts with game_created"):
        Game.replay(cards.events)
    with pytest.raises(InvalidEventError, match="empty log .* starts with card_game_created"):
        CardGame.replay([])
    with pytest.raises(InvalidEventError, match="cannot follow the start of a card game"):
        CardGame.replay([cards.events[0], dice.events[0]])
    with pytest.raises(NothingToUndoError):
        CardGame.replay([cards.events[0], Undone()])

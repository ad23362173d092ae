"""The game engine: turns, bonuses, end game, solitaire, roll-off and refused actions."""

from __future__ import annotations

import json

import pytest
from game_rolls import (
    MAX_ROLLS,
    NEVER,
    RUN7_18,
    RUN8_26,
    RUN8_27,
    best_roll,
    play_all_make,
    play_round,
    snapshot,
    take_turn,
)

from scorer import (
    DEFAULT_FIRST_FINISH,
    FirstFinishRule,
    Game,
    GameOverError,
    InvalidFirstFinishRuleError,
    InvalidPlayersError,
    InvalidRollError,
    NotYourTurnError,
    PhaseNotMadeError,
    RollOffError,
    UnknownPlayerError,
    evaluate,
    parse_roll,
)
from scorer.event_log import MAX_NAME_LENGTH, MAX_PLAYERS


@pytest.mark.parametrize("phase", sorted(MAX_ROLLS))
def test_named_rolls_score_what_the_tests_assume(phase):
    roll, score = MAX_ROLLS[phase]
    assert evaluate(roll, phase).score == score
    assert not evaluate(NEVER, phase).made


def test_new_game_starts_with_the_first_seat_on_phase_one():
    game = Game.new([" Al ", "Bea", "Cy"])
    assert game.players == game.play_order == ("Al", "Bea", "Cy")
    assert (game.active_player, game.active_phase, game.round) == ("Al", 1, 1)
    assert not game.is_over and game.winners == () and game.roll_off_pending == ()
    column = game.scorepad.columns[0]
    assert column.phase_scores == (None,) * 10
    assert (column.grand_total, column.current_phase, column.finished) == (0, 1, False)


@pytest.mark.parametrize(
    ("players", "solitaire", "message"),
    [
        (["Al", "  "], False, "'  ' is empty"),
        (["Al", "bea", "BEA"], False, "'BEA' is used twice"),
        (["Al", "x" * (MAX_NAME_LENGTH + 1)], False, "at most 20"),
        ([f"P{i}" for i in range(MAX_PLAYERS + 1)], False, "2-12 players .*got 13"),
        (["Al"], False, "2-12 players"),
        (["Al", "Bea"], True, "exactly one player, got 2"),
        (["Al", 7], False, "7 is not text"),
        ("Al", False, "list of names"),
    ],
)
def test_bad_players_are_refused_by_name(players, solitaire, message):
    with pytest.raises(InvalidPlayersError, match=message):
        Game.new(players, solitaire=solitaire)


def test_twelve_players_play_a_round_in_seat_order():
    names = [f"Player {i:02d}" for i in range(1, 13)]
    game = Game.new(names, roll_off=True)
    for value, name in zip([5, 6, 7, 8, 9, 10] * 2, names, strict=True):
        game.roll_off(name, value)
    assert len(game.roll_off_pending) == 12  # six ties of two
    for value, name in zip([5] * 6 + [6] * 6, names, strict=True):
        game.roll_off(name, value)
    assert game.play_order[:4] == ("Player 12", "Player 06", "Player 11", "Player 05")
    play_all_make(game, 1)
    assert game.round == 2 and len(game.turns) == 12


def test_names_are_matched_ignoring_case_and_spaces():
    game = Game.new(["Al", "Bea"])
    event = game.score_turn(" al", best_roll(1))
    assert event.player == "Al" and game.active_player == "Bea"


def test_turns_follow_seat_order_and_rounds_wrap():
    game = Game.new(["Al", "Bea", "Cy"])
    play_round(game, {"Al": True, "Bea": False, "Cy": True})
    assert game.round == 2 and game.active_player == "Al"
    assert [(t.round, t.player, t.phase, t.made, t.score) for t in game.turns] == [
        (1, "Al", 1, True, 60),
        (1, "Bea", 1, False, 0),
        (1, "Cy", 1, True, 60),
    ]
    pad = game.scorepad
    assert pad.column("Bea").current_phase == 1 and pad.column("Bea").failed_turns == 1
    assert pad.column("Cy").current_phase == 2 and pad.column("Cy").grand_total == 60


def _solitaire_first_five(p4, p5):
    game = Game.new(["Sol"], solitaire=True)
    for phase in (1, 2, 3):
        game.score_turn("Sol", best_roll(phase))
    game.score_turn("Sol", p4)
    game.score_turn("Sol", p5)
    return game.scorepad.column("Sol")


def test_five_phase_bonus_needs_more_than_220():
    at_220 = _solitaire_first_five(RUN7_18, RUN8_26)
    assert at_220.phase_scores[:5] == (60, 57, 59, 18, 26)
    assert (at_220.five_phase_bonus, at_220.five_phase_total, at_220.grand_total) == (0, 220, 220)
    at_221 = _solitaire_first_five(RUN7_18, RUN8_27)
    assert (at_221.five_phase_bonus, at_221.five_phase_total, at_221.grand_total) == (40, 261, 261)


def test_five_phase_bonus_waits_for_phase_five():
    game = Game.new(["Sol"], solitaire=True)
    for phase in (1, 2, 3, 4):
        game.score_turn("Sol", best_roll(phase))
    column = game.scorepad.column("Sol")
    assert column.five_phase_total == 225 and column.five_phase_bonus == 0
    game.score_turn("Sol", best_roll(5))
    column = game.scorepad.column("Sol")
    assert (column.five_phase_bonus, column.five_phase_total) == (40, 277 + 40)


def test_first_finisher_and_players_seated_after_in_the_same_round_get_the_bonus():
    game = Game.new(["Al", "Bea", "Cy"])
    play_all_make(game, 9)
    assert game.active_phase == 10 and game.round == 10
    play_round(game, {"Al": False, "Bea": True, "Cy": True})  # Bea first; Cy after, same round
    assert not game.is_over and game.active_player == "Al"
    play_round(game, {"Al": True})  # Al, seated before Bea, finishes on his last try
    pad = game.scorepad
    assert [c.first_finish_bonus for c in pad.columns] == [0, 40, 40]
    assert pad.column("Al").finished and pad.column("Al").failed_turns == 1
    assert game.is_over and game.active_player is None and game.active_phase is None
    assert pad.column("Bea").grand_total == 569 + 40 + 40
    assert game.winners == ("Bea", "Cy")
    with pytest.raises(GameOverError, match="game is over"):
        game.score_turn("Al", best_roll(10))


def _chained_finish(first_finish: FirstFinishRule) -> Game:
    """Bea finishes first in round 10; Cy, seated after her, makes phase 9 and then 10."""
    game = Game.new(["Al", "Bea", "Cy"], first_finish=first_finish)
    play_all_make(game, 7)
    play_round(game, {"Al": True, "Bea": True, "Cy": False})  # Cy stays on phase 8
    play_round(game, {"Al": True, "Bea": True, "Cy": True})  # Cy 8
    play_round(game, {"Al": False, "Bea": True, "Cy": True})  # Bea finishes; Cy makes 9 ...
    assert (game.active_player, game.active_phase, game.round) == ("Cy", 10, 10)
    take_turn(game, True)  # ... and goes straight on to make 10, in the same round
    assert (game.active_player, game.round) == ("Al", 11)
    take_turn(game, True)  # Al finishes on his last try, in the next round
    assert game.is_over
    return game


def test_the_newest_printing_pays_a_finish_reached_by_last_tries_in_the_same_round():
    pad = _chained_finish(FirstFinishRule.SAME_ROUND).scorepad
    assert [c.first_finish_bonus for c in pad.columns] == [0, 40, 40]


def test_the_2010_printing_pays_only_those_already_on_phase_ten():
    game = _chained_finish(FirstFinishRule.ALREADY_ON_PHASE_10)
    assert [c.first_finish_bonus for c in game.scorepad.columns] == [0, 40, 0]
    assert game.first_finish is FirstFinishRule.ALREADY_ON_PHASE_10
    assert game.events[0].to_dict()["first_finish"] == "already_on_phase_10"


@pytest.mark.parametrize("rule", list(FirstFinishRule))
def test_both_printings_pay_a_player_after_the_first_finisher_already_on_phase_ten(rule):
    game = Game.new(["Al", "Bea", "Cy"], first_finish=rule)
    play_all_make(game, 9)
    play_round(game, {"Al": False, "Bea": True, "Cy": True})
    take_turn(game, True)  # Al, seated before Bea, finishes on his last try: too late
    assert [c.first_finish_bonus for c in game.scorepad.columns] == [0, 40, 40]


def test_the_first_finish_rule_is_named_in_plain_words_and_refused_by_name():
    assert DEFAULT_FIRST_FINISH is FirstFinishRule.SAME_ROUND
    assert Game.new(["Al", "Bea"]).first_finish is FirstFinishRule.SAME_ROUND
    assert "2011 and 2020" in FirstFinishRule.SAME_ROUND.description
    assert "2010" in FirstFinishRule.ALREADY_ON_PHASE_10.description
    assert "already on phase 10" in FirstFinishRule.ALREADY_ON_PHASE_10.description
    game = Game.new(["Al", "Bea"], first_finish="already_on_phase_10")
    assert game.first_finish is FirstFinishRule.ALREADY_ON_PHASE_10
    with pytest.raises(InvalidFirstFinishRuleError, match="'2010' is not a First Finish Bonus"):
        Game.new(["Al", "Bea"], first_finish="2010")


def test_last_tries_go_straight_on_through_several_phases_until_a_failure():
    game = Game.new(["Al", "Bea", "Cy"])
    play_all_make(game, 6)
    play_round(game, {"Al": True, "Bea": True, "Cy": False})  # Cy stays on phase 7
    play_round(game, {"Al": True, "Bea": True, "Cy": False})
    play_round(game, {"Al": True, "Bea": True, "Cy": False})
    play_round(game, {"Al": True, "Bea": False, "Cy": True})  # Al finishes; Bea out; Cy 7
    seen = []
    for made in (True, True, False):  # Cy: 8 and 9 made, 10 failed, all in round 10
        seen.append((game.round, game.active_player, game.active_phase))
        take_turn(game, made)
    assert seen == [(10, "Cy", 8), (10, "Cy", 9), (10, "Cy", 10)]
    assert game.is_over and game.scorepad.column("Cy").out
    assert [t.round for t in game.turns[-4:]] == [10] * 4


def test_no_straight_on_before_the_first_finish():
    game = Game.new(["Al", "Bea"])
    play_round(game, {"Al": True})
    assert game.active_player == "Bea"


def test_last_tries_continue_until_fail_or_finish_and_skip_players_who_are_out():
    game = Game.new(["Al", "Bea", "Cy", "Di"])
    play_all_make(game, 9)
    play_round(game, {"Al": False, "Bea": True, "Cy": False, "Di": False})
    # Bea finished in round 10; Cy and Di failed after her: they are out.
    pad = game.scorepad
    assert (pad.column("Cy").out, pad.column("Di").out, pad.column("Al").out) == (True, True, False)
    assert game.active_player == "Al" and game.round == 11
    game.fail_turn("Al")
    assert game.is_over and game.winners == ("Bea",)
    assert pad.column("Al").out is False and game.scorepad.column("Al").out is True


def test_a_last_try_that_makes_a_phase_goes_straight_on_with_the_next():
    game = Game.new(["Al", "Bea", "Cy"])
    play_all_make(game, 8)
    play_round(game, {"Al": True, "Bea": True, "Cy": False})  # Cy stays on phase 9
    play_round(game, {"Al": True, "Bea": False, "Cy": True})  # Al finishes; Bea out; Cy 9
    order = []
    while not game.is_over:
        order.append((game.round, game.active_player, game.active_phase))
        take_turn(game, True)
    assert order == [(10, "Cy", 10)]
    assert game.winners == ("Al", "Cy")  # both 649: Cy finished in Al's round
    assert [c.first_finish_bonus for c in game.scorepad.columns] == [40, 0, 40]


def test_a_tie_has_several_winners():
    game = Game.new(["Al", "Bea"])
    play_all_make(game, 10)
    assert game.is_over and game.winners == ("Al", "Bea")
    assert {c.grand_total for c in game.scorepad.columns} == {649}


def test_perfect_solitaire_game_scores_649():
    game = Game.new(["Sol"], solitaire=True)
    for phase in range(1, 11):
        assert game.active_phase == phase
        game.score_turn("Sol", best_roll(phase))
    column = game.scorepad.column("Sol")
    assert column.phase_scores == (60, 57, 59, 49, 52, 54, 60, 56, 60, 62)
    assert (column.five_phase_bonus, column.first_finish_bonus, column.grand_total) == (40, 40, 649)
    assert game.is_over and game.winners == ("Sol",) and game.solitaire


def test_solitaire_failures_cost_five_and_a_miss_on_phase_ten_costs_the_bonus():
    game = Game.new(["Sol"], solitaire=True)
    game.fail_turn("Sol")
    game.fail_turn("Sol", NEVER)
    for phase in range(1, 10):
        game.score_turn("Sol", best_roll(phase))
    assert game.scorepad.column("Sol").grand_total == 569 - 62 + 40 - 10
    game.fail_turn("Sol")
    assert not game.is_over and game.round == 13
    game.score_turn("Sol", best_roll(10))
    column = game.scorepad.column("Sol")
    assert (column.failed_turns, column.first_finish_bonus, column.out) == (3, 0, False)
    assert column.grand_total == 569 + 40 - 15
    assert game.is_over


def test_solitaire_failures_before_phase_ten_keep_the_first_finish_bonus():
    game = Game.new(["Sol"], solitaire=True)
    for phase in range(1, 11):
        if phase in (3, 8):
            game.fail_turn("Sol")
        game.score_turn("Sol", best_roll(phase))
    column = game.scorepad.column("Sol")
    assert (column.first_finish_bonus, column.grand_total) == (40, 649 - 10)


def test_roll_off_orders_every_player_by_their_throw():
    game = Game.new(["A", "B", "C", "D"], roll_off=True)
    for player, value in (("A", 6), ("B", 9), ("C", 5), ("D", 8)):
        game.roll_off(player, value)
    assert game.play_order == ("B", "D", "A", "C")  # issue 16's example
    assert [c.player for c in game.scorepad.columns] == ["B", "D", "A", "C"]
    assert game.roll_off_throws == {"A": (6,), "B": (9,), "C": (5,), "D": (8,)}


def test_roll_off_ties_rethrow_among_the_tied_only():
    game = Game.new(["Al", "Bea", "Cy", "Di"], roll_off=True)
    assert game.active_player is None and game.roll_off_pending == ("Al", "Bea", "Cy", "Di")
    with pytest.raises(RollOffError, match="roll-off is not settled"):
        game.score_turn("Al", best_roll(1))
    for player, value in (("Cy", 9), ("Al", 7), ("Di", 9)):
        game.roll_off(player, value)
    assert game.roll_off_pending == ("Bea",)
    game.roll_off("Bea", 5)
    assert game.roll_off_pending == ("Cy", "Di")
    before = snapshot(game)
    with pytest.raises(RollOffError, match="only the tied Cy, Di"):
        game.roll_off("Al", 10)
    game.roll_off("Di", 10)
    with pytest.raises(RollOffError, match="Di has already thrown"):
        game.roll_off("Di", 6)
    game.roll_off("Cy", 10)
    assert game.roll_off_pending == ("Cy", "Di")  # tied again
    game.roll_off("Cy", 6)
    game.roll_off("Di", 8)
    assert game.roll_off_pending == ()
    assert game.play_order == ("Di", "Cy", "Al", "Bea")
    assert game.active_player == "Di" and game.round == 1
    assert game.roll_off_throws == {"Al": (7,), "Bea": (5,), "Cy": (9, 10, 6), "Di": (9, 10, 8)}
    with pytest.raises(RollOffError, match="already settled"):
        game.roll_off("Al", 7)
    game.undo()
    assert game.roll_off_pending == ("Di",) and game.active_player is None
    assert before[1:] == snapshot(game)[1:]


def test_roll_off_ties_below_the_top_are_rethrown_too_in_any_order():
    game = Game.new(["A", "B", "C", "D", "E"], roll_off=True)
    for player, value in (("A", 9), ("B", 9), ("C", 6), ("D", 6), ("E", 7)):
        game.roll_off(player, value)
    assert game.roll_off_pending == ("A", "B", "C", "D")  # two ties, highest first
    game.roll_off("D", 5)  # the lower tie may throw first
    game.roll_off("C", 8)
    assert game.roll_off_pending == ("A", "B")
    game.roll_off("A", 7)
    game.roll_off("B", 10)
    assert game.play_order == ("B", "A", "E", "C", "D")


@pytest.mark.parametrize("value", [4, 11, 0, True, "7", 7.5, None])
def test_roll_off_value_must_be_a_high_die(value):
    game = Game.new(["Al", "Bea"], roll_off=True)
    with pytest.raises(RollOffError, match="expected 5-10"):
        game.roll_off("Al", value)
    assert game.roll_off_pending == ("Al", "Bea") and len(game.events) == 1


def test_roll_off_in_a_game_without_one_is_refused():
    with pytest.raises(RollOffError, match="no roll-off"):
        Game.new(["Al", "Bea"]).roll_off("Al", 8)


NOT_BEA = "it is Al's turn, not Bea's"


def _game_in_progress() -> Game:
    game = Game.new(["Al", "Bea"])
    play_round(game, {"Al": True, "Bea": False})
    return game


@pytest.mark.parametrize(
    ("action", "error", "message"),
    [
        (lambda g: g.score_turn("Bea", best_roll(2)), NotYourTurnError, NOT_BEA),
        (lambda g: g.fail_turn("Bea"), NotYourTurnError, NOT_BEA),
        (lambda g: g.score_turn("Zed", best_roll(2)), UnknownPlayerError, "'Zed' is not a player"),
        (
            lambda g: g.score_turn("Al", parse_roll("10G 10R 10O WB WR")),
            InvalidRollError,
            "needs all 10 dice",
        ),
        (lambda g: g.fail_turn("Al", parse_roll("10G")), InvalidRollError, "needs all 10 dice"),
        (lambda g: g.score_turn("Al", "10G 10R"), InvalidRollError, "is not a Roll"),
        (lambda g: g.score_turn("Al", None), InvalidRollError, "is not a Roll"),
        (
            lambda g: g.score_turn("Al", best_roll(7)),
            PhaseNotMadeError,
            r"1B WB 1O WR 10G 10R 10O 10B 10G 10O does not make Phase 2: 1 set of 3 \+ 1 run of 4",
        ),
        (lambda g: g.score_turn("Al", NEVER), PhaseNotMadeError, "for Al"),
    ],
)
def test_illegal_actions_raise_and_change_nothing(action, error, message):
    game = _game_in_progress()
    before = snapshot(game)
    with pytest.raises(error, match=message):
        action(game)
    assert snapshot(game) == before


def test_actions_after_game_over_raise_and_change_nothing():
    game = Game.new(["Sol"], solitaire=True)
    for phase in range(1, 11):
        game.score_turn("Sol", best_roll(phase))
    before = snapshot(game)
    with pytest.raises(GameOverError):
        game.fail_turn("Sol")
    with pytest.raises(GameOverError):
        game.score_turn("Sol", best_roll(10))
    assert snapshot(game) == before


def test_scorepad_and_turns_are_json_safe():
    game = _game_in_progress()
    data = json.loads(json.dumps(game.scorepad.to_dict()))
    assert data["columns"][0]["phase_scores"][:2] == [60, None]
    assert data["columns"][1]["failed_turns"] == 1
    turns = json.loads(json.dumps([t.to_dict() for t in game.turns]))
    assert turns[1] == {
        "index": 1,
        "round": 1,
        "player": "Bea",
        "phase": 1,
        "roll": str(NEVER),
        "made": False,
        "score": 0,
    }


def test_a_failed_turn_may_leave_out_its_roll():
    game = Game.new(["Al", "Bea"])
    event = game.fail_turn("Al")
    assert event.roll is None and game.turns[0].roll is None

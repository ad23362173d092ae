"""The event log: serialisation, replay, undo and corrections of earlier turns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from game_rolls import NEVER, best_roll, play_all_make, play_round, snapshot

from scorer import (
    DEFAULT_FIRST_FINISH,
    FirstFinishRule,
    Game,
    GameCreated,
    InvalidCorrectionError,
    InvalidEventError,
    InvalidRollError,
    NothingToUndoError,
    NotYourTurnError,
    PhaseNotMadeError,
    RollOffError,
    RollOffThrown,
    TurnCorrected,
    TurnFailed,
    TurnScored,
    Undone,
    UnknownPlayerError,
    event_from_dict,
    parse_roll,
)
from scorer.rules import LEGACY_RULES, RULES


def state(game: Game):
    return game.scorepad, game.turns, game.active_player, game.round, game.is_over


def round_trip(game: Game) -> Game:
    text = json.dumps([event.to_dict() for event in game.events])
    return Game.replay(event_from_dict(data) for data in json.loads(text))


EVENTS = [
    GameCreated(("Al", "Bea"), solitaire=False, roll_off=True),
    GameCreated(("Al", "Bea"), first_finish=FirstFinishRule.ALREADY_ON_PHASE_10),
    GameCreated(("Al", "Bea"), roll_off=True, rules=LEGACY_RULES),
    GameCreated(("Sol",), solitaire=True, roll_off=False),
    RollOffThrown("Al", 9),
    TurnScored("Al", 1, best_roll(1), 60),
    TurnFailed("Bea", 3, NEVER),
    TurnFailed("Bea", 3, None),
    TurnCorrected(4, best_roll(2), True),
    TurnCorrected(0, None, False),
    Undone(),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_every_event_survives_a_json_round_trip(event):
    data = json.loads(json.dumps(event.to_dict()))
    assert data["type"] == event.TYPE
    assert event_from_dict(data) == event


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "turn_won"}, "'turn_won' is not an event type"),
        ({"player": "Al"}, "None is not an event type"),
        ({"type": "roll_off_thrown", "player": "Al"}, "missing 'value'"),
        ({"type": "roll_off_thrown", "player": "Al", "value": "9"}, "value='9': expected int"),
        ({"type": "turn_corrected", "turn": True, "roll": None, "made": False}, "turn=True"),
        ({"type": "turn_failed", "player": "Al", "phase": 1, "roll": "10X"}, "'10X' is not a die"),
        ({"type": "turn_scored", "player": "Al", "phase": 1, "roll": None, "score": 0}, "roll"),
        ({"type": "game_created", "players": "Al", "solitaire": False, "roll_off": False}, "list"),
        ({"type": "game_created", "players": [1], "solitaire": False, "roll_off": False}, "[1]"),
    ],
)
def test_malformed_event_dicts_are_refused_by_name(data, message):
    with pytest.raises(InvalidEventError, match=message):
        event_from_dict(data)


def test_event_from_dict_refuses_a_non_mapping():
    with pytest.raises(InvalidEventError, match="must be a mapping"):
        event_from_dict(["undone"])


def test_replay_rebuilds_the_same_game():
    game = Game.new(["Al", "Bea", "Cy"], roll_off=True)
    for player, value in (("Al", 8), ("Bea", 8), ("Cy", 6), ("Bea", 7), ("Al", 5)):
        game.roll_off(player, value)
    play_all_make(game, 3)
    play_round(game, {"Bea": False, "Al": True, "Cy": False})
    game.undo()
    game.correct_turn(len(game.turns) - 1, None, False)
    copy = round_trip(game)
    assert copy.events == game.events
    assert state(copy) == state(game)
    assert copy.play_order == ("Bea", "Al", "Cy")
    assert copy.rules == RULES and copy.first_finish is DEFAULT_FIRST_FINISH


LEGACY_LOGS = json.loads((Path(__file__).parents[1] / "data" / "legacy_game_logs.json").read_text())


def _state_dict(game: Game) -> dict[str, object]:
    """The fields tests/data/write_legacy_game_logs.py stored for each old game."""
    return {
        "play_order": list(game.play_order),
        "active_player": game.active_player,
        "round": game.round,
        "is_over": game.is_over,
        "winners": list(game.winners),
        "scorepad": game.scorepad.to_dict(),
        "turns": [t.to_dict() for t in game.turns],
    }


@pytest.mark.parametrize("stored", LEGACY_LOGS["games"], ids=["seats-after-winner", "rethrow"])
def test_a_log_from_before_rule_editions_replays_to_the_state_it_had(stored):
    game = Game.replay(event_from_dict(data) for data in stored["events"])
    assert game.rules == LEGACY_RULES and game.first_finish is DEFAULT_FIRST_FINISH
    assert _state_dict(game) == stored["state"]
    assert [event.to_dict() for event in game.events] == stored["events"]  # written back as is
    assert state(round_trip(game)) == state(game)


def test_a_legacy_game_keeps_its_rules_through_undo_and_correction():
    stored = LEGACY_LOGS["games"][0]
    game = Game.replay(event_from_dict(data) for data in stored["events"])
    # Edition 1: Cy made phase 9 on a last try in round 10 and tried 10 in round 11.
    assert [(t.round, t.player, t.phase) for t in game.turns[-2:]] == [
        (11, "Cy", 10),
        (11, "Al", 10),
    ]
    game.undo()  # the correction of turn 0
    game.undo()  # Al's last try
    assert (game.active_player, game.active_phase, game.round) == ("Al", 10, 11)
    copy = round_trip(game)
    assert copy.rules == LEGACY_RULES and state(copy) == state(game)


def test_the_same_old_log_is_refused_by_the_current_rules():
    events = [dict(data) for data in LEGACY_LOGS["games"][0]["events"]]
    events[0] = {**events[0], "rules": RULES, "first_finish": "same_round"}
    # A6 B9 C5 D6: the current rules have Al and Di throw again before anyone plays.
    with pytest.raises(RollOffError, match="event 5 .*waiting for Al, Di"):
        Game.replay(event_from_dict(data) for data in events)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"rules": 3}, "rules=3 is not an edition of the rules: expected 1, 2"),
        ({"rules": True}, "rules=True"),
        ({"rules": "2"}, "rules='2': expected int"),
        ({"first_finish": "2010"}, "'2010' is not a First Finish Bonus rule"),
        ({"first_finish": 1}, "first_finish=1: expected str"),
    ],
)
def test_bad_rules_in_a_log_are_refused_by_name(extra, message):
    data = {**GameCreated(("Al", "Bea")).to_dict(), **extra}
    with pytest.raises(InvalidEventError, match=message):
        event_from_dict(data)


def test_game_created_writes_its_rules_and_a_legacy_one_its_old_form():
    assert GameCreated(("Al", "Bea")).to_dict() == {
        "type": "game_created",
        "players": ["Al", "Bea"],
        "solitaire": False,
        "roll_off": False,
        "first_finish": "same_round",
        "rules": RULES,
    }
    legacy = GameCreated(("Al", "Bea"), rules=LEGACY_RULES)
    assert "rules" not in legacy.to_dict() and "first_finish" not in legacy.to_dict()
    assert event_from_dict(legacy.to_dict()) == legacy


@pytest.mark.parametrize(
    ("events", "error", "message"),
    [
        ([], InvalidEventError, "empty log"),
        ([Undone()], InvalidEventError, "starts with game_created"),
        ([GameCreated((" Al", "Bea"))], InvalidEventError, "untidy"),
        ([GameCreated(("Al", "Bea")), GameCreated(("Al", "Bea"))], InvalidEventError, "cannot"),
        ([GameCreated(("Al", "Bea")), Undone()], NothingToUndoError, "event 1"),
        (
            [GameCreated(("Al", "Bea")), TurnScored("Al", 1, best_roll(1), 59)],
            InvalidEventError,
            "roll scores 60",
        ),
        (
            [GameCreated(("Al", "Bea")), TurnFailed("Al", 2, None)],
            InvalidEventError,
            "Al is on phase 1",
        ),
        (
            [GameCreated(("Al", "Bea")), TurnFailed("Bea", 1, None)],
            NotYourTurnError,
            "event 1 .*it is Al's turn",
        ),
        ([GameCreated(("Al", "Bea")), TurnFailed("al", 1, None)], UnknownPlayerError, "'al'"),
    ],
)
def test_replay_refuses_an_illegal_log(events, error, message):
    with pytest.raises(error, match=message):
        Game.replay(events)


def test_undo_takes_back_actions_one_by_one():
    game = Game.new(["Al", "Bea"])
    states = [state(game)]
    play_round(game, {"Al": True, "Bea": False})
    states.append(state(game))
    game.score_turn("Al", best_roll(2))
    game.undo()
    assert state(game) == states[-1]
    game.undo()
    game.undo()
    assert state(game) == states[0]
    assert [type(e).__name__ for e in game.events[-3:]] == ["Undone"] * 3
    before = snapshot(game)
    with pytest.raises(NothingToUndoError, match="nothing to undo"):
        game.undo()
    assert snapshot(game) == before
    assert state(round_trip(game)) == states[0]


def test_undo_reopens_a_finished_game():
    game = Game.new(["Sol"], solitaire=True)
    for phase in range(1, 11):
        game.score_turn("Sol", best_roll(phase))
    game.undo()
    assert not game.is_over and game.active_phase == 10 and game.winners == ()


def test_correcting_a_failure_to_a_make_shifts_later_phases():
    game = Game.new(["Al", "Bea"])
    game.fail_turn("Al")
    game.fail_turn("Bea")
    game.score_turn("Al", best_roll(2))  # also makes phase 1: 10,10,10 + 10,W,W
    assert game.turns[2].phase == 1 and game.turns[2].score == 40
    event = game.correct_turn(0, best_roll(1), True)
    assert event == TurnCorrected(0, best_roll(1), True)
    assert [(t.phase, t.made, t.score) for t in game.turns] == [
        (1, True, 60),
        (1, False, 0),
        (2, True, 57),
    ]
    assert game.scorepad.column("Al").phase_scores[:3] == (60, 57, None)
    assert game.active_player == "Bea" and game.phase_of("al") == 3
    game.undo()
    assert game.scorepad.column("Al").phase_scores[:2] == (40, None)


def test_correcting_a_roll_changes_the_score():
    game = Game.new(["Al", "Bea"])
    game.score_turn("Al", best_roll(2))
    game.correct_turn(0, best_roll(1), True)
    assert game.scorepad.column("Al").grand_total == 60
    assert game.turns[0].roll == best_roll(1)


def test_correction_that_breaks_a_later_turn_is_refused_and_changes_nothing():
    game = Game.new(["Al", "Bea"])
    game.fail_turn("Al")
    game.fail_turn("Bea")
    game.score_turn("Al", best_roll(7))  # six 10s and two Wilds: phase 1, not phase 2
    before = snapshot(game)
    with pytest.raises(InvalidCorrectionError,
                       match="does not fit .*round .*does not make Phase 2"):
        game.correct_turn(0, best_roll(1), True)
    assert snapshot(game) == before


def test_correction_that_ends_the_game_earlier_is_refused():
    game = Game.new(["Al", "Bea"])
    play_all_make(game, 9)
    play_round(game, {"Al": False, "Bea": False})
    play_round(game, {"Al": True, "Bea": False})  # Al finishes; Bea fails her last try
    assert game.is_over
    with pytest.raises(InvalidCorrectionError, match="does not fit .*game is over"):
        game.correct_turn(18, best_roll(10), True)  # Al would have finished a round earlier


def test_correction_after_the_game_is_over():
    game = Game.new(["Al", "Bea"])
    play_all_make(game, 10)
    assert game.winners == ("Al", "Bea")
    game.correct_turn(1, parse_roll("10G 10R 10O 9B 9G 9O 1B 2B 3R 4R"), True)
    assert game.scorepad.column("Bea").grand_total == 649 - 3
    assert game.winners == ("Al",)
    game.correct_turn(19, None, False)  # Bea failed her last try after all
    assert game.is_over and game.winners == ("Al",) and game.scorepad.column("Bea").out
    game.correct_turn(18, None, False)  # and Al never finished: the game goes on
    assert not game.is_over and not game.scorepad.column("Bea").out
    assert (game.active_player, game.active_phase, game.round) == ("Al", 10, 11)


@pytest.mark.parametrize(
    ("turn", "roll", "made", "error", "message"),
    [
        (3, None, False, InvalidCorrectionError, "3 is not a turn to correct: turns are 0-2"),
        (-1, None, False, InvalidCorrectionError, "-1 is not a turn"),
        (True, None, False, InvalidCorrectionError, "True is not a turn"),
        (0, None, True, InvalidCorrectionError, "needs its roll"),
        (0, best_roll(1), "yes", InvalidCorrectionError, "made='yes'"),
        (0, NEVER, True, PhaseNotMadeError, "does not make Phase 1"),
        (0, parse_roll("10G 10R 10O"), True, InvalidRollError, "needs all 10 dice"),
    ],
)
def test_bad_corrections_raise_and_change_nothing(turn, roll, made, error, message):
    game = Game.new(["Al", "Bea"])
    play_round(game, {"Al": True, "Bea": False})
    game.fail_turn("Al")
    before = snapshot(game)
    with pytest.raises(error, match=message):
        game.correct_turn(turn, roll, made)
    assert snapshot(game) == before

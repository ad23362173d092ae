"""A die doubted for its colour alone (red against orange, its number sure) needs no check
where the phase does not count colour: nine phases of ten. Phase 8 ("7 of all one colour")
still waits for the players, and so does any die whose number is in doubt."""

from __future__ import annotations

from scorepad_helpers import MAKES, reading_of, wait_until

from scorer import Die, get_phase, parse_roll
from vision.camera.camera_contract import RollEvent
from web.table_roll import RollSource, TableRoll


def _camera_game(client, players=("Ann", "Bob")) -> int:
    body = {"players": list(players), "solitaire": len(players) == 1}
    game_id = client.post("/api/games", json=body).json["id"]
    client.put("/api/camera/game", json={"game": game_id})
    return game_id


def _camera_roll(client, watcher, game_id: int, notation: str, **marks) -> dict:
    before = client.get(f"/api/games/{game_id}").json["roll_id"]
    watcher.push(RollEvent(reading_of(notation, **marks), 1))
    return wait_until(lambda: (lambda s: s if s["roll_id"] != before else None)(
        client.get(f"/api/games/{game_id}").json), "the camera's roll")


def test_only_phase_8_counts_colour():
    assert [n for n in range(1, 11) if get_phase(n).is_colour_phase()] == [8]


def test_a_colour_doubt_in_phase_1_is_marked_but_the_score_needs_no_check(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _camera_game(client)
    state = _camera_roll(client, watcher, game_id, MAKES[1][0], colour_doubt=(5,))
    current = state["current"]
    assert [die["unsure"] for die in current["dice"]] == [i == 5 for i in range(10)]
    assert [die["colour_doubt"] for die in current["dice"]] == [i == 5 for i in range(10)]
    assert current["unsure_count"] == 1 and current["colour_doubt_count"] == 1
    assert current["needs_confirmation"] is False
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert scored.status_code == 200
    assert scored.json["scorepad"]["columns"][0]["phase_scores"][0] == MAKES[1][1]


def test_a_number_in_doubt_still_waits_and_the_refusal_names_only_that_die(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _camera_game(client)
    state = _camera_roll(client, watcher, game_id, MAKES[1][0], unsure=(2,), colour_doubt=(5,))
    current = state["current"]
    assert current["needs_confirmation"] is True and current["colour_doubt_count"] == 1
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409
    assert "unsure of die 3 (8G)" in refused.json["error"]
    assert "7R" not in refused.json["error"]
    fixed = client.post(f"/api/games/{game_id}/roll/dice/2", json={"die": "8G"}).json
    assert fixed["current"]["needs_confirmation"] is False
    assert client.post(f"/api/games/{game_id}/score", json={"player": "Ann"}).status_code == 200


def test_in_phase_8_a_colour_doubt_waits_for_the_players(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _camera_game(client, players=("Ann",))
    for phase in range(1, 8):
        client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[phase][0]})
        made = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
        assert made.status_code == 200, made.json
    assert client.get(f"/api/games/{game_id}").json["active_phase"]["number"] == 8
    state = _camera_roll(client, watcher, game_id, MAKES[8][0], colour_doubt=(4,))
    current = state["current"]
    assert current["needs_confirmation"] is True and current["colour_doubt_count"] == 0
    assert current["dice"][4]["unsure"] and not current["dice"][4]["colour_doubt"]
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409 and "unsure of die 5 (9O)" in refused.json["error"]
    confirmed = client.post(f"/api/games/{game_id}/score",
                            json={"player": "Ann", "confirmed": True})
    assert confirmed.status_code == 200


def test_the_table_roll_keeps_its_value_doubts_and_loses_one_when_fixed():
    roll = TableRoll.new(parse_roll(MAKES[1][0]), roll_number=1, source=RollSource.CAMERA,
                         roll_id=3, unsure=[2, 5], value_unsure=[7, 2, 2])
    assert roll.value_unsure == (2, 7)
    # Die 7's value doubted on a face the camera is sure of: never more checks than phase 8.
    assert roll.to_check(phase=1) == (2,)
    assert roll.colour_doubts(phase=1) == (5,)
    assert roll.to_check(phase=8) == (2, 5)
    assert roll.colour_doubts(phase=8) == ()
    assert roll.to_check(phase=None) == (2, 5)  # no phase known: every unsure die
    stored = roll.to_dict()
    assert stored["value_unsure"] == [2, 7] and TableRoll.from_dict(stored) == roll
    # As scored: marked where the players were asked to check (what the profile learns).
    assert roll.as_checked(phase=1).unsure == (2,)
    assert roll.as_checked(phase=8).unsure == (2, 5)
    fixed = roll.with_die(2, Die.from_text("8G"))
    assert fixed.unsure == (5,) and fixed.value_unsure == (7,)
    assert fixed.to_check(phase=1) == ()
    # A roll stored before values were judged apart: every unsure die is checked.
    del stored["value_unsure"]
    older = TableRoll.from_dict(stored)
    assert older.value_unsure is None and older.to_check(phase=1) == (2, 5)
    assert older.colour_doubts(phase=1) == ()

"""A die doubted for its colour alone (red against orange, its number sure) needs no check
where the phase does not count colour: nine phases of ten. Phase 8 ("7 of all one colour")
waits for the players where a colour could change its score; a die whose number is in
doubt waits wherever some face it could show would change the score."""

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


def _scored_as_read(client, game_id: int, phase: int) -> int:
    """Ann's points for `phase` once the roll on the table is scored without a check (the
    score is taken: 200)."""
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert scored.status_code == 200, scored.json
    return scored.json["scorepad"]["columns"][0]["phase_scores"][phase - 1]


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
    assert _scored_as_read(client, game_id, phase=1) == MAKES[1][1]


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


def test_a_number_in_doubt_that_no_face_could_change_needs_no_check(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _camera_game(client)
    # Phase 1 made for 31 (5R 5R 5B and 8O 8B WB): die 1, a low die, as any low face
    # (1-4 or a Wild) leaves the same two sets and points.
    roll = "1B WB 2R 1G 5R 8O 8B 5R 6B 5B"
    state = _camera_roll(client, watcher, game_id, roll, unsure=(0,), value_doubt=(0,))
    current = state["current"]
    assert current["dice"][0]["unsure"] and current["dice"][0]["settled"]
    assert not current["dice"][0]["colour_doubt"]
    assert current["settled_count"] == 1 and current["colour_doubt_count"] == 0
    assert current["needs_confirmation"] is False
    assert _scored_as_read(client, game_id, phase=1) == 31


def test_a_number_in_doubt_between_faces_that_score_alike_needs_no_check(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _camera_game(client)
    # Phase 1 made with 8,8,8 and 10,W,W: die 6 (7R), read as 7 where a 9 is likely too,
    # joins neither set either way. Any face would not do: as a 10 it scores 44.
    state = _camera_roll(client, watcher, game_id, MAKES[1][0], unsure=(5,), value_doubt=(5,),
                         likely={5: "9R"})
    current = state["current"]
    assert current["dice"][5]["settled"] and current["needs_confirmation"] is False
    assert [face["notation"] for face in current["dice"][5]["likely"]] == ["7R", "9R"]
    assert [face["notation"] for face in current["dice"][5]["might_be"]] == ["9R"]
    assert all(die["likely"] is None and die["might_be"] == []
               for i, die in enumerate(current["dice"]) if i != 5)
    assert _scored_as_read(client, game_id, phase=1) == MAKES[1][1]
    # the same doubt untold: a 10 could change the score, so the die waits
    state = _camera_roll(client, watcher, game_id, MAKES[1][0], unsure=(5,), value_doubt=(5,))
    assert state["current"]["needs_confirmation"] is True
    assert state["current"]["dice"][5]["likely"] is None


def _phase_8_game(client) -> int:
    """A solitaire game on the camera whose player has made phases 1-7."""
    game_id = _camera_game(client, players=("Ann",))
    for phase in range(1, 8):
        client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[phase][0]})
        made = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
        assert made.status_code == 200, made.json
    assert client.get(f"/api/games/{game_id}").json["active_phase"]["number"] == 8
    return game_id


def test_in_phase_8_a_colour_doubt_that_could_change_the_score_waits(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _phase_8_game(client)
    # die 5 (9O) is one of the seven orange dice: as another colour, no phase
    state = _camera_roll(client, watcher, game_id, MAKES[8][0], colour_doubt=(4,))
    current = state["current"]
    assert current["needs_confirmation"] is True and current["colour_doubt_count"] == 0
    assert current["colour_counts"] is True
    assert current["dice"][4]["unsure"] and not current["dice"][4]["colour_doubt"]
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409 and "unsure of die 5 (9O)" in refused.json["error"]
    confirmed = client.post(f"/api/games/{game_id}/score",
                            json={"player": "Ann", "confirmed": True})
    assert confirmed.status_code == 200


def test_in_phase_8_a_colour_doubt_no_colour_could_change_needs_no_check(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _phase_8_game(client)
    # die 1 is a Wild beside seven natural orange dice: whatever its colour, 56 points
    state = _camera_roll(client, watcher, game_id, MAKES[8][0], colour_doubt=(0,))
    current = state["current"]
    assert current["needs_confirmation"] is False and current["colour_doubt_count"] == 1
    assert current["dice"][0]["unsure"] and current["dice"][0]["colour_doubt"]
    assert _scored_as_read(client, game_id, phase=8) == MAKES[8][1]


def test_in_phase_8_a_number_in_doubt_brings_the_colour_doubts_back(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _phase_8_game(client)
    # die 2 (4O) is the lowest of the seven orange dice: as a 1O, 53 points
    state = _camera_roll(client, watcher, game_id, MAKES[8][0], unsure=(1,),
                         colour_doubt=(0,))
    assert state["current"]["needs_confirmation"] is True
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409
    assert "unsure of dice 1 (WR), 2 (4O)" in refused.json["error"]
    # the number fixed, the Wild's colour can no longer change the score
    fixed = client.post(f"/api/games/{game_id}/roll/dice/1", json={"die": "4O"}).json
    assert fixed["current"]["needs_confirmation"] is False
    assert fixed["current"]["colour_doubt_count"] == 1


def test_a_phase_8_roll_no_colour_could_make_asks_for_no_check(camera_app, watcher):
    client = camera_app.test_client()
    game_id = _phase_8_game(client)
    # four red dice: with both doubted dice red, six, still short of seven
    state = _camera_roll(client, watcher, game_id, "WR 3G WB 3B 10G 10R 10O 9R 5B 8R",
                         colour_doubt=(4, 6))
    current = state["current"]
    assert current["verdict"]["made"] is False
    assert current["needs_confirmation"] is False and current["colour_doubt_count"] == 2


def test_the_table_roll_keeps_its_value_doubts_and_loses_one_when_fixed():
    roll = TableRoll.new(parse_roll(MAKES[1][0]), roll_number=1, source=RollSource.CAMERA,
                         roll_id=3, unsure=[2, 5], value_unsure=[7, 2, 2])
    assert roll.value_unsure == (2, 7)
    # Die 7's value doubted on a face the camera is sure of: never more checks than phase 8.
    assert roll.to_check(phase=1) == (2,)
    assert roll.unchecked(phase=1) == (5,)
    # Four red dice: whatever the two doubted dice show, no colour reaches seven.
    assert roll.to_check(phase=8) == ()
    assert roll.unchecked(phase=8) == (2, 5)
    assert roll.to_check(phase=None) == (2, 5)  # no phase known: every unsure die
    stored = roll.to_dict()
    assert stored["value_unsure"] == [2, 7] and TableRoll.from_dict(stored) == roll
    # As scored: marked where the players were asked to check (what the profile learns).
    assert roll.as_checked(phase=1).unsure == (2,)
    assert roll.as_checked(phase=8).unsure == ()
    fixed = roll.with_die(2, Die.from_text("8G"))
    assert fixed.unsure == (5,) and fixed.value_unsure == (7,)
    assert fixed.to_check(phase=1) == ()
    # A roll stored before values were judged apart: every unsure die is checked.
    del stored["value_unsure"]
    older = TableRoll.from_dict(stored)
    assert older.value_unsure is None and older.to_check(phase=1) == (2, 5)
    assert older.unchecked(phase=1) == ()

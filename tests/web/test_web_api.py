"""The JSON API through Flask's test client: every action, and every kind of bad input."""

from __future__ import annotations

import json

import pytest
from scorepad_helpers import MAKES, NEVER, make_config

from scorer import Game, parse_roll
from web.app import close_app, create_app
from web.table_roll import RollSource


def new_game(client, players=("Ann", "Bob"), **options) -> dict:
    reply = client.post("/api/games", json={"players": list(players), **options})
    assert reply.status_code == 201, reply.json
    return reply.json


def post(client, game_id: int, action: str, body: dict | None = None, **kwargs):
    return client.post(f"/api/games/{game_id}/{action}", json=body or {}, **kwargs)


def test_new_game_starts_with_the_first_player_on_phase_one(client):
    state = new_game(client)
    assert state["players"] == ["Ann", "Bob"]
    assert state["active_player"] == "Ann"
    assert state["active_phase"] == {"number": 1, "label": "2 sets of 3"}
    assert state["version"] == 1 and state["current"] is None
    columns = state["scorepad"]["columns"]
    assert [c["player"] for c in columns] == ["Ann", "Bob"]
    assert columns[0]["phase_scores"] == [None] * 10 and columns[0]["grand_total"] == 0
    assert [p["label"] for p in state["scorepad"]["phases"]][7] == "7 of all one colour"


def test_hand_entered_roll_gets_the_verdict_with_dice_used_and_wilds(client):
    game = new_game(client)
    state = post(client, game["id"], "roll", {"roll": "8r 8b 8g 10o 5g 7r wr wb 1g 3r"}).json
    current = state["current"]
    assert current["notation"] == "8R 8B 8G 10O 5G 7R WR WB 1G 3R"
    assert current["roll_number"] == 1 and current["source"] == "hand"
    assert [d["colour"] for d in current["dice"][:4]] == ["R", "B", "G", "O"]
    verdict = current["verdict"]
    assert verdict["made"] is True and verdict["score"] == 34  # the rulebook example
    placement = verdict["placement"]
    used = [i for i, place in enumerate(placement) if place is not None]
    assert sorted(used) == [0, 1, 2, 3, 6, 7]
    assert placement[6]["stands_for"] == 10 and placement[7]["stands_for"] == 10
    assert placement[4] is None and placement[8] is None


def test_roll_number_counts_up_to_three_and_restarts_after_the_turn(client):
    game_id = new_game(client)["id"]
    numbers = [
        post(client, game_id, "roll", {"roll": NEVER}).json["current"]["roll_number"]
        for _ in range(4)
    ]
    assert numbers == [1, 2, 3, 3]
    post(client, game_id, "fail", {"player": "Ann"})
    again = post(client, game_id, "roll", {"roll": MAKES[1][0]}).json
    assert again["current"]["roll_number"] == 1
    assert post(client, game_id, "roll", {"roll": NEVER, "roll_number": 2}).json[
        "current"]["roll_number"] == 2


def test_fixing_a_typo_is_not_the_next_roll(client):
    """PUT edits the roll on the table (same number); POST throws the next roll."""
    game_id = new_game(client)["id"]
    first = post(client, game_id, "roll", {"roll": "8R 8B 8G 10O 5G 7R WR WB 1G 3B"}).json
    fixed = client.put(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]}).json
    assert fixed["current"]["roll_number"] == 1 and fixed["current"]["notation"] == MAKES[1][0]
    assert fixed["roll_id"] != first["roll_id"] and fixed["version"] == first["version"]
    hint = client.get(f"/api/games/{game_id}/advice").json
    assert hint["advice"]["rolls_left"] == 2  # still two rolls to come
    second = post(client, game_id, "roll", {"roll": NEVER}).json["current"]
    assert second["roll_number"] == 2
    third = post(client, game_id, "roll", {"roll": NEVER}).json["current"]
    again = client.put(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]}).json["current"]
    assert third["roll_number"] == again["roll_number"] == 3
    post(client, game_id, "fail", {"player": "Ann"})
    empty = client.put(f"/api/games/{game_id}/roll", json={"roll": NEVER}).json["current"]
    assert empty["roll_number"] == 1  # nothing on the table: the fix is roll 1
    assert_refused(client.put(f"/api/games/{game_id}/roll", json={"roll": NEVER,
                                                                  "roll_number": 2}),
                   400, "unknown field 'roll_number'")
    assert_refused(client.put(f"/api/games/{game_id}/roll", json={"roll": " "}), 400,
                   "type the roll first")


def test_take_score_uses_the_roll_on_the_table_and_clears_it(client):
    game_id = new_game(client)["id"]
    post(client, game_id, "roll", {"roll": MAKES[1][0]})
    state = post(client, game_id, "score", {"player": "Ann"}).json
    assert state["scorepad"]["columns"][0]["phase_scores"][0] == 34
    assert state["active_player"] == "Bob" and state["current"] is None
    assert state["turns"][-1]["score"] == 34 and state["turns"][-1]["player"] == "Ann"


def test_fail_then_undo_restores_the_turn(client):
    game_id = new_game(client)["id"]
    failed = post(client, game_id, "fail", {"player": "Ann", "roll": NEVER}).json
    assert failed["active_player"] == "Bob"
    undone = post(client, game_id, "undo").json
    assert undone["active_player"] == "Ann" and undone["turns"] == []
    assert undone["version"] == 3  # the log keeps both events


def test_correct_an_earlier_turn(client):
    game_id = new_game(client)["id"]
    post(client, game_id, "fail", {"player": "Ann", "roll": MAKES[1][0]})
    state = post(client, game_id, "correct", {"turn": 0, "roll": MAKES[1][0], "made": True}).json
    assert state["scorepad"]["columns"][0]["phase_scores"][0] == 34


def test_roll_off_decides_who_starts(client):
    state = new_game(client, ("Ann", "Bob"), roll_off=True)
    assert state["roll_off_pending"] == ["Ann", "Bob"] and state["active_player"] is None
    game_id = state["id"]
    post(client, game_id, "roll-off", {"player": "Ann", "value": 6})
    state = post(client, game_id, "roll-off", {"player": "Bob", "value": 9}).json
    assert state["roll_off_pending"] == [] and state["play_order"][0] == "Bob"
    assert state["active_player"] == "Bob"


def test_solitaire_counts_failed_turns(client):
    game_id = new_game(client, ("Sol",), solitaire=True)["id"]
    state = post(client, game_id, "fail", {"player": "Sol", "roll": NEVER}).json
    column = state["scorepad"]["columns"][0]
    assert state["solitaire"] is True and column["failed_turns"] == 1
    assert column["grand_total"] == -5


def test_tap_corrects_one_die_and_clears_its_unsure_mark(app, client):
    game_id = new_game(client)["id"]
    service = app.extensions["phase10"].service
    service.set_roll(game_id, parse_roll("8R 8B 6G 10O 10G 7R WR 2B 1G 3R"),
                     source=RollSource.CAMERA, unsure=(2, 4))
    before = client.get(f"/api/games/{game_id}").json["current"]
    assert [d["unsure"] for d in before["dice"]][:5] == [False, False, True, False, True]
    assert before["verdict"]["made"] is False
    after = client.post(f"/api/games/{game_id}/roll/dice/2", json={"die": "8g"}).json["current"]
    assert after["notation"].startswith("8R 8B 8G ")
    assert [i for i, d in enumerate(after["dice"]) if d["unsure"]] == [4]
    assert after["verdict"]["made"] is True and after["source"] == "camera"


def test_clear_roll(client):
    game_id = new_game(client)["id"]
    post(client, game_id, "roll", {"roll": NEVER})
    assert client.delete(f"/api/games/{game_id}/roll").json["current"] is None


def test_a_restart_resumes_the_game_and_the_roll_on_the_table(tmp_path):
    config = make_config(tmp_path)
    first = create_app(config)
    client = first.test_client()
    game_id = new_game(client)["id"]
    post(client, game_id, "score", {"player": "Ann", "roll": MAKES[1][0]})
    post(client, game_id, "fail", {"player": "Bob", "roll": NEVER})
    post(client, game_id, "roll", {"roll": MAKES[2][0]})
    before = client.get(f"/api/games/{game_id}").json
    close_app(first)
    second = create_app(config)
    try:
        after = second.test_client().get(f"/api/games/{game_id}").json
    finally:
        close_app(second)
    assert after == before
    assert after["current"]["verdict"]["score"] == MAKES[2][1]


def test_game_list_and_finished_games(client):
    first = new_game(client)["id"]
    second = new_game(client, ("Cy", "Di"))["id"]
    games = client.get("/api/games").json["games"]
    assert [g["id"] for g in games][:2] == [second, first]
    assert games[0]["players"] == ["Cy", "Di"] and games[0]["finished"] is False


def test_a_full_game_to_its_winner_matches_the_engine(client):
    game_id = new_game(client)["id"]
    engine = Game.new(["Ann", "Bob"])
    state = {}
    while not engine.is_over:
        player, phase = engine.active_player, engine.active_phase
        roll = MAKES[phase][0] if player == "Ann" or phase % 3 else NEVER
        action = "score" if roll != NEVER else "fail"
        engine_action = engine.score_turn if action == "score" else engine.fail_turn
        engine_action(player, parse_roll(roll))
        state = post(client, game_id, action, {"player": player, "roll": roll}).json
    assert state["is_over"] and state["winners"] == ["Ann"] == list(engine.winners)
    engine_columns = [column.to_dict() for column in engine.scorepad.columns]
    assert state["scorepad"]["columns"] == engine_columns
    ann = state["scorepad"]["columns"][0]
    assert ann["grand_total"] == sum(score for _, score in MAKES.values()) + 40 + 40
    summary = client.get("/api/games").json["games"][0]
    assert summary["finished"] is True and summary["winners"] == ["Ann"]
    refused = post(client, game_id, "roll", {"roll": NEVER})
    assert refused.status_code == 409 and "over" in refused.json["error"]


def test_score_endpoint_needs_no_game(client):
    verdict = client.get("/api/score", query_string={"roll": MAKES[10][0], "phase": 10}).json
    assert verdict["made"] is True and verdict["score"] == 62
    assert len(verdict["dice"]) == 10


def test_advice_for_the_roll_on_the_table(client):
    game_id = new_game(client)["id"]
    post(client, game_id, "roll", {"roll": NEVER})
    reply = client.get(f"/api/games/{game_id}/advice")
    assert reply.status_code == 200
    assert "Phase 1" in reply.json["text"] and "probability" in json.dumps(reply.json["advice"])
    # a half-typed roll is a slip, refused (issue 46, point 6); the roll stays
    assert_refused(post(client, game_id, "roll", {"roll": "8R 8B"}), 400,
                   "that is 2 dice, and a roll has all ten", "add the other 8")
    assert client.get(f"/api/games/{game_id}").json["current"]["roll_number"] == 1
    # a camera that found only three dice puts a partial roll on the table: no advice
    service = client.application.extensions["phase10"].service
    service.set_roll(game_id, parse_roll("8R 8B 8G"), source=RollSource.CAMERA)
    assert_refused(client.get(f"/api/games/{game_id}/advice"), 400, "all 10 dice")
    client.delete(f"/api/games/{game_id}/roll")
    assert_refused(client.get(f"/api/games/{game_id}/advice"), 400, "no roll")


def test_pages_render(client):
    game_id = new_game(client, ("Ann", "Zoë"))["id"]
    assert b"New game" in client.get("/").data
    page = client.get(f"/games/{game_id}").data.decode()
    assert 'id="scorepad"' in page and "Zo\\u00eb" in page or "Zoë" in page
    svg = client.get("/qr.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.startswith(b"<svg")
    with client.get("/static/game.js") as script:
        assert script.status_code == 200 and b"EventSource" in script.data
    assert b"No camera" in client.get("/camera/").data


# --- bad input: a 4xx JSON error naming what was wrong, and nothing changes -----------------

def assert_refused(reply, status: int, *words: str) -> None:
    assert reply.status_code == status, reply.data
    message = reply.json["error"]
    for word in words:
        assert word in message, message


def test_malformed_notation_names_the_token_and_changes_nothing(client):
    game_id = new_game(client)["id"]
    before = client.get(f"/api/games/{game_id}").json
    assert_refused(post(client, game_id, "roll", {"roll": "8R 11X 5G"}), 400, "'11X'")
    assert_refused(post(client, game_id, "score", {"player": "Ann", "roll": "8R 8P"}), 400, "8P")
    assert_refused(post(client, game_id, "roll", {"roll": "5R 6R 7R 8R 9R 10R 5G"}), 400,
                   "7 high dice")
    assert_refused(post(client, game_id, "roll", {"roll": "  "}), 400, "type the roll first")
    assert_refused(client.post(f"/api/games/{game_id}/roll/dice/0", json={"die": "WR"}), 400,
                   "no roll")
    assert client.get(f"/api/games/{game_id}").json == before


def test_wrong_player_and_rule_refusals_change_nothing(client):
    game_id = new_game(client)["id"]
    before = client.get(f"/api/games/{game_id}").json
    assert_refused(post(client, game_id, "score", {"player": "Bob", "roll": MAKES[1][0]}), 409,
                   "Bob")
    assert_refused(post(client, game_id, "score", {"player": "Zed", "roll": MAKES[1][0]}), 400,
                   "Zed")
    assert_refused(post(client, game_id, "score", {"player": "Ann", "roll": NEVER}), 409)
    assert_refused(post(client, game_id, "score", {"player": "Ann"}), 400, "no roll")
    assert_refused(post(client, game_id, "undo"), 409, "nothing to undo")
    assert_refused(post(client, game_id, "roll-off", {"player": "Ann", "value": 7}), 409)
    assert client.get(f"/api/games/{game_id}").json == before


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, ("'player'",)),
        ({"player": 3}, ("'player'", "str")),
        ({"player": "Ann", "roll": 5}, ("'roll'",)),
        ({"player": "Ann", "roll": NEVER, "version": True}, ("'version'",)),
    ],
)
def test_missing_or_mistyped_fields_are_named(client, body, words):
    game_id = new_game(client)["id"]
    assert_refused(post(client, game_id, "fail", body), 400, *words)


def test_stale_version_is_a_conflict(client):
    game_id = new_game(client)["id"]
    post(client, game_id, "fail", {"player": "Ann"})
    assert_refused(post(client, game_id, "fail", {"player": "Bob", "version": 1}), 409, "moved on")


def test_a_phone_that_showed_an_older_roll_cannot_take_the_score(client):
    """version counts game events; the roll id changes with every roll put on the table."""
    game_id = new_game(client)["id"]
    shown = post(client, game_id, "roll", {"roll": MAKES[1][0]}).json  # what phone A shows
    assert isinstance(shown["roll_id"], int)
    newer = post(client, game_id, "roll", {"roll": NEVER}).json  # the next roll, from phone B
    assert newer["version"] == shown["version"] and newer["roll_id"] != shown["roll_id"]
    stale = {"player": "Ann", "version": shown["version"], "roll_id": shown["roll_id"]}
    assert_refused(post(client, game_id, "score", stale), 409, "roll on the table has changed")
    assert_refused(post(client, game_id, "fail", stale), 409, "roll on the table has changed")
    assert client.get(f"/api/games/{game_id}").json["version"] == shown["version"]

    fixed = client.post(f"/api/games/{game_id}/roll/dice/0", json={"die": "8R"}).json
    assert fixed["roll_id"] not in (shown["roll_id"], newer["roll_id"])  # a correction too
    assert_refused(post(client, game_id, "fail", {"player": "Ann", "roll_id": newer["roll_id"]}),
                   409, "changed")
    cleared = client.delete(f"/api/games/{game_id}/roll").json
    assert cleared["roll_id"] is None
    assert_refused(post(client, game_id, "fail", {"player": "Ann", "roll_id": fixed["roll_id"]}),
                   409, "no roll is there")
    again = post(client, game_id, "roll", {"roll": MAKES[1][0]}).json
    assert again["roll_id"] > fixed["roll_id"]  # ids are never handed out twice
    took = post(client, game_id, "score", {"player": "Ann", "version": again["version"],
                                           "roll_id": again["roll_id"]})
    assert took.status_code == 200 and took.json["roll_id"] is None
    assert_refused(post(client, game_id, "fail", {"player": "Bob", "roll_id": "7"}), 400,
                   "'roll_id'")


def test_unknown_game_action_and_route(client):
    assert_refused(client.get("/api/games/99"), 404, "99")
    assert_refused(post(client, 99, "score", {"player": "Ann", "roll": MAKES[1][0]}), 404, "99")
    assert_refused(post(client, 99, "roll", {"roll": NEVER}), 404, "99")
    assert client.get("/stream/games/99").status_code == 404
    assert client.get("/games/99").status_code == 404
    game_id = new_game(client)["id"]
    assert_refused(post(client, game_id, "cheat"), 400, "cheat")
    assert_refused(client.get("/api/nothing-here"), 404)


def test_bad_new_game_requests(client):
    assert_refused(client.post("/api/games", json={"players": ["Ann"]}), 400, "2-12 players")
    assert_refused(client.post("/api/games", json={"players": ["Ann", "ann"]}), 400, "twice")
    assert_refused(client.post("/api/games", json={"players": "Ann,Bob"}), 400, "'players'")
    assert_refused(client.post("/api/games", json={"players": ["Ann", 7]}), 400, "names")
    assert_refused(client.post("/api/games", json={"players": ["A", "B"], "solitaire": "yes"}),
                   400, "'solitaire'")
    assert client.get("/api/games").json["games"] == []


HUGE_ID = 1180591620717411303424  # 2**70: more than SQLite's integers hold


def test_requests_that_gave_a_500_get_a_clear_4xx(client):
    """Issue 11: a superscript digit, an id past 64 bits, a body nested 10 kB deep."""
    reply = client.get("/api/score", query_string={"roll": MAKES[1][0], "phase": "¹"})
    assert_refused(reply, 400, "'phase'", "1-10")
    assert_refused(client.get("/api/score", query_string={"roll": NEVER, "phase": "١"}), 400,
                   "'phase'")
    assert_refused(client.get(f"/api/games/{HUGE_ID}"), 404, f"no game {HUGE_ID}")
    for action, body in (("score", {"player": "Ann"}), ("roll", {"roll": NEVER}), ("undo", {})):
        assert_refused(post(client, HUGE_ID, action, body), 404, f"no game {HUGE_ID}")
    assert client.get(f"/games/{HUGE_ID}").status_code == 404
    assert client.get(f"/stream/games/{HUGE_ID}").status_code == 404
    nested = "[" * 5000 + "]" * 5000
    for body in (nested, '{"players": ' + nested + "}"):
        reply = client.post("/api/games", data=body, content_type="application/json")
        assert_refused(reply, 400, "nested too deeply")
    assert client.get("/api/games").json["games"] == []


def test_solitaire_with_a_roll_off_is_refused(client):
    reply = client.post("/api/games", json={"players": ["Ann"], "solitaire": True,
                                            "roll_off": True})
    assert_refused(reply, 400, "'solitaire'", "'roll_off'")
    assert client.get("/api/games").json["games"] == []
    assert new_game(client, ["Ann"], solitaire=True, roll_off=False)["roll_off_pending"] == []


@pytest.mark.parametrize(
    ("method", "path", "body", "field"),
    [
        ("post", "/api/games", {"players": ["Ann", "Bob"], "rolloff": True}, "rolloff"),
        ("post", "/api/games/{id}/roll", {"roll": NEVER, "roll_nuber": 2}, "roll_nuber"),
        ("post", "/api/games/{id}/roll/dice/0", {"die": "8G", "unsure": False}, "unsure"),
        ("delete", "/api/games/{id}/roll", {"everything": True}, "everything"),
        ("post", "/api/games/{id}/score", {"player": "Ann", "verison": 1}, "verison"),
        ("post", "/api/games/{id}/fail", {"player": "Ann", "score": 0}, "score"),
        ("post", "/api/games/{id}/undo", {"player": "Ann"}, "player"),
        ("post", "/api/games/{id}/roll-off", {"player": "Ann", "value": 9, "x": 1}, "x"),
        ("post", "/api/games/{id}/correct", {"turn": 0, "roll": NEVER, "made": False,
                                             "score": 3}, "score"),
        ("put", "/api/camera/tray", {"points": [[0, 0], [1, 0], [1, 1], [0, 1]], "pts": 1},
         "pts"),
        ("post", "/api/camera/exposure/lock", {"control": {}}, "control"),
    ],
)
def test_unknown_fields_are_refused_by_name(client, method, path, body, field):
    game = new_game(client)
    post(client, game["id"], "roll", {"roll": NEVER})
    reply = getattr(client, method)(path.format(id=game["id"]), json=body)
    assert_refused(reply, 400, f"unknown field '{field}'")
    after = client.get(f"/api/games/{game['id']}").json
    assert after["version"] == game["version"] and after["current"]["notation"] == NEVER
    assert len(client.get("/api/games").json["games"]) == 1
    # "pin" is always taken, with or without a table PIN.
    assert post(client, game["id"], "undo", {"pin": "1234"}).status_code == 409


def test_body_that_is_not_a_json_object(client):
    game_id = new_game(client)["id"]
    for data in ("[1, 2]", "not json", '"text"'):
        reply = client.post(f"/api/games/{game_id}/fail", data=data,
                            content_type="application/json")
        assert_refused(reply, 400, "JSON object")


def test_oversized_body_is_refused(app, client):
    game_id = new_game(client)["id"]
    limit = app.config["MAX_CONTENT_LENGTH"]
    huge = json.dumps({"player": "Ann", "roll": NEVER, "padding": "x" * limit})
    reply = client.post(f"/api/games/{game_id}/fail", data=huge, content_type="application/json")
    assert_refused(reply, 413, "too large")
    assert client.get(f"/api/games/{game_id}").json["version"] == 1


def test_table_pin_guards_every_change(tmp_path):
    app = create_app(make_config(tmp_path, pin="2468"))
    client = app.test_client()
    try:
        assert_refused(client.post("/api/games", json={"players": ["Ann", "Bob"]}), 401, "PIN")
        assert client.get("/api/games").json["games"] == []
        ok = client.post("/api/games", json={"players": ["Ann", "Bob"]},
                         headers={"X-Table-Pin": "2468"})
        assert ok.status_code == 201
        game_id = ok.json["id"]
        body = {"player": "Ann", "roll": MAKES[1][0]}
        assert_refused(post(client, game_id, "score", body), 401, "PIN")
        assert_refused(post(client, game_id, "score", body, headers={"X-Table-Pin": "1111"}),
                       403, "wrong")
        assert_refused(post(client, game_id, "roll", {"roll": NEVER, "pin": "0000"}), 403)
        assert_refused(client.delete(f"/api/games/{game_id}/roll"), 401)
        assert client.get(f"/api/games/{game_id}").json["version"] == 1  # reads need no PIN
        assert post(client, game_id, "score", {**body, "pin": "2468"}).status_code == 200
        assert client.get("/api/config").json["pin_required"] is True
    finally:
        close_app(app)


def test_a_failed_save_changes_nothing(app, client, monkeypatch):
    import sqlite3

    game_id = new_game(client)["id"]
    store = app.extensions["phase10"].store

    def disk_full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "append_event", disk_full)
    reply = post(client, game_id, "score", {"player": "Ann", "roll": MAKES[1][0]})
    assert_refused(reply, 503, "disk is full")
    monkeypatch.undo()
    state = client.get(f"/api/games/{game_id}").json
    assert state["version"] == 1 and state["active_player"] == "Ann"
    assert post(client, game_id, "score", {"player": "Ann", "roll": MAKES[1][0]}).status_code == 200


def test_twelve_players_start_a_game_and_thirteen_are_refused(client):
    names = [f"Player {i}" for i in range(1, 14)]
    state = new_game(client, names[:12])
    assert state["players"] == names[:12] and len(state["scorepad"]["columns"]) == 12
    refused = client.post("/api/games", json={"players": names})
    assert_refused(refused, 400, "2-12 players", "got 13")


class FakeClock:
    """The PIN guard's clock, moved by hand (no test waits for real time)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_pins_slow_down_then_lock_out_one_client_not_the_table(tmp_path):
    from web.pin_guard import FREE_TRIES, LOCKOUT_AFTER, LOCKOUT_S

    app = create_app(make_config(tmp_path, pin="2468"))
    clock = FakeClock()
    guard = app.extensions["phase10"].pins
    guard._clock = clock
    client = app.test_client()
    attacker = {"REMOTE_ADDR": "192.168.1.66"}
    family = {"REMOTE_ADDR": "192.168.1.20"}

    def roll(pin: str, who: dict):
        return client.post(f"/api/games/{game_id}/roll", json={"roll": NEVER},
                           headers={"X-Table-Pin": pin}, environ_base=who)

    try:
        game_id = new_game(client, pin="2468")["id"]
        for _ in range(FREE_TRIES):  # a few wrong PINs are checked at once
            assert_refused(roll("0000", attacker), 403, "wrong")
        assert_refused(roll("0001", attacker), 403, "wrong")
        # now the attacker must wait 1 s: any PIN, even the right one, is refused unchecked
        slowed = roll("2468", attacker)
        assert_refused(slowed, 429, "slowed down", "other phones")
        assert slowed.headers["Retry-After"] == "1"
        assert roll("2468", family).status_code == 200  # the table plays on meanwhile
        waits = []
        for _ in range(FREE_TRIES + 1, LOCKOUT_AFTER - 1):
            clock.now += 3600  # long enough for any wait before the lock-out
            assert_refused(roll("0002", attacker), 403, "wrong")
            waits.append(int(roll("0003", attacker).headers["Retry-After"]))
        assert waits == sorted(waits) and waits[-1] > waits[0]  # each wait longer
        clock.now += 3600
        assert_refused(roll("0004", attacker), 403, "wrong")  # the last wrong PIN: locked out
        locked = roll("2468", attacker)
        assert_refused(locked, 429, "locked out", "15 minutes")
        assert int(locked.headers["Retry-After"]) == LOCKOUT_S
        clock.now += LOCKOUT_S - 1
        assert_refused(roll("2468", attacker), 429, "locked out")
        assert client.get(f"/api/games/{game_id}", environ_base=attacker).status_code == 200
        assert roll("2468", family).status_code == 200  # reads and other phones unaffected
        clock.now += 2
        assert_refused(roll("0005", attacker), 403)  # after the lock-out: one more wrong PIN...
        assert_refused(roll("2468", attacker), 429, "locked out")  # ...locks it out again
        clock.now += LOCKOUT_S
        assert roll("2468", attacker).status_code == 200  # the right PIN clears the count
        assert guard.wrong_count("192.168.1.66") == 0
        assert_refused(roll("0006", attacker), 403, "wrong")
        assert roll("2468", attacker).status_code == 200
    finally:
        close_app(app)


def test_every_4_digit_pin_takes_days_from_one_client():
    from web.pin_guard import PinGuard

    clock = FakeClock()
    guard = PinGuard(clock)
    start, tries = clock.now, 0
    while tries < 10_000:
        try:
            guard.check_allowed("phone")
        except PermissionError as error:
            clock.now += error.retry_after  # the attacker waits exactly as told
            continue
        guard.wrong("phone")
        tries += 1
    assert clock.now - start > 100 * 24 * 3600


def test_a_roll_on_a_finished_game_is_409_as_documented(client):
    game_id = new_game(client, ["Ann"], solitaire=True)["id"]
    for phase in range(1, 11):
        assert post(client, game_id, "score", {"player": "Ann", "roll": MAKES[phase][0]}
                    ).status_code == 200
    assert_refused(post(client, game_id, "roll", {"roll": NEVER}), 409, "over")
    assert_refused(client.put(f"/api/games/{game_id}/roll", json={"roll": NEVER}), 409, "over")


def test_score_query_says_explained_like_the_state_and_the_cli(client):
    made = client.get("/api/score", query_string={"roll": MAKES[1][0], "phase": "1"}).json
    assert made["explained"] is True and made["made"] is True
    two_5g = client.get("/api/score", query_string={"roll": "8R 8B 5G 10O 5G 7R 2R 1B 1G 3R",
                                                    "phase": "1"}).json
    assert two_5g["explained"] is False  # no set of the ten dice shows these faces at once



@pytest.mark.parametrize(("roll", "roll_number", "expected"), [
    ("8R 8B 5G 10O 5R 7R 1B 2B 1G 3R", 1,
     "Keep the two 8s and the two 5s for 2 sets of 3, and re-roll the other 6 dice: "
     "94 % chance to make Phase 1 this turn."),
    ("8R 8B 8G 10O 5G 7R WR WB 1G 3R", 1,
     "Keep the three 8s, the 10 and the two Wilds for 2 sets of 3, and re-roll the other 4 "
     "dice: 100 % chance to make Phase 1 this turn. "
     "(This roll already makes it for 34 points.)"),
    ("8R 8B 8G 10O 5G 7R WR WB 1G 3R", 3,
     "Take the score: this roll makes Phase 1 (2 sets of 3) for 34 points."),
])
def test_the_hint_names_the_dice_the_phase_uses_in_plain_words(client, roll, roll_number,
                                                                 expected):
    game_id = new_game(client)["id"]
    post(client, game_id, "roll", {"roll": roll, "roll_number": roll_number})
    reply = client.get(f"/api/games/{game_id}/advice").json
    assert reply["text"] == expected
    assert reply["short"].startswith("keep ")  # the advisor's own line, for scripts

"""A correction's preview (issue 16): which later turns change, worked out by the engine's
replay before the correction is confirmed; nothing changes until it is."""

from __future__ import annotations

from scorepad_helpers import MAKES, NEVER, make_config

from scorer import Game, parse_roll
from web.app import close_app, create_app


def played(client) -> int:
    """Ann misses phase 1, Bob makes it, Ann makes it, Bob and Ann miss phase 2."""
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    for player, roll, action in (("Ann", NEVER, "fail"), ("Bob", MAKES[1][0], "score"),
                                 ("Ann", MAKES[1][0], "score"), ("Bob", NEVER, "fail"),
                                 ("Ann", NEVER, "fail")):
        reply = client.post(f"/api/games/{game_id}/{action}", json={"player": player,
                                                                    "roll": roll})
        assert reply.status_code == 200, reply.json
    return game_id


def test_the_engine_previews_a_correction_without_changing_the_game():
    game = Game.new(["Ann", "Bob"])
    game.fail_turn("Ann", parse_roll(NEVER))
    game.score_turn("Bob", parse_roll(MAKES[1][0]))
    game.score_turn("Ann", parse_roll(MAKES[1][0]))
    events = game.events
    preview = game.preview_correction(0, parse_roll(MAKES[1][0]), True)
    assert game.events == events and game.turns[0].made is False
    assert preview.turn.changed == ("made", "score", "roll")
    assert [(c.after.index, c.before.phase, c.after.phase) for c in preview.later] == [(2, 1, 2)]
    assert preview.totals_before == {"Ann": 34, "Bob": 34}
    game.correct_turn(0, parse_roll(MAKES[1][0]), True)
    assert preview.totals_after == {c.player: c.grand_total for c in game.scorepad.columns}
    assert game.turns[2] == preview.later[0].after


def test_the_preview_lists_the_later_turns_that_change_and_the_correction_follows_it(client):
    game_id = played(client)
    before = client.get(f"/api/games/{game_id}").json
    reply = client.post(f"/api/games/{game_id}/correct/preview",
                        json={"turn": 0, "roll": MAKES[1][0], "made": True})
    assert reply.status_code == 200, reply.json
    preview = reply.json
    assert preview["game"] == game_id and preview["version"] == before["version"]
    assert preview["turn"]["index"] == 0 and preview["turn"]["after"]["made"] is True
    assert [(t["index"], t["player"], t["changed"]) for t in preview["later"]] == [
        (2, "Ann", ["phase", "score"]), (4, "Ann", ["phase"])]
    assert preview["later"][0]["before"]["phase"] == 1
    assert preview["later"][0]["after"]["phase"] == 2
    assert preview["totals"]["Ann"] == {"before": 34, "after": 34 + preview["later"][0][
        "after"]["score"]}
    assert preview["next"]["after"] == {"player": "Bob", "phase": 2}
    assert client.get(f"/api/games/{game_id}").json == before  # nothing changed

    corrected = client.post(f"/api/games/{game_id}/correct", json={
        "turn": 0, "roll": MAKES[1][0], "made": True, "version": preview["version"],
        "roll_id": before["roll_id"]}).json
    for change in preview["later"]:
        turn = corrected["turns"][change["index"]]
        assert {key: turn[key] for key in change["after"]} == change["after"]
    totals = {c["player"]: c["grand_total"] for c in corrected["scorepad"]["columns"]}
    assert totals == {name: t["after"] for name, t in preview["totals"].items()}


def test_a_correction_that_changes_no_later_turn(client):
    game_id = played(client)
    preview = client.post(f"/api/games/{game_id}/correct/preview",
                          json={"turn": 3, "roll": MAKES[1][0], "made": False}).json
    assert preview["later"] == [] and preview["turn"]["changed"] == ["roll"]


def test_a_missed_phase_moves_the_players_later_turns_back(client):
    game_id = played(client)
    preview = client.post(f"/api/games/{game_id}/correct/preview",
                          json={"turn": 1, "roll": NEVER, "made": False}).json
    assert [(t["index"], t["player"], t["before"]["phase"], t["after"]["phase"])
            for t in preview["later"]] == [(3, "Bob", 2, 1)]
    assert preview["totals"]["Bob"] == {"before": 34, "after": 0}
    assert preview["next"]["after"] == {"player": "Bob", "phase": 1}


def test_the_preview_is_refused_as_the_correction_would_be(client):
    game_id = played(client)
    bad = {"turn": 0, "roll": NEVER, "made": True}  # NEVER makes no phase
    preview = client.post(f"/api/games/{game_id}/correct/preview", json=bad)
    correct = client.post(f"/api/games/{game_id}/correct", json=bad)
    assert preview.status_code == correct.status_code == 409
    assert preview.json == correct.json
    stale = client.post(f"/api/games/{game_id}/correct/preview",
                        json={"turn": 0, "roll": NEVER, "made": False, "version": 2})
    assert stale.status_code == 409 and "moved on" in stale.json["error"]
    typo = client.post(f"/api/games/{game_id}/correct/preview",
                       json={"turn": 0, "roll": NEVER, "made": False, "dry": True})
    assert typo.status_code == 400 and "'dry'" in typo.json["error"]
    assert client.post("/api/games/99/correct/preview",
                       json={"turn": 0, "roll": NEVER, "made": False}).status_code == 404
    cards = client.post("/api/games", json={"players": ["A", "B"], "game": "cards"}).json["id"]
    assert client.post(f"/api/games/{cards}/correct/preview",
                       json={"turn": 0, "roll": NEVER, "made": False}).status_code == 400


def test_the_preview_needs_no_pin_the_correction_does(tmp_path):
    app = create_app(make_config(tmp_path, pin="2468"))
    client = app.test_client()
    pin = {"X-Table-Pin": "2468"}
    try:
        game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]},
                              headers=pin).json["id"]
        client.post(f"/api/games/{game_id}/fail", json={"player": "Ann"}, headers=pin)
        body = {"turn": 0, "roll": MAKES[1][0], "made": True}
        assert client.post(f"/api/games/{game_id}/correct/preview", json=body).status_code \
            == 200
        assert client.post(f"/api/games/{game_id}/correct", json=body).status_code == 401
    finally:
        close_app(app)

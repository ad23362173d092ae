"""The card game through the JSON API (issue 17): start, hands, every refusal, undo,
correction, the end and the winner option, storage across a restart, live updates,
and the dice game's calls refused by name."""

from __future__ import annotations

import json

import pytest
from scorepad_helpers import MAKES, NEVER, make_config

from web.app import close_app, create_app, table_of

PLAYERS = ["Ann", "Bob", "Cy"]


def new_cards(client, players=PLAYERS, **options) -> dict:
    reply = client.post("/api/games", json={"players": players, "game": "cards", **options})
    assert reply.status_code == 201, reply.json
    return reply.json


def line(player: str, made: bool, points: int) -> dict:
    return {"player": player, "made": made, "points": points}


def out(winner: str, players=PLAYERS, points: int = 25) -> list[dict]:
    return [line(p, True, 0) if p == winner else line(p, False, points) for p in players]


def play(client, state: dict, hand: list[dict], **extra) -> dict:
    reply = client.post(f"/api/games/{state['id']}/hand", json={"hand": hand, **extra})
    assert reply.status_code == 200, reply.json
    return reply.json


def refused(reply, status: int, words: str) -> None:
    assert reply.status_code == status, reply.json
    assert words in reply.json["error"], reply.json["error"]


def test_start_a_card_game_and_record_a_hand(client):
    state = new_cards(client)
    assert state["game"] == "cards" and state["hand"] == 1 and state["version"] == 1
    assert state["winner_rule"]["rule"] == "lowest_total"
    assert [v["points"] for v in state["card_values"]] == [5, 10, 25]
    assert state["current"] is None and state["camera"] is False
    state = play(client, state, [line("Ann", True, 0), line("Bob", False, 45),
                                 line("cy", True, 10)], version=1)
    assert state["hand"] == 2 and state["version"] == 2
    columns = {c["player"]: c for c in state["scorepad"]["columns"]}
    assert columns["Ann"]["phase_hands"][0] == 1 and columns["Ann"]["current_phase"] == 2
    assert columns["Bob"]["current_phase"] == 1 and columns["Bob"]["hand_points"] == [45]
    assert columns["Cy"]["grand_total"] == 10
    assert state["hands"][0]["went_out"] == ["Ann"]
    assert state["hands"][0]["results"][1] == {"player": "Bob", "phase": 1, "made": False,
                                               "points": 45}
    assert client.get(f"/api/games/{state['id']}").json == state


def test_dice_games_stay_the_default_and_say_so(client):
    reply = client.post("/api/games", json={"players": ["Ann", "Bob"]})
    assert reply.status_code == 201 and reply.json["game"] == "dice"
    assert reply.json["scorepad"]["columns"][0]["phase_scores"] == [None] * 10


@pytest.mark.parametrize(("body", "words"), [
    ({"players": PLAYERS, "game": "chess"}, "'chess' is not a game"),
    ({"players": PLAYERS, "game": "cards", "winner": "highest"}, "'highest' is not a card game"),
    ({"players": PLAYERS, "game": "cards", "roll_off": True}, "'roll_off' is an option of dice"),
    ({"players": PLAYERS, "game": "cards", "solitaire": False}, "'solitaire' is an option"),
    ({"players": PLAYERS, "winner": "lowest_total"}, "'winner' is an option of card games"),
    ({"players": ["Solo"], "game": "cards"}, "2-12 players"),
    ({"players": ["Ann", "ann"], "game": "cards"}, "used twice"),
    ({"players": PLAYERS, "game": 1}, "field 'game' must be str"),
])
def test_bad_card_game_options_are_refused_by_name(client, body, words):
    refused(client.post("/api/games", json=body), 400, words)


@pytest.mark.parametrize(("hand", "words"), [
    ([line("Ann", True, 0), line("Bob", False, 5)], "no result for Cy"),
    ([line("Ann", True, 0), line("Bob", False, 5), line("Cy", False, 5), line("BOB", True, 5)],
     "Bob is in this hand twice"),
    ([line("Ann", True, 0), line("Bob", False, -10), line("Cy", False, 5)],
     "Bob's points are -10: points cannot be negative"),
    ([line("Ann", True, 0), line("Bob", False, 7), line("Cy", False, 5)],
     "Bob's points are 7: not a multiple of 5"),
    ([line("Ann", True, 5), line("Bob", False, 5), line("Cy", False, 5)], "nobody has 0 points"),
    ([line("Ann", True, 0), line("Bob", False, 0), line("Cy", False, 5)], "Ann and Bob all have 0"),
    ([line("Ann", False, 0), line("Bob", False, 5), line("Cy", False, 5)],
     "did not make the phase"),
    ([line("Ann", True, 0), line("Bob", False, 5), line("Dee", False, 5)],
     "'Dee' is not a player"),
    ([line("Ann", True, 0), line("Bob", "yes", 5), line("Cy", False, 5)], "true or false"),
    ([line("Ann", True, 0), line("Bob", False, "5"), line("Cy", False, 5)], "whole number"),
    ([line("Ann", True, 0), line("Bob", False, True), line("Cy", False, 5)], "whole number"),
    ([{"player": "Ann", "made": True}], "missing 'points'"),
    (["Ann"], "not an object"),
    ("Ann 0", "field 'hand' must be list"),
])
def test_every_impossible_hand_is_refused_with_400_naming_it_and_changes_nothing(
        client, hand, words):
    state = new_cards(client)
    refused(client.post(f"/api/games/{state['id']}/hand", json={"hand": hand}), 400, words)
    assert client.get(f"/api/games/{state['id']}").json == state


def test_hand_body_and_guards(client):
    state = new_cards(client)
    base = f"/api/games/{state['id']}/hand"
    refused(client.post(base, json={}), 400, "missing field 'hand'")
    refused(client.post(base, json={"hand": out("Ann"), "player": "Ann"}), 400,
            "unknown field 'player'")
    refused(client.post(base, json={"hand": out("Ann"), "version": 7}), 409, "moved on")
    refused(client.post("/api/games/999/hand", json={"hand": out("Ann")}), 404, "no game 999")


def _to_the_end(client, state: dict) -> dict:
    """Ann goes out nine times (to phase 10), Cy once, then Ann completes phase 10."""
    for _ in range(9):
        state = play(client, state, [line("Ann", True, 0), line("Bob", False, 100),
                                     line("Cy", False, 5)])
    state = play(client, state, [line("Ann", False, 80), line("Bob", False, 5),
                                 line("Cy", True, 0)])
    return play(client, state, [line("Ann", True, 0), line("Bob", False, 5),
                                line("Cy", False, 5)])


def test_the_game_ends_with_the_hand_that_completes_phase_10_and_the_lowest_total_wins(client):
    state = _to_the_end(client, new_cards(client))
    assert state["is_over"] and state["winners"] == ["Cy"] and state["hand"] == 11
    totals = {c["player"]: c["grand_total"] for c in state["scorepad"]["columns"]}
    assert totals == {"Ann": 80, "Bob": 910, "Cy": 50}
    refused(client.post(f"/api/games/{state['id']}/hand", json={"hand": out("Bob")}), 409,
            "the game is over")
    listed = {g["id"]: g for g in client.get("/api/games").json["games"]}[state["id"]]
    assert listed["game"] == "cards" and listed["finished"] and listed["winners"] == ["Cy"]
    assert listed["totals"] == totals


def test_the_printed_rule_option_crowns_the_lowest_among_those_who_completed_phase_10(client):
    state = new_cards(client, winner="lowest_with_phase_10")
    assert "completed phase 10" in state["winner_rule"]["description"]
    state = _to_the_end(client, state)
    assert state["winners"] == ["Ann"]


def test_undo_and_correcting_an_earlier_hand(client):
    state = new_cards(client)
    state = play(client, state, out("Ann"))
    state = play(client, state, out("Bob"))
    base = f"/api/games/{state['id']}"
    corrected = client.put(f"{base}/hands/0", json={
        "hand": [line("Ann", True, 0), line("Bob", True, 10), line("Cy", False, 25)],
        "version": state["version"]})
    assert corrected.status_code == 200, corrected.json
    after = corrected.json
    bob = {c["player"]: c for c in after["scorepad"]["columns"]}["Bob"]
    assert bob["phase_hands"][:2] == [1, 2] and bob["hand_points"] == [10, 0]
    assert after["hands"][1]["results"][1]["phase"] == 2
    refused(client.put(f"{base}/hands/5", json={"hand": out("Ann")}), 409,
            "5 is not a hand to correct")
    refused(client.put(f"{base}/hands/0", json={"hand": out("Ann", points=3)}), 400,
            "not a multiple of 5")
    undone = client.post(f"{base}/undo", json={"version": after["version"]}).json
    assert undone["scorepad"] == state["scorepad"]
    undone = client.post(f"{base}/undo", json={}).json
    undone = client.post(f"{base}/undo", json={}).json
    assert undone["hands"] == []
    refused(client.post(f"{base}/undo", json={}), 409, "nothing to undo")


def test_the_dice_calls_are_refused_by_name_on_a_card_game_and_the_hand_on_a_dice_game(client):
    state = new_cards(client)
    base = f"/api/games/{state['id']}"
    refused(client.post(f"{base}/score", json={"player": "Ann", "roll": MAKES[1][0]}), 400,
            "is a card game, which has no action 'score'")
    refused(client.post(f"{base}/roll", json={"roll": NEVER}), 400,
            "card game: there are no dice")
    dice = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json
    refused(client.post(f"/api/games/{dice['id']}/hand", json={"hand": out("Ann", ["Ann", "Bob"])}),
            400, "is a dice game, which has no action 'hand'")


def test_a_card_game_is_stored_and_resumes_after_a_restart(tmp_path):
    app = create_app(make_config(tmp_path))
    client = app.test_client()
    state = play(client, new_cards(client), out("Bob"))
    close_app(app)
    again = create_app(make_config(tmp_path))
    try:
        resumed = again.test_client().get(f"/api/games/{state['id']}").json
        assert resumed["scorepad"] == state["scorepad"] and resumed["hands"] == state["hands"]
        stored = table_of(again).store.load(state["id"])
        assert stored.events[0]["type"] == "card_game_created"
        assert stored.settings["game"] == "cards"
    finally:
        close_app(again)


def test_a_hand_is_announced_on_the_live_stream(app, client):
    state = new_cards(client)
    subscription = table_of(app).hub.subscribe(f"game:{state['id']}")
    play(client, state, out("Cy"))
    message = subscription.get(timeout=5)
    assert message.event == "state"
    assert message.data["hands"][0]["went_out"] == ["Cy"]
    assert json.loads(json.dumps(message.data)) == message.data


def test_the_camera_cannot_feed_a_card_game(tmp_path):
    from fakes import FakeWatcher
    from scorepad_helpers import open_camera_app

    app = open_camera_app(tmp_path, FakeWatcher())
    try:
        client = app.test_client()
        state = new_cards(client)
        refused(client.put("/api/camera/game", json={"game": state["id"]}), 400,
                "the camera reads dice, not cards")
    finally:
        close_app(app)



def test_the_card_game_page_is_served_for_a_card_game(client):
    state = new_cards(client)
    page = client.get(f"/games/{state['id']}").get_data(as_text=True)
    assert 'data-kind="cards"' in page and "Record hand" in page
    assert "the lowest total wins" in page

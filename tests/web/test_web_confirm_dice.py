"""Dice to check before scoring (issue 11): dice the camera was unsure of, and faces the ten
dice cannot show together, are marked per die, and the score waits for a confirmation."""

from __future__ import annotations

import pytest
from scorepad_helpers import MAKES, NEVER, reading_of, wait_until

from scorer import parse_roll
from scorer.dice_set import PRINTED_DICE
from vision.camera.camera_contract import RollEvent

#: MAKES[1] with its 7R turned into a second 5G: still two sets of 3, but only one die has 5G.
TWO_5G = "8R 8B 8G 10O 5G 5G WR WB 1G 3R"


@pytest.mark.parametrize("roll, marked", [
    (MAKES[1][0], ()),
    (TWO_5G, (4, 5)),
    ("5G 5G 5G 1R", (0, 1, 2)),
    ("WR WR WR 1B", (0, 1, 2, 3)),  # WR is on L1 and L4, 1B on L1 only: all four compete
    ("1B 2R 3G", ()),
])
def test_the_dice_that_cannot_show_together(roll, marked):
    assert PRINTED_DICE.impossible(parse_roll(roll)) == marked
    assert parse_roll(roll).is_explained_by_inventory() == (marked == ())


def test_impossible_faces_are_marked_on_the_dice_and_scoring_waits_for_a_confirmation(client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    state = client.post(f"/api/games/{game_id}/roll", json={"roll": TWO_5G}).json
    current = state["current"]
    assert [i for i, die in enumerate(current["dice"]) if die["impossible"]] == [4, 5]
    assert current["impossible_count"] == 2 and current["needs_confirmation"] is True
    assert current["explained"] is False and current["verdict"]["made"] is True

    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409
    assert "cannot show dice 5 (5G), 6 (5G) together" in refused.json["error"]
    assert "confirmed" in refused.json["error"]
    assert client.get(f"/api/games/{game_id}").json["version"] == 1  # nothing changed
    wrong_type = client.post(f"/api/games/{game_id}/score",
                             json={"player": "Ann", "confirmed": "yes"})
    assert wrong_type.status_code == 400 and "'confirmed'" in wrong_type.json["error"]

    scored = client.post(f"/api/games/{game_id}/score", json={
        "player": "Ann", "confirmed": True, "version": 1, "roll_id": state["roll_id"]})
    assert scored.status_code == 200 and scored.json["turns"][0]["roll"] == TWO_5G


def test_fixing_the_marked_die_makes_the_roll_scorable_without_a_confirmation(client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{game_id}/roll", json={"roll": TWO_5G})
    fixed = client.post(f"/api/games/{game_id}/roll/dice/5", json={"die": "7R"}).json
    assert fixed["current"]["needs_confirmation"] is False
    assert not any(die["impossible"] for die in fixed["current"]["dice"])
    assert client.post(f"/api/games/{game_id}/score", json={"player": "Ann"}).status_code == 200


def test_a_roll_sent_with_the_score_is_checked_too(client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "roll": TWO_5G})
    assert refused.status_code == 409 and "cannot show" in refused.json["error"]
    # the rules' own refusals come first, with their own words
    not_yours = client.post(f"/api/games/{game_id}/score", json={"player": "Bob", "roll": TWO_5G})
    assert not_yours.status_code == 409 and "Ann's turn" in not_yours.json["error"]
    not_made = client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "roll": NEVER})
    assert not_made.status_code == 409 and "cannot show" not in not_made.json["error"]
    # a refused score left the game as it was: the next action plays on the same state
    state = client.post(f"/api/games/{game_id}/fail", json={"player": "Ann"}).json
    assert state["version"] == 2 and state["active_player"] == "Bob" and len(state["turns"]) == 1


def test_ending_a_turn_needs_no_confirmation(client):
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{game_id}/roll", json={"roll": TWO_5G})
    assert client.post(f"/api/games/{game_id}/fail", json={"player": "Ann"}).status_code == 200


def test_a_die_the_camera_was_unsure_of_waits_until_tapped_or_confirmed(camera_app, watcher):
    client = camera_app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.put("/api/camera/game", json={"game": game_id})

    def camera_roll() -> dict:
        before = client.get(f"/api/games/{game_id}").json["roll_id"]
        watcher.push(RollEvent(reading_of(MAKES[1][0], unsure=(2, 6)), 1))
        return wait_until(lambda: (lambda s: s if s["roll_id"] != before else None)(
            client.get(f"/api/games/{game_id}").json), "the camera's roll")

    current = camera_roll()["current"]
    assert [die["unsure"] for die in current["dice"]][:7] == [False, False, True] + [False] * 3 \
        + [True]
    assert current["needs_confirmation"] and current["impossible_count"] == 0
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409
    assert "unsure of dice 3 (8G), 7 (WR)" in refused.json["error"]
    # tapping each unsure die and keeping (or fixing) its face makes it sure
    client.post(f"/api/games/{game_id}/roll/dice/2", json={"die": "8G"})
    still = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert still.status_code == 409 and "unsure of die 7 (WR)" in still.json["error"]
    state = client.post(f"/api/games/{game_id}/roll/dice/6", json={"die": "WR"}).json
    assert state["current"]["needs_confirmation"] is False
    assert client.post(f"/api/games/{game_id}/score", json={"player": "Ann"}).status_code == 200

    # or the players confirm the roll as it is
    camera_roll()
    confirmed = client.post(f"/api/games/{game_id}/score",
                            json={"player": "Bob", "confirmed": True})
    assert confirmed.status_code == 200 and confirmed.json["turns"][1]["made"]

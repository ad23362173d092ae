"""The demo camera at the scorepad: it rolls only when asked, and only into the game chosen for it.

The real demo table and table watcher run here (small frames, not paced to real
time); only the face reader is a stand-in that reports what the demo table
really shows, so nothing depends on the networks and every wait is on a count
of frames or on the state, never on a clock.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from scorepad_helpers import (
    MAKES,
    NEVER,
    OLD_TURN_FRAMES,
    open_demo_app,
    run_demo_frames,
    wait_until,
)

from web.app import close_app


@pytest.fixture
def demo(tmp_path) -> Iterator[tuple[Flask, object]]:
    app, source = open_demo_app(tmp_path)
    yield app, source
    close_app(app)


def new_game(client: FlaskClient, *players: str) -> int:
    return client.post("/api/games", json={"players": list(players)}).json["id"]


def current(client: FlaskClient, game_id: int) -> dict | None:
    return client.get(f"/api/games/{game_id}").json["current"]


def test_a_typed_roll_stays_while_the_demo_camera_runs(demo):
    app, source = demo
    client = app.test_client()
    game_id = new_game(client, "Ann", "Bob")
    assert client.put("/api/camera/game", json={"game": game_id}).json["camera"]["game"] == game_id
    typed = client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]}).json["current"]
    fixed = client.post(f"/api/games/{game_id}/roll/dice/5", json={"die": "8O"}).json["current"]

    run_demo_frames(source, 2 * OLD_TURN_FRAMES)  # the old demo threw six rolls in this time

    assert current(client, game_id) == fixed != typed
    status = client.get("/api/camera").json["camera"]
    assert status["readings"] == 0 and status["running"] and status["demo_dice"] is True


def test_the_demo_button_throws_exactly_one_roll(demo):
    app, source = demo
    client = app.test_client()
    game_id = new_game(client, "Ann", "Bob")
    client.put("/api/camera/game", json={"game": game_id})
    thrown = client.post(f"/api/games/{game_id}/demo-roll", json={})
    assert thrown.status_code == 202 and thrown.json == {"roll_number": 1, "keep": []}

    first = wait_until(lambda: current(client, game_id), "the thrown roll on the table")
    assert first["source"] == "camera" and first["roll_number"] == 1 and first["full"]
    assert first["notation"] == str(source.latest.roll)
    run_demo_frames(source, OLD_TURN_FRAMES)
    assert current(client, game_id) == first
    assert client.get("/api/camera").json["camera"]["readings"] == 1

    second = client.post(f"/api/games/{game_id}/demo-roll", json={}).json
    assert second["roll_number"] == 2
    wait_until(lambda: current(client, game_id)["roll_number"] == 2, "roll 2 on the table")
    lying = list(current(client, game_id)["notation"].split())
    for die in second["keep"]:  # the advised dice stayed where they lay
        lying.remove(die)
    assert client.get("/api/camera").json["camera"]["readings"] == 2


def test_the_camera_feeds_only_the_game_chosen_for_it(demo):
    app, source = demo
    client = app.test_client()
    first, second = new_game(client, "Ann", "Bob"), new_game(client, "Cleo", "Dan")
    assert client.get("/api/camera").json["camera"]["game"] is None
    assert not client.get(f"/api/games/{first}").json["camera"]
    refused = client.post(f"/api/games/{first}/demo-roll", json={})
    assert refused.status_code == 409 and "Use the camera for this game" in refused.json["error"]

    client.post(f"/api/games/{second}/roll", json={"roll": NEVER})
    client.put("/api/camera/game", json={"game": first})
    assert client.get(f"/api/games/{first}").json["camera"] is True
    assert client.get(f"/api/games/{second}").json["camera"] is False
    client.post(f"/api/games/{first}/demo-roll", json={})
    wait_until(lambda: current(client, first), "the roll on the chosen game")
    assert current(client, second)["notation"] == NEVER

    assert client.put("/api/camera/game", json={"game": None}).json["camera"]["game"] is None
    assert client.get(f"/api/games/{first}").json["camera"] is False
    assert client.post(f"/api/games/{first}/demo-roll", json={}).status_code == 409


def test_camera_choice_is_refused_clearly(demo, client):
    app, _ = demo
    camera_client = app.test_client()
    assert camera_client.put("/api/camera/game", json={"game": 99}).status_code == 404
    missing = camera_client.put("/api/camera/game", json={})
    assert missing.status_code == 400 and "'game'" in missing.json["error"]
    # A table without a camera has no camera to choose, and no demo dice.
    game_id = new_game(client, "Ann", "Bob")
    assert client.put("/api/camera/game", json={"game": game_id}).status_code == 409
    assert client.post(f"/api/games/{game_id}/demo-roll", json={}).status_code == 409
    assert client.get(f"/api/games/{game_id}").json["camera"] is False


def test_no_demo_roll_after_the_third_or_before_a_roll_off(demo):
    app, _ = demo
    client = app.test_client()
    game_id = new_game(client, "Ann", "Bob")
    client.put("/api/camera/game", json={"game": game_id})
    client.post(f"/api/games/{game_id}/roll", json={"roll": NEVER, "roll_number": 3})
    last = client.post(f"/api/games/{game_id}/demo-roll", json={})
    assert last.status_code == 409 and "roll 3 of 3" in last.json["error"]
    roll_off = client.post("/api/games", json={"players": ["Ann", "Bob"], "roll_off": True}).json
    client.put("/api/camera/game", json={"game": roll_off["id"]})
    refused = client.post(f"/api/games/{roll_off['id']}/demo-roll", json={})
    assert refused.status_code == 409 and "roll-off" in refused.json["error"]

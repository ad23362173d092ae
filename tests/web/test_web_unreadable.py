"""Dice the camera found but could not read (issue 13): listed as "?" on the game page and
in the set-up page's test reading, and a roll with one cannot be scored until it is fixed."""

from __future__ import annotations

import pytest
from flask import Flask
from scorepad_helpers import open_camera_app, wait_until
from test_web_setup import SetupWatcher

from scorer import parse_roll
from vision.camera.camera_contract import RollEvent
from vision.reading import ReadDie, Reading, UnreadableDie
from web.app import close_app

#: Nine dice read; the tenth (a 3R) was found but not read.
READ = "8R 8B 8G 10O 5G 7R WR WB 1G"


def reading_with_unreadable(notation: str = READ, unreadable: int = 1) -> Reading:
    dice = tuple(ReadDie(die, 0.99, (10.0 * i, 5.0), (), False)
                 for i, die in enumerate(parse_roll(notation).dice))
    lost = tuple(UnreadableDie((300.0 + 10 * i, 200.0), (), 0.9, 0.1) for i in range(unreadable))
    return Reading(dice, (640, 480), ("unreadable-dice",), lost)


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    """The scorepad with a fake camera (conftest's `watcher`)."""
    return camera_app


def camera_game(client) -> int:
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    assert client.put("/api/camera/game", json={"game": game_id}).status_code == 200
    return game_id


def pushed(client, watcher, game_id: int, reading: Reading) -> dict:
    before = client.get(f"/api/games/{game_id}").json["roll_id"]
    watcher.push(RollEvent(reading, 1))
    return wait_until(lambda: (state := client.get(f"/api/games/{game_id}").json)["roll_id"]
                      != before and state, "the camera's roll on the table")


def test_an_unreadable_die_is_listed_and_blocks_scoring_until_fixed(app, watcher):
    client = app.test_client()
    game_id = camera_game(client)
    current = pushed(client, watcher, game_id, reading_with_unreadable())["current"]
    assert current["unreadable_count"] == 1 and len(current["dice"]) == 10
    assert current["dice"][9] == {"notation": None, "value": None, "colour": None,
                                  "colour_name": None, "wild": False, "unreadable": True,
                                  "unsure": True, "colour_doubt": False,
                                  "settled": False, "likely": None, "might_be": [],
                                  "impossible": False}
    assert current["dice"][0]["unreadable"] is False
    assert current["flags"] == ["unreadable-dice"] and current["full"] is False
    assert current["notation"] == READ

    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409
    assert "could not read a die" in refused.json["error"] and "die 10" in refused.json["error"]
    assert client.get(f"/api/games/{game_id}").json["version"] == 1

    fixed = client.post(f"/api/games/{game_id}/roll/dice/9", json={"die": "3R"}).json
    assert fixed["current"]["unreadable_count"] == 0
    assert fixed["current"]["notation"] == READ + " 3R" and fixed["current"]["full"]
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert scored.status_code == 200 and scored.json["turns"][0]["score"] == 34


def test_a_reading_of_only_unreadable_dice_still_reaches_the_table(app, watcher):
    client = app.test_client()
    game_id = camera_game(client)
    current = pushed(client, watcher, game_id, reading_with_unreadable("", 2))["current"]
    assert current["unreadable_count"] == 2 and [d["unreadable"] for d in current["dice"]] == \
        [True, True]
    assert current["verdict"] is None
    bad = client.post(f"/api/games/{game_id}/roll/dice/2", json={"die": "3R"})
    assert bad.status_code == 400 and "outside 0-1" in bad.json["error"]
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409 and "2 dice" in refused.json["error"]


def test_a_typed_roll_replaces_the_unreadable_dice(app, watcher):
    client = app.test_client()
    game_id = camera_game(client)
    pushed(client, watcher, game_id, reading_with_unreadable())
    typed = client.put(f"/api/games/{game_id}/roll", json={"roll": READ + " 3R"}).json
    assert typed["current"]["unreadable_count"] == 0
    assert client.post(f"/api/games/{game_id}/score", json={"player": "Ann"}).status_code == 200


def test_the_test_reading_lists_unreadable_dice_with_value_null(tmp_path):
    watcher = SetupWatcher(reading_with_unreadable())
    app = open_camera_app(tmp_path, watcher)
    try:
        reply = app.test_client().post("/api/camera/test-reading", json={}).json
        assert reply["unreadable"] == 1 and len(reply["dice"]) == 10
        assert reply["dice"][9]["value"] is None and reply["dice"][9]["unreadable"] is True
        assert reply["dice"][0]["unreadable"] is False
        assert reply["message"].startswith("10 dice found in the frame (no tray marked); "
                                           "1 of them could not be read (shown as ?)")
        assert reply["flags"] == ["unreadable-dice"]
    finally:
        close_app(app)

"""The optional camera: a fake table watcher drives the feed exactly as vision's would."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from fakes import JPEG, FakeWatcher
from scorepad_helpers import MAKES, make_config, open_camera_app, reading_of

from vision.camera.camera_contract import RollEvent
from web.app import close_app, create_app


def wait_for(predicate, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("condition not met in time")


@pytest.fixture
def camera_app(tmp_path):
    watcher = FakeWatcher()
    app = open_camera_app(tmp_path, watcher)
    yield app, watcher
    close_app(app)
    assert watcher.closed


def test_a_settled_reading_becomes_the_roll_on_the_table(camera_app):
    app, watcher = camera_app
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    assert client.put("/api/camera/game", json={"game": game_id}).status_code == 200
    watcher.push(RollEvent(reading_of("8R 8B 6G 10O 10G 7R WR 2B 1G 3R", unsure=(2,)), 2))

    current = wait_for(lambda: client.get(f"/api/games/{game_id}").json["current"])
    assert current["source"] == "camera" and current["roll_number"] == 2
    assert [d["unsure"] for d in current["dice"]][:3] == [False, False, True]
    assert current["verdict"]["made"] is False
    fixed = client.post(f"/api/games/{game_id}/roll/dice/2", json={"die": "8G"}).json
    assert fixed["current"]["verdict"]["score"] == 44 and fixed["current"]["unsure_count"] == 0

    turns_before = watcher.new_turns
    # 8R 8B 8G 10O 10G cannot all show at once: scored once the players confirm the dice
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409 and "cannot show" in refused.json["error"]
    assert watcher.new_turns == turns_before
    client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "confirmed": True})
    assert watcher.new_turns == turns_before + 1  # the camera starts counting rolls anew
    status = client.get("/api/camera").json["camera"]
    assert status["running"] and status["readings"] == 1 and status["source"] == "demo"


def test_overlay_view(camera_app):
    app, watcher = camera_app
    client = app.test_client()
    assert client.get("/camera/overlay.jpg").status_code == 404
    client.post("/api/games", json={"players": ["Ann", "Bob"]})
    watcher.push(RollEvent(reading_of(MAKES[1][0]), 1))
    wait_for(lambda: watcher.latest is not None)
    image = client.get("/camera/overlay.jpg")
    assert image.mimetype == "image/jpeg" and image.data == JPEG
    assert b"live.mjpeg" in client.get("/camera/").data
    stream = client.get("/camera/live.mjpeg", buffered=False)
    assert stream.mimetype == "multipart/x-mixed-replace"
    first = next(iter(stream.response))
    assert first.startswith(b"--frame\r\nContent-Type: image/jpeg") and JPEG in first
    stream.close()


def test_readings_without_a_game_or_a_valid_roll_are_ignored(camera_app):
    app, watcher = camera_app
    watcher.push(RollEvent(reading_of(MAKES[1][0]), 1))  # no game yet
    client = app.test_client()
    wait_for(lambda: client.get("/api/camera").json["camera"]["readings"] == 1)
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    assert client.get(f"/api/games/{game_id}").json["current"] is None


def test_a_broken_camera_does_not_stop_the_scorepad(tmp_path):
    class Broken:
        def __enter__(self):
            raise OSError("no camera on /dev/video0")

        def __exit__(self, *exc):
            return None

    app = create_app(make_config(tmp_path, camera="device:0"), watcher_factory=Broken)
    try:
        feed = app.extensions["phase10"].camera
        assert not feed.wait_ready(5)
        client = app.test_client()
        status = client.get("/api/camera").json["camera"]
        assert status["running"] is False and "no camera" in status["error"]
        assert client.post("/api/games", json={"players": ["Ann", "Bob"]}).status_code == 201
    finally:
        close_app(app)


def test_camera_none_runs_without_a_feed(app, client):
    assert app.extensions["phase10"].camera is None
    assert client.get("/api/camera").json == {"camera": None}
    assert client.get("/camera/overlay.jpg").status_code == 404
    assert client.get("/camera/live.mjpeg").status_code == 404
    assert client.get("/api/config").json["camera"] is None


def test_the_real_table_watcher_puts_a_golden_scene_on_the_game(tmp_path):
    """vision's own TableWatcher over a folder of frames: an empty tray, then a settled roll."""
    golden = Path(__file__).resolve().parents[1] / "data" / "golden"
    if not (golden / "full_light.jpg").is_file():
        pytest.skip("the golden scenes are not in this checkout")
    frames = tmp_path / "frames"
    frames.mkdir()
    for index in range(4):
        shutil.copy(golden / "empty_tray.jpg", frames / f"a{index}.jpg")
    for index in range(8):
        shutil.copy(golden / "full_light.jpg", frames / f"b{index}.jpg")
    plain = create_app(make_config(tmp_path))  # the game exists before the camera starts
    game_id = plain.test_client().post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    plain.extensions["phase10"].service.use_camera(game_id)  # the choice is kept on disk
    close_app(plain)

    app = create_app(make_config(tmp_path, camera=f"images:{frames}"))
    try:
        client = app.test_client()
        current = wait_for(lambda: client.get(f"/api/games/{game_id}").json["current"], 60)
    finally:
        close_app(app)
    truth = json.loads((golden / "full_light.json").read_text())
    expected = sorted(die["notation"] for die in truth["dice"])
    assert current["source"] == "camera" and current["roll_number"] == 1
    assert sorted(die["notation"] for die in current["dice"]) == expected

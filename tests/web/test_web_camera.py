"""The optional camera: a fake table watcher drives the feed exactly as vision's would."""

from __future__ import annotations

import queue
import time
from dataclasses import dataclass

import pytest
from scorepad_helpers import MAKES, make_config

from scorer import parse_roll
from vision.reading import ReadDie, Reading
from web.app import close_app, create_app

JPEG = b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9"


@dataclass(frozen=True)
class RollEvent:
    reading: Reading
    roll_number: int


def reading_of(notation: str, unsure: tuple[int, ...] = ()) -> Reading:
    dice = tuple(
        ReadDie(die, 0.6 if i in unsure else 0.99, (10.0 * i, 5.0), (), i in unsure)
        for i, die in enumerate(parse_roll(notation).dice)
    )
    return Reading(dice, (640, 480))


class FakeWatcher:
    """Same methods as vision.live.TableWatcher; `push` plays a settled roll."""

    def __init__(self) -> None:
        self.queue: queue.Queue[RollEvent | None] = queue.Queue()
        self.new_turns = 0
        self.closed = False
        self.latest: Reading | None = None

    def __enter__(self) -> FakeWatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def push(self, event: RollEvent) -> None:
        self.queue.put(event)

    def events(self):
        while True:
            event = self.queue.get()
            if event is None:
                return
            self.latest = event.reading
            yield event

    def latest_overlay_jpeg(self) -> bytes | None:
        return JPEG if self.latest is not None else None

    def latest_reading(self) -> Reading | None:
        return self.latest

    def new_turn(self) -> None:
        self.new_turns += 1

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put(None)


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
    app = create_app(make_config(tmp_path, camera="demo"), watcher_factory=lambda: watcher)
    feed = app.extensions["phase10"].camera
    assert feed.wait_ready(5)
    yield app, watcher
    close_app(app)
    assert watcher.closed


def test_a_settled_reading_becomes_the_roll_on_the_table(camera_app):
    app, watcher = camera_app
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    watcher.push(RollEvent(reading_of("8R 8B 6G 10O 10G 7R WR 2B 1G 3R", unsure=(2,)), 2))

    current = wait_for(lambda: client.get(f"/api/games/{game_id}").json["current"])
    assert current["source"] == "camera" and current["roll_number"] == 2
    assert [d["unsure"] for d in current["dice"]][:3] == [False, False, True]
    assert current["verdict"]["made"] is False
    fixed = client.post(f"/api/games/{game_id}/roll/dice/2", json={"die": "8G"}).json
    assert fixed["current"]["verdict"]["score"] == 44 and fixed["current"]["unsure_count"] == 0

    client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert watcher.new_turns == 1  # the camera starts counting rolls anew
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

"""The camera set-up API: tray region, exposure lock and test reading, saved across restarts."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from fakes import FakePicamera2, FakeWatcher, install_fake_picamera2
from scorepad_helpers import make_config, open_camera_app, reading_of

from vision.reading import Reading
from web.app import CAMERA_SETTINGS_FILE, close_app, create_app

TRAY = [[0.1, 0.15], [0.9, 0.1], [0.85, 0.9], [0.12, 0.85]]
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"
PIN = {"X-Table-Pin": "2468"}


def jpeg(width: int = 320, height: int = 240) -> bytes:
    image = np.full((height, width, 3), 70, np.uint8)
    cv2.rectangle(image, (40, 40), (width - 40, height - 40), (40, 140, 40), -1)
    return cv2.imencode(".jpg", image)[1].tobytes()


class SetupWatcher(FakeWatcher):
    """The fake table watcher whose test reading shows a real picture."""

    def __init__(self, reading: Reading | None = None) -> None:
        super().__init__(reading, picture=jpeg())


@pytest.fixture
def setup_app(tmp_path):
    watcher = SetupWatcher(reading_of("8R 8B 6G 10O 10G 7R WR 2B 1G 3R", unsure=(2,)))
    app = open_camera_app(tmp_path, watcher)
    yield app, watcher
    close_app(app)


def saved_file(tmp_path) -> dict:
    return json.loads((tmp_path / "data" / CAMERA_SETTINGS_FILE).read_text())


def test_a_saved_tray_is_applied_at_once_and_after_a_restart(setup_app, tmp_path):
    app, watcher = setup_app
    client = app.test_client()
    first = client.get("/api/camera/settings").json
    assert first["tray"] is None and first["exposure"]["saved"]["mode"] == "default"
    assert watcher.trays == [None]  # applied as the camera opened: the whole frame

    reply = client.put("/api/camera/tray", json={"points": TRAY})
    assert reply.status_code == 200 and reply.json["tray"] == TRAY
    assert watcher.trays[-1] == TRAY
    assert saved_file(tmp_path)["tray"] == TRAY
    close_app(app)

    again = SetupWatcher()
    restarted = open_camera_app(tmp_path, again)
    try:
        assert again.trays == [TRAY]  # loaded at start-up, handed to the new camera
        assert restarted.test_client().get("/api/camera/settings").json["tray"] == TRAY
        cleared = restarted.test_client().delete("/api/camera/tray")
        assert cleared.status_code == 200 and cleared.json["tray"] is None
        assert again.trays[-1] is None and saved_file(tmp_path)["tray"] is None
    finally:
        close_app(restarted)


@pytest.mark.parametrize(
    ("points", "message"),
    [
        (None, "list of four [x, y] corners"),
        ([[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]], "list of four [x, y] corners"),
        ([[0.1, 0.1], [0.9, 0.1], [0.9, 1.3], [0.1, 0.9]], "corner 3 [0.9, 1.3] is outside"),
        ([[0.1, 0.1], [-0.2, 0.1], [0.9, 0.9], [0.1, 0.9]], "corner 2 [-0.2, 0.1] is outside"),
        ([[0.1, 0.1], [0.9, "a"], [0.9, 0.9], [0.1, 0.9]], "corner 2 must be two numbers"),
        ([[0.1, 0.1], [True, 0.1], [0.9, 0.9], [0.1, 0.9]], "corner 2 must be two numbers"),
        ([[0.1, 0.1], [0.9], [0.9, 0.9], [0.1, 0.9]], "corner 2 must be [x, y]"),
        ([[0.1, 0.1], [0.9, 0.9], [0.9, 0.1], [0.1, 0.9]], "not make a convex quadrilateral"),
        ([[0.1, 0.1], [0.9, 0.1], [0.3, 0.3], [0.1, 0.9]], "not make a convex quadrilateral"),
        ([[0.1, 0.1], [0.5, 0.1], [0.9, 0.1], [0.1, 0.9]], "not make a convex quadrilateral"),
        ([[0.5, 0.5], [0.54, 0.5], [0.54, 0.54], [0.5, 0.54]], "covers 0.2% of the frame"),
    ],
)
def test_bad_trays_are_refused_with_the_problem_named(setup_app, tmp_path, points, message):
    app, watcher = setup_app
    client = app.test_client()
    client.put("/api/camera/tray", json={"points": TRAY})
    reply = client.put("/api/camera/tray", json={"points": points})
    assert reply.status_code == 400 and message in reply.json["error"]
    assert saved_file(tmp_path)["tray"] == TRAY and watcher.trays[-1] == TRAY  # nothing lost


def test_changes_need_the_table_pin_when_one_is_set(tmp_path):
    watcher = SetupWatcher()
    app = open_camera_app(tmp_path, watcher, pin="2468")
    try:
        client = app.test_client()
        assert client.get("/api/camera/settings").status_code == 200  # looking is free
        assert client.put("/api/camera/tray", json={"points": TRAY}).status_code == 401
        wrong = client.put("/api/camera/tray", json={"points": TRAY},
                           headers={"X-Table-Pin": "1111"})
        assert wrong.status_code == 403 and wrong.json["error"] == "wrong table PIN"
        assert client.delete("/api/camera/tray").status_code == 401
        assert client.post("/api/camera/exposure/lock", json={}).status_code == 401
        assert client.post("/api/camera/exposure/unlock", json={}).status_code == 401
        assert watcher.trays == [None]
        assert client.put("/api/camera/tray", json={"points": TRAY}, headers=PIN).status_code == 200
        assert client.put("/api/camera/tray", json={"points": TRAY, "pin": "2468"}
                          ).status_code == 200
        assert watcher.trays[-1] == TRAY
    finally:
        close_app(app)


def test_sources_without_exposure_controls_say_locking_is_not_supported(setup_app, tmp_path):
    app, _ = setup_app
    client = app.test_client()
    assert client.get("/api/camera/settings").json["exposure"]["supported"] is False
    for action in ("lock", "unlock"):
        reply = client.post(f"/api/camera/exposure/{action}", json={})
        assert reply.status_code == 409
        assert "demo camera has no exposure controls" in reply.json["error"]
        assert "not supported" in reply.json["error"]
    assert not (tmp_path / "data" / CAMERA_SETTINGS_FILE).exists()


def test_without_a_camera_the_tray_still_saves_but_nothing_can_be_read(app, client, config):
    assert client.put("/api/camera/tray", json={"points": TRAY}).status_code == 200
    for url in ("/api/camera/exposure/lock", "/api/camera/test-reading"):
        reply = client.post(url, json={})
        assert reply.status_code == 409 and "no camera is configured" in reply.json["error"]
    page = client.get("/setup")
    assert page.status_code == 200 and b"No camera is configured" in page.data


def test_the_test_reading_lists_dice_with_confidence_and_the_overlay(setup_app):
    app, watcher = setup_app
    client = app.test_client()
    reply = client.post("/api/camera/test-reading", json={}).json
    assert reply["message"] == "10 dice found in the frame (no tray marked)"
    assert [d["notation"] for d in reply["dice"]][:3] == ["8R", "8B", "6G"]
    assert [d["confidence"] for d in reply["dice"]][:3] == [0.99, 0.99, 0.6]
    assert reply["dice"][2]["unsure"] and reply["dice"][6]["wild"]
    assert reply["dice"][0]["colour_name"] == "red"
    head, data = reply["overlay"].split(",", 1)
    assert head == "data:image/jpeg;base64" and base64.b64decode(data)[:2] == b"\xff\xd8"

    client.put("/api/camera/tray", json={"points": TRAY})
    watcher.now = Reading.empty((640, 480))
    empty = client.post("/api/camera/test-reading", json={}).json
    assert empty["message"] == "no dice found inside the tray region" and empty["dice"] == []
    assert empty["tray"] == TRAY

    watcher.now = None
    early = client.post("/api/camera/test-reading", json={})
    assert early.status_code == 409 and "no camera frame yet" in early.json["error"]


def test_a_broken_settings_file_is_left_alone_and_defaults_are_used(tmp_path):
    path = tmp_path / "data" / CAMERA_SETTINGS_FILE
    path.parent.mkdir(parents=True)
    path.write_text('{"tray": [[0, 0], [1, 1]]')
    watcher = SetupWatcher()
    app = open_camera_app(tmp_path, watcher)
    try:
        assert app.test_client().get("/api/camera/settings").json["tray"] is None
        assert path.read_text() == '{"tray": [[0, 0], [1, 1]]'
    finally:
        close_app(app)


def test_a_failed_write_changes_nothing(setup_app, tmp_path, monkeypatch):
    app, watcher = setup_app
    client = app.test_client()
    client.put("/api/camera/tray", json={"points": TRAY})

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("scorer.atomic_file.os.replace", refuse)
    reply = client.put("/api/camera/tray", json={"points": [[0, 0], [1, 0], [1, 1], [0, 1]]})
    assert reply.status_code == 503 and "No space left" in reply.json["error"]
    assert client.get("/api/camera/settings").json["tray"] == TRAY
    assert saved_file(tmp_path)["tray"] == TRAY and watcher.trays[-1] == TRAY
    assert not list((tmp_path / "data").glob(".*.tmp"))


# ---- the Pi camera's lock, through the web, on vision's real TableWatcher and source ----


class QuietReader:
    tray = None

    def read(self, frame):
        return Reading.empty((frame.shape[1], frame.shape[0]))


def pi_app(tmp_path, **config):
    from vision.camera.live import TableWatcher
    from vision.camera.sources import PiCameraSource

    def factory():
        return TableWatcher("picamera", reader=QuietReader(),
                            source=PiCameraSource(size=(64, 48), warmup=0))

    app = create_app(make_config(tmp_path, camera="picamera", **config), watcher_factory=factory)
    assert app.extensions["phase10"].camera.wait_ready(5)
    return app, FakePicamera2.made[-1]


@pytest.fixture
def picamera2(monkeypatch):
    install_fake_picamera2(monkeypatch)


LOCKED = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12500, "AnalogueGain": 3.25,
          "ColourGains": (1.4, 2.0)}


def test_lock_now_freezes_the_pi_cameras_current_values_and_survives_a_restart(
        tmp_path, picamera2):
    app, camera = pi_app(tmp_path, pin="2468")
    try:
        client = app.test_client()
        assert client.get("/api/camera/settings").json["exposure"]["supported"] is True
        camera.metadata = {"ExposureTime": 12500.2, "AnalogueGain": 3.25,
                           "ColourGains": (1.4, 2.0), "Lux": 200}
        reply = client.post("/api/camera/exposure/lock", json={}, headers=PIN)
        assert reply.status_code == 200
        assert camera.controls[-1] == LOCKED
        exposure = reply.json["exposure"]
        assert exposure["locked"] and exposure["controls"]["ColourGains"] == [1.4, 2.0]
        assert exposure["saved"] == {"mode": "locked", "controls": {
            "ExposureTime": 12500, "AnalogueGain": 3.25, "ColourGains": [1.4, 2.0]}}
        assert saved_file(tmp_path)["exposure"]["mode"] == "locked"
    finally:
        close_app(app)

    app, camera = pi_app(tmp_path, pin="2468")  # the new camera's own warm-up lock, then ours
    try:
        assert camera.controls[-1] == LOCKED
        client = app.test_client()
        unlocked = client.post("/api/camera/exposure/unlock", json={}, headers=PIN)
        assert unlocked.status_code == 200 and unlocked.json["exposure"]["locked"] is False
        assert camera.controls[-1] == {"AeEnable": True, "AwbEnable": True}
    finally:
        close_app(app)

    app, camera = pi_app(tmp_path)  # unlocked stays unlocked after a restart
    try:
        assert camera.controls[-1] == {"AeEnable": True, "AwbEnable": True}
    finally:
        close_app(app)


@pytest.mark.parametrize(
    ("controls", "message"),
    [
        ({"ExposureTime": -5, "AnalogueGain": 2, "ColourGains": [1, 1]}, "ExposureTime must be"),
        ({"ExposureTime": 5000, "AnalogueGain": 0, "ColourGains": [1, 1]}, "AnalogueGain must be"),
        ({"ExposureTime": 5000, "AnalogueGain": 2, "ColourGains": [1]}, "ColourGains must be two"),
        ({"ExposureTime": 5000, "AnalogueGain": 2, "ColourGains": [1, -1]}, "ColourGains[1]"),
        ("fast", "exposure controls must be an object"),
    ],
)
def test_explicit_exposure_values_are_checked(tmp_path, picamera2, controls, message):
    app, camera = pi_app(tmp_path)
    try:
        before = list(camera.controls)
        reply = app.test_client().post("/api/camera/exposure/lock", json={"controls": controls})
        assert reply.status_code == 400 and message in reply.json["error"]
        assert camera.controls == before
    finally:
        close_app(app)


def test_explicit_exposure_values_are_set_as_given(tmp_path, picamera2):
    app, camera = pi_app(tmp_path)
    try:
        reply = app.test_client().post("/api/camera/exposure/lock", json={"controls": {
            "ExposureTime": 20000, "AnalogueGain": 1.5, "ColourGains": [1.7, 1.3]}})
        assert reply.status_code == 200
        assert camera.controls[-1] == {"AeEnable": False, "AwbEnable": False,
                                       "ExposureTime": 20000, "AnalogueGain": 1.5,
                                       "ColourGains": (1.7, 1.3)}
    finally:
        close_app(app)


def test_a_real_test_reading_of_a_golden_frame_only_counts_dice_in_the_tray(tmp_path):
    """vision's TableWatcher and DiceReader over a golden scene, tray on the left half."""
    if not (GOLDEN / "full_light.jpg").is_file():
        pytest.skip("the golden scenes are not in this checkout")
    from vision.camera.live import TableWatcher
    from vision.camera.sources import FrameSource
    from vision.read.pipeline import DiceReader

    scene = cv2.imread(str(GOLDEN / "full_light.jpg"), cv2.IMREAD_COLOR)

    class StillTable(FrameSource):
        """The same frame over and over, like a camera over a table nobody touches."""

        spec = "images:golden"

        def frames(self):
            while True:
                yield scene
                time.sleep(0.2)

    def factory():
        return TableWatcher("images:golden", reader=DiceReader(threads=1), source=StillTable())

    app = create_app(make_config(tmp_path, camera="images:golden"), watcher_factory=factory)
    try:
        assert app.extensions["phase10"].camera.wait_ready(60)
        client = app.test_client()
        deadline = time.monotonic() + 30
        reply = client.post("/api/camera/test-reading", json={})
        while reply.status_code == 409 and time.monotonic() < deadline:
            time.sleep(0.05)  # the first frame is still on its way
            reply = client.post("/api/camera/test-reading", json={})
        whole = reply.json
        left = [[0, 0], [0.5, 0], [0.5, 1], [0, 1]]
        assert client.put("/api/camera/tray", json={"points": left}).status_code == 200
        half = client.post("/api/camera/test-reading", json={}).json
    finally:
        close_app(app)
    truth = json.loads((GOLDEN / "full_light.json").read_text())
    assert sorted(d["notation"] for d in whole["dice"]) == sorted(
        d["notation"] for d in truth["dice"])
    assert 0 < len(half["dice"]) < 10
    width = whole["frame_size"][0]
    assert half["message"] == f"{len(half['dice'])} dice found inside the tray region"
    assert all(d["notation"] in {w["notation"] for w in whole["dice"]} for d in half["dice"])
    assert width == scene.shape[1]

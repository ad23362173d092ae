"""The camera set-up page's costs: a test reading (what a player waits for after the tap)
and saving a tray region (validate, write camera.json atomically, hand it to the camera).

The test reading runs vision's real TableWatcher and DiceReader on a golden scene
(an 800x600 frame with ten dice), through the Flask test client, so it
includes locating, classifying, drawing the overlay and encoding it as JPEG.

    .venv/bin/python -m pytest benchmarks/bench_setup.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import pytest

from vision.camera.live import TableWatcher
from vision.camera.sources import FrameSource
from vision.read.pipeline import DiceReader
from web.app import close_app, create_app
from web.config import Config

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "data" / "golden" / "full_light.jpg"
TRAY = [[0.1, 0.15], [0.9, 0.1], [0.85, 0.9], [0.12, 0.85]]


class StillTable(FrameSource):
    """The golden scene, a few frames a second, like a camera over a quiet table."""

    spec = "images:golden"

    def __init__(self) -> None:
        self.scene = cv2.imread(str(GOLDEN), cv2.IMREAD_COLOR)

    def frames(self):
        while True:
            yield self.scene
            time.sleep(0.5)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    if not GOLDEN.is_file():
        pytest.skip("the golden scenes are not in this checkout")
    config = Config(data_dir=tmp_path_factory.mktemp("data"), camera="images:golden")
    app = create_app(config, watcher_factory=lambda: TableWatcher(
        "images:golden", reader=DiceReader(threads=1), source=StillTable()))
    assert app.extensions["phase10"].camera.wait_ready(60)
    test_client = app.test_client()
    deadline = time.monotonic() + 30
    while test_client.post("/api/camera/test-reading", json={}).status_code != 200:
        assert time.monotonic() < deadline, "no frame from the still table"
        time.sleep(0.05)
    yield test_client
    close_app(app)


def test_test_reading(benchmark, client):
    reply = benchmark.pedantic(
        lambda: client.post("/api/camera/test-reading", json={}), rounds=15, warmup_rounds=1)
    assert reply.status_code == 200 and len(reply.json["dice"]) == 10


def test_save_tray(benchmark, client):
    reply = benchmark(lambda: client.put("/api/camera/tray", json={"points": TRAY}))
    assert reply.status_code == 200 and reply.json["tray"] == TRAY

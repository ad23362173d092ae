"""How fast a phone's photo of the dice is read (issue 18; goal: under 300 ms from upload
to reply for a 12-megapixel photo, here, on one thread).

The photos are 4000x3000 JPEGs as a phone stores them: a rendered tray of ten dice
(2000x1500, enlarged twice: rendering at full size is slow), seen at an angle
(`tilt_scene`), with mild sensor noise so that the file is the size of a real photo
(3 to 4 MB; decoding time follows the size of the compressed data), stored sideways
with EXIF orientation 6. OpenCV and the networks each on one thread.

    .venv/bin/python -m pytest benchmarks/bench_photo.py -o python_files='bench_*.py' \\
        --benchmark-only

- `read_photo`: header, decoding upright at the working size, reading, annotated JPEG;
- `upload_to_reply`: the whole request through the app (multipart parsing, the PIN,
  the roll committed to SQLite, the JSON reply with the overlay), the network aside;
- `decode_only`: the decoding alone.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.read.photo_file import decode_photo, inspect
from vision.synth import render_scene
from vision.synth.locator_training import tilt_scene
from vision.synth.seeds import HELD_OUT_SEED_BASE
from web.photo import PhotoReader

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from photo_helpers import STORE, encode, multipart  # noqa: E402

PHOTOS = 4
SIZE = (4000, 3000)


def phone_jpeg(seed: int) -> bytes:
    scene = render_scene(seed, size=(SIZE[0] // 2, SIZE[1] // 2))
    scene = tilt_scene(scene, np.random.default_rng(seed), 0.06)
    image = cv2.resize(scene.image, SIZE, interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(seed).normal(0, 6.0, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    return encode(STORE[6](image), 6, quality=92)


pytestmark = pytest.mark.usefixtures("one_opencv_thread")


@pytest.fixture(scope="module")
def photos() -> list[bytes]:
    made = [phone_jpeg(HELD_OUT_SEED_BASE + 9100 + i) for i in range(PHOTOS)]
    sizes = ", ".join(f"{len(data) / 1e6:.1f}" for data in made)
    print(f"\n{PHOTOS} photos of {SIZE[0]}x{SIZE[1]} ({sizes} MB)")
    return made


@pytest.fixture(scope="module")
def reader() -> PhotoReader:
    photos_reader = PhotoReader(threads=1)
    photos_reader.read(phone_jpeg(1))  # loads the networks
    return photos_reader


def test_read_photo_12mp_one_thread(benchmark, photos, reader):
    cycle = itertools.cycle(photos)
    result = benchmark.pedantic(lambda: reader.read(next(cycle)), rounds=24, iterations=1)
    assert result.work_size == (2000, 1500)
    assert len(result.reading.dice) >= 9


def test_decode_only_12mp(benchmark, photos):
    cycle = itertools.cycle(photos)

    def decode() -> np.ndarray:
        data = next(cycle)
        return decode_photo(data, inspect(data))

    image = benchmark.pedantic(decode, rounds=24, iterations=1)
    assert image.shape == (1500, 2000, 3)


def test_upload_to_reply_12mp(benchmark, photos, reader, tmp_path):
    from web.app import close_app, create_app
    from web.config import Config

    app = create_app(Config(data_dir=tmp_path, camera="none", pin="2468"))
    app.extensions["phase10"].photos = reader
    client = app.test_client()
    headers = {"X-Table-Pin": "2468"}
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]},
                          headers=headers).json["id"]
    cycle = itertools.cycle(photos)

    def upload() -> int:
        reply = client.post(f"/api/games/{game_id}/photo", headers=headers,
                            **multipart(next(cycle)))
        return reply.status_code

    try:
        status = benchmark.pedantic(upload, rounds=24, iterations=1)
    finally:
        close_app(app)
    assert status == 200

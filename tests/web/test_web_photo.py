"""POST /api/games/<id>/photo (issue 18): a phone photo read and put on the table.

A good photo (tipped, stored sideways with an EXIF orientation tag) puts its roll on
the table with source "photo"; each bad upload gets a clear 4xx naming what was wrong
and leaves the table as it was; the upload never holds up other phones or the camera.
"""

from __future__ import annotations

import base64
import struct
import threading
import zlib
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from fakes import FakeWatcher
from flask import Flask
from photo_helpers import encode, multipart, phone_photo, photo_with_a_die_beside_the_tray
from scorepad_helpers import MAKES, make_config, reading_of, wait_until

from scorer import parse_roll
from vision.camera.camera_contract import RollEvent
from vision.reading import ReadDie, Reading
from vision.synth import render_scene
from web.app import close_app, create_app

ROLL = MAKES[1][0]  # makes phase 1 for 34 points
TYPED = "5R 5G 7B 7G 9O 9R 1B 1R 3O 3G"


@pytest.fixture(scope="module")
def good_photo():
    """A 1600x1200 tray of ten dice, tipped, stored sideways (EXIF orientation 6)."""
    photo = phone_photo(2, roll=ROLL)
    assert len(photo.truth) == 10
    return photo


def new_game(client) -> int:
    return client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]


def with_typed_roll(client) -> tuple[int, dict]:
    """A game whose table holds a typed roll: what every refused photo must leave alone."""
    game_id = new_game(client)
    state = client.post(f"/api/games/{game_id}/roll", json={"roll": TYPED}).json
    return game_id, state


def unchanged(client, game_id: int, before: dict) -> bool:
    after = client.get(f"/api/games/{game_id}").json
    return (after["current"] == before["current"] and after["roll_id"] == before["roll_id"]
            and after["version"] == before["version"])


def png_with_size(width: int, height: int) -> bytes:
    """A small PNG whose header claims this size (the pixels are never decoded)."""
    data = bytearray(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    data[16:24] = struct.pack(">II", width, height)
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])))
    return bytes(data)


def jpeg_with_size(width: int, height: int) -> bytes:
    """A small JPEG whose frame header claims this size (the pixels are never decoded)."""
    data = bytearray(cv2.imencode(".jpg", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    frame = data.index(b"\xff\xc0")
    data[frame + 5:frame + 9] = struct.pack(">HH", height, width)
    return bytes(data)


# --- a good photo ---------------------------------------------------------------------------


def test_a_phone_photo_puts_its_roll_on_the_table(client, good_photo):
    game_id = new_game(client)
    reply = client.post(f"/api/games/{game_id}/photo", data=good_photo.data,
                        content_type="image/jpeg")
    assert reply.status_code == 200, reply.json
    state = reply.json
    current = state["current"]
    assert current["source"] == "photo"
    assert current["roll_number"] == 1
    assert sorted(current["notation"].split()) == good_photo.truth
    assert current["verdict"]["made"] and current["verdict"]["score"] == 34
    photo = state["photo"]
    assert photo["message"] == "10 dice found in the photo"
    assert photo["orientation"] == 6
    assert photo["photo_size"] == [1600, 1200]  # upright: the tag was honoured
    assert sorted(die["notation"] for die in photo["dice"]) == good_photo.truth
    # a value in doubt is a face in doubt too; the shipped calibration judges values apart
    assert all(die["unsure"] or not die["value_unsure"] for die in photo["dice"])
    assert 0.0 <= photo["value_probability"] <= 1.0
    assert photo["overlay"].startswith("data:image/jpeg;base64,")
    overlay = cv2.imdecode(np.frombuffer(base64.b64decode(photo["overlay"].split(",")[1]),
                                         np.uint8), cv2.IMREAD_COLOR)
    assert overlay.shape[1] > overlay.shape[0]  # landscape, as the tray was photographed
    # the reply is the game state every phone gets, plus the reading
    assert {key: value for key, value in state.items() if key != "photo"} == client.get(
        f"/api/games/{game_id}").json
    scored = client.post(f"/api/games/{game_id}/score",
                         json={"player": "Ann", "version": state["version"],
                               "roll_id": state["roll_id"]})
    assert scored.status_code == 200
    assert scored.json["scorepad"]["columns"][0]["phase_scores"][0] == 34


def test_a_photo_is_cropped_to_its_tray_and_a_die_beside_the_tray_is_no_part_of_the_roll(
        client):
    photo = photo_with_a_die_beside_the_tray(1)
    game_id = new_game(client)
    reply = client.post(f"/api/games/{game_id}/photo", data=photo.data,
                        content_type="image/jpeg")
    assert reply.status_code == 200, reply.json
    reading = reply.json["photo"]
    left, top, right, bottom = reading["tray_crop"]
    assert left > 100 and top > 100  # the die in the corner is outside the crop
    assert reading["frame_size"] == [right - left, bottom - top]
    assert sorted(die["notation"] for die in reading["dice"]) == photo.truth
    assert sorted(reply.json["current"]["notation"].split()) == photo.truth


def test_a_photo_whose_tray_fills_it_is_read_whole(client, good_photo):
    reply = client.post(f"/api/games/{new_game(client)}/photo", data=good_photo.data,
                        content_type="image/jpeg")
    assert reply.json["photo"]["tray_crop"] is None
    assert reply.json["photo"]["frame_size"] == [1600, 1200]


def test_a_photo_in_a_form_is_the_next_roll_of_the_turn(client, good_photo):
    game_id, before = with_typed_roll(client)
    reply = client.post(f"/api/games/{game_id}/photo", **multipart(good_photo.data))
    assert reply.status_code == 200, reply.json
    assert reply.json["current"]["roll_number"] == 2
    assert reply.json["roll_id"] != before["roll_id"]


def test_the_photo_needs_the_table_pin(tmp_path, good_photo):
    app = create_app(make_config(tmp_path, pin="4321"))
    try:
        client = app.test_client()
        headers = {"X-Table-Pin": "4321"}
        game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]},
                              headers=headers).json["id"]
        before = client.get(f"/api/games/{game_id}").json
        url = f"/api/games/{game_id}/photo"
        refused = client.post(url, data=good_photo.data, content_type="image/jpeg")
        assert refused.status_code == 401 and "PIN" in refused.json["error"]
        wrong = client.post(url, data=good_photo.data, content_type="image/jpeg",
                            headers={"X-Table-Pin": "1111"})
        assert wrong.status_code == 403
        form = client.post(url, **multipart(good_photo.data, pin="0000"))
        assert form.status_code == 403
        assert unchanged(client, game_id, before)
        right = client.post(url, **multipart(good_photo.data, pin="4321"))
        assert right.status_code == 200, right.json
        assert right.json["current"]["source"] == "photo"
    finally:
        close_app(app)


# --- bad input: a clear 4xx, and the table as it was ------------------------------------


def _truncated(photo) -> bytes:
    return photo.data[: len(photo.data) // 2]


def _corrupt_png(photo) -> bytes:
    """A PNG whose compressed pixels are garbage (its header is fine)."""
    data = bytearray(cv2.imencode(".png", photo.upright[:480, :640])[1].tobytes())
    start = data.index(b"IDAT") + 4
    rng = np.random.default_rng(0)
    data[start : start + 4000] = rng.integers(0, 256, 4000, dtype=np.uint8).tobytes()
    return bytes(data)


def _bad_jpeg_header(photo) -> bytes:
    data = bytearray(photo.data)
    after_app0 = 4 + struct.unpack(">H", data[4:6])[0]  # the marker after the JFIF segment
    assert data[after_app0] == 0xFF
    data[after_app0] = 0x12
    return bytes(data)


BAD_UPLOADS = [
    ("empty", lambda photo: b"", 400, "the upload is empty"),
    ("text", lambda photo: b"these are my dice: 8R 8B 8G", 415, "not a JPEG or PNG image"),
    ("heif", lambda photo: b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", 415,
     "HEIF/HEIC"),
    ("gif", lambda photo: b"GIF89a" + b"\x00" * 64, 415, "a GIF image"),
    ("truncated jpeg", _truncated, 400, "truncated"),
    ("broken jpeg header", _bad_jpeg_header, 400, "corrupt"),
    ("corrupt png", _corrupt_png, 400, "could not be decoded"),
    ("too small", lambda photo: encode(photo.upright[:150, :200].copy(), kind="PNG"), 400,
     "only 200x150 pixels, too small"),
    ("too many pixels", lambda photo: jpeg_with_size(10000, 6000), 413,
     "10000x6000 pixels, more than 50 megapixels"),
    ("a PNG decoded whole", lambda photo: png_with_size(7000, 7000), 413,
     "PNG picture is 7000x7000 pixels, more than 12 megapixels"),
]


@pytest.mark.parametrize(("upload", "status", "message"),
                         [case[1:] for case in BAD_UPLOADS], ids=[c[0] for c in BAD_UPLOADS])
def test_a_bad_upload_is_refused_and_the_table_is_unchanged(client, good_photo, upload, status,
                                                            message):
    game_id, before = with_typed_roll(client)
    reply = client.post(f"/api/games/{game_id}/photo", data=upload(good_photo),
                        content_type="image/jpeg")
    assert reply.status_code == status, reply.json
    assert message in reply.json["error"]
    assert unchanged(client, game_id, before)


def test_pixels_are_counted_from_the_header_before_anything_is_decoded(client, monkeypatch):
    import vision.read.photo_file

    def never(*args, **kwargs):
        raise AssertionError("decoded before its size was checked")

    monkeypatch.setattr(vision.read.photo_file, "decode_photo", never)
    game_id, before = with_typed_roll(client)
    for data in (png_with_size(7000, 7000), jpeg_with_size(10000, 6000)):
        reply = client.post(f"/api/games/{game_id}/photo", data=data, content_type="image/png")
        assert reply.status_code == 413 and "megapixels" in reply.json["error"]
    assert unchanged(client, game_id, before)


def test_a_photo_sent_in_chunks_over_the_limit_is_413_not_truncated(client):
    import io

    game_id, before = with_typed_roll(client)
    body = b"\xff\xd8\xff\xe0" + b"\x00" * 15_000_000
    reply = client.post(f"/api/games/{game_id}/photo", input_stream=io.BytesIO(body),
                        content_type="image/jpeg", headers={"Transfer-Encoding": "chunked"},
                        environ_overrides={"wsgi.input_terminated": True})
    assert reply.status_code == 413, reply.json
    assert reply.json["error"].startswith("the photo is larger than 15 MB")
    assert unchanged(client, game_id, before)


def test_a_photo_over_the_size_limit_is_413(client):
    game_id, before = with_typed_roll(client)
    body = b"\xff\xd8\xff" + b"\x00" * 15_000_000  # the default limit is 15 MB
    reply = client.post(f"/api/games/{game_id}/photo", data=body, content_type="image/jpeg")
    assert reply.status_code == 413
    assert reply.json["error"].startswith("the photo is too big (this table takes up to 15 MB)")
    assert unchanged(client, game_id, before)


def test_the_photo_limit_is_a_setting_and_other_requests_keep_theirs(tmp_path, good_photo):
    app = create_app(make_config(tmp_path, max_photo_bytes=100_000))
    try:
        client = app.test_client()
        game_id, before = with_typed_roll(client)
        assert len(good_photo.data) > 100_000
        reply = client.post(f"/api/games/{game_id}/photo", data=good_photo.data,
                            content_type="image/jpeg")
        assert reply.status_code == 413 and "up to 0.1 MB" in reply.json["error"]
        assert unchanged(client, game_id, before)
        big = client.post(f"/api/games/{game_id}/roll",
                          data=b'{"roll": "' + b" " * 70_000 + b'8R"}',
                          content_type="application/json")
        assert big.status_code == 413 and "65536 bytes" in big.json["error"]
    finally:
        close_app(app)


def test_a_form_without_a_file_is_400(client):
    game_id, before = with_typed_roll(client)
    reply = client.post(f"/api/games/{game_id}/photo", **multipart(note="dice"))
    assert reply.status_code == 400 and "the form has no file" in reply.json["error"]
    assert unchanged(client, game_id, before)


def test_a_photo_without_dice_says_so_and_changes_nothing(client):
    game_id, before = with_typed_roll(client)
    felt = np.full((960, 1280, 3), (60, 110, 35), np.uint8)
    reply = client.post(f"/api/games/{game_id}/photo", data=encode(felt),
                        content_type="image/jpeg")
    assert reply.status_code == 422
    assert reply.json["error"].startswith("no dice found in the photo")
    assert reply.json["photo"]["dice"] == []
    assert reply.json["photo"]["overlay"].startswith("data:image/jpeg;base64,")
    assert unchanged(client, game_id, before)


def test_a_photo_of_more_than_ten_dice_says_how_many_and_changes_nothing(client):
    game_id, before = with_typed_roll(client)
    two_trays = np.vstack([render_scene(11).image, render_scene(12).image])  # 20 dice
    reply = client.post(f"/api/games/{game_id}/photo", data=encode(two_trays),
                        content_type="image/jpeg")
    assert reply.status_code == 422, reply.json
    found = len(reply.json["photo"]["dice"])
    assert found > 10
    assert reply.json["error"].startswith(f"{found} dice found in the photo, more than the ten")
    assert "too-many-dice" in reply.json["photo"]["flags"]
    assert unchanged(client, game_id, before)


def test_unknown_and_finished_games_are_refused_before_reading(client, good_photo):
    assert client.post("/api/games/99/photo", data=good_photo.data,
                       content_type="image/jpeg").status_code == 404


# --- never in anyone's way ----------------------------------------------------------------


class BlockingReader:
    """A dice reader that holds each read until released (to see who waits on it)."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.started = threading.Event()
        self.release = threading.Event()
        self.frames: list[tuple[int, ...]] = []

    def read(self, frame: np.ndarray) -> Reading:
        self.frames.append(frame.shape)
        self.started.set()
        assert self.release.wait(30)
        return self.reading


def boxed_reading(notation: str) -> Reading:
    """The dice of `notation` in a row of 60-pixel boxes (what the overlay draws)."""
    dice = []
    for index, die in enumerate(parse_roll(notation).dice):
        x = 100.0 + 120 * index
        corners = ((x, 100.0), (x + 60, 100.0), (x + 60, 160.0), (x, 160.0))
        dice.append(ReadDie(die, 0.99, (x + 30, 130.0), corners, False))
    return Reading(tuple(dice), (1600, 1200))


@pytest.fixture
def blocking() -> BlockingReader:
    return BlockingReader(boxed_reading(ROLL))


@pytest.fixture
def camera_app(tmp_path, blocking) -> Iterator[tuple[Flask, FakeWatcher]]:
    watcher = FakeWatcher()
    app = create_app(make_config(tmp_path, camera="demo"), watcher_factory=lambda: watcher,
                     photo_reader_factory=lambda: blocking)
    assert app.extensions["phase10"].camera.wait_ready(5)
    yield app, watcher
    close_app(app)


def test_a_photo_being_read_holds_up_neither_other_phones_nor_the_camera(camera_app, blocking,
                                                                         good_photo):
    app, watcher = camera_app
    client = app.test_client()
    game_id = new_game(client)
    other = new_game(client)
    client.put("/api/camera/game", json={"game": game_id})
    replies: list = []
    upload = threading.Thread(target=lambda: replies.append(app.test_client().post(
        f"/api/games/{game_id}/photo", data=good_photo.data, content_type="image/jpeg")))
    upload.start()
    try:
        assert blocking.started.wait(30)  # the photo is being read now
        # another phone reads and changes games meanwhile
        assert client.get(f"/api/games/{game_id}").status_code == 200
        typed = client.post(f"/api/games/{other}/roll", json={"roll": TYPED})
        assert typed.status_code == 200
        # and the camera thread puts its roll on the table
        watcher.push(RollEvent(reading_of(TYPED), 1))
        wait_until(lambda: (client.get(f"/api/games/{game_id}").json["current"] or {}).get(
            "source") == "camera", "the camera's roll on the table")
    finally:
        blocking.release.set()
        upload.join(30)
    assert replies[0].status_code == 200
    assert replies[0].json["current"]["source"] == "photo"
    assert replies[0].json["current"]["roll_number"] == 2  # after the camera's roll 1
    assert blocking.frames == [(1200, 1600, 3)]  # read upright, by the photo's own reader

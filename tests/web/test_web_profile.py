"""The dice profile in the scorepad (issue 15): teach it from the camera's frame or a photo,
see it, reset it; a corrupt profile never stops the app; a corrected camera-read die
teaches it (unless switched off)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fakes import FakeWatcher
from flask import Flask
from photo_helpers import multipart, phone_photo
from profile_helpers import (
    MISREAD,
    READ_AS,
    ROLL_MISREAD,
    ROLL_READ_AS,
    ROLL_TRUE_FACE,
    TRUE_FACE,
    dice_set_scene,
    open_with_profile,
    slipped_profile,
    truth_of,
)
from scorepad_helpers import make_config, open_camera_app, wait_until

from scorer import Die
from vision.camera.camera_contract import RollEvent
from vision.profile.profile import PROFILE_FILE, DiceProfile
from vision.read.pipeline import DiceReader
from vision.read.settings import ClassifySettings, ReaderSettings
from web.app import close_app, create_app
from web.profile_service import PROFILE_DIR


@pytest.fixture(scope="module")
def scene():
    """A frame of the household's dice that the reader gets one die wrong in (WO as WR)."""
    return dice_set_scene(*MISREAD)


@pytest.fixture(scope="module")
def roll_scene():
    """A frame read with one die wrong that still makes a roll (9B as 6B)."""
    return dice_set_scene(*ROLL_MISREAD)


@pytest.fixture
def watcher(scene) -> FakeWatcher:
    watcher = FakeWatcher()
    watcher.frame = scene.image
    return watcher


@pytest.fixture
def app(camera_app: Flask) -> Flask:
    return camera_app


def faces(reply: dict) -> list[str]:
    return sorted(die["notation"] for die in reply["dice"])


def counts(summary: dict) -> dict[str, int]:
    return {face["notation"]: face["count"] for face in summary["faces"] if face["count"]}


def test_teaching_the_camera_frame_fixes_the_misread_face(app, scene, tmp_path):
    client = app.test_client()
    empty = client.get("/api/profile").json
    assert (empty["examples"], empty["rolls_confirmed"], empty["faces_seen"]) == (0, 0, 0)
    assert empty["faces_total"] == 60 and empty["error"] is None
    assert empty["learn_from_corrections"] is True

    reading = client.post("/api/profile/reading", json={}).json
    assert reading["source"] == "camera" and reading["token"]
    assert len(reading["dice"]) == 10
    assert all(die["crop"].startswith("data:image/png;base64,") for die in reading["dice"])
    assert [die["index"] for die in reading["dice"]] == list(range(10))
    read = faces(reading)
    assert read != truth_of(scene) and read.count(READ_AS) == 1 + truth_of(scene).count(READ_AS)

    confirmed = [die["notation"] for die in reading["dice"]]
    wrong = next(i for i, die in enumerate(reading["dice"])
                 if die["notation"] == READ_AS and die["confidence"] < 1.0)
    confirmed[wrong] = TRUE_FACE  # the one tap that fixes it
    if sorted(confirmed) != truth_of(scene):  # another die read so was the misread one
        confirmed[wrong] = READ_AS
        wrong = next(i for i, die in enumerate(reading["dice"])
                     if die["notation"] == READ_AS and i != wrong)
        confirmed[wrong] = TRUE_FACE
    assert sorted(confirmed) == truth_of(scene)
    taught = client.post("/api/profile/confirm",
                         json={"token": reading["token"], "dice": confirmed}).json
    assert taught["taught"] == 10 and taught["examples"] == 10
    assert taught["rolls_confirmed"] == 1
    assert counts(taught)[TRUE_FACE] == truth_of(scene).count(TRUE_FACE)
    assert taught["faces_seen"] >= 10 and taught["distinct_seen"] == len(set(truth_of(scene)))
    assert (tmp_path / "data" / PROFILE_DIR / PROFILE_FILE).exists()
    assert len(DiceProfile.load(tmp_path / "data" / PROFILE_DIR)) == 10

    again = client.post("/api/profile/reading", json={}).json
    assert faces(again) == truth_of(scene)  # the next reading of that face is right

    gone = client.post("/api/profile/confirm", json={"token": reading["token"],
                                                     "dice": confirmed})
    assert gone.status_code == 404 and "read the dice again" in gone.json["error"]
    short = client.post("/api/profile/confirm", json={"token": again["token"],
                                                      "dice": confirmed[:9]})
    assert short.status_code == 409 and "10 dice but 9 faces" in short.json["error"]
    bad = client.post("/api/profile/confirm", json={"token": again["token"],
                                                    "dice": ["3Q"] * 10})
    assert bad.status_code == 400

    reset = client.delete("/api/profile").json
    assert (reset["examples"], reset["rolls_confirmed"]) == (0, 0)
    assert not (tmp_path / "data" / PROFILE_DIR / PROFILE_FILE).exists()
    assert faces(client.post("/api/profile/reading", json={}).json) == read  # as before


def test_a_photo_teaches_without_a_camera(tmp_path):
    app = create_app(make_config(tmp_path))
    try:
        client = app.test_client()
        camera = client.post("/api/profile/reading", json={})
        assert camera.status_code == 409 and "send a photo" in camera.json["error"]
        photo = phone_photo(2, roll="8R 8B 8G 10O 5G 7R WR WB 1G 3R")
        reading = client.post("/api/profile/reading", **multipart(photo.data)).json
        assert reading["source"] == "photo" and faces(reading) == photo.truth
        dice = [die["notation"] for die in reading["dice"]]
        dice[0] = None  # not sure of that one: left out
        taught = client.post("/api/profile/confirm",
                             json={"token": reading["token"], "dice": dice}).json
        assert taught["taught"] == 9 and taught["examples"] == 9
        assert app.extensions["phase10"].photos._reader.profile is not None  # reads with it
    finally:
        close_app(app)


def test_a_corrected_die_of_a_phone_photo_teaches_the_profile(tmp_path):
    app = create_app(make_config(tmp_path))
    try:
        client = app.test_client()
        game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
        photo = phone_photo(2, roll="8R 8B 8G 10O 5G 7R WR WB 1G 3R")
        state = client.post(f"/api/games/{game_id}/photo", data=photo.data,
                            content_type="image/jpeg").json
        assert state["current"]["source"] == "photo"
        first = state["current"]["dice"][0]
        high = first["value"] not in ("W", 1, 2, 3, 4)
        other = next(face for face in (("9G", "9B") if high else ("2G", "2B"))
                     if face != first["notation"])  # the players say die 0 shows another face
        fixed = client.post(f"/api/games/{game_id}/roll/dice/0", json={"die": other})
        assert fixed.status_code == 200, fixed.json
        summary = client.get("/api/profile").json
        assert summary["from_corrections"] == 1 and counts(summary) == {other: 1}
        # A typed roll has no picture: correcting it teaches nothing.
        typed = client.put(f"/api/games/{game_id}/roll",
                           json={"roll": "8R 8B 8G 10O 5G 7R WR WB 1G 3R"})
        assert typed.json["current"]["source"] == "hand", typed.json
        assert client.post(f"/api/games/{game_id}/roll/dice/0",
                           json={"die": "9R"}).status_code == 200
        assert client.get("/api/profile").json["from_corrections"] == 1
    finally:
        close_app(app)


def test_every_change_needs_the_pin(tmp_path):
    app = create_app(make_config(tmp_path, pin="2468"))
    try:
        client = app.test_client()
        assert client.get("/api/profile").status_code == 200
        assert client.post("/api/profile/reading", json={}).status_code == 401
        assert client.post("/api/profile/confirm",
                           json={"token": "x", "dice": ["1B"]}).status_code == 401
        assert client.put("/api/profile/settings",
                          json={"learn_from_corrections": False}).status_code == 401
        assert client.put("/api/profile/examples/0123abcd", json={"face": "8R"}).status_code == 401
        assert client.delete("/api/profile/examples/0123abcd").status_code == 401
        assert client.delete("/api/profile").status_code == 401
        assert client.delete("/api/profile", headers={"X-Table-Pin": "2468"}).status_code == 200
    finally:
        close_app(app)


@pytest.fixture(scope="module")
def slipped() -> tuple:
    """A profile of three rolls, one red die of the first typed orange, and that face."""
    return slipped_profile(DiceReader(threads=1))


def test_a_die_taught_with_a_face_typed_wrong_is_shown_and_can_be_put_right(tmp_path, slipped):
    profile, slip = slipped
    red = str(Die(slip.value, "R"))
    app = open_with_profile(tmp_path, profile)
    try:
        client = app.test_client()
        summary = client.get("/api/profile").json
        [out] = summary["left_out"]
        assert (out["confirmed"]["notation"], out["looks_like"]["notation"]) == (str(slip), red)
        assert out["crop"].startswith("data:image/png;base64,")
        pictures = client.get(f"/api/profile/examples?face={slip}").json
        assert pictures["face"] == str(slip)
        assert len(pictures["examples"]) == counts(summary)[str(slip)] == profile.dice.count(slip)
        assert [p["key"] for p in pictures["examples"] if p["left_out"]] == [out["key"]]
        assert client.get("/api/profile/examples").status_code == 400
        assert client.get("/api/profile/examples?face=3Q").status_code == 400
        assert client.put(f"/api/profile/examples/{out['key']}",
                          json={"face": "3Q"}).status_code == 400
        assert client.put("/api/profile/examples/0123abcd",
                          json={"face": red}).status_code == 404  # no such die

        fixed = client.put(f"/api/profile/examples/{out['key']}", json={"face": red}).json
        assert fixed["left_out"] == [] and fixed["examples"] == 30
        assert counts(fixed).get(str(slip), 0) == counts(summary)[str(slip)] - 1
        assert counts(fixed)[red] == counts(summary).get(red, 0) + 1
        saved = DiceProfile.load(tmp_path / "data" / PROFILE_DIR).dice
        assert saved.count(slip) == profile.dice.count(slip) - 1
        assert client.get("/api/profile").json["left_out"] == []
    finally:
        close_app(app)


def test_a_die_left_out_whose_face_the_players_keep_is_read_with_from_then_on(
        tmp_path, slipped):
    profile, slip = slipped
    app = open_with_profile(tmp_path, profile)
    try:
        client = app.test_client()
        before = client.get("/api/profile").json
        [out] = before["left_out"]
        kept = client.put(f"/api/profile/examples/{out['key']}",
                          json={"face": str(slip)}).json
        assert kept["left_out"] == [] and counts(kept) == counts(before)
        assert DiceProfile.load(tmp_path / "data" / PROFILE_DIR).dice == profile.dice
    finally:
        close_app(app)
    again = open_with_profile(tmp_path, profile)  # a restart: still checked
    try:
        assert again.test_client().get("/api/profile").json["left_out"] == []
    finally:
        close_app(again)


def test_without_a_camera_the_dice_left_out_are_worked_out_on_request(tmp_path, slipped):
    """No reader reads with the profile until the first photo: the summary says the dice
    left out are not worked out yet, and the check loads the photos' reader for it."""
    profile, slip = slipped
    profile.save(tmp_path / "data" / PROFILE_DIR)
    app = create_app(make_config(tmp_path))
    try:
        client = app.test_client()
        before = client.get("/api/profile").json
        assert (before["left_out_checked"], before["left_out"], before["examples"]) == (
            False, [], 30)
        checked = client.post("/api/profile/check", json={}).json
        assert checked["left_out_checked"] is True
        assert [out["confirmed"]["notation"] for out in checked["left_out"]] == [str(slip)]
        assert client.post("/api/profile/check", json={}).json["left_out"] == \
            checked["left_out"]  # worked out once
    finally:
        close_app(app)
    empty = create_app(make_config(tmp_path / "none"))
    try:
        assert empty.test_client().get("/api/profile").json["left_out_checked"] is True
    finally:
        close_app(empty)


def test_a_die_left_out_can_be_forgotten(tmp_path, slipped):
    profile, slip = slipped
    app = open_with_profile(tmp_path, profile)
    try:
        client = app.test_client()
        [out] = client.get("/api/profile").json["left_out"]
        forgotten = client.delete(f"/api/profile/examples/{out['key']}").json
        assert forgotten["left_out"] == [] and forgotten["examples"] == 29
        saved = DiceProfile.load(tmp_path / "data" / PROFILE_DIR).dice
        assert saved.count(slip) == profile.dice.count(slip) - 1 and len(saved) == 29
        assert client.delete(f"/api/profile/examples/{out['key']}").status_code == 404
    finally:
        close_app(app)


def test_a_corrupt_profile_is_reported_and_the_app_reads_without_it(tmp_path, scene):
    folder = tmp_path / "data" / PROFILE_DIR
    folder.mkdir(parents=True)
    (folder / PROFILE_FILE).write_bytes(b"not a profile at all")
    watcher = FakeWatcher()
    watcher.frame = scene.image
    app = open_camera_app(tmp_path, watcher)
    try:
        client = app.test_client()
        summary = client.get("/api/profile").json
        assert "not a readable dice profile" in summary["error"]
        assert summary["examples"] == 0
        assert "not a readable dice profile" in client.get("/setup").get_data(as_text=True)
        reading = client.post("/api/profile/reading", json={}).json
        assert len(reading["dice"]) == 10  # read, without the profile
        assert app.extensions["phase10"].photos._reader.profile is None
        dice = [die["notation"] for die in reading["dice"]]
        refused = client.post("/api/profile/confirm",
                              json={"token": reading["token"], "dice": dice})
        assert refused.status_code == 409 and "reset it first" in refused.json["error"]
        assert (folder / PROFILE_FILE).read_bytes() == b"not a profile at all"  # kept

        assert client.delete("/api/profile").json["error"] is None
        reading = client.post("/api/profile/reading", json={}).json
        taught = client.post("/api/profile/confirm",
                             json={"token": reading["token"], "dice": dice}).json
        assert taught["examples"] == 10
    finally:
        close_app(app)


def _camera_roll(app: Flask, watcher: FakeWatcher, scene) -> tuple[int, dict]:
    """A game fed by the camera, with the scene's reading on the table (crops kept)."""
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    assert client.put("/api/camera/game", json={"game": game_id}).status_code == 200
    watcher.frame = scene.image  # the frame that settled the roll
    watcher.push(RollEvent(DiceReader().read(scene.image), 1))
    profile = app.extensions["phase10"].profile
    state = wait_until(lambda: (s := client.get(f"/api/games/{game_id}").json)["current"]
                       and s, "the camera's roll on the table")
    wait_until(lambda: state["roll_id"] in profile._read_rolls, "the roll's crops kept")
    return game_id, state


def _misread_index(state: dict, scene) -> int:
    dice = [die["notation"] for die in state["current"]["dice"]]
    for index, die in enumerate(dice):
        if die == ROLL_READ_AS:
            fixed = dice[:index] + [ROLL_TRUE_FACE] + dice[index + 1:]
            if sorted(fixed) == truth_of(scene):
                return index
    raise AssertionError(f"no misread {ROLL_READ_AS} in {dice}")


def test_a_corrected_camera_die_teaches_the_profile(app, watcher, roll_scene):
    client = app.test_client()
    game_id, state = _camera_roll(app, watcher, roll_scene)
    index = _misread_index(state, roll_scene)
    fixed = client.post(f"/api/games/{game_id}/roll/dice/{index}", json={"die": ROLL_TRUE_FACE})
    assert fixed.status_code == 200
    summary = client.get("/api/profile").json
    assert summary["examples"] == 1 and summary["from_corrections"] == 1
    assert counts(summary) == {ROLL_TRUE_FACE: 1}
    assert summary["rolls_confirmed"] == 0

    # Corrected again (a slip of the finger): the die is learnt with its last face only.
    client.post(f"/api/games/{game_id}/roll/dice/{index}", json={"die": "6G"})
    assert counts(client.get("/api/profile").json) == {"6G": 1}
    # Another die of the same roll (the crops follow the roll's new id).
    other = (index + 1) % 10
    face = state["current"]["dice"][other]["notation"]
    client.post(f"/api/games/{game_id}/roll/dice/{other}", json={"die": face})
    assert client.get("/api/profile").json["examples"] == 2


def test_learning_from_corrections_can_be_switched_off(app, watcher, roll_scene):
    client = app.test_client()
    off = client.put("/api/profile/settings", json={"learn_from_corrections": False})
    assert off.status_code == 200 and off.json["learn_from_corrections"] is False
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.put("/api/camera/game", json={"game": game_id})
    watcher.frame = roll_scene.image
    watcher.push(RollEvent(DiceReader().read(roll_scene.image), 1))
    state = wait_until(lambda: (s := client.get(f"/api/games/{game_id}").json)["current"]
                       and s, "the camera's roll on the table")
    index = _misread_index(state, roll_scene)
    assert client.post(f"/api/games/{game_id}/roll/dice/{index}",
                       json={"die": ROLL_TRUE_FACE}).status_code == 200
    assert client.get("/api/profile").json["examples"] == 0
    assert app.extensions["phase10"].store.setting("profile_learns_from_corrections") is False
    on = client.put("/api/profile/settings", json={"learn_from_corrections": True}).json
    assert on["learn_from_corrections"] is True


def test_a_failure_to_learn_never_breaks_the_correction(app, watcher, roll_scene, monkeypatch):
    client = app.test_client()
    game_id, state = _camera_roll(app, watcher, roll_scene)

    def broken(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(app.extensions["phase10"].profile, "_learn", broken)
    index = _misread_index(state, roll_scene)
    fixed = client.post(f"/api/games/{game_id}/roll/dice/{index}", json={"die": ROLL_TRUE_FACE})
    assert fixed.status_code == 200
    assert fixed.json["current"]["dice"][index]["notation"] == ROLL_TRUE_FACE


def test_the_camera_thread_reader_is_attached(tmp_path: Path) -> None:
    from web.camera import vision_factory

    readers: list[object] = []
    watcher = vision_factory("demo", 1, on_reader=readers.append)()
    assert len(readers) == 1 and watcher._reader is readers[0]


@pytest.fixture
def taught_profile(tmp_path: Path, scene) -> Iterator[Path]:
    """A profile taught the scene's roll, in the data folder of the next app."""
    reader = DiceReader()
    from vision.profile.teach import teach

    lesson = teach(reader, scene.image, [truth.die for truth in scene.dice], DiceProfile.empty())
    folder = tmp_path / "data" / PROFILE_DIR
    lesson.profile.save(folder)
    yield folder


def test_the_profile_in_the_data_folder_is_used_from_the_start(taught_profile, tmp_path, scene):
    watcher = FakeWatcher()
    watcher.frame = scene.image
    app = open_camera_app(tmp_path, watcher)
    try:
        summary = app.test_client().get("/api/profile").json
        assert summary["examples"] == 10 and summary["error"] is None
        reading = app.test_client().post("/api/profile/reading", json={}).json
        assert faces(reading) == truth_of(scene)
    finally:
        close_app(app)


def test_the_crops_follow_the_dice_when_an_unreadable_die_is_fixed(tmp_path: Path) -> None:
    """Fixing an unreadable die moves it among the dice read (`TableRoll.with_die`): the
    kept crops move with it, so the next correction teaches the right picture."""
    import dataclasses

    import numpy as np

    from scorer import Die, Roll
    from web.profile_service import TableProfile
    from web.store import GameStore
    from web.table_roll import RollSource, TableRoll

    store = GameStore(tmp_path / "scorepad.sqlite3")
    try:
        profile = TableProfile(tmp_path, store, use_reader=lambda work: None)
        learnt: list[tuple[int, str]] = []
        profile._learn = lambda crops, faces, **_: learnt.append(  # type: ignore[method-assign]
            (int(crops[0][0, 0, 0]), str(faces[0])))
        # Two dice read (crops 0 and 1), two found but not read (crops 2 and 3).
        profile._read_rolls.remember(5, [np.full((40, 40, 3), i, np.uint8) for i in range(4)])
        before = TableRoll.new(Roll.from_text("8R 8B"), roll_number=1,
                               source=RollSource.CAMERA, roll_id=5, unreadable=2)
        after = dataclasses.replace(before.with_die(3, Die.from_text("1B")), roll_id=6)
        profile.die_corrected(1, before, 3, Die.from_text("1B"), after)
        assert learnt == [(3, "1B")]
        # The die left unreadable (crop 2) is now die 3 of the roll.
        last = dataclasses.replace(after.with_die(3, Die.from_text("2G")), roll_id=7)
        profile.die_corrected(1, after, 3, Die.from_text("2G"), last)
        profile.die_corrected(1, last, 0, Die.from_text("8G"), last)
        assert learnt == [(3, "1B"), (2, "2G"), (0, "8G")]
        typed = dataclasses.replace(last, source=RollSource.HAND, roll_id=8)
        profile.die_corrected(1, typed, 1, Die.from_text("8O"), typed)
        assert len(learnt) == 3  # a typed roll has no pictures
    finally:
        store.close()


def test_confirmed_whole_rolls_check_the_dice_table(app, scene, tmp_path):
    client = app.test_client()
    assert client.get("/api/profile").json["layout"]["rolls"] == 0
    reading = client.post("/api/profile/reading", json={}).json
    truth = truth_of(scene)
    taught = client.post("/api/profile/confirm", json={"token": reading["token"],
                                                       "dice": truth}).json
    assert taught["layout"]["rolls"] == 1 and not taught["layout"]["disagrees"]
    assert taught["layout"]["message"].startswith("1 confirmed roll fits the dice table")
    # H2 is the only die of the table with a red 6 and the only one with a green 5
    odd = "6R 5G 7B 8G 9O 10G 1B 2B 3G 4R".split()
    again = client.post("/api/profile/reading", json={}).json
    layout = client.post("/api/profile/confirm", json={"token": again["token"],
                                                       "dice": odd}).json["layout"]
    assert layout["disagrees"] and layout["unexplained"] == [" ".join(odd)]
    assert "1 of 2 confirmed rolls cannot be thrown" in layout["message"]
    saved = json.loads((tmp_path / "data" / PROFILE_DIR / "teaching.json").read_text())
    assert saved["rolls"] == [" ".join(truth), " ".join(odd)] and saved["rolls_confirmed"] == 2


def test_putting_a_slip_right_puts_its_confirmed_roll_right_too(tmp_path):
    """Three rolls confirmed on the page, one red die of the first typed orange: the die is
    left out of the reading; put right, the roll the dice table is checked by is too, and
    forgotten, that roll no longer counts."""
    from profile_helpers import SLIP_SCENES, FrameWatcher

    from vision.synth import render_scene

    watcher = FrameWatcher(render_scene(SLIP_SCENES[0]).image)
    app = open_camera_app(tmp_path, watcher)
    try:
        client = app.test_client()
        for number, seed in enumerate(SLIP_SCENES):
            scene = render_scene(seed)
            watcher.frame = scene.image
            reading = client.post("/api/profile/reading", json={}).json
            confirmed = [die["notation"] for die in reading["dice"]]
            assert sorted(confirmed) == sorted(str(truth.die) for truth in scene.dice)
            if number == 0:
                index = next(i for i, face in enumerate(confirmed) if face.endswith("R"))
                right = confirmed[index]
                confirmed[index] = right[:-1] + "O"
                first = " ".join(confirmed)
            summary = client.post("/api/profile/confirm", json={
                "token": reading["token"], "dice": confirmed}).json
        [out] = summary["left_out"]
        assert (out["confirmed"]["notation"], out["looks_like"]["notation"]) == (
            right[:-1] + "O", right)
        profile = app.extensions["phase10"].profile
        assert str(profile.confirmed_rolls()[0]) == first and summary["layout"]["rolls"] == 3

        fixed = client.put(f"/api/profile/examples/{out['key']}", json={"face": right}).json
        rolls = [str(roll) for roll in profile.confirmed_rolls()]
        assert rolls[0].split() == [right if i == index else face
                                    for i, face in enumerate(first.split())]
        assert fixed["layout"]["rolls"] == 3 and fixed["left_out"] == []
        saved = json.loads((tmp_path / "data" / PROFILE_DIR / "teaching.json").read_text())
        assert saved["rolls"] == rolls and len(saved["roll_examples"]) == 3

        forgotten = client.delete(f"/api/profile/examples/{out['key']}").json
        assert forgotten["layout"]["rolls"] == 2 and forgotten["examples"] == 29
        assert [str(roll) for roll in profile.confirmed_rolls()] == rolls[1:]
    finally:
        close_app(app)


def test_readers_that_describe_faces_alike_share_one_fitted_profile(taught_profile, tmp_path):
    """The camera's reader and the photos' reader read with the same matcher: the heads
    are fitted once per change of the profile, not once per reader."""
    from web.profile_service import TableProfile
    from web.store import GameStore

    service = TableProfile(tmp_path / "data", GameStore(tmp_path / "games.db"), lambda work: None)
    two_turns = ReaderSettings(classify=ClassifySettings(turns=2))
    first, second, other_turns = DiceReader(), DiceReader(), DiceReader(settings=two_turns)
    for reader in (first, second, other_turns):
        service.attach(reader)
    assert first.profile is not None and first.profile.heads is not None
    service._apply_all()  # what every change of the profile does
    assert first.profile is second.profile
    assert other_turns.profile is not None and other_turns.profile is not first.profile


def test_the_crops_kept_of_a_soft_frame_are_those_the_reader_kept():
    """A die corrected later is kept in the profile as the reader kept it: cut again from
    a soft (out-of-focus) frame, whose dice the classifier read sharpened, its crop is
    the reader's own, as cut, which the profile's inks are measured on."""
    import cv2
    import numpy as np

    from vision.reading import ReadingFlag
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE
    from web.crop_images import cut_crops

    frame = cv2.GaussianBlur(render_scene(HELD_OUT_SEED_BASE + 2).image, (0, 0), 2.2)
    reader = DiceReader(threads=1)
    reading = reader.read(frame)
    assert reading.has_flag(ReadingFlag.SOFT_FOCUS) and reading.dice
    readout = reader.readout(frame)
    boxes = [np.asarray(box, np.float64) for box in readout.located.boxes]
    for die, crop in zip(reading.dice, cut_crops(reading, frame), strict=False):
        index = next(i for i, box in enumerate(boxes) if np.allclose(box, die.corners))
        assert np.array_equal(crop, readout.crops[index])

"""A roll read by the camera and scored as it lies teaches the dice profile its dice: the
players checked the marked dice (or corrected them), and the reader was sure of the rest,
but for a die too doubtful to learn unchecked. The examples learnt so keep only the
newest of each face."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from fakes import FakeWatcher
from flask import Flask
from profile_helpers import FrameWatcher
from scorepad_helpers import MAKES, open_camera_app, wait_until

from scorer import Die, parse_roll
from vision.camera.camera_contract import RollEvent
from vision.profile.profile import DiceProfile
from vision.read.crops import CROP_SIZE
from vision.reading import ReadDie, Reading
from vision.synth import render_scene
from vision.synth.seeds import HELD_OUT_SEED_BASE
from web.app import close_app
from web.crop_images import example_key
from web.profile_progress import Progress, read_progress, write_progress
from web.profile_service import (
    LEARN_UNCHECKED_FROM,
    MAX_SCORED_PER_FACE,
    PROFILE_DIR,
    newest_scored,
)

#: The roll the camera reads (it makes phase 1), die 2 marked for a tap.
ROLL, UNSURE = MAKES[1][0], 2
#: A die read without a mark, but too doubtful to learn unless the players correct it.
DOUBTFUL = 5


@pytest.fixture(scope="module")
def frame_and_dice() -> tuple[np.ndarray, list[ReadDie]]:
    """A frame of ten dice, and a reading that puts the roll's faces on them (one marked)."""
    scene = render_scene(HELD_OUT_SEED_BASE + 2)
    dice = [ReadDie(die, 0.6 if index == UNSURE else 0.999, truth.centre,
                    tuple((float(x), float(y)) for x, y in truth.corners), index == UNSURE,
                    probability=(0.5 if index == UNSURE else
                                 LEARN_UNCHECKED_FROM - 0.02 if index == DOUBTFUL else 0.999))
            for index, (die, truth) in enumerate(zip(parse_roll(ROLL).dice, scene.dice,
                                                     strict=True))]
    return scene.image, dice


@pytest.fixture
def watcher(frame_and_dice) -> FakeWatcher:
    return FrameWatcher(frame_and_dice[0])  # its live view is a picture, as a camera's


@pytest.fixture
def app(tmp_path: Path, watcher: FakeWatcher) -> Iterator[Flask]:
    application = open_camera_app(tmp_path, watcher)
    yield application
    close_app(application)


def _camera_roll(app: Flask, watcher: FakeWatcher, frame_and_dice, *, kept: bool = True
                 ) -> tuple[int, dict]:
    """A game fed by the camera with the roll on the table, its dice's crops kept (unless
    learning during play is off: `kept` False)."""
    frame, dice = frame_and_dice
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    assert client.put("/api/camera/game", json={"game": game_id}).status_code == 200
    watcher.frame = frame
    watcher.push(RollEvent(Reading(tuple(dice), (frame.shape[1], frame.shape[0])), 1))
    state = wait_until(lambda: (s := client.get(f"/api/games/{game_id}").json)["current"]
                       and s, "the camera's roll on the table")
    profile = app.extensions["phase10"].profile
    if kept:
        wait_until(lambda: state["roll_id"] in profile._read_rolls, "the roll's crops kept")
    assert state["current"]["unsure_count"] == 1
    return game_id, state


def _counts(summary: dict) -> Counter[str]:
    return Counter({face["notation"]: face["count"] for face in summary["faces"]
                    if face["count"]})


def test_a_roll_scored_as_it_lies_teaches_every_die(app, watcher, frame_and_dice, tmp_path):
    client = app.test_client()
    game_id, _ = _camera_roll(app, watcher, frame_and_dice)
    refused = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert refused.status_code == 409  # a die is marked: nothing learnt before the check
    assert client.get("/api/profile").json["examples"] == 0
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "confirmed": True})
    assert scored.status_code == 200
    app.extensions["phase10"].profile.wait_learnt()  # learnt off the request that scored
    summary = client.get("/api/profile").json
    # Every die but the doubtful one no one checked; the marked one, checked, is learnt.
    assert summary["examples"] == 9 and summary["from_scored_rolls"] == 1
    dice = parse_roll(ROLL).dice
    assert _counts(summary) == Counter(str(die) for index, die in enumerate(dice)
                                       if index != DOUBTFUL)
    assert summary["rolls_confirmed"] == 0 and summary["from_corrections"] == 0
    # Kept on disk.
    folder = tmp_path / "data" / PROFILE_DIR
    assert len(DiceProfile.load(folder)) == 9
    assert read_progress(folder).from_scored_rolls == 1


def test_a_colour_doubt_taken_unchecked_is_not_learnt(app, watcher, frame_and_dice):
    """In phase 1 a die doubted for its colour alone needs no check, so the score takes it
    as read: no one vouched for its colour, and the profile does not learn it."""
    from dataclasses import replace

    frame, dice = frame_and_dice
    colour_doubt = [replace(die, value_unsure=False) if index == UNSURE
                    else replace(die, value_unsure=False if die.unsure else None)
                    for index, die in enumerate(dice)]
    client = app.test_client()
    game_id, state = _camera_roll(app, watcher, (frame, colour_doubt))
    assert state["current"]["colour_doubt_count"] == 1
    assert not state["current"]["needs_confirmation"]
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann"})
    assert scored.status_code == 200
    app.extensions["phase10"].profile.wait_learnt()
    summary = client.get("/api/profile").json
    assert summary["examples"] == 8 and summary["from_scored_rolls"] == 1
    assert _counts(summary) == Counter(str(die) for index, die in
                                       enumerate(parse_roll(ROLL).dice)
                                       if index not in (UNSURE, DOUBTFUL))


def test_a_die_corrected_before_the_score_is_learnt_once(app, watcher, frame_and_dice):
    client = app.test_client()
    game_id, state = _camera_roll(app, watcher, frame_and_dice)
    fixed = client.post(f"/api/games/{game_id}/roll/dice/{UNSURE}", json={"die": "8O"})
    assert fixed.status_code == 200 and fixed.json["current"]["unsure_count"] == 0
    # The doubtful die, tapped and set to what it shows: checked, so it is learnt too.
    same = str(parse_roll(ROLL).dice[DOUBTFUL])
    assert client.post(f"/api/games/{game_id}/roll/dice/{DOUBTFUL}",
                       json={"die": same}).status_code == 200
    assert client.post(f"/api/games/{game_id}/score",
                       json={"player": "Ann", "confirmed": True}).status_code == 200
    app.extensions["phase10"].profile.wait_learnt()
    summary = client.get("/api/profile").json
    assert summary["examples"] == 10
    assert summary["from_corrections"] == 2 and summary["from_scored_rolls"] == 1
    faces = Counter(str(die) for die in parse_roll(ROLL).dice)
    faces[str(parse_roll(ROLL).dice[UNSURE])] -= 1
    faces["8O"] += 1
    assert _counts(summary) == +faces


def test_another_roll_sent_with_the_score_teaches_nothing(app, watcher, frame_and_dice):
    """The players scored a roll they typed, not the one the camera read: its pictures
    show other faces."""
    client = app.test_client()
    game_id, _ = _camera_roll(app, watcher, frame_and_dice)
    typed = ROLL.replace("3R", "2R")
    scored = client.post(f"/api/games/{game_id}/score",
                         json={"player": "Ann", "roll": typed, "confirmed": True})
    assert scored.status_code == 200
    app.extensions["phase10"].profile.wait_learnt()
    assert client.get("/api/profile").json["examples"] == 0


def test_learning_during_play_switched_off_learns_no_scored_roll(app, watcher, frame_and_dice):
    client = app.test_client()
    assert client.put("/api/profile/settings",
                      json={"learn_from_corrections": False}).status_code == 200
    game_id, _ = _camera_roll(app, watcher, frame_and_dice, kept=False)
    assert client.post(f"/api/games/{game_id}/score",
                       json={"player": "Ann", "confirmed": True}).status_code == 200
    app.extensions["phase10"].profile.wait_learnt()
    summary = client.get("/api/profile").json
    assert summary["examples"] == 0 and summary["from_scored_rolls"] == 0


def test_a_failure_to_learn_never_breaks_the_score(app, watcher, frame_and_dice, monkeypatch):
    client = app.test_client()
    game_id, _ = _camera_roll(app, watcher, frame_and_dice)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(app.extensions["phase10"].profile, "_learn", broken)
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "confirmed": True})
    assert scored.status_code == 200
    assert scored.json["turns"][-1]["score"] == MAKES[1][1]
    app.extensions["phase10"].profile.wait_learnt()
    assert client.get("/api/profile").json["from_scored_rolls"] == 0


def test_the_score_does_not_wait_for_the_learning(app, watcher, frame_and_dice, monkeypatch):
    import threading

    client = app.test_client()
    game_id, _ = _camera_roll(app, watcher, frame_and_dice)
    profile = app.extensions["phase10"].profile
    release, learnt = threading.Event(), []

    def slow(crops, faces, **_: object) -> None:
        assert release.wait(30), "the test never let the learning go on"
        learnt.append(len(crops))

    monkeypatch.setattr(profile, "_learn", slow)
    scored = client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "confirmed": True})
    assert scored.status_code == 200 and not learnt  # scored while the learning waits
    release.set()
    profile.wait_learnt()
    assert learnt == [9]  # the doubtful die no one checked is not learnt


def _profile_of(faces: list[str]) -> DiceProfile:
    """A profile with one distinct crop per face given (descriptors made up)."""
    crops = np.stack([np.full((CROP_SIZE, CROP_SIZE, 3), index, np.uint8)
                      for index in range(len(faces))])
    return DiceProfile.empty().add(crops, [Die.from_text(face) for face in faces],
                                   np.eye(len(faces), 8, dtype=np.float32) + 0.1, "model")


def test_only_the_newest_examples_of_a_face_learnt_from_scores_are_kept():
    faces = ["5R"] * (MAX_SCORED_PER_FACE + 3) + ["6B", "6B"]
    profile = _profile_of(faces)
    keys = [example_key(crop) for crop in profile.crops]
    protected = frozenset({keys[0]})  # taught on the set-up page: never makes way
    scored = tuple(keys[1:])  # oldest first
    trimmed, kept = newest_scored(profile, scored, protected, MAX_SCORED_PER_FACE)
    held = [example_key(crop) for crop in trimmed.crops]
    assert keys[0] in held
    assert held.count(keys[1]) == held.count(keys[2]) == 0  # the two oldest 5R made way
    assert sum(1 for die in trimmed.dice if str(die) == "5R") == MAX_SCORED_PER_FACE + 1
    assert sum(1 for die in trimmed.dice if str(die) == "6B") == 2
    assert kept == tuple(key for key in scored if key in held) and len(kept) == len(scored) - 2
    # Under the limit nothing goes.
    same, all_kept = newest_scored(profile, scored, protected, len(faces))
    assert same is profile and all_kept == scored


def test_the_progress_keeps_the_examples_learnt_from_scores(tmp_path: Path):
    progress = Progress(rolls_confirmed=2).with_scored_roll(("a1", "b2")).with_scored_roll(
        ("b2", "c3"))
    assert progress.from_scored_rolls == 2 and progress.scored == ("b2", "c3")
    write_progress(tmp_path, progress)
    assert read_progress(tmp_path) == progress


@pytest.mark.browser
def test_the_set_up_page_counts_the_rolls_learnt_from_their_score(app, watcher, frame_and_dice,
                                                                   page):
    client = app.test_client()
    game_id, _ = _camera_roll(app, watcher, frame_and_dice)
    client.post(f"/api/games/{game_id}/score", json={"player": "Ann", "confirmed": True})
    app.extensions["phase10"].profile.wait_learnt()
    page.goto(page.base_url + "/setup")
    page.wait_for_selector("#teach[data-ready=yes]")
    assert "9 die pictures learnt (1 roll scored)." in page.inner_text(
        "[data-testid=teach-progress]")
    assert "each roll scored" in page.inner_text("label.teach-learn")

"""Rendered dice sets for the dice profile tests (a module, so tests can import it by name).

A household's dice: one dice set (font, inks, body) drawn as `benchmarks/eval_profile.py`
draws its sets, shown in scenes that differ in everything else. `MISREAD` is a scene of
a held-out set (a font training never used) that the shipped reader gets one die wrong
in without a profile: it reads the orange wild die (WO) as the red one (WR); taught that
roll, it reads it right. The
scenes are picked for the shipped classifier: a retrained one may read them right, and
then new ones are picked the same way.
"""

from __future__ import annotations

from functools import cache

import cv2
import pytest
from fakes import FakeWatcher

from vision.synth.dice_sets import dice_set_scene as render_set_scene
from vision.synth.font_library import MissingFontError
from vision.synth.seeds import HELD_OUT_SEED_BASE

GROUPS = ("held-out-light", "held-out-dark")
#: (set, scene) of the scene read with one die wrong, the face read and the true face.
MISREAD = (8, 0)
READ_AS, TRUE_FACE = "WR", "WO"
#: A scene whose misread still makes a roll (a high face for a high face), so the camera
#: puts it on the table: it reads the 10G as 10R.
ROLL_MISREAD = (34, 0)
ROLL_READ_AS, ROLL_TRUE_FACE = "10R", "10G"


@cache
def dice_set_scene(set_index: int, scene: int):
    """Scene `scene` of dice set `set_index` (1280x960), as the profile benchmark renders it."""
    try:
        return render_set_scene(GROUPS[set_index % len(GROUPS)], set_index, scene)
    except MissingFontError as error:  # `bash models/install_fonts.sh --held-out` installs them
        pytest.skip(f"the held-out fonts are not installed: {error}")


def truth_of(scene) -> list[str]:
    return sorted(str(die.die) for die in scene.dice)


#: The scenes `slipped_profile` teaches (the vision renderer's, no extra fonts needed).
SLIP_SCENES = tuple(HELD_OUT_SEED_BASE + 7_700 + offset for offset in (3, 4, 5))


def slipped_profile(reader) -> tuple:
    """A profile taught three rolls, one red die of the first typed orange: (the profile,
    the face typed). The reader leaves that die out."""
    from scorer import Die
    from vision.profile.profile import DiceProfile
    from vision.profile.teach import teach
    from vision.synth import render_scene

    taught = DiceProfile.empty()
    for seed in SLIP_SCENES:
        scene = render_scene(seed)
        roll = [d.die for d in scene.dice]
        if seed == SLIP_SCENES[0]:
            index = next(i for i, die in enumerate(roll) if die.colour == "R")
            slip = roll[index] = Die(roll[index].value, "O")
        taught = teach(reader, scene.image, roll, taught).profile
    return taught, slip


class FrameWatcher(FakeWatcher):
    """The fake table camera showing one frame of the household's dice, live view included."""

    def __init__(self, frame) -> None:
        super().__init__()
        self.frame = frame

    def latest_overlay_jpeg(self) -> bytes | None:
        return cv2.imencode(".jpg", cv2.resize(self.frame, (640, 480)))[1].tobytes()


def open_with_profile(tmp_path, profile):
    """The camera scorepad (a fake camera) with `profile` in its data folder, and a reader
    reading with it (the photos' reader, loaded by one teaching reading)."""
    from scorepad_helpers import open_camera_app

    from vision.synth import render_scene
    from web.profile_service import PROFILE_DIR

    profile.save(tmp_path / "data" / PROFILE_DIR)
    app = open_camera_app(tmp_path, FrameWatcher(render_scene(SLIP_SCENES[1]).image))
    assert app.test_client().post("/api/profile/reading", json={}).status_code == 200
    return app

"""Rendered dice sets for the dice profile tests (a module, so tests can import it by name).

A household's dice: one dice set (font, inks, body) drawn as `benchmarks/eval_profile.py`
draws its sets, shown in scenes that differ in everything else. `MISREAD` is a scene of
a held-out set (a font training never used) that the shipped reader gets one die wrong
in without a profile: it reads the 1G as 1B; taught that roll, it reads it right. The
scenes are picked for the shipped classifier: a retrained one may read them right, and
then new ones are picked the same way.
"""

from __future__ import annotations

from functools import cache

import pytest

from vision.synth.dice_sets import dice_set_scene as render_set_scene
from vision.synth.font_library import MissingFontError

GROUPS = ("held-out-light", "held-out-dark")
#: (set, scene) of the scene read with one die wrong, the face read and the true face.
MISREAD = (15, 2)
READ_AS, TRUE_FACE = "1B", "1G"
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

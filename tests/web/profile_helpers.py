"""Rendered dice sets for the dice profile tests (a module, so tests can import it by name).

A household's dice: one dice set (font, inks, body) drawn as `benchmarks/eval_profile.py`
draws its sets, shown in scenes that differ in everything else. `MISREAD` is a scene of
a held-out set (a font training never used) that the shipped reader gets one die wrong
in without a profile: it reads the 4B as WB; taught that roll, it reads it right. The
scenes are picked for the shipped classifier: a retrained one may read them right, and
then new ones are picked the same way.
"""

from __future__ import annotations

import dataclasses
from functools import cache

import numpy as np

from vision.synth import random_conditions, render_scene
from vision.synth.looks import eval_group, random_look, random_white_balance
from vision.synth.seeds import PROFILE_SEED_BASE, PROFILE_SET_SPAN

GROUPS = ("held-out-light", "held-out-dark")
#: (set, scene) of the scene read with one die wrong, the face read and the true face.
MISREAD = (1, 1)
READ_AS, TRUE_FACE = "WB", "4B"
#: A scene whose misread still makes a roll (a high face for a high face), so the camera
#: puts it on the table: it reads the 8R as 8O.
ROLL_MISREAD = (17, 2)
ROLL_READ_AS, ROLL_TRUE_FACE = "8O", "8R"


@cache
def dice_set_scene(set_index: int, scene: int):
    """Scene `scene` of dice set `set_index` (1280x960), as the profile benchmark renders it."""
    group = eval_group(GROUPS[set_index % len(GROUPS)])
    set_seed = PROFILE_SEED_BASE + set_index * PROFILE_SET_SPAN
    rng = np.random.default_rng([set_seed, 11])
    dice_set = random_look(rng, random_conditions(rng), group.mix().fonts, dark=group.dark)
    rng = np.random.default_rng([set_seed + scene, 7])
    conditions = dataclasses.replace(
        random_conditions(rng), body_bgr=dice_set.body_bgr, body_dark=dice_set.body_dark,
        artwork=dice_set.artwork, inks=dice_set.inks, white_balance=random_white_balance(rng))
    return render_scene(set_seed + scene, conditions=conditions)


def truth_of(scene) -> list[str]:
    return sorted(str(die.die) for die in scene.dice)

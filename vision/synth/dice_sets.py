"""One household's dice in many scenes: what the dice-profile evaluation and its tests read.

A dice set (one font and style, one set of inks, one body, drawn with `random_look`
in the fonts of an evaluation group) is shown in scenes that differ in everything
else: the roll, where the dice lie, the mat, the lamp and its white balance. Set k's
scenes take the seeds from PROFILE_SEED_BASE + k * PROFILE_SET_SPAN.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from vision.synth.conditions import random_conditions
from vision.synth.looks import eval_group, random_look, random_white_balance
from vision.synth.scene import Scene, render_scene
from vision.synth.seeds import PROFILE_SEED_BASE, PROFILE_SET_SPAN


def scene_seed(set_index: int, scene: int) -> int:
    """The seed of scene `scene` of dice set `set_index`."""
    if not 0 <= scene < PROFILE_SET_SPAN:
        raise ValueError(f"scene must be in 0..{PROFILE_SET_SPAN - 1}, got {scene}")
    return PROFILE_SEED_BASE + set_index * PROFILE_SET_SPAN + scene


def dice_set_scene(group_key: str, set_index: int, scene: int,
                   ink_spread: float | None = None) -> Scene:
    """Scene `scene` (1280x960) of dice set `set_index`, drawn in the fonts and bodies of
    the evaluation group `group_key` (`vision.synth.looks.EVAL_GROUPS`).

    `ink_spread`: how far each die's ink strays from its set's (`Conditions.ink_spread`;
    None: as the renderer draws it, afresh in every scene, so one die's ink changes from
    scene to scene as a real die's never does; 0: every die of a colour printed alike),
    every other draw unchanged."""
    if ink_spread is not None and ink_spread < 0:
        raise ValueError(f"ink_spread must be 0 or more, got {ink_spread}")
    group = eval_group(group_key)
    set_seed = scene_seed(set_index, 0)
    rng = np.random.default_rng([set_seed, 11])
    dice_set = random_look(rng, random_conditions(rng), group.mix().fonts, dark=group.dark)
    seed = scene_seed(set_index, scene)
    rng = np.random.default_rng([seed, 7])
    conditions = dataclasses.replace(
        random_conditions(rng),
        body_bgr=dice_set.body_bgr,
        body_dark=dice_set.body_dark,
        artwork=dice_set.artwork,
        inks=dice_set.inks,
        white_balance=random_white_balance(rng),
    )
    if ink_spread is not None:
        conditions = dataclasses.replace(conditions, ink_spread=ink_spread)
    return render_scene(seed, conditions=conditions)

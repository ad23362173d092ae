"""Training samples for the top-face network: rendered scenes shrunk to its input, with
the maps it must predict (top faces, their cores, the hand).

A sample is drawn from its seed alone: most scenes hold a full roll of ten dice,
some fewer (dice kept aside during a turn) or none, some a hand reaching in,
some motion blur of dice still rolling. Training only; the app never renders.
"""

from __future__ import annotations

import dataclasses
from typing import Final, cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.read.tops_input import CORE_SHRINK, net_input, output_size
from vision.synth.conditions import random_conditions
from vision.synth.looks import LookMix
from vision.synth.placement import random_placements, random_roll
from vision.synth.scene import Scene, render_scene
from vision.synth.views import SteepView, steep_conditions, steep_scene

FULL_ROLL_SHARE: Final[float] = 0.75
HAND_SHARE: Final[float] = 0.2
BLUR_SHARE: Final[float] = 0.1
WORLD_SHARE: Final[float] = 0.7
"""Share of scenes on tables like real photographs, when a LookMix is given."""
TILT_SHARE: Final[float] = 0.35
"""Share of those seen by a camera tipped off vertical."""
STEEP_TRAINING_VIEW: Final[SteepView] = SteepView(die_px=(36.0, 80.0))
"""The steep views of `LookMix.steep_share` of the real-world scenes: a phone tipped up to
35 degrees, as the evaluation's steep views, with dice a little smaller and larger."""
STEEP_ASIDE_TRAINING_VIEW: Final[SteepView] = dataclasses.replace(
    STEEP_TRAINING_VIEW, camera_aside=True)
"""The same view with the phone held at the tray's side (`LookMix.aside_share` of the steep
views), so each die shows the sides that face it, as the evaluation's aside views."""
_SUPERSAMPLE: Final[int] = 4  # target polygons are drawn this much finer, then averaged


def target_maps(scene: Scene) -> np.ndarray:
    """(3, h, w) uint8 maps at the network's output size: the share of each cell that is
    a visible top face, a top's core, and hand (255 = all of it)."""
    height, width = scene.image.shape[:2]
    out_w, out_h = output_size(width, height)
    fine = (out_w * _SUPERSAMPLE, out_h * _SUPERSAMPLE)
    scale = np.array([fine[0] / width, fine[1] / height], np.float64)
    top = np.zeros(fine[::-1], np.uint8)
    core = np.zeros(fine[::-1], np.uint8)
    for die in scene.dice:
        corners = np.asarray(die.corners, np.float64) * scale
        centre = corners.mean(axis=0)
        for canvas, points in ((top, corners), (core, (corners - centre) * CORE_SHRINK + centre)):
            polygon = np.round(points * 16).astype(np.int32)
            cv2.fillPoly(canvas, [polygon], 255, cv2.LINE_8, shift=4)
    if scene.hand_mask is None:
        hand = np.zeros(fine[::-1], np.uint8)
    else:
        hand = cv2.resize(scene.hand_mask, fine, interpolation=cv2.INTER_AREA)
        hand = np.where(hand > 127, 255, 0).astype(np.uint8)
        top[hand > 0] = 0  # what the hand covers is not a visible top
        core[hand > 0] = 0
    maps = [cv2.resize(m, (out_w, out_h), interpolation=cv2.INTER_AREA) for m in (top, core, hand)]
    return np.stack(maps)


def tilt_scene(scene: Scene, rng: np.random.Generator, amount: float) -> Scene:
    """The scene as a camera tipped off vertical sees it: a random homography moving each
    frame corner by up to `amount` of the frame's size, applied to the picture, the dice's
    corners and the hand alike (the picture's edge repeats outward)."""
    height, width = scene.image.shape[:2]
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    jitter = rng.uniform(-amount, amount, (4, 2)) * [width, height]
    moved = (frame + jitter).astype(np.float32)
    homography = cv2.getPerspectiveTransform(moved, frame)
    # A warp keeps the dtype of what it warps (uint8 here); OpenCV's stubs say any number.
    image = cast("NDArray[np.uint8]", cv2.warpPerspective(
        scene.image, homography, (width, height), borderMode=cv2.BORDER_REFLECT_101
    ))
    hand = None
    if scene.hand_mask is not None:
        hand = cast(
            "NDArray[np.uint8]", cv2.warpPerspective(scene.hand_mask, homography, (width, height))
        )
    dice = []
    for die in scene.dice:
        moved_corners = cv2.perspectiveTransform(die.corners.reshape(-1, 1, 2), homography)
        corners = moved_corners.reshape(4, 2).astype(np.float32)
        inside = np.all((corners >= 0) & (corners < [width, height]))
        if inside:  # a top pushed out of the picture is no longer a die to find
            x, y = map(float, corners.mean(axis=0))
            dice.append(dataclasses.replace(die, corners=corners, centre=(x, y)))
    return Scene(image, tuple(dice), scene.conditions, hand)


def render_locator_sample(seed: int, look: LookMix | None = None) -> tuple[np.ndarray, np.ndarray]:
    """One sample: the network input (H, W, 3) uint8 BGR and its target maps (3, h, w) uint8.

    With `look`, WORLD_SHARE of the scenes are tables like real photographs, drawn by the
    mix (its fonts, pip dice, surfaces, clutter), some seen by a tipped camera (the mix's
    `steep_share` of them as a phone held over the tray sees them, `aside_share` of those
    with the phone at the tray's side); the rest,
    and all without `look`, are the first renderer's trays."""
    rng = np.random.default_rng([seed, 7])
    dice = list(random_roll(rng))
    if rng.random() >= FULL_ROLL_SHARE:
        dice = dice[: int(rng.integers(0, len(dice)))]
    hand = bool(rng.random() < HAND_SHARE)
    blur = float(rng.uniform(2.0, 14.0)) if rng.random() < BLUR_SHARE else 0.0
    if look is None or rng.random() >= WORLD_SHARE:
        scene = render_scene(seed, dice=dice, hand=hand, motion_blur=blur)
        return net_input(scene.image), target_maps(scene)
    size = (1280, 960)
    conditions = look.apply(rng, random_conditions(rng, size))
    tilt: tuple[float, float] | None = None
    if look.steep_share and rng.random() < look.steep_share:  # no draw without steep views
        view = STEEP_TRAINING_VIEW
        if look.aside_share and rng.random() < look.aside_share:  # no draw without aside views
            view = STEEP_ASIDE_TRAINING_VIEW
        conditions, degrees, azimuth = steep_conditions(rng, conditions, size, view)
        tilt = (degrees, azimuth)
    placements = random_placements(rng, dice, conditions, size, look.lean_share)
    scene = render_scene(
        seed, placements=placements, conditions=conditions, hand=hand, motion_blur=blur
    )
    if tilt is not None:
        scene = steep_scene(scene, *tilt)
    elif rng.random() < TILT_SHARE:
        scene = tilt_scene(scene, rng, float(rng.uniform(0.03, 0.12)))
    return net_input(scene.image), target_maps(scene)


def render_locator_samples(
    first_seed: int, count: int, look: LookMix | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """`count` samples from consecutive seeds, stacked: (N, H, W, 3) and (N, 3, h, w)."""
    samples = [render_locator_sample(first_seed + i, look) for i in range(count)]
    return np.stack([s[0] for s in samples]), np.stack([s[1] for s in samples])

"""Labelled single-face crops for training and evaluating the face classifier.

Each batch of crops comes from small rendered scenes (a few dice on a patch of
tray at real dice sizes), cut out with `crop_face` from ground-truth corners
that are jittered like an imprecise locator would give them: shifted, scaled,
rotated (by multiples of 90 degrees and sometimes by any angle). Negatives,
which the model must call "not a die face", are cut from the same scenes: bare
mat and tray wall, a die's edge and side, the gap between two dice, a hand,
glare blobs on the mat, and the tops of pip dice (a die, but no Phase 10 face;
`LookMix.pip_share` of the scenes). `LookMix.steep_share` of the scenes are seen by
a camera tipped up to STEEP_DEGREES off the vertical (`vision.synth.views`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from scorer.dice import COLOUR_LETTERS, HIGH_VALUES, LOW_VALUES, Die
from vision.read.crops import CROP_SIZE, crop_face
from vision.read.labels import NO_LABEL, colour_index, value_index
from vision.synth.conditions import random_conditions
from vision.synth.looks import LookMix
from vision.synth.pips import PipStyle
from vision.synth.placement import random_placements, random_roll
from vision.synth.scene import Scene, render_scene
from vision.synth.views import random_steep_scene

SCENE_SIZE = (448, 336)
"""Canvas of a crop scene: a patch of tray a few dice across."""

#: Dice sizes (pixels per edge) crops are drawn at: from a 640x480 camera up to a close 1280x960.
MIN_SCALE, MAX_SCALE = 28.0, 115.0
LAYOUT_SHARE = 0.75
"""Share of scenes whose faces come from the real dice layout; the rest are random faces."""
NEGATIVE_SHARE = 0.2
CROPS_PER_DIE = 2  # differently jittered crops of each rendered die
HAND_SHARE = 0.15
HAND_COVER_REJECT = 0.4  # a face this much under the hand is a negative
HAND_COVER_SKIP = 0.1  # between the two, the crop is ambiguous and not used
OUTLINE_SHARE = 0.85
"""Share of training scenes drawn in an outline font (the rest in the Hershey fonts)."""
STEEP_SHARE = 0.3
"""Share of scenes seen by a camera tipped off the vertical, as a phone over the tray is."""
STEEP_DEGREES = 35.0
"""The steepest such view."""


def _random_faces(rng: np.random.Generator, count: int) -> list[Die]:
    """Any value/colour combinations, so the model cannot lean on the dice layout."""
    values = [*HIGH_VALUES, *LOW_VALUES]
    return [
        Die(values[int(rng.integers(len(values)))], COLOUR_LETTERS[int(rng.integers(4))])
        for _ in range(count)
    ]


def _crop_scene(rng: np.random.Generator, seed: int, look: LookMix) -> Scene:
    conditions = look.apply(rng, random_conditions(rng, (1280, 960)))
    scale = float(np.exp(rng.uniform(np.log(MIN_SCALE), np.log(MAX_SCALE))))
    conditions = dataclasses.replace(
        conditions,
        scale=scale,
        # A small canvas sits near the image centre: a lower camera shows as much side face.
        camera_height=float(rng.uniform(3.5, 14.0)),
        tray_inset=float(rng.uniform(-0.1, 0.05)),
    )
    count = int(rng.integers(2, 7))
    if rng.random() < LAYOUT_SHARE:
        dice = list(random_roll(rng))[:count]
    else:
        dice = _random_faces(rng, count)
    placements = random_placements(rng, dice, conditions, SCENE_SIZE)
    motion = float(rng.choice([0.0, rng.uniform(1.0, 0.12 * scale)], p=[0.8, 0.2]))
    scene = render_scene(
        seed,
        placements=placements,
        conditions=conditions,
        size=SCENE_SIZE,
        motion_blur=motion,
        hand=bool(rng.random() < HAND_SHARE),
    )
    if look.steep_share and rng.random() < look.steep_share:
        scene, _ = random_steep_scene(scene, rng, STEEP_DEGREES)
    return scene


def _jitter_quad(rng: np.random.Generator, quad: np.ndarray, edge: float) -> np.ndarray:
    """The quad as an imprecise locator might report it."""
    centre = quad.mean(axis=0) + rng.normal(0.0, 0.05, 2) * edge
    scale = float(np.exp(rng.normal(0.0, 0.06)))
    if rng.random() < 0.3:
        angle = rng.uniform(0, 360)
    else:
        angle = rng.integers(4) * 90 + rng.normal(0, 5)
    a = np.radians(angle)
    rotation = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    moved = (quad - quad.mean(axis=0)) @ rotation.T * scale + centre
    return moved[np.roll(np.arange(4), int(rng.integers(4)))].astype(np.float32)


def _square(centre: np.ndarray, edge: float, angle: float) -> np.ndarray:
    a = np.radians(angle)
    u = np.array([np.cos(a), np.sin(a)]) * edge / 2
    v = np.array([-np.sin(a), np.cos(a)]) * edge / 2
    return np.array([centre - u - v, centre + u - v, centre + u + v, centre - u + v], np.float32)


def _face_edge(scene: Scene) -> float:
    sides = [np.linalg.norm(d.corners[1] - d.corners[0]) for d in scene.dice]
    return float(np.median(sides)) if sides else scene.conditions.scale


def _negative_quads(rng: np.random.Generator, scene: Scene, count: int) -> list[np.ndarray]:
    """Quads that hold no single readable face."""
    edge = _face_edge(scene)
    height, width = scene.image.shape[:2]
    centres = np.array([d.centre for d in scene.dice]).reshape(-1, 2)
    quads: list[np.ndarray] = []

    def bare() -> np.ndarray | None:
        for _ in range(20):
            point = rng.uniform([edge / 2, edge / 2], [width - edge / 2, height - edge / 2])
            if len(centres) == 0 or np.min(np.linalg.norm(centres - point, axis=1)) > 1.1 * edge:
                return _square(point, edge * rng.uniform(0.8, 1.2), rng.uniform(0, 360))
        return None

    def off_centre() -> np.ndarray | None:
        if not scene.dice:
            return None
        die = scene.dice[int(rng.integers(len(scene.dice)))]
        direction = rng.normal(size=2)
        direction /= np.linalg.norm(direction) + 1e-9
        shift = direction * edge * rng.uniform(0.6, 1.0)
        return (die.corners + shift).astype(np.float32)

    def between() -> np.ndarray | None:
        if len(scene.dice) < 2:
            return None
        distances = np.linalg.norm(centres[:, None] - centres[None], axis=2)
        np.fill_diagonal(distances, np.inf)
        i, j = np.unravel_index(np.argmin(distances), distances.shape)
        if distances[i, j] > 1.6 * edge:
            return None
        middle = (centres[i] + centres[j]) / 2
        angle = np.degrees(np.arctan2(*(scene.dice[i].corners[1] - scene.dice[i].corners[0])[::-1]))
        return _square(middle, edge * rng.uniform(0.9, 1.1), angle + rng.normal(0, 5))

    def on_hand() -> np.ndarray | None:
        if scene.hand_mask is None:
            return None
        ys, xs = np.nonzero(scene.hand_mask[::4, ::4] > 200)
        if len(xs) == 0:
            return None
        k = int(rng.integers(len(xs)))
        point = np.array([xs[k] * 4, ys[k] * 4], np.float64)
        return _square(point, edge * rng.uniform(0.8, 1.3), rng.uniform(0, 360))

    kinds: list[Callable[[], np.ndarray | None]] = [
        bare,
        off_centre,
        off_centre,
        between,
        on_hand,
        on_hand,
    ]
    for _ in range(count * 4):
        if len(quads) >= count:
            break
        quad = kinds[int(rng.integers(len(kinds)))]()
        if quad is not None and _inside(quad, scene.image.shape):
            quads.append(quad)
    return quads


def _add_glare(rng: np.random.Generator, crop: np.ndarray) -> np.ndarray:
    """A bright soft blob, about die-sized: a reflection on the mat is not a die."""
    size = crop.shape[0]
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    cx, cy = rng.uniform(0.3, 0.7, 2) * size
    sx, sy = rng.uniform(0.12, 0.4, 2) * size
    blob = np.exp(-(((xs - cx) / sx) ** 2 + ((ys - cy) / sy) ** 2))
    glow = blob[..., None] * rng.uniform(120, 255)
    return np.clip(crop.astype(np.float32) + glow, 0, 255).astype(np.uint8)


def _inside(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    height, width = shape[:2]
    return bool(
        corners[:, 0].min() >= 0
        and corners[:, 1].min() >= 0
        and corners[:, 0].max() < width
        and corners[:, 1].max() < height
    )


def _hand_cover(scene: Scene, corners: np.ndarray) -> float:
    if scene.hand_mask is None:
        return 0.0
    height, width = scene.hand_mask.shape
    points = np.clip(corners.mean(axis=0), 0, [width - 1, height - 1]).astype(int)
    samples = [points] + [np.clip(c, 0, [width - 1, height - 1]).astype(int) for c in corners]
    return float(np.mean([scene.hand_mask[y, x] / 255.0 for x, y in samples]))


def render_face_crops(
    seed: int,
    count: int,
    *,
    size: int = CROP_SIZE,
    negative_share: float = NEGATIVE_SHARE,
    look: LookMix | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`count` labelled crops: (N, size, size, 3) uint8 BGR, value index, colour index, is_face.

    `look` says which dice sets the scenes show (outline fonts and bodies, `synth.looks`);
    None draws every set in the Hershey fonts. Negatives carry value and colour index
    NO_LABEL (-1). The same seed and look give the same crops.
    """
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    values: list[int] = []
    colours: list[int] = []
    faces: list[bool] = []
    scene_index = 0
    while len(crops) < count:
        scene_seed = int(np.random.SeedSequence([seed, scene_index]).generate_state(1)[0])
        scene_index += 1
        scene = _crop_scene(rng, scene_seed, look or LookMix())
        edge = _face_edge(scene)
        # A pip die is found like any die but carries no numeral: not a Phase 10 face.
        pips = isinstance(scene.conditions.artwork, PipStyle)
        positives = 0
        for die in scene.dice:
            if not _inside(die.corners, scene.image.shape):
                continue
            cover = _hand_cover(scene, die.corners)
            if HAND_COVER_SKIP < cover < HAND_COVER_REJECT:
                continue
            is_face = cover <= HAND_COVER_SKIP and not pips
            for _ in range(CROPS_PER_DIE):
                crops.append(crop_face(scene.image, _jitter_quad(rng, die.corners, edge), size))
                values.append(value_index(die.die) if is_face else NO_LABEL)
                colours.append(colour_index(die.die) if is_face else NO_LABEL)
                faces.append(is_face)
                positives += is_face
        wanted = positives * negative_share / max(1.0 - negative_share, 1e-6)
        negatives = int(wanted) + int(rng.random() < wanted - int(wanted))
        for quad in _negative_quads(rng, scene, negatives):
            crop = crop_face(scene.image, quad, size)
            if rng.random() < 0.15:
                crop = _add_glare(rng, crop)
            crops.append(crop)
            values.append(NO_LABEL)
            colours.append(NO_LABEL)
            faces.append(False)
    n = count
    stack = np.stack(crops[:n]) if n else np.zeros((0, size, size, 3), np.uint8)
    return (
        stack,
        np.asarray(values[:n], np.int64),
        np.asarray(colours[:n], np.int64),
        np.asarray(faces[:n], bool),
    )

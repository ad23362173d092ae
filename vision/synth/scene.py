"""Render a camera's view of the dice tray, with each die's ground truth.

The image is composed in float32 BGR: table, tray wall and textured mat, soft
cast shadows, then the dice from the outside in (dice nearer the image centre
stand taller in the picture and hide the side faces of their outer neighbours),
an optional hand, and last what the camera adds: uneven light, white balance,
exposure, defocus and motion blur, sensor noise and JPEG compression.

One light model for everything: a surface's shade is ambient plus the directional
share times the cosine between its normal and the light (`_shade`), so the mat
and a flat die top under the same light keep the ratio of their colours, and the
body/mat contrast chosen in `conditions` survives dim light. Falloff across the
frame, vignette, white balance and exposure then act on the whole frame alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from scorer.dice import COLOUR_LETTERS, COLOUR_RGB, PHYSICAL_DICE, Die
from vision.synth import glyphs
from vision.synth.conditions import Conditions, camera_centre, random_conditions
from vision.synth.geometry import (
    Camera,
    die_rotation,
    face_corners,
    face_normals,
    rest_centre,
    rounded_outline,
)
from vision.synth.placement import (
    Placement,
    lean_direction,
    random_placements,
    random_roll,
    tray_interior,
)
from vision.synth.texture import add_noise, hand_layer, lighting_gain, mat_texture, motion_kernel

SIDE_SHADE_LIMIT = 0.8
"""Side faces are at most this bright relative to the top face: light comes from above."""

_TEXTURE_QUAD = np.array(
    [[0, 0], [glyphs.TEXTURE, 0], [glyphs.TEXTURE, glyphs.TEXTURE], [0, glyphs.TEXTURE]],
    np.float32,
)


@dataclass(frozen=True)
class RenderedDie:
    """Ground truth for one die: its face, the top face's centre and corners in pixels.

    `corners` run in the numeral's reading order (top-left, top-right,
    bottom-right, bottom-left as the numeral stands).
    """

    die: Die
    centre: tuple[float, float]
    corners: NDArray[np.float32]  # (4, 2)
    tilted: bool


@dataclass(frozen=True)
class Scene:
    """A rendered frame (H, W, 3) uint8 BGR, the dice in it and the table look.

    `hand_mask` (H, W) uint8 is where the hand covers the frame (None without a hand).
    """

    image: NDArray[np.uint8]
    dice: tuple[RenderedDie, ...]
    conditions: Conditions
    hand_mask: NDArray[np.uint8] | None = None


def _shade(conditions: Conditions, normals: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Brightness of surfaces with unit `normals` (..., 3) under the scene's light."""
    return conditions.ambient + conditions.light_strength * np.maximum(normals @ light, 0.0)


def _ink_bgr(die: Die, conditions: Conditions, rng: np.random.Generator) -> np.ndarray:
    if conditions.inks is not None:
        base = np.asarray(conditions.inks[COLOUR_LETTERS.index(die.colour)], np.float32)
    else:
        r, g, b = COLOUR_RGB[die.colour]
        base = np.array([b, g, r], np.float32)
    spread = conditions.ink_spread
    ink = base * conditions.ink_gain + rng.uniform(-spread, spread, 3)
    return np.clip(ink, 0, 255).astype(np.float32)


def _side_faces(die: Die, rng: np.random.Generator) -> list[Die]:
    """Faces for the five other sides: the rest of a physical die carrying `die`."""
    carriers = [p for p in PHYSICAL_DICE if die in p.faces]
    pool = carriers or list(PHYSICAL_DICE)
    physical = pool[int(rng.integers(len(pool)))]
    others = [face for face in physical.faces if face != die][:5]
    while len(others) < 5:
        others.append(physical.faces[int(rng.integers(len(physical.faces)))])
    return [others[i] for i in rng.permutation(5)]


def _face_texture(
    die: Die, shade: float, conditions: Conditions, rng: np.random.Generator, glare: bool
) -> np.ndarray:
    """Premultiplied BGRA float32 texture of one face under its shade."""
    if conditions.artwork is not None:
        layers = conditions.artwork.layers(die.value)
    else:
        layers = glyphs.face_layers(
            die.value,
            conditions.font,
            conditions.font_weight,
            conditions.glyph_size,
            conditions.underline,
        )
    body = np.asarray(conditions.body_bgr, np.float32) * shade
    ink = _ink_bgr(die, conditions, rng) * shade
    mix = np.zeros((3, 4), np.float32)
    mix[0, :3] = body
    mix[1, :3] = ink - body
    mix[2, 3] = 1.0
    texture = (layers @ mix).reshape(glyphs.TEXTURE, glyphs.TEXTURE, 4)
    if glare:
        size = glyphs.TEXTURE
        cx, cy = rng.uniform(0.2, 0.8, 2) * size
        sx, sy = rng.uniform(0.06, 0.2, 2) * size
        xs = np.exp(-(((np.arange(size) - cx) / sx) ** 2)).astype(np.float32)
        ys = np.exp(-(((np.arange(size) - cy) / sy) ** 2)).astype(np.float32)
        blob = ys[:, None] * xs[None, :] * (float(rng.uniform(60, 170)) * texture[..., 3])
        texture[..., :3] += blob[..., None]
    return texture


def _composite(roi: np.ndarray, layer: np.ndarray) -> None:
    """Premultiplied BGRA `layer` over `roi` in place."""
    roi *= 1.0 - layer[..., 3:4]
    roi += layer[..., :3]


def _draw_die(
    image: np.ndarray,
    placement: Placement,
    camera: Camera,
    conditions: Conditions,
    size: tuple[int, int],
    light: np.ndarray,
    rng: np.random.Generator,
) -> RenderedDie:
    edge = conditions.scale
    lean = lean_direction(placement.centre, conditions, size) if placement.tilt else 0.0
    rotation = die_rotation(placement.angle, placement.tilt, lean)
    centre = rest_centre(rotation, placement.centre, edge)
    corners3d = face_corners(rotation, centre, edge)
    normals = face_normals(rotation)
    to_camera = camera.position - corners3d.mean(axis=1)
    visible = np.einsum("ij,ij->i", normals, to_camera) > 0
    projected = camera.project(corners3d)  # (6, 4, 2)
    top_shade = float(_shade(conditions, normals[0], light))
    shades = np.minimum(_shade(conditions, normals, light), SIDE_SHADE_LIMIT * top_shade)
    shades[0] = top_shade

    height, width = image.shape[:2]
    points = projected[visible].reshape(-1, 2)
    x0 = int(max(np.floor(points[:, 0].min()) - 2, 0))
    y0 = int(max(np.floor(points[:, 1].min()) - 2, 0))
    x1 = int(min(np.ceil(points[:, 0].max()) + 3, width))
    y1 = int(min(np.ceil(points[:, 1].max()) + 3, height))
    if x1 <= x0 or y1 <= y0:
        return _truth(placement, projected, camera, corners3d)
    roi = image[y0:y1, x0:x1]
    offset = np.array([x0, y0])

    # Body silhouette first (fills the gaps the rounded face corners leave).
    outline = np.concatenate([rounded_outline(corners3d[i], 0.18) for i in np.flatnonzero(visible)])
    hull = cv2.convexHull((camera.project(outline) - offset).astype(np.float32) * 16)
    silhouette = np.zeros(roi.shape[:2], np.uint8)
    cv2.fillConvexPoly(silhouette, hull.astype(np.int32), 255, cv2.LINE_AA, shift=4)
    body = np.asarray(conditions.body_bgr, np.float32) * float(shades[visible].min()) * 0.9
    sil = silhouette.astype(np.float32)[..., None] / 255.0
    roi *= 1.0 - sil
    roi += sil * body

    sides = _side_faces(placement.die, rng)
    glare = bool(rng.random() < conditions.glare)
    # Visible faces of a convex body do not overlap: sum their layers, composite once.
    layer = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
    for index in np.flatnonzero(visible):
        die = placement.die if index == 0 else sides[index - 1]
        texture = _face_texture(die, float(shades[index]), conditions, rng, glare and index == 0)
        quad = (projected[index] - offset).astype(np.float32)
        homography = cv2.getPerspectiveTransform(_TEXTURE_QUAD, quad)
        warped = cv2.warpPerspective(
            texture,
            homography,
            (x1 - x0, y1 - y0),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0,
        )
        layer += warped
    np.minimum(layer[..., 3:4], 1.0, out=layer[..., 3:4])
    _composite(roi, layer)
    return _truth(placement, projected, camera, corners3d)


def _truth(
    placement: Placement, projected: np.ndarray, camera: Camera, corners3d: np.ndarray
) -> RenderedDie:
    centre = camera.project(corners3d[0].mean(axis=0))
    return RenderedDie(
        die=placement.die,
        centre=(float(centre[0]), float(centre[1])),
        corners=projected[0].astype(np.float32),
        tilted=placement.tilt > 0,
    )


def _shadow_polygon(
    placement: Placement,
    conditions: Conditions,
    size: tuple[int, int],
    light: NDArray[np.float64],
) -> np.ndarray:
    """The die's outline on the tray plus its shadow cast along the light, as hull points."""
    edge = conditions.scale
    lean = lean_direction(placement.centre, conditions, size) if placement.tilt else 0.0
    rotation = die_rotation(placement.angle, placement.tilt, lean)
    corners = face_corners(rotation, rest_centre(rotation, placement.centre, edge), edge)
    points = corners.reshape(-1, 3)
    cast = points[:, :2] - points[:, 2:3] * light[:2] / max(light[2], 0.2)
    return cv2.convexHull(np.concatenate([points[:, :2], cast]).astype(np.float32))


def _background(
    conditions: Conditions,
    size: tuple[int, int],
    placements: Sequence[Placement],
    light: np.ndarray,
    rng: np.random.Generator,
) -> np.ndarray:
    """Table, tray wall, mat and cast shadows, composed at half resolution and upsampled.

    All three are flat, facing up: lit like a die lying flat (`_shade` of the up normal).
    """
    width, height = size
    f = 0.5
    small_w, small_h = max(int(width * f), 1), max(int(height * f), 1)
    image = np.empty((small_h, small_w, 3), np.float32)
    image[:] = conditions.table_bgr
    o = max(int(round(conditions.tray_inset * min(width, height) * f)), 0)
    image[o : small_h - o, o : small_w - o] = conditions.wall_bgr
    left, top, right, bottom = (int(round(v * f)) for v in tray_interior(conditions, size))
    left, top = max(left, 0), max(top, 0)
    right, bottom = min(right, small_w), min(bottom, small_h)
    # The wall's inner lip is lit from above: a lighter band next to the mat.
    lip = max(1, int(0.12 * conditions.scale * f))
    image[max(top - lip, 0) : bottom + lip, max(left - lip, 0) : right + lip] = np.minimum(
        np.asarray(conditions.wall_bgr, np.float32) * 1.25, 255
    )
    if right > left and bottom > top:
        image[top:bottom, left:right] = mat_texture(conditions, (right - left, bottom - top), rng)
    image *= float(_shade(conditions, np.array([0.0, 0.0, 1.0]), light))
    if placements:
        mask = np.zeros((small_h, small_w), np.uint8)
        for placement in placements:
            polygon = _shadow_polygon(placement, conditions, size, light) * f
            cv2.fillConvexPoly(mask, (polygon * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
        sigma = max(conditions.shadow_softness * conditions.scale * f, 0.5)
        soft = cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32)
        image *= (1.0 - conditions.shadow_strength / 255.0 * soft)[..., None]
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_LINEAR)


def _streams(seed: int | None) -> list[np.random.Generator]:
    """The seed's four draws: the table, the dice, their places, the look."""
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(4)]


def seed_conditions(seed: int | None, size: tuple[int, int] = (1280, 960)) -> Conditions:
    """The table `render_scene(seed, size=size)` draws when not given one."""
    return random_conditions(_streams(seed)[0], size)


def render_scene(
    seed: int | None = None,
    *,
    dice: Sequence[Die] | None = None,
    placements: Sequence[Placement] | None = None,
    conditions: Conditions | None = None,
    size: tuple[int, int] = (1280, 960),
    motion_blur: float = 0.0,
    hand: bool = False,
) -> Scene:
    """Render the tray as the camera sees it; anything not given is drawn from `seed`.

    `size` is (width, height). With `placements` given, `dice` is ignored. The
    same seed and arguments give the identical image.
    """
    _, rng_dice, rng_place, rng_look = _streams(seed)
    if conditions is None:
        conditions = seed_conditions(seed, size)
    if placements is None:
        chosen = list(random_roll(rng_dice)) if dice is None else list(dice)
        placements = random_placements(rng_place, chosen, conditions, size)
    width, height = size
    eye = camera_centre(conditions, size)
    camera = Camera(eye, conditions.camera_height * conditions.scale)
    az, el = np.radians(conditions.light_azimuth), np.radians(conditions.light_elevation)
    light = np.array([np.cos(el) * np.cos(az), np.cos(el) * np.sin(az), np.sin(el)])

    image = _background(conditions, size, placements, light, rng_look)
    if conditions.clutter:
        from vision.synth.clutter import clutter_layer

        colour, alpha = clutter_layer(size, conditions, rng_look)
        colour *= float(_shade(conditions, np.array([0.0, 0.0, 1.0]), light))
        image *= 1.0 - alpha
        image += colour * alpha
    order = sorted(
        range(len(placements)),
        key=lambda i: -np.hypot(placements[i].centre[0] - eye[0], placements[i].centre[1] - eye[1]),
    )
    truths: dict[int, RenderedDie] = {}
    for i in order:
        truths[i] = _draw_die(image, placements[i], camera, conditions, size, light, rng_look)
    hand_mask = None
    if hand:
        colour, alpha = hand_layer(size, conditions, rng_look)
        image *= 1.0 - alpha
        image += colour * alpha
        hand_mask = (alpha[..., 0] * 255.0 + 0.5).astype(np.uint8)
    image *= lighting_gain(conditions, size)
    if conditions.blur_sigma > 0:
        cv2.GaussianBlur(image, (0, 0), conditions.blur_sigma, dst=image)
    if motion_blur > 0:
        kernel = motion_kernel(motion_blur, float(rng_look.uniform(0, 180)))
        image = cv2.filter2D(image, -1, kernel)
    frame = add_noise(image, conditions.noise_sigma, rng_look)
    if conditions.jpeg_quality:
        quality = [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality]
        ok, encoded = cv2.imencode(".jpg", frame, quality)
        if ok:
            decoded = cv2.imdecode(encoded, cv2.IMREAD_COLOR)
            if decoded is None:  # never for a JPEG OpenCV has just written; not a frame to pass on
                raise RuntimeError("OpenCV could not read back the JPEG it encoded")
            frame = decoded
    truth = tuple(truths[i] for i in range(len(placements)))
    return Scene(frame, truth, conditions, hand_mask)

"""What a real table varies, as one frozen value: lighting, mat, dice body, camera, optics.

Every field is drawn by `random_conditions` from a seeded generator, so a scene's
look is reproducible; the demo camera holds one `Conditions` fixed and animates
dice over it. Colours are BGR tuples of floats in 0..255 (OpenCV's order).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from vision.synth.artwork import FaceArtwork

#: OpenCV's built-in vector fonts used for numerals (thickened when drawn); no font files.
FONTS: tuple[int, ...] = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)

#: Mat looks as (name, base BGR, texture kind). Light bodies go on the dark ones and
#: dark bodies on the light ones (a tray is chosen to contrast with its dice).
MATS: tuple[tuple[str, tuple[float, float, float], str], ...] = (
    ("green felt", (60, 110, 35), "felt"),
    ("blue felt", (120, 60, 25), "felt"),
    ("red felt", (40, 35, 120), "felt"),
    ("black felt", (30, 30, 30), "felt"),
    ("grey felt", (85, 85, 85), "felt"),
    ("dark wood", (40, 70, 105), "wood"),
    ("walnut", (30, 50, 80), "wood"),
    ("slate", (70, 65, 60), "speckle"),
    ("navy plastic", (80, 40, 20), "plain"),
    ("beige felt", (170, 200, 215), "felt"),
    ("light wood", (140, 185, 215), "wood"),
    ("paper", (225, 230, 230), "speckle"),
    ("light grey", (190, 190, 185), "plain"),
)

#: Dice body looks (BGR): light is the default, dark appears sometimes.
LIGHT_BODIES: tuple[tuple[float, float, float], ...] = (
    (245, 245, 245),
    (225, 240, 248),  # ivory
    (235, 238, 240),
    (215, 230, 235),  # aged cream
)
DARK_BODIES: tuple[tuple[float, float, float], ...] = (
    (30, 30, 30),
    (50, 45, 40),
    (60, 30, 25),  # very dark navy
)

#: Minimum luminance gap between the lit die body and the mat (0..255 scale).
MIN_BODY_MAT_CONTRAST = 70.0
DARK_BODY_SHARE = 0.2
#: How far each die's ink strays from its set's as the renderer draws it, grey levels per
#: channel (`Conditions.ink_spread`'s default).
INK_SPREAD = 12.0


def bgr_tuple(values: Iterable[float] | NDArray[np.floating]) -> tuple[float, float, float]:
    """Three channels as plain floats: what the frozen `Conditions` fields hold, so a
    scene's look compares, hashes and prints alike whether drawn from numpy or not."""
    b, g, r = (float(c) for c in values)
    return b, g, r


def luminance(bgr: tuple[float, float, float] | NDArray[np.floating]) -> float:
    """Rec. 601 luma of a BGR colour: what 'contrast' means for the body/mat rule."""
    b, g, r = (float(c) for c in bgr)
    return 0.114 * b + 0.587 * g + 0.299 * r


@dataclass(frozen=True)
class Conditions:
    """The look of one table and camera; everything the renderer randomises per scene."""

    scale: float  # pixels per die edge on the tray plane
    camera_height: float  # camera height above the tray, in die edges (smaller = more perspective)
    light_azimuth: float  # degrees, direction the light comes from in the image plane
    light_elevation: float  # degrees above the tray (90 = straight above)
    light_strength: float  # directional light share
    ambient: float  # ambient light share
    light_gradient: float  # brightness change across the frame along the light direction
    vignette: float  # darkening towards the corners
    shadow_strength: float  # 0..1 how dark cast shadows are
    shadow_softness: float  # shadow blur, in die edges
    glare: float  # probability a die top shows a specular highlight
    white_balance: tuple[float, float, float]  # BGR gains (colour temperature)
    exposure: float  # overall gain
    mat_bgr: tuple[float, float, float]
    mat_texture: str  # "felt", "wood", "speckle" or "plain"
    mat_texture_strength: float
    wall_bgr: tuple[float, float, float]  # tray wall
    table_bgr: tuple[float, float, float]  # outside the tray
    tray_inset: float  # tray wall outer edge, as a fraction of the shorter image side
    wall_width: float  # tray wall width, in die edges
    body_bgr: tuple[float, float, float]
    body_dark: bool
    ink_gain: float  # printing ink brightness variation
    font: int  # one of FONTS
    font_weight: float  # stroke thickness relative to the glyph height
    glyph_size: int  # index into glyphs.GLYPH_HEIGHTS
    underline: str  # how 6 and 9 are marked: "bar" or "dot"
    blur_sigma: float  # defocus, pixels
    noise_sigma: float  # sensor noise, grey levels
    jpeg_quality: int  # 0 = no compression
    # A dice set's own face artwork, outline-font numerals or pips (None: the Hershey
    # font fields above), and its four inks in palette order (None: the palette's
    # colours); see synth.looks.
    artwork: FaceArtwork | None = None
    clutter: int = 0  # things at the picture's edge that are not dice (synth.clutter)
    # Where the camera stands, from the frame's centre in frame widths and heights: (0, 0)
    # is straight above the tray; far off, every die shows the sides facing the camera,
    # as a webcam on a desk sees them (see `camera_centre`).
    camera_shift: tuple[float, float] = (0.0, 0.0)
    inks: tuple[tuple[float, float, float], ...] | None = None
    # Each die's ink strays from its set's by up to this many grey levels in each channel,
    # drawn die by die: print and wear differ from die to die. Dice of one set whose inks lie
    # close (a red leaning orange, an orange leaning red) then overlap in a picture, whatever
    # measures them; `vision.evaluation.evaluation_scene(ink_spread=...)` asks how much of the
    # reader's red-against-orange doubt comes from it (models/FRAME_COLOURS_CARD.md).
    ink_spread: float = INK_SPREAD


def camera_centre(conditions: Conditions, size: tuple[int, int]) -> tuple[float, float]:
    """The point of the tray plane (pixels) the camera stands above."""
    width, height = size
    dx, dy = conditions.camera_shift
    return width / 2 + dx * width, height / 2 + dy * height


def _jitter(
    rng: np.random.Generator, bgr: tuple[float, ...], amount: float
) -> NDArray[np.float64]:
    return np.clip(np.asarray(bgr, np.float64) + rng.uniform(-amount, amount, 3), 0, 255)


def pick_mat(
    rng: np.random.Generator, body: NDArray[np.float64]
) -> tuple[NDArray[np.float64], str]:
    """A mat whose luminance is far enough from the body's, light bodies on dark mats."""
    body_lum = luminance(body)
    for _ in range(50):
        _, base, texture = MATS[int(rng.integers(len(MATS)))]
        mat = _jitter(rng, base, 20)
        if abs(body_lum - luminance(mat)) >= MIN_BODY_MAT_CONTRAST:
            return mat, texture
    dark = body_lum > 128
    return np.full(3, 40.0 if dark else 215.0), "plain"


def random_conditions(rng: np.random.Generator, size: tuple[int, int] = (1280, 960)) -> Conditions:
    """Draw a plausible table, light and camera for an image of `size` = (width, height)."""
    width, height = size
    short = min(width, height)
    body_dark = bool(rng.random() < DARK_BODY_SHARE)
    bodies = DARK_BODIES if body_dark else LIGHT_BODIES
    body = _jitter(rng, bodies[int(rng.integers(len(bodies)))], 10)
    mat, texture = pick_mat(rng, body)
    wall = np.clip(mat * rng.uniform(0.6, 1.3), 0, 255)
    table = rng.uniform(20, 200, 3)
    temperature = rng.uniform(-0.12, 0.12)  # warm (<0 blue gain) .. cool
    tint = rng.uniform(-0.04, 0.04)
    white_balance = (1.0 + temperature, 1.0 + tint, 1.0 - temperature)
    return Conditions(
        scale=float(rng.uniform(0.065, 0.105) * short),
        camera_height=float(rng.uniform(9.0, 28.0)),
        light_azimuth=float(rng.uniform(0, 360)),
        light_elevation=float(rng.uniform(50, 88)),
        light_strength=float(rng.uniform(0.45, 0.8)),
        ambient=float(rng.uniform(0.25, 0.5)),
        light_gradient=float(rng.uniform(0, 0.35)),
        vignette=float(rng.uniform(0, 0.3)),
        shadow_strength=float(rng.uniform(0.15, 0.6)),
        shadow_softness=float(rng.uniform(0.05, 0.3)),
        glare=float(rng.uniform(0, 0.5)),
        white_balance=bgr_tuple(white_balance),
        exposure=float(rng.uniform(0.8, 1.15)),
        mat_bgr=bgr_tuple(mat),
        mat_texture=texture,
        mat_texture_strength=float(rng.uniform(0.02, 0.12)),
        wall_bgr=bgr_tuple(wall),
        table_bgr=bgr_tuple(table),
        tray_inset=float(rng.uniform(0.0, 0.06)),
        wall_width=float(rng.uniform(0.25, 0.6)),
        body_bgr=bgr_tuple(body),
        body_dark=body_dark,
        ink_gain=float(rng.uniform(0.8, 1.15)),
        font=FONTS[int(rng.integers(len(FONTS)))],
        font_weight=float(rng.uniform(0.1, 0.2)),
        glyph_size=int(rng.integers(3)),
        underline="bar" if rng.random() < 0.7 else "dot",
        blur_sigma=float(rng.choice([0.0, rng.uniform(0.3, 1.6)])),
        noise_sigma=float(rng.uniform(1.0, 7.0)),
        jpeg_quality=int(rng.choice([0, int(rng.integers(45, 96))])),
    )

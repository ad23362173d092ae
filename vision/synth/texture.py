"""Whole-frame layers: mat textures, uneven lighting, sensor noise, motion blur, a hand.

All work at low resolution where they can and are upsampled, because these
touch every pixel of a large frame and the renderer must stay fast.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.synth.conditions import Conditions

#: Skin tones (BGR) for the hand reaching into the frame.
SKIN_TONES: tuple[tuple[float, float, float], ...] = (
    (170, 190, 235),
    (140, 170, 220),
    (110, 140, 190),
    (80, 105, 150),
    (55, 75, 110),
)


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int) -> np.ndarray:
    """Low-frequency noise of `shape` (h, w) from a coarse random grid, roughly unit scale."""
    h, w = shape
    grid = rng.standard_normal((max(2, h // cells), max(2, w // cells))).astype(np.float32)
    return cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)


def mat_texture(
    conditions: Conditions, size: tuple[int, int], rng: np.random.Generator
) -> np.ndarray:
    """The mat's pixels (h, w, 3) float32 for an inner tray of `size` = (width, height)."""
    width, height = max(size[0], 1), max(size[1], 1)
    small = (height, width)
    strength = conditions.mat_texture_strength
    pattern = 0.6 * _smooth_noise(rng, small, 48)
    if conditions.mat_texture == "felt":
        fibres = rng.standard_normal(small, dtype=np.float32)
        pattern += 0.6 * cv2.GaussianBlur(fibres, (0, 0), 0.6)
    elif conditions.mat_texture == "wood":
        angle = rng.uniform(0, np.pi)
        ys, xs = np.mgrid[0 : small[0], 0 : small[1]].astype(np.float32)
        along = xs * np.cos(angle) + ys * np.sin(angle)
        warp = 6.0 * _smooth_noise(rng, small, 24)
        period = rng.uniform(4, 14)
        pattern += 1.2 * np.sin((along + warp) * (2 * np.pi / period)).astype(np.float32)
    elif conditions.mat_texture == "speckle":
        dots = rng.random(small, dtype=np.float32)
        pattern += np.where(dots > 0.97, 2.5, 0.0).astype(np.float32)
    elif conditions.mat_texture in SURFACES:
        return SURFACES[conditions.mat_texture](conditions, small, rng)
    shade = 1.0 + strength * pattern
    return shade[..., None] * np.asarray(conditions.mat_bgr, np.float32)


def _cloth(conditions: Conditions, shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A woven check: stripes of the mat colour and a second colour both ways, a fine weave."""
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.asarray(conditions.mat_bgr, np.float32)
    other = np.clip(base * rng.uniform(0.4, 1.6, 3), 0, 255).astype(np.float32)
    period = rng.uniform(8, 60)
    duty = rng.uniform(0.2, 0.5)
    stripes_x = ((xs / period) % 1.0 < duty).astype(np.float32)
    stripes_y = ((ys / (period * rng.uniform(0.7, 1.4))) % 1.0 < duty).astype(np.float32)
    mix = (0.5 * stripes_x + 0.5 * stripes_y)[..., None]
    weave = 1.0 + 0.08 * np.sin(xs * rng.uniform(1.5, 3.0)) * np.sin(ys * rng.uniform(1.5, 3.0))
    return (base * (1 - mix) + other * mix) * weave[..., None]


def _marble(conditions: Conditions, shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Stone or laminate: soft veins bent by turbulence."""
    h, w = shape
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    turbulence = _smooth_noise(rng, shape, 40) * 3 + _smooth_noise(rng, shape, 12)
    veins = np.abs(
        np.sin((xs * np.cos(angle) + ys * np.sin(angle)) / rng.uniform(20, 60) + turbulence)
    )
    shade = 1.0 - rng.uniform(0.1, 0.35) * (1.0 - veins) ** 6
    return shade[..., None] * np.asarray(conditions.mat_bgr, np.float32)


PHOTO_FILES: tuple[str, ...] = (
    "brick.png",
    "grass.png",
    "gravel.png",
    "coffee.png",
    "page.png",
    "moon.png",
    "text.png",
    "chelsea.png",
    "astronaut.png",
    "rocket.jpg",
    "motorcycle_left.png",
    "hubble_deep_field.jpg",
    "coins.png",
    "camera.png",
)
"""Photographs scikit-image ships inside its wheel (training only): real surfaces and clutter."""


@lru_cache(maxsize=len(PHOTO_FILES))
def photo(name: str) -> np.ndarray:
    """One of PHOTO_FILES as (H, W, 3) float32 BGR (needs scikit-image, the train extra)."""
    try:
        import skimage
    except ImportError as error:
        raise RuntimeError(
            "photographic surfaces need scikit-image (pip install -e '.[train]')"
        ) from error
    from pathlib import Path

    path = Path(skimage.__file__).parent / "data" / name
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(f"{path} is not in this scikit-image wheel")
    return image.astype(np.float32)


def photo_patch(
    name: str, shape: tuple[int, int], rng: np.random.Generator, tint: np.ndarray | None = None
) -> np.ndarray:
    """A random window of a photograph resized to `shape` (h, w), optionally tinted."""
    image = photo(name)
    h, w = shape
    ih, iw = image.shape[:2]
    zoom = rng.uniform(0.3, 1.0)
    ch, cw = max(int(ih * zoom), 8), max(int(iw * zoom), 8)
    y0, x0 = int(rng.integers(0, ih - ch + 1)), int(rng.integers(0, iw - cw + 1))
    patch = cv2.resize(image[y0 : y0 + ch, x0 : x0 + cw], (w, h), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        patch = patch[:, ::-1]
    if tint is not None:
        grey = patch.mean(axis=2, keepdims=True)
        patch = grey / max(float(grey.mean()), 1.0) * tint * 0.6 + patch * 0.4
    return np.ascontiguousarray(patch, np.float32)


def _photo_surface(
    conditions: Conditions, shape: tuple[int, int], rng: np.random.Generator
) -> np.ndarray:
    name = PHOTO_FILES[int(rng.integers(len(PHOTO_FILES)))]
    tint = np.asarray(conditions.mat_bgr, np.float32) if rng.random() < 0.6 else None
    return photo_patch(name, shape, rng, tint)


#: Surfaces beyond the first renderer's four, for scenes like real photographs.
SURFACES = {"cloth": _cloth, "marble": _marble, "photo": _photo_surface}


def lighting_gain(conditions: Conditions, size: tuple[int, int]) -> np.ndarray:
    """Per-pixel BGR gain (h, w, 3): exposure, white balance, light falloff, vignette."""
    width, height = size
    gw, gh = max(width // 16, 2), max(height // 16, 2)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    x = (xs + 0.5) / gw - 0.5
    y = (ys + 0.5) / gh - 0.5
    az = np.radians(conditions.light_azimuth)
    falloff = 1.0 + conditions.light_gradient * (x * np.cos(az) + y * np.sin(az))
    vignette = 1.0 - conditions.vignette * (x * x + y * y) * 2.0
    grey = (conditions.exposure * falloff * vignette).astype(np.float32)
    gain = grey[..., None] * np.asarray(conditions.white_balance, np.float32)
    return cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)


_NOISE_PAD = 64


@lru_cache(maxsize=4)
def _noise_tile(height: int, width: int) -> np.ndarray:
    """Unit Gaussian noise a little larger than a frame, made once per frame size.

    Drawing fresh noise for every pixel of every frame is the slowest step of a
    render; a random window into one fixed field is indistinguishable for training.
    """
    rng = np.random.default_rng(20260601)
    tile = rng.standard_normal((height + _NOISE_PAD, width + _NOISE_PAD, 3), dtype=np.float32)
    tile.setflags(write=False)
    return tile


def add_noise(image: np.ndarray, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Add Gaussian sensor noise (a window chosen by `rng`) and return the frame as uint8."""
    if sigma > 0:
        height, width = image.shape[:2]
        dy, dx = (int(v) for v in rng.integers(0, _NOISE_PAD, 2))
        window = _noise_tile(height, width)[dy : dy + height, dx : dx + width]
        cv2.scaleAdd(window, float(sigma), image, dst=image)
    # Saturating, rounding conversion (OpenCV's saturate_cast), much faster than np.clip.
    # OpenCV's stubs take no scalar (a 4-tuple) as an operand, which cv2.add does take.
    return cv2.add(image, (0.0, 0.0, 0.0, 0.0), dtype=cv2.CV_8U)  # type: ignore[call-overload]


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line kernel `length` pixels long at `angle` degrees (camera shake)."""
    size = max(3, int(np.ceil(length)) | 1)
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx = np.cos(np.radians(angle)) * length / 2
    dy = np.sin(np.radians(angle)) * length / 2
    cv2.line(
        kernel,
        (int(round((centre - dx) * 16)), int(round((centre - dy) * 16))),
        (int(round((centre + dx) * 16)), int(round((centre + dy) * 16))),
        1.0,
        1,
        cv2.LINE_AA,
        shift=4,
    )
    return kernel / max(float(kernel.sum()), 1e-6)


def hand_layer(
    size: tuple[int, int], conditions: Conditions, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A hand and forearm reaching in from an edge: skin colour (3,) and coverage (h, w, 1)."""
    width, height = size
    edge = conditions.scale
    side = int(rng.integers(4))
    along = rng.uniform(0.2, 0.8)
    starts = (
        (along * width, -edge),
        (width + edge, along * height),
        (along * width, height + edge),
        (-edge, along * height),
    )
    inward = (90.0, 180.0, 270.0, 0.0)[side] + rng.uniform(-35, 35)
    direction = np.array([np.cos(np.radians(inward)), np.sin(np.radians(inward))])
    normal = np.array([-direction[1], direction[0]])
    start = np.asarray(starts[side])
    reach = rng.uniform(0.15, 0.45) * min(width, height)
    wrist = start + direction * reach
    arm_width = edge * rng.uniform(3.5, 5.0)
    palm_length = edge * rng.uniform(4.0, 5.5)
    palm_width = edge * rng.uniform(4.5, 5.5)
    mask = np.zeros((height, width), np.uint8)
    s = 16

    def pt(p: np.ndarray) -> tuple[int, int]:
        return int(round(p[0] * s)), int(round(p[1] * s))

    cv2.line(
        mask, pt(start - direction * edge * 4), pt(wrist), 255, int(arm_width), cv2.LINE_AA, shift=4
    )
    palm = wrist + direction * palm_length / 2
    cv2.ellipse(
        mask,
        pt(palm),
        (int(palm_length / 2 * s), int(palm_width / 2 * s)),
        inward,
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        shift=4,
    )
    finger_width = int(max(palm_width / 5, 2))
    for k in range(4):
        offset = (k - 1.5) / 1.5 * palm_width * 0.36
        base = wrist + direction * palm_length * 0.85 + normal * offset
        spread = np.radians(rng.uniform(-12, 12))
        d = direction * np.cos(spread) + normal * np.sin(spread)
        tip = base + d * edge * rng.uniform(2.0, 3.5)
        cv2.line(mask, pt(base), pt(tip), 255, finger_width, cv2.LINE_AA, shift=4)
    thumb_base = wrist + direction * palm_length * 0.3 + normal * palm_width * 0.45
    thumb_tip = thumb_base + (direction * 0.6 + normal * 0.8) * edge * 2.5
    cv2.line(mask, pt(thumb_base), pt(thumb_tip), 255, finger_width + 2, cv2.LINE_AA, shift=4)
    soft = cv2.GaussianBlur(mask, (0, 0), max(edge * 0.03, 0.5))
    skin = np.asarray(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float32)
    skin = skin * rng.uniform(0.85, 1.1)
    return skin, soft.astype(np.float32)[..., None] / 255.0

"""Numeral dice that are not Phase 10 dice, drawn flat on an empty tray.

A household's table holds other dice too: a d20's triangle, a d10's kite, a d12's
pentagon, a six-sided die with plain black numerals up to 20. None of them is a Phase 10
face, and the reader must never show one as a sure face (issue: "not a Phase 10 face is
not a face"). These scenes are a first, flat stand-in for them: each die is its top face
only (a filled outline with a rim and a numeral in an outline font), laid on one of the
renderer's empty trays, so what the reader makes of a numeral on a foreign face can be
counted (`benchmarks/eval_other_dice.py`). Drawing only; Pillow draws the numerals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

#: Unit outlines of the faces drawn (x, y about the face's centre, radius 1).
SHAPES: Final[dict[str, tuple[tuple[float, float], ...]]] = {
    "triangle": tuple((float(np.cos(a)), float(np.sin(a)))
                      for a in np.radians([-90, 30, 150])),  # d4, d8, d20
    "square": tuple((float(np.cos(a)), float(np.sin(a)))
                    for a in np.radians([-45, 45, 135, 225])),  # a plain six-sided die
    "kite": ((0.0, -1.2), (0.8, -0.1), (0.0, 0.9), (-0.8, -0.1)),  # d10
    "pentagon": tuple((float(np.cos(a)), float(np.sin(a)))
                      for a in np.radians(np.arange(5) * 72 - 90)),  # d12
    "hexagon": tuple((float(np.cos(a)), float(np.sin(a)))
                     for a in np.radians(np.arange(6) * 60 - 90)),
}
#: Body colours (BGR): ivory, white, black, and the usual coloured plastics.
BODIES: Final[tuple[tuple[int, int, int], ...]] = (
    (228, 235, 235), (250, 250, 250), (20, 20, 20), (40, 40, 40),
    (150, 30, 30), (30, 40, 150), (40, 120, 40), (60, 200, 200),
)
#: The face's size, as its outline's radius in pixels (Phase 10 tops are 40 to 90 px).
RADIUS: Final[tuple[float, float]] = (28.0, 48.0)


@dataclass(frozen=True)
class OtherDie:
    """One drawn face: its shape, where it lies (pixels), its outline and its numeral."""

    shape: str
    centre: tuple[float, float]
    radius: float
    outline: np.ndarray  # (K, 2) float32, pixels
    text: str


@dataclass(frozen=True)
class OtherDiceScene:
    image: np.ndarray  # BGR uint8
    dice: tuple[OtherDie, ...]


def other_dice_scene(seed: int, fonts: Sequence[str | Path], count: int = 10,
                     size: tuple[int, int] = (1280, 960)) -> OtherDiceScene:
    """Up to `count` faces of other dice (apart from one another) on the empty tray of
    scene `seed`, their numerals (1 to 20) in one of `fonts` (outline font files)."""
    from vision.synth import render_scene  # the renderer draws the tray

    if not fonts:
        raise ValueError("no font to draw the numerals with")
    rng = np.random.default_rng([seed, 99])
    image = render_scene(seed, dice=[], size=size).image.copy()
    width, height = size
    dice: list[OtherDie] = []
    numerals: list[tuple[tuple[float, float], str, str | Path, float, tuple[int, int, int]]] = []
    for _ in range(count):
        radius = float(rng.uniform(*RADIUS))
        centre = (float(rng.uniform(0.2, 0.8) * width), float(rng.uniform(0.2, 0.8) * height))
        if any(np.hypot(centre[0] - d.centre[0], centre[1] - d.centre[1])
               < 2.4 * max(radius, d.radius) for d in dice):
            continue  # one draw per die: a crowded tray holds fewer
        shape = list(SHAPES)[int(rng.integers(len(SHAPES)))]
        angle = float(rng.uniform(0, 2 * np.pi))
        outline = _outline(shape, centre, radius, angle)
        body = BODIES[int(rng.integers(len(BODIES)))]
        ink = _ink(rng, body)
        text = str(int(rng.integers(1, 21)))
        font = fonts[int(rng.integers(len(fonts)))]
        points = np.round(outline).astype(np.int32)
        cv2.fillPoly(image, [points], body, lineType=cv2.LINE_AA)
        rim = tuple(int(v * 0.7) for v in body)
        cv2.polylines(image, [points], True, rim, 2, cv2.LINE_AA)
        small = shape in ("triangle", "kite")  # the numeral fits the narrower face
        numerals.append((centre, text, font, radius * (0.8 if small else 1.0), ink))
        dice.append(OtherDie(shape, centre, radius, outline, text))
    return OtherDiceScene(_with_numerals(image, numerals), tuple(dice))


def steep_other_dice(scene: OtherDiceScene, seed: int,
                     max_degrees: float = 35.0) -> OtherDiceScene:
    """`scene` as a phone tipped off the vertical by up to `max_degrees` sees it (a tilt
    and a direction drawn from `seed`, apart from the tray's own draws): the picture,
    each face's outline, centre and radius moved alike (`vision.synth.views`)."""
    from vision.synth.views import centre_zoom, tilt_homography

    rng = np.random.default_rng([seed, 98])
    degrees = float(rng.uniform(0.0, max_degrees))
    azimuth = float(rng.uniform(0.0, 2 * np.pi))
    height, width = scene.image.shape[:2]
    homography = tilt_homography((width, height), degrees, azimuth)
    edge = np.concatenate([scene.image[0], scene.image[-1]])
    image = cv2.warpPerspective(scene.image, homography, (width, height),
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                borderValue=tuple(float(c) for c in np.median(edge, axis=0)))
    zoom = centre_zoom(homography, (width, height))

    def moved(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                        homography).reshape(-1, 2)

    dice = []
    for die in scene.dice:
        x, y = moved(np.array([die.centre]))[0]
        dice.append(OtherDie(die.shape, (float(x), float(y)), die.radius * zoom,
                             moved(die.outline).astype(np.float32), die.text))
    return OtherDiceScene(np.ascontiguousarray(image, np.uint8), tuple(dice))


def _outline(shape: str, centre: tuple[float, float], radius: float,
             angle: float) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    return np.array([(centre[0] + radius * (c * x - s * y), centre[1] + radius * (s * x + c * y))
                     for x, y in SHAPES[shape]], np.float32)


def _ink(rng: np.random.Generator, body: tuple[int, int, int]) -> tuple[int, int, int]:
    """White on a dark body; on a light one black most often, else any colour."""
    if sum(body) < 300:
        return (245, 245, 245)
    if rng.random() < 0.6:
        return (20, 20, 20)
    return tuple(int(v) for v in rng.integers(0, 200, 3))  # type: ignore[return-value]


def _with_numerals(
    image: np.ndarray,
    numerals: Sequence[tuple[tuple[float, float], str, str | Path, float, tuple[int, int, int]]],
) -> np.ndarray:
    """`image` (BGR) with each (centre, text, font file, height, BGR ink) drawn, centred,
    in one pass of Pillow (the faces lie apart, so the order does not matter)."""
    from PIL import Image, ImageDraw, ImageFont  # drawing only

    picture = Image.fromarray(np.ascontiguousarray(image[..., ::-1]))
    draw = ImageDraw.Draw(picture)
    for centre, text, font, height, ink in numerals:
        draw.text(centre, text, font=ImageFont.truetype(font, max(8, int(height))),
                  fill=tuple(reversed(ink)), anchor="mm")
    return np.ascontiguousarray(np.asarray(picture)[..., ::-1])

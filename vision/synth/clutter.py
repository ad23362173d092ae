"""Things at the picture's edge that are not dice: cables, boxes, paper, a foot or a cup.

Real photographs of a table show more than the tray; the locator must find the
dice and nothing else. Clutter is drawn under the dice (they lie on top) and
always reaches in from an edge, as things beside a table do.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.conditions import Conditions
from vision.synth.texture import PHOTO_FILES, photo_patch

_S = 16  # sub-pixel shift for OpenCV's drawing calls


def _edge_point(
    rng: np.random.Generator, width: int, height: int, margin: float
) -> tuple[NDArray[np.float64], int]:
    """A point just outside a random edge and the unit direction pointing into the frame."""
    side = int(rng.integers(4))
    along = rng.uniform(0.05, 0.95)
    points = (
        (along * width, -margin),
        (width + margin, along * height),
        (along * width, height + margin),
        (-margin, along * height),
    )
    return np.asarray(points[side], np.float64), side


def _inward(side: int) -> np.ndarray:
    return np.array(((0, 1), (-1, 0), (0, -1), (1, 0))[side], np.float64)


def _cable(mask: np.ndarray, rng: np.random.Generator, edge: float) -> None:
    height, width = mask.shape
    start, side = _edge_point(rng, width, height, edge)
    heading = np.arctan2(*_inward(side)[::-1]) + rng.uniform(-0.9, 0.9)
    points = [start]
    for _ in range(int(rng.integers(8, 20))):
        heading += rng.normal(0, 0.35)
        points.append(
            points[-1] + edge * rng.uniform(0.6, 1.4) * np.array([np.cos(heading), np.sin(heading)])
        )
    thickness = max(int(edge * rng.uniform(0.12, 0.35)), 2)
    polyline = (np.asarray(points) * _S).astype(np.int32)
    cv2.polylines(mask, [polyline], False, 255, thickness, cv2.LINE_AA, shift=4)


def _slab(mask: np.ndarray, rng: np.random.Generator, edge: float) -> None:
    """A box, a laptop or a sheet of paper reaching in from an edge."""
    height, width = mask.shape
    start, side = _edge_point(rng, width, height, 0.0)
    long_side = rng.uniform(0.3, 0.9) * max(width, height)
    depth = rng.uniform(0.06, 0.22) * min(width, height)
    angle = np.degrees(np.arctan2(*_inward(side)[::-1])) + 90 + rng.uniform(-20, 20)
    centre = start + _inward(side) * (depth / 2 - rng.uniform(0, depth / 2))
    box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (long_side, depth * 2), angle))
    cv2.fillConvexPoly(mask, (box * _S).astype(np.int32), 255, cv2.LINE_AA, shift=4)


def _blob(mask: np.ndarray, rng: np.random.Generator, edge: float) -> None:
    """A foot, a cup or a bag: a rounded shape cut by the edge."""
    height, width = mask.shape
    start, side = _edge_point(rng, width, height, 0.0)
    axes = edge * rng.uniform(1.5, 5.0, 2)
    centre = start + _inward(side) * rng.uniform(-0.3, 0.6) * axes.min()
    cv2.ellipse(
        mask,
        (int(centre[0] * _S), int(centre[1] * _S)),
        (int(axes[0] * _S), int(axes[1] * _S)),
        float(rng.uniform(0, 180)),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        shift=4,
    )


#: The kinds of clutter, drawn as coverage masks.
SHAPES: tuple[Callable[[np.ndarray, np.random.Generator, float], None], ...] = (
    _cable,
    _cable,
    _slab,
    _blob,
)


def clutter_layer(
    size: tuple[int, int], conditions: Conditions, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """`conditions.clutter` objects at the edges: colour (h, w, 3) and coverage (h, w, 1)."""
    width, height = size
    colour = np.zeros((height, width, 3), np.float32)
    alpha = np.zeros((height, width, 1), np.float32)
    for _ in range(conditions.clutter):
        mask = np.zeros((height, width), np.uint8)
        SHAPES[int(rng.integers(len(SHAPES)))](mask, rng, conditions.scale)
        cover = mask.astype(np.float32)[..., None] / 255.0
        if rng.random() < 0.4:
            name = PHOTO_FILES[int(rng.integers(len(PHOTO_FILES)))]
            paint = photo_patch(name, (height, width), rng)
        else:
            base = rng.uniform(10, 245, 3).astype(np.float32)
            shade = 1.0 + 0.15 * np.linspace(-1, 1, width, dtype=np.float32)[None, :, None]
            paint = np.broadcast_to(base * shade, (height, width, 3))
        colour = colour * (1 - cover) + paint * cover
        alpha = np.maximum(alpha, cover)
    return colour, alpha

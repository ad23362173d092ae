"""Where the dice lie: random rolls, the tray's inner area, and non-overlapping placements.

Placements come in three kinds, mixed per scene: scattered dice, clusters of
dice touching side by side, and a few dice tilted against the tray wall. Every
die's top face is kept wholly inside the picture: in the product the tray lies
inside the camera's view (the set-up page marks it), and a top face the camera
cannot see cannot be read by any pipeline.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from scorer.dice import PHYSICAL_DICE, Die, Roll
from vision.synth.conditions import Conditions, camera_centre
from vision.synth.geometry import Camera, die_rotation, face_corners, rest_centre

logger = logging.getLogger(__name__)

CLUSTER_SHARE = 0.5  # share of scenes with clusters of touching dice
TILT_SHARE = 0.35  # share of scenes with some dice tilted against the wall
MAX_TILT = 35.0  # degrees
_ATTEMPTS = 60


@dataclass(frozen=True)
class Placement:
    """One die on the tray: tray point under its centre (pixels), yaw and tilt in degrees.

    `tilt` 0 is flat on the tray; above 0 the die leans against the nearest tray wall.
    """

    die: Die
    centre: tuple[float, float]
    angle: float
    tilt: float = 0.0


def random_roll(rng: np.random.Generator) -> Roll:
    """One face of each of the ten physical dice, in shuffled order."""
    faces = [die.faces[int(rng.integers(len(die.faces)))] for die in PHYSICAL_DICE]
    order = rng.permutation(len(faces))
    return Roll(tuple(faces[i] for i in order))


def tray_interior(
    conditions: Conditions, size: tuple[int, int]
) -> tuple[float, float, float, float]:
    """The mat's rectangle (left, top, right, bottom) inside the tray wall, in pixels."""
    width, height = size
    inset = conditions.tray_inset * min(width, height) + conditions.wall_width * conditions.scale
    return inset, inset, width - inset, height - inset


def lean_direction(
    centre: tuple[float, float], conditions: Conditions, size: tuple[int, int]
) -> float:
    """Direction (degrees, image axes) from a point towards the nearest tray wall."""
    left, top, right, bottom = tray_interior(conditions, size)
    x, y = centre
    distances = {180.0: x - left, 0.0: right - x, 270.0: y - top, 90.0: bottom - y}
    return min(distances, key=distances.__getitem__)


def footprint(placement: Placement, edge: float) -> np.ndarray:
    """The die's outline on the tray (4, 2) float32, grown along its lean for tilted dice."""
    half = edge / 2
    a = np.radians(placement.angle)
    ux, uy = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    t = np.radians(placement.tilt)
    grow = half * (np.cos(t) + np.sin(t) - 1.0) if placement.tilt else 0.0
    corners = [
        np.asarray(placement.centre) + sx * (half + grow) * ux + sy * (half + grow) * uy
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    return np.asarray(corners, np.float32)


def _overlaps(candidate: np.ndarray, placed: list[np.ndarray], edge: float) -> bool:
    limit = 0.01 * edge * edge
    for other in placed:
        area, _ = cv2.intersectConvexConvex(candidate, other)
        if area > limit:
            return True
    return False


def _inside(points: np.ndarray, bounds: tuple[float, float, float, float]) -> bool:
    left, top, right, bottom = bounds
    return bool(
        points[:, 0].min() >= left
        and points[:, 0].max() <= right
        and points[:, 1].min() >= top
        and points[:, 1].max() <= bottom
    )


def top_in_frame(placement: Placement, conditions: Conditions, size: tuple[int, int]) -> bool:
    """Whether the die's top face, as the camera sees it, lies wholly inside the picture.

    The camera looks down from above `camera_centre` (the frame's centre unless moved),
    so a die far from it (above all one leaning on the wall) shows its top pushed outwards.
    """
    width, height = size
    edge = conditions.scale
    lean = lean_direction(placement.centre, conditions, size) if placement.tilt else 0.0
    rotation = die_rotation(placement.angle, placement.tilt, lean)
    corners = face_corners(rotation, rest_centre(rotation, placement.centre, edge), edge)[0]
    camera = Camera(camera_centre(conditions, size), conditions.camera_height * edge)
    return _inside(camera.project(corners), (0.0, 0.0, width - 1.0, height - 1.0))


def _span(low: float, high: float) -> tuple[float, float]:
    """(low, high), or the midpoint twice when the range is empty."""
    if high >= low:
        return low, high
    middle = (low + high) / 2
    return middle, middle


def _wall_placement(
    rng: np.random.Generator, die: Die, conditions: Conditions, size: tuple[int, int]
) -> Placement:
    """A die leaning on a random wall, its top tipped towards it."""
    left, top, right, bottom = tray_interior(conditions, size)
    edge = conditions.scale
    tilt = float(rng.uniform(12, MAX_TILT))
    t = np.radians(tilt)
    gap = edge / 2 * (np.cos(t) + np.sin(t)) + 0.5
    wall = int(rng.integers(4))
    along = rng.uniform(0.1, 0.9)
    # Walls 0..3: left, top, right, bottom.
    x = (left + gap, left + along * (right - left), right - gap)[min(wall, 2) if wall != 3 else 1]
    y = (top + gap, top + along * (bottom - top), bottom - gap)[(1, 0, 1, 2)[wall]]
    angle = float(rng.integers(4) * 90 + rng.uniform(-4, 4))
    return Placement(die, (float(x), float(y)), angle, tilt)


def random_placements(
    rng: np.random.Generator,
    dice: Sequence[Die],
    conditions: Conditions,
    size: tuple[int, int] = (1280, 960),
    tilt_share: float | None = None,
) -> list[Placement]:
    """Place `dice` on the mat: scattered, in touching clusters, some tilted on the wall.

    `tilt_share`: the share of scenes in which some dice lean on the tray wall (None:
    TILT_SHARE; a training may ask for more of them than the renderer draws).
    Top faces never overlap; a die that finds no free spot after many tries is
    dropped with a log message (only on a mat far too small for its dice).
    """
    edge = conditions.scale
    bounds = tray_interior(conditions, size)
    left, top, right, bottom = bounds
    clusters = rng.random() < CLUSTER_SHARE
    tilts = rng.random() < (TILT_SHARE if tilt_share is None else tilt_share)
    placements: list[Placement] = []
    shapes: list[np.ndarray] = []
    for die in dice:
        for _ in range(_ATTEMPTS):
            if tilts and rng.random() < 0.25:
                candidate = _wall_placement(rng, die, conditions, size)
            elif clusters and placements and rng.random() < 0.6:
                anchor = placements[int(rng.integers(len(placements)))]
                if anchor.tilt:
                    continue
                side = rng.integers(4) * 90 + anchor.angle
                distance = edge * rng.uniform(1.0, 1.04)
                offset = rng.uniform(-0.45, 0.45) * edge
                s = np.radians(side)
                cx = anchor.centre[0] + distance * np.cos(s) - offset * np.sin(s)
                cy = anchor.centre[1] + distance * np.sin(s) + offset * np.cos(s)
                angle = float(anchor.angle + rng.integers(4) * 90 + rng.uniform(-3, 3))
                candidate = Placement(die, (float(cx), float(cy)), angle, 0.0)
            else:
                margin = edge * 0.75
                # A mat narrower than a die (a tiny frame) leaves only its middle line.
                cx = rng.uniform(*_span(left + margin, right - margin))
                cy = rng.uniform(*_span(top + margin, bottom - margin))
                candidate = Placement(die, (float(cx), float(cy)), float(rng.uniform(0, 360)))
            shape = footprint(candidate, edge)
            if (
                _inside(shape, bounds)
                and not _overlaps(shape, shapes, edge)
                and top_in_frame(candidate, conditions, size)
            ):
                placements.append(candidate)
                shapes.append(shape)
                break
        else:
            logger.debug("no free spot for %s on a %s mat", die, size)
    return placements

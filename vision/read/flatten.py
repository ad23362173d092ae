"""A frame taken at a slant, put back flat from its own dice.

The dice's tops are squares of one size lying on one plane (the tray's), so how their
size changes across a steep frame says how the camera was tipped, whatever its lens.
Under a homography from the plane, a top's area at image point p scales as
(g . p)^3, where g is the homography's inverse's last row: the top's side to the power
2/3 is affine in p, and the line where it reaches 0 is the plane's vanishing line. A
fit of the dice's sides gives that line; sending it to infinity makes every top the
same size again. What is left is the foreshortening along the tilt, undone from the
tilt's angle for an assumed lens (`FlattenSettings.focal_widths`): an error there only
leaves the tops a little oblong, as in the views the networks trained on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.settings import FlattenSettings


@dataclass(frozen=True)
class Tilt:
    """How a frame's camera was tipped, as its dice show it: `degrees` off the vertical,
    towards `direction` (a unit vector in the frame, from near to far dice), and the
    vanishing line (alpha, beta, gamma) of the tops' plane about the frame's middle
    (a top's side ** (2/3) ~ alpha x + beta y + gamma)."""

    degrees: float
    direction: tuple[float, float]
    line: tuple[float, float, float]


def _side(box: np.ndarray) -> float:
    """The side of a square of the same area as the quad `box` (4, 2)."""
    x, y = box[:, 0], box[:, 1]
    return math.sqrt(0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))))


def tilt_of(boxes: Sequence[np.ndarray], size: tuple[int, int],
            settings: FlattenSettings = FlattenSettings()) -> Tilt | None:
    """The tilt the `boxes` (die tops' corners, frame pixels) of a frame of `size` (width,
    height) show; None with fewer than `settings.min_dice` boxes or sizes that shrink
    nowhere. A die boxed with its sides, or two dice boxed as one, is outweighed
    (iteratively reweighted least squares, residuals over twice the median's scale)."""
    if len(boxes) < settings.min_dice:
        return None
    quads = [np.asarray(box, np.float64).reshape(4, 2) for box in boxes]
    middle = np.array(size, np.float64) / 2
    centres = np.array([quad.mean(axis=0) for quad in quads]) - middle
    powered = np.array([_side(quad) for quad in quads]) ** (2 / 3)
    design = np.column_stack([centres, np.ones(len(quads))])
    weights = np.ones(len(quads))
    line: np.ndarray = np.zeros(3)
    for _ in range(settings.rounds):
        line, *_ = np.linalg.lstsq(design * weights[:, None], powered * weights, rcond=None)
        residuals = powered - design @ line
        scale = 1.4826 * float(np.median(np.abs(residuals))) + 1e-9
        weights = 1.0 / np.maximum(1.0, np.abs(residuals) / (2.0 * scale))
    alpha, beta, gamma = (float(v) for v in line)
    gradient = math.hypot(alpha, beta)
    if gamma <= 0 or gradient == 0:
        return None
    degrees = math.degrees(math.atan(settings.focal_widths * size[0] * gradient / gamma))
    return Tilt(degrees, (alpha / gradient, beta / gradient), (alpha, beta, gamma))


def flattening(boxes: Sequence[np.ndarray], size: tuple[int, int],
               settings: FlattenSettings = FlattenSettings()) -> np.ndarray | None:
    """The (3, 3) homography that puts a frame of `size` back flat, from its dice's
    `boxes`: every top the same size, the median top as large as in the frame, the dice
    centred with `settings.margin` die sides round them; None when the frame is tipped
    less than `settings.above_degrees` (or that is None, or `tilt_of` tells nothing)."""
    if settings.above_degrees is None:
        return None
    tilt = tilt_of(boxes, size, settings)
    if tilt is None or tilt.degrees < settings.above_degrees:
        return None
    alpha, beta, gamma = tilt.line
    middle = np.array(size, np.float64) / 2
    centred = np.array([[1, 0, -middle[0]], [0, 1, -middle[1]], [0, 0, 1]], np.float64)
    to_infinity = np.array([[1, 0, 0], [0, 1, 0], [alpha / gamma, beta / gamma, 1]])
    along = np.array(tilt.direction, np.float64)
    turn = np.array([[along[0], along[1]], [-along[1], along[0]]])
    stretch = np.eye(3)
    stretch[:2, :2] = turn.T @ np.diag([1 / math.cos(math.radians(tilt.degrees)), 1]) @ turn
    flat = stretch @ to_infinity @ centred
    quads = [np.asarray(box, np.float64).reshape(-1, 1, 2) for box in boxes]
    moved = [cv2.perspectiveTransform(quad, flat).reshape(4, 2) for quad in quads]
    side_before = float(np.median([_side(q.reshape(4, 2)) for q in quads]))
    side_after = float(np.median([_side(quad) for quad in moved]))
    corners = np.concatenate(moved)
    low = corners.min(axis=0) - settings.margin * side_after
    high = corners.max(axis=0) + settings.margin * side_after
    zoom = min(side_before / side_after, size[0] / (high[0] - low[0]),
               size[1] / (high[1] - low[1]))
    shift = middle - zoom * (low + high) / 2
    fit = np.array([[zoom, 0, shift[0]], [0, zoom, shift[1]], [0, 0, 1]], np.float64)
    return fit @ flat


def flattened(frame: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """`frame` warped by `homography` into a frame of its own size, its edge pixels
    repeated where the warp reaches past it."""
    size = (int(frame.shape[1]), int(frame.shape[0]))
    return cv2.warpPerspective(frame, homography, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def mapper(homography: np.ndarray) -> Callable[[tuple[float, float]], tuple[float, float]]:
    """A function taking an (x, y) point through `homography`."""
    matrix = np.asarray(homography, np.float64)

    def moved(point: tuple[float, float]) -> tuple[float, float]:
        x, y, w = matrix @ np.array([point[0], point[1], 1.0])
        return float(x / w), float(y / w)

    return moved

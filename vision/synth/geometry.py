"""Camera and die geometry: a pinhole camera straight above the tray, dice as cubes.

World units are image pixels on the tray plane (x right, y down) and height z
above the tray in the same pixels, so a point on the tray projects to itself and
a die's top face, nearer the camera, projects slightly larger and pushed away
from the image centre: that is what makes the side faces of off-centre dice visible.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Each face of a cube as (outward normal, first in-face axis, second in-face axis),
#: in the die's own frame; face 0 (+z) is the top face with the read numeral.
FACE_FRAMES: tuple[tuple[tuple[int, int, int], ...], ...] = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, -1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, -1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, -1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
    ((0, 0, -1), (1, 0, 0), (0, -1, 0)),
)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera at `height` pixels above the image centre, looking straight down."""

    centre: tuple[float, float]
    height: float

    @property
    def position(self) -> np.ndarray:
        return np.array([self.centre[0], self.centre[1], self.height])

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (..., 3) to image points (..., 2)."""
        factor = self.height / np.maximum(self.height - points[..., 2], 1e-6)
        centre = np.asarray(self.centre)
        return centre + (points[..., :2] - centre) * factor[..., None]


def _rotation_z(degrees: float) -> np.ndarray:
    a = np.radians(degrees)
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rotation_axis(axis: np.ndarray, degrees: float) -> np.ndarray:
    """Rodrigues' rotation about a unit axis."""
    a = np.radians(degrees)
    x, y, z = axis
    k = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]])
    return np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * (k @ k)


def die_rotation(angle: float, tilt: float, lean_towards: float) -> np.ndarray:
    """Yaw by `angle`, then tip the top face by `tilt` towards the direction `lean_towards`."""
    yaw = _rotation_z(angle)
    if tilt == 0:
        return yaw
    direction = np.radians(lean_towards)
    # Tipping towards d rotates about the horizontal axis perpendicular to d.
    axis = np.array([-np.sin(direction), np.cos(direction), 0.0])
    return _rotation_axis(axis, tilt) @ yaw


def face_corners(rotation: np.ndarray, centre: np.ndarray, edge: float) -> np.ndarray:
    """World corners (6, 4, 3) of each face in FACE_FRAMES order, in reading order."""
    frames = np.asarray(FACE_FRAMES, dtype=np.float64)  # (6, 3 vectors, 3)
    normal, u, v = frames[:, 0], frames[:, 1], frames[:, 2]
    signs = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], dtype=np.float64)
    local = (
        normal[:, None, :] * 0.5
        + signs[None, :, 0, None] * u[:, None, :] * 0.5
        + signs[None, :, 1, None] * v[:, None, :] * 0.5
    ) * edge
    return local @ rotation.T + centre


def face_normals(rotation: np.ndarray) -> np.ndarray:
    """Outward world normals (6, 3) of the faces in FACE_FRAMES order."""
    return np.asarray([frame[0] for frame in FACE_FRAMES], dtype=np.float64) @ rotation.T


def rest_centre(rotation: np.ndarray, xy: tuple[float, float], edge: float) -> np.ndarray:
    """The cube's centre so its lowest vertex touches the tray at (x, y)."""
    corners = np.array([(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]) * edge / 2
    lowest = float((corners @ rotation.T)[:, 2].min())
    return np.array([xy[0], xy[1], -lowest])


def rounded_outline(corners: np.ndarray, radius: float, steps: int = 3) -> np.ndarray:
    """Points around a 3-D square face (4, 3) with its corners rounded by `radius` (fraction)."""
    points = []
    for i in range(4):
        corner = corners[i]
        before, after = corners[i - 1], corners[(i + 1) % 4]
        a = corner + (before - corner) * radius
        b = corner + (after - corner) * radius
        for t in np.linspace(0.0, 1.0, steps):
            # Quadratic Bezier through the corner: close enough to an arc.
            points.append((1 - t) ** 2 * a + 2 * (1 - t) * t * corner + t**2 * b)
    return np.asarray(points)

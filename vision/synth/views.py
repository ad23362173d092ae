"""A camera tipped off the vertical: how a phone held over the tray sees a rendered scene.

The renderer draws the tray from a camera looking straight down. Turning a camera
about its own centre maps every point of its picture by one homography,
`K R K^-1`, whatever the depth of what it sees (the dice's sides included), so a
steep view of a rendered scene is exact but for what the vertical camera did not
see: the tipped picture is zoomed out until the whole rendered frame fits, and the
rest is filled with the colour of the frame's edge (a plain table beyond the
tray). Far dice come out smaller than near ones, as in a phone's photo.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import cast

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.conditions import Conditions
from vision.synth.scene import Scene

FOCAL_WIDTHS = 1.2
"""Focal length over the frame's width: the tray filling about 45 degrees of a phone's view."""


def tilt_homography(
    size: tuple[int, int], degrees: float, azimuth: float, focal_widths: float = FOCAL_WIDTHS
) -> np.ndarray:
    """(3, 3) homography from the vertical camera's picture of `size` (width, height) to
    the picture of the same camera tipped by `degrees` towards `azimuth` (radians in the
    picture's plane), zoomed and shifted so the whole first picture fits inside.
    `focal_widths`: the camera's focal length over the picture's width."""
    width, height = size
    focal = focal_widths * width
    camera = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]], np.float64)
    axis = np.array([-math.sin(azimuth), math.cos(azimuth), 0.0])  # in the picture's plane
    rotation, _ = cv2.Rodrigues(axis * math.radians(degrees))
    turned = camera @ rotation @ np.linalg.inv(camera)
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
    moved = cv2.perspectiveTransform(frame.reshape(-1, 1, 2), turned).reshape(4, 2)
    low, high = moved.min(axis=0), moved.max(axis=0)
    zoom = min(width / (high[0] - low[0]), height / (high[1] - low[1]))
    shift = np.array([width, height]) / 2 - zoom * (low + high) / 2
    fit = np.array([[zoom, 0, shift[0]], [0, zoom, shift[1]], [0, 0, 1]], np.float64)
    return fit @ turned


def _edge_colour(image: np.ndarray) -> tuple[float, ...]:
    edge = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]])
    return tuple(float(c) for c in np.median(edge, axis=0))


def steep_scene(scene: Scene, degrees: float, azimuth: float) -> Scene:
    """`scene` as the camera tipped by `degrees` towards `azimuth` sees it: the picture,
    the dice's corners and centres and the hand's mask, moved alike."""
    height, width = scene.image.shape[:2]
    homography = tilt_homography((width, height), degrees, azimuth)
    # A warp keeps the dtype of what it warps (uint8 here); OpenCV's stubs say any number.
    image = cast("NDArray[np.uint8]", cv2.warpPerspective(
        scene.image,
        homography,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=_edge_colour(scene.image),
    ))
    hand = None
    if scene.hand_mask is not None:
        hand = cast(
            "NDArray[np.uint8]", cv2.warpPerspective(scene.hand_mask, homography, (width, height))
        )
    dice = []
    for die in scene.dice:
        corners = cv2.perspectiveTransform(
            np.asarray(die.corners, np.float64).reshape(-1, 1, 2), homography
        ).reshape(4, 2).astype(np.float32)
        x, y = (float(c) for c in corners.mean(axis=0))
        dice.append(dataclasses.replace(die, corners=corners, centre=(x, y)))
    return Scene(image, tuple(dice), scene.conditions, hand)


def random_steep_scene(
    scene: Scene, rng: np.random.Generator, max_degrees: float
) -> tuple[Scene, float]:
    """`scene` tipped by a random angle up to `max_degrees` in a random direction, and
    the angle drawn."""
    degrees = float(rng.uniform(0.0, max_degrees))
    azimuth = float(rng.uniform(0.0, 2 * math.pi))
    return steep_scene(scene, degrees, azimuth), degrees


@dataclass(frozen=True)
class SteepView:
    """How a phone held over the tray sees it: tipped off the vertical, small dice, the
    white balance off. Each scene draws its tilt, die size and balance from these."""

    max_tilt_degrees: float = 35.0  # the camera tipped up to this far off the vertical
    die_px: tuple[float, float] = (40.0, 72.0)  # a die's top near the picture's middle
    white_balance_off: float = 0.3  # blue against red gains off by up to this; tint a third
    # Whether the camera stands aside, where a phone tipped so is held to aim at the tray's
    # middle, so each die shows the sides that face it (True), or stays above the middle,
    # turned about its own centre, so the dice show the sides a camera above sees (False).
    # Aside, it stands as high as its lens's focal length makes the dice measure.
    camera_aside: bool = False


def centre_zoom(homography: np.ndarray, size: tuple[int, int]) -> float:
    """How much larger than in the vertical camera's picture a die at the picture's
    middle looks after `homography` (the square root of its area's scale there)."""
    return zoom_at(homography, np.array([size[0] / 2, size[1] / 2], np.float64))


def zoom_at(homography: np.ndarray, point: np.ndarray) -> float:
    """How much larger a small square at the vertical picture's `point` looks after
    `homography` (the square root of its area's scale there)."""
    point = np.asarray(point, np.float64)
    around = np.stack([point, point + [1.0, 0.0], point + [0.0, 1.0]])
    moved = cv2.perspectiveTransform(around.reshape(-1, 1, 2), homography).reshape(3, 2)
    return float(np.sqrt(abs(np.linalg.det(np.stack([moved[1] - moved[0],
                                                     moved[2] - moved[0]])))))


def steep_conditions(
    rng: np.random.Generator, conditions: Conditions, size: tuple[int, int], view: SteepView
) -> tuple[Conditions, float, float]:
    """The conditions to render a scene of `size` with before `view` tips it (dice drawn so
    their tops measure `view.die_px` at the tipped picture's middle, the white balance
    off), and the tilt drawn: degrees, azimuth (for `steep_scene`)."""
    degrees = float(rng.uniform(0.0, view.max_tilt_degrees))
    azimuth = float(rng.uniform(0.0, 2 * np.pi))
    zoom = centre_zoom(tilt_homography(size, degrees, azimuth), size)
    temperature = rng.uniform(-view.white_balance_off, view.white_balance_off)
    tint = rng.uniform(-view.white_balance_off / 3, view.white_balance_off / 3)
    conditions = dataclasses.replace(
        conditions,
        scale=float(rng.uniform(*view.die_px)) / zoom,
        white_balance=(1.0 + temperature, 1.0 + tint, 1.0 - temperature),
    )
    if view.camera_aside:
        # The renderer's camera maps the tray's plane one to one, so its height is its
        # focal length: the lens `tilt_homography` turns, in die edges.
        conditions = dataclasses.replace(
            conditions, camera_height=FOCAL_WIDTHS * size[0] / conditions.scale)
        conditions = dataclasses.replace(
            conditions, camera_shift=aside_shift(conditions, size, degrees, azimuth))
    return conditions, degrees, azimuth


def aside_shift(conditions: Conditions, size: tuple[int, int], degrees: float,
                azimuth: float) -> tuple[float, float]:
    """`Conditions.camera_shift` of a camera `conditions.camera_height` die edges above
    the tray, tipped by `degrees` towards `azimuth` (`tilt_homography`) and aiming at the
    tray's middle: it stands that height times the tilt's tangent away, on the side the
    tipped picture shows nearer (where it magnifies)."""
    width, height = size
    homography = tilt_homography(size, degrees, azimuth)
    middle = np.array([width / 2, height / 2])
    heading = np.array([math.cos(azimuth), math.sin(azimuth)])
    ahead, behind = (zoom_at(homography, middle + side * 50 * heading) for side in (1, -1))
    near = heading if ahead > behind else -heading
    away = conditions.camera_height * conditions.scale * math.tan(math.radians(degrees))
    return float(near[0] * away / width), float(near[1] * away / height)


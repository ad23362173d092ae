"""Find the tray the dice lie in: the even surface around them, bounded by its edge.

A phone photo of the dice shows more than the tray: the table, the tray wall, a
cup or a hand at the edge. The dice lie on one surface (a mat, felt, a board) whose
colour the pixels just around them show; the tray is the connected region of that
colour that holds the dice, and its outline (a quadrilateral when the mat's edge is
seen, seen in perspective from a tipped phone) is the tray. Nothing here knows
where the dice are except from the boxes it is given (a first reading's), so the
finder works for any mat colour, light or dark dice, and a tray of any size.

A region is accepted as a tray only when it looks like one: it holds all the dice it
was given but at most a few (`TrayFinderSettings.max_dice_off`: a die left beside the
tray), it is convex enough (solidity), and it leaves a visible border of the picture
outside it (a mat that fills the whole photo is no tray to crop to). None is returned
otherwise, and the caller reads the whole picture as before. The thresholds are a
`TrayFinderSettings`, the shipped ones by default; how they were chosen is in
models/MODEL_CARD.md ("A photo's second looks and its tray crop").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.tops import longest_side


@dataclass(frozen=True)
class TrayFinderSettings:
    """When the even surface around the dice is a tray: how its colour is sampled and
    matched, and what shape and size a region must have to be one."""

    work_width: int = 320
    """The surface is judged on a copy at most this wide: the tray's edge needs no detail."""
    ring: tuple[float, float] = (0.9, 1.6)
    """Around each die, the ring sampled for the surface's colour (die sides from its
    centre): beyond the die's own shadow, within the mat."""
    spread_factor: float = 3.5
    """A pixel is the surface's when each of its Lab channels lies within this many of
    the ring's spreads (robust standard deviations) of the ring's median, and within the
    tolerances below whatever the spread."""
    lightness_tolerance: tuple[float, float] = (12.0, 40.0)
    """Bounds of the lightness tolerance: lightness varies across a textured or unevenly
    lit mat."""
    chroma_tolerance: tuple[float, float] = (7.0, 20.0)
    """Bounds of the tolerance of each colour channel: a mat's hue hardly varies."""
    area_share: tuple[float, float] = (0.08, 0.9)
    """A tray covers between these shares of the picture: a mat filling it is no tray."""
    min_solidity: float = 0.85
    """A tray fills at least this share of its convex hull: a mat is convex, a region
    leaking along the table is not."""
    max_dice_off: int = 2
    """The most dice (of those given) whose centres may lie off the tray: a die left
    beside it."""
    min_ring_pixels: int = 12
    """The fewest ring pixels (off every die) that can tell the surface's colour."""


@dataclass(frozen=True)
class Tray:
    """A tray found in a picture: its outline and the box to crop to, in its pixels."""

    polygon: tuple[tuple[float, float], ...]  # the outline's corners, clockwise from any
    box: tuple[int, int, int, int]  # (left, top, right, bottom) holding the polygon
    area_share: float  # of the picture's area inside the polygon

    def points(self, margin: float = 0.0, origin: tuple[int, int] = (0, 0)) -> np.ndarray:
        """The polygon as an (n, 2) float32 array (what `DiceReader.sharing(tray=)` takes),
        each corner moved `margin` pixels away from the centre (a die lying against the
        wall is still in the tray), in the pixels of a crop whose top left is `origin`."""
        points = np.asarray(self.polygon, np.float64).reshape(-1, 2)
        centre = points.mean(axis=0)
        away = points - centre
        lengths = np.maximum(np.linalg.norm(away, axis=1, keepdims=True), 1e-6)
        points = points + away / lengths * margin - np.asarray(origin, np.float64)
        return points.astype(np.float32)

    def crop_box(self, margin: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
        """(left, top, right, bottom) of the box grown by `margin`, within a picture of
        `size` (width, height)."""
        left, top, right, bottom = self.box
        grow = int(np.ceil(margin))
        return (max(left - grow, 0), max(top - grow, 0), min(right + grow, size[0]),
                min(bottom + grow, size[1]))


def find_tray(image: np.ndarray, dice: Sequence[np.ndarray],
              settings: TrayFinderSettings = TrayFinderSettings()) -> Tray | None:
    """The tray holding `dice` (each an (n, 2) array of a die's box corners, in the
    image's pixels) in a BGR image, or None when no tray edge is seen around them.
    `settings`: when a region is a tray (the shipped ones by default)."""
    if image.ndim != 3 or image.shape[2] != 3 or not dice:
        return None
    height, width = image.shape[:2]
    factor = min(1.0, settings.work_width / width)
    # Linear, not area: area averaging at a fractional factor costs 25 times more, and the
    # median below smooths what linear sampling leaves.
    small = cv2.resize(image, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    lab = cv2.cvtColor(cv2.medianBlur(small, 5), cv2.COLOR_BGR2LAB).astype(np.float32)
    boxes = [np.asarray(box, np.float32).reshape(-1, 2) * factor for box in dice]
    dice_mask = _dice_mask(lab.shape[:2], boxes)
    samples = _ring_samples(lab, boxes, dice_mask, settings)
    if samples is None:
        return None
    median = np.median(samples, axis=0)
    spread = settings.spread_factor * 1.4826 * np.median(np.abs(samples - median), axis=0)
    tolerance = np.array([np.clip(spread[0], *settings.lightness_tolerance),
                          *np.clip(spread[1:], *settings.chroma_tolerance)], np.float32)
    surface = np.all(np.abs(lab - median) <= tolerance, axis=2).astype(np.uint8) * 255
    surface[dice_mask > 0] = 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    surface = cv2.morphologyEx(surface, cv2.MORPH_CLOSE, kernel, iterations=2)
    surface = cv2.morphologyEx(surface, cv2.MORPH_OPEN, kernel)
    region = _region_holding(surface, boxes, settings.max_dice_off)
    if region is None:
        return None
    return _tray_from_region(region, factor, (width, height), boxes, settings)


def _point(point: np.ndarray) -> tuple[float, float]:
    return float(point[0]), float(point[1])


def _dice_mask(shape: tuple[int, int], boxes: Sequence[np.ndarray]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    for box in boxes:
        hull = cv2.convexHull(box.astype(np.float32))
        centre = box.mean(axis=0)
        grown = (hull.reshape(-1, 2) - centre) * 1.25 + centre  # its sides and shadow too
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 255)
    return mask


def _ring_samples(lab: np.ndarray, boxes: Sequence[np.ndarray], dice_mask: np.ndarray,
                  settings: TrayFinderSettings) -> np.ndarray | None:
    """The Lab pixels in a ring around each die that are not on any die."""
    ring = np.zeros(dice_mask.shape, np.uint8)
    for box in boxes:
        centre = box.mean(axis=0)
        side = longest_side(box)
        point = (int(round(centre[0])), int(round(centre[1])))
        cv2.circle(ring, point, max(int(round(settings.ring[1] * side)), 2), 255, -1)
        cv2.circle(ring, point, max(int(round(settings.ring[0] * side)), 1), 0, -1)
    ring[dice_mask > 0] = 0
    samples = lab[ring > 0]
    return samples if len(samples) >= settings.min_ring_pixels else None


def _region_holding(surface: np.ndarray, boxes: Sequence[np.ndarray],
                    max_dice_off: int) -> np.ndarray | None:
    """The surface's connected region under the most dice's centres, holes filled; None
    when it holds fewer than all but `max_dice_off` of them (a die off the tray, on the
    table beside it, is left out; more than that and this is no tray)."""
    count, labels = cv2.connectedComponents(surface, connectivity=4)
    rows, cols = surface.shape
    under = []
    for box in boxes:
        x, y = np.clip(np.round(box.mean(axis=0)).astype(int), 0, (cols - 1, rows - 1))
        under.append(int(labels[y, x]))
    held = [label for label in under if label != 0]
    if not held:
        return None
    label = max(set(held), key=held.count)
    if held.count(label) < max(len(boxes) - max_dice_off, 1):
        return None
    region = (labels == label).astype(np.uint8) * 255
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 255, -1)
    return filled


def _tray_from_region(region: np.ndarray, factor: float, size: tuple[int, int],
                      boxes: Sequence[np.ndarray], settings: TrayFinderSettings) -> Tray | None:
    rows, cols = region.shape
    area = float(np.count_nonzero(region))
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.vstack(contours))
    hull_area = float(cv2.contourArea(hull))
    if hull_area <= 0 or area / hull_area < settings.min_solidity:
        return None
    share = hull_area / float(rows * cols)
    if not settings.area_share[0] <= share <= settings.area_share[1]:
        return None
    outline = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(outline) < 3:
        return None
    inside = sum(cv2.pointPolygonTest(hull.astype(np.float32), _point(box.mean(axis=0)), True)
                 >= -longest_side(box) for box in boxes)
    if inside < max(len(boxes) - settings.max_dice_off, 1):
        return None
    width, height = size
    # Pixel centres: a small image's pixel i covers [i, i+1) of it, [i/f, (i+1)/f) of the image.
    polygon = np.clip((outline.astype(np.float64) + 0.5) / factor, 0, (width, height))
    left, top = np.floor(polygon.min(axis=0)).astype(int)
    right, bottom = np.ceil(polygon.max(axis=0)).astype(int)
    return Tray(tuple((float(x), float(y)) for x, y in polygon),
                (int(left), int(top), int(right), int(bottom)), share)

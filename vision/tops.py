"""Find the top face of each die: a rotated box (four corners) per die, in frame pixels.

The shipped top-face network (`models/dice_tops.onnx`, trained on rendered scenes)
looks at the frame shrunk to 320 pixels wide and marks three maps on a grid of
half that size: where top faces are, the core of each top face, and a hand. A
core is a top face shrunk to half its size, so the cores of dice touching side
by side stay apart: each core is one die. Every cell of top face goes to its
nearest core, and each die's share of the top map, enlarged back to frame
pixels, gives its box.

Dice under a hand, centred outside the tray polygon, or of a size no die has in this
frame are left out; the classifier's face probability rejects whatever else.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import onnxruntime as ort

from vision.onnx_model import load_session
from vision.tops_input import CORE, HAND, TOP, net_input, to_tensor

logger = logging.getLogger(__name__)

LOCATOR_NAME: Final[str] = "dice_tops.onnx"
OUTPUT_NAMES: Final[tuple[str, ...]] = ("maps",)

#: A top face's side as a fraction of the frame's shorter side: anything outside is not a die.
MIN_SIDE_FRACTION: Final[float] = 0.03
MAX_SIDE_FRACTION: Final[float] = 0.2

_LEVEL: Final[float] = 0.5  # a map's probability above which a cell is what the map shows
_CORE_PEAK: Final[float] = 0.7  # a core must be this sure somewhere
_MIN_CORE_CELLS: Final[int] = 2
_HAND_DICE: Final[float] = 1.0  # hand cells covering at least this many die tops: a hand
_BOX_SCALE: Final[float] = 0.94  # cut at the map's level, boxes come out this much too big
_SIDE_NEAR: Final[float] = 1.2  # of the side: a side face lies this close to its top
_SIDE_SHADE: Final[float] = 0.88  # and is at most this bright relative to it


@dataclass(frozen=True)
class Located:
    """Top-face corners (4, 2) float32 per die in frame pixels, and what else was seen.

    `hand_mask` is the hand map (bool) on the network's output grid, or None.
    """

    boxes: tuple[np.ndarray, ...] = ()
    hand: bool = False
    die_side: float = 0.0
    hand_mask: np.ndarray | None = field(default=None, repr=False, compare=False)


def tray_mask(shape: tuple[int, int], tray: np.ndarray | None, scale: tuple[float, float]
              ) -> np.ndarray:
    """255 inside the tray polygon (given in frame pixels) on a grid of `shape` (h, w),
    `scale` being grid cells per frame pixel in x and y."""
    height, width = shape
    if tray is None:
        return np.full((height, width), 255, np.uint8)
    mask = np.zeros((height, width), np.uint8)
    points = np.asarray(tray, np.float64).reshape(-1, 2) * np.asarray(scale, np.float64)
    polygon = np.round(points * 16).astype(np.int32)
    if len(polygon) >= 3:
        cv2.fillPoly(mask, [polygon], 255, cv2.LINE_8, shift=4)
    return mask


class TopFinder:
    """Locates dice tops in frames: `locate(frame, tray) -> Located`."""

    def __init__(self, session: ort.InferenceSession, name: str) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.name = name

    @classmethod
    def load(cls, path: Path | None = None, *, threads: int = 1) -> TopFinder:
        """Load, verify and warm up the network (default: the one shipped in `models/`)."""
        session, name = load_session(path, LOCATOR_NAME, OUTPUT_NAMES, threads)
        finder = cls(session, name)
        finder.maps(np.zeros((240, 320, 3), np.uint8))  # warm-up
        logger.info("loaded %s (%d threads)", name, threads)
        return finder

    def maps(self, frame: np.ndarray) -> np.ndarray:
        """The network's (3, h, w) float32 maps of a (H, W, 3) uint8 BGR frame."""
        image = net_input(frame)
        return self._session.run(None, {self._input: to_tensor(image[None])})[0][0]

    def locate(
        self, frame: np.ndarray, tray: Sequence[Sequence[float]] | np.ndarray | None = None
    ) -> Located:
        """Top-face boxes of the dice in a BGR frame; nothing outside `tray` (a polygon)."""
        height, width = frame.shape[:2]
        located = boxes_from_maps(self.maps(frame), (width, height), tray)
        kept = _drop_side_faces(list(located.boxes), frame, located.die_side)
        return replace(located, boxes=tuple(kept))


def boxes_from_maps(
    maps: np.ndarray,
    frame_size: tuple[int, int],
    tray: Sequence[Sequence[float]] | np.ndarray | None = None,
) -> Located:
    """Dice boxes in frame pixels from the network's maps of a frame of `frame_size`."""
    width, height = frame_size
    _, rows, cols = maps.shape
    cell = (width / cols, height / rows)  # frame pixels per grid cell in x and y
    inside = tray_mask((rows, cols), None if tray is None else np.asarray(tray),
                       (1 / cell[0], 1 / cell[1])) > 0
    short = min(width, height)
    hand_cells = maps[HAND] > _LEVEL
    cores = _cores(maps[CORE])
    top = maps[TOP]
    owners = _owners(cores, top > 0.5 * _LEVEL)
    boxes = []
    for number in range(1, len(cores) + 1):
        box = _box(top, owners == number, np.isin(owners, (0, number)), cell)
        if box is None:
            continue
        centre = box.mean(axis=0)
        column = min(int(centre[0] / cell[0]), cols - 1)
        row = min(int(centre[1] / cell[1]), rows - 1)
        if hand_cells[row, column]:
            continue  # a die under the hand is not read
        if tray is not None and not _within(tray, centre):
            continue
        if not MIN_SIDE_FRACTION * short <= _longest_side(box) <= MAX_SIDE_FRACTION * short:
            continue
        boxes.append(box)
    side = float(np.median([_longest_side(box) for box in boxes])) if boxes else 0.0
    die_area = (side if side else 0.085 * short) ** 2
    hand_area = np.count_nonzero(hand_cells & inside) * cell[0] * cell[1]
    hand = hand_area >= _HAND_DICE * die_area
    boxes.sort(key=lambda box: (float(box[:, 1].mean()), float(box[:, 0].mean())))
    return Located(tuple(boxes), bool(hand), side, hand_cells if hand else None)


def _longest_side(box: np.ndarray) -> float:
    return float(np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1).max())


def _within(tray: Sequence[Sequence[float]] | np.ndarray, point: np.ndarray) -> bool:
    """Whether a frame point lies inside the tray polygon (False for fewer than 3 points)."""
    polygon = np.asarray(tray, np.float32).reshape(-1, 2)
    if len(polygon) < 3:
        return False
    return cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), False) >= 0


def _cores(core: np.ndarray) -> list[np.ndarray]:
    """Each die's core as a bool mask of the grid: sure enough and big enough."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (core > _LEVEL).astype(np.uint8), connectivity=8
    )
    kept = []
    for label in range(1, count):
        part = labels == label
        if stats[label, cv2.CC_STAT_AREA] < _MIN_CORE_CELLS or core[part].max() < _CORE_PEAK:
            continue
        kept.append(part)
    return kept


def _owners(cores: list[np.ndarray], top: np.ndarray) -> np.ndarray:
    """Per grid cell, the number (1..) of the core nearest to it where the top map shows a
    top face (0 elsewhere): touching top faces are parted between their cores."""
    owners = np.zeros(top.shape, np.int32)
    if not cores:
        return owners
    distances = [
        cv2.distanceTransform(np.where(part, 0, 255).astype(np.uint8), cv2.DIST_L2, 3)
        for part in cores
    ]
    nearest = np.argmin(np.stack(distances), axis=0) + 1
    reach = top | np.logical_or.reduce(cores)
    owners[reach] = nearest[reach]
    return owners


def _box(
    top: np.ndarray, owned: np.ndarray, free: np.ndarray, cell: tuple[float, float]
) -> np.ndarray | None:
    """The rotated box of one die's top: its owned cells of the top map (with the ring of
    `free` cells around them, where its edge fades out), enlarged to frame pixels with
    bilinear interpolation and cut at the map's level. None if nothing is left."""
    ys, xs = np.nonzero(owned)
    if len(xs) == 0:
        return None
    rows, cols = top.shape
    x0, y0 = max(int(xs.min()) - 1, 0), max(int(ys.min()) - 1, 0)
    x1, y1 = min(int(xs.max()) + 2, cols), min(int(ys.max()) + 2, rows)
    grown = cv2.dilate(owned.astype(np.uint8), np.ones((3, 3), np.uint8)) & free
    grown = grown[y0:y1, x0:x1]
    probability = top[y0:y1, x0:x1] * grown
    factor = max(1, int(round(max(cell))))
    fine = cv2.resize(probability, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (fine > _LEVEL).astype(np.uint8), connectivity=8
    )
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours(
        (labels == biggest).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.concatenate(contours))  # of its outline
    size = ((w + 1) * _BOX_SCALE, (h + 1) * _BOX_SCALE)
    corners = cv2.boxPoints(((cx, cy), size, angle)).astype(np.float64)
    # A fine pixel u spans grid position x0 + u / factor .. + 1 / factor (cells), so its
    # centre lies at frame pixel (x0 + (u + 0.5) / factor) * cell - 0.5.
    frame_x = (x0 + (corners[:, 0] + 0.5) / factor) * cell[0] - 0.5
    frame_y = (y0 + (corners[:, 1] + 0.5) / factor) * cell[1] - 0.5
    return np.stack([frame_x, frame_y], axis=1).astype(np.float32)


def _brightness(frame: np.ndarray, box: np.ndarray) -> float:
    """The commonest grey level inside the middle of a box: the face's body, whatever
    its numeral or a glint."""
    centre = box.mean(axis=0)
    inner = (box - centre) * 0.6 + centre
    x0, y0 = np.floor(inner.min(axis=0)).astype(int)
    x1, y1 = np.ceil(inner.max(axis=0)).astype(int)
    height, width = frame.shape[:2]
    patch = frame[max(y0, 0) : min(y1, height), max(x0, 0) : min(x1, width)]
    if patch.size == 0:
        return 0.0
    grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
    histogram = np.bincount(grey.ravel(), minlength=256).astype(np.float32)
    histogram = cv2.GaussianBlur(histogram.reshape(1, -1), (0, 0), 2.0).ravel()
    return float(np.argmax(histogram))


def _drop_side_faces(boxes: list[np.ndarray], frame: np.ndarray, side: float) -> list[np.ndarray]:
    """Remove side faces taken for tops: of two adjacent boxes, one clearly darker and
    nearer the picture's centre is the side of the other. The camera sees the
    centre-facing sides of dice away from the middle (most of all of a die leaning on
    the tray wall), and light from above leaves every side darker than the top."""
    if side <= 0 or len(boxes) < 2:
        return boxes
    height, width = frame.shape[:2]
    middle = np.array([width / 2, height / 2])
    centres = [box.mean(axis=0) for box in boxes]
    levels = [_brightness(frame, box) for box in boxes]
    dropped: set[int] = set()
    for i in range(len(boxes)):
        for j in range(len(boxes)):
            if i == j or np.linalg.norm(centres[i] - centres[j]) > _SIDE_NEAR * side:
                continue
            outward = centres[j] - middle
            step = centres[j] - centres[i]
            radial = float(step @ outward) > 0.6 * np.linalg.norm(step) * np.linalg.norm(outward)
            if radial and levels[i] < _SIDE_SHADE * levels[j]:
                dropped.add(i)
    return [box for index, box in enumerate(boxes) if index not in dropped]

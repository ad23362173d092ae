"""Real photographs with labelled dice: what the locator's training learns "not a die" from.

The renderer draws tables, but a real desk has laptop keys, cable ends, screws and
wood knots that no renderer thought of, and the locator took some of them for
dice. Photos whose dice are boxed (YOLO labels, one line `class cx cy w h` per die,
as fractions of the picture, the box around the whole die) say where dice are
*not*: everywhere outside the boxes. A negative sample is a window of such a photo,
scaled so its dice measure what the network was trained on, whose target maps
are empty, with the boxes themselves masked out of the loss (the box holds the
top and the sides, so it cannot say which cells are top).

`folder` is a data set laid out as `images/NAME.jpg` and `labels/NAME.txt` (e.g.
`../shared/realdata/pip-dice-desk`, never copied into the repository). Photos whose
name starts with HELD_OUT_PREFIX are never trained on: `benchmarks/eval_real.py
--held-out` measures on them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from vision.tops_input import CHANNELS, NET_GRID, NET_STRIDE

HELD_OUT_PREFIX: Final[str] = "valid"
"""Photos named like this are kept for measuring (the data set's own validation split)."""

BOX_PX: Final[tuple[float, float]] = (17.0, 30.0)
"""Whole-die box sides, in network input pixels, a negative sample is scaled to: the
trained top size (vision.tops.TRAINED_DIE_PX, 20) plus the sides a box also holds."""

MASK_GROWTH: Final[float] = 1.15
"""Labelled boxes are grown by this before they are masked out: labels are loose."""


@dataclass(frozen=True)
class Photo:
    """One labelled photo: its path and the whole-die boxes (cx, cy, w, h) as fractions."""

    path: Path
    boxes: np.ndarray  # (N, 4) float64

    @property
    def held_out(self) -> bool:
        return self.path.name.startswith(HELD_OUT_PREFIX)


def load_photos(folder: Path) -> list[Photo]:
    """The photos of `folder/images` that have a non-empty `folder/labels/NAME.txt`."""
    photos = []
    for path in sorted((folder / "images").iterdir()):
        if path.suffix.lower() not in {".jpg", ".jpeg", ".png"}:
            continue
        label = folder / "labels" / f"{path.stem}.txt"
        if not label.is_file():
            continue
        rows = [line.split() for line in label.read_text().splitlines() if line.strip()]
        if not rows:
            continue
        photos.append(Photo(path, np.array([[float(v) for v in row[1:5]] for row in rows])))
    return photos


def negative_sample(
    image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, window: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One training window of a labelled photo: (image (H, W, 3) uint8 at network scale,
    target maps (C, H/s, W/s) uint8, all zero, loss mask (C, H/s, W/s) uint8, 0 over the
    grown boxes in the top and core maps, 255 elsewhere; the hand map has no hole: no
    labelled photo shows a hand). `boxes` are fractions (cx, cy, w, h) of `image`.
    """
    height, width = image.shape[:2]
    pixels = boxes * np.array([width, height, width, height], np.float64)
    side = float(np.median(np.maximum(pixels[:, 2], pixels[:, 3])))
    factor = rng.uniform(*BOX_PX) / max(side, 1.0)
    out_w, out_h = window
    # Never smaller than the window: a photo with large dice is shrunk less, and cut.
    factor = max(factor, out_w / width, out_h / height)
    size = (max(out_w, round(width * factor)), max(out_h, round(height * factor)))
    method = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    scaled = cv2.resize(image, size, interpolation=method)
    left = int(rng.integers(0, (size[0] - out_w) // NET_GRID + 1)) * NET_GRID
    top = int(rng.integers(0, (size[1] - out_h) // NET_GRID + 1)) * NET_GRID
    left, top = min(left, size[0] - out_w), min(top, size[1] - out_h)
    crop = np.ascontiguousarray(scaled[top : top + out_h, left : left + out_w])
    cells = (out_h // NET_STRIDE, out_w // NET_STRIDE)
    hole = np.zeros(cells, np.uint8)
    for cx, cy, w, h in pixels * factor:
        half_w, half_h = w * MASK_GROWTH / 2, h * MASK_GROWTH / 2
        x0, x1 = (cx - half_w - left) / NET_STRIDE, (cx + half_w - left) / NET_STRIDE
        y0, y1 = (cy - half_h - top) / NET_STRIDE, (cy + half_h - top) / NET_STRIDE
        hole[
            max(0, int(np.floor(y0))) : max(0, int(np.ceil(y1))),
            max(0, int(np.floor(x0))) : max(0, int(np.ceil(x1))),
        ] = 1
    mask = np.full((len(CHANNELS), *cells), 255, np.uint8)
    mask[CHANNELS.index("top")][hole > 0] = 0
    mask[CHANNELS.index("core")][hole > 0] = 0
    return crop, np.zeros_like(mask), mask


class NegativePhotos:
    """The training photos of a labelled set, read once, drawn from at random."""

    def __init__(self, folder: Path) -> None:
        photos = [photo for photo in load_photos(folder) if not photo.held_out]
        if not photos:
            raise ValueError(f"{folder}: no labelled photos to train on")
        self.images = []
        self.boxes = []
        for photo in photos:
            image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
            if image is not None:
                self.images.append(image)
                self.boxes.append(photo.boxes)

    def __len__(self) -> int:
        return len(self.images)

    def batch(
        self, rng: np.random.Generator, count: int, window: tuple[int, int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`count` negative samples of random photos (images, targets, masks), stacked."""
        picks = rng.integers(0, len(self.images), count)
        samples = [negative_sample(self.images[i], self.boxes[i], rng, window) for i in picks]
        images, targets, masks = zip(*samples, strict=True)
        return np.stack(images), np.stack(targets), np.stack(masks)

"""Real photographs with labelled dice: the locator learns real tables from them.

The renderer draws tables, but a real desk has laptop keys, cable ends, screws and
wood knots that no renderer thought of, and the locator took some of them for
dice. Photos whose dice are boxed (YOLO labels, one line `class cx cy w h` per die,
as fractions of the picture) say where dice are *not*, everywhere outside the
boxes, and roughly where their tops are. A sample is a window of such a photo,
scaled so its dice measure what the network was trained on (`photo_sample`).

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

from vision.read.tops_input import CHANNELS, NET_GRID, NET_STRIDE

HELD_OUT_PREFIX: Final[str] = "valid"
"""Photos named like this are kept for measuring (the data set's own validation split)."""

BOX_PX: Final[tuple[float, float]] = (17.0, 30.0)
"""Whole-die box sides, in network input pixels, a photo sample is scaled to: the
trained top size (vision.read.tops.TRAINED_DIE_PX, 20) plus the sides a box also holds."""

MASK_GROWTH: Final[float] = 2.0
"""Around each die, a square this many die sides wide is left out of the loss (but for
its middle): the top, the sides and the shadow, which a label cannot tell apart."""

INVERTED_SHARE: Final[float] = 0.5
"""Share of photo samples drawn in inverted colours (`recoloured`)."""

DIE_PER_LABEL: Final[float] = 1.4
"""A die's side over its label's longer side: the labels box the pips, not the face."""

LABEL_SPAN: Final[tuple[float, ...]] = (0.38, 0.62, 0.66, 0.72, 0.75, 0.83)
"""A label's longer side over its die's top side, by the pips it boxes (1 to 6): the
labels box the pip pattern, a single pip for a one. Measured on the desk photos (the
median over about 95 labelled dice of each count, every other photo, against the
tops the locator found centred on them); the pattern's centre is the top's."""

CORE_SHARE: Final[float] = 0.35
"""The middle of a die (a square this share of its side, about the label's centre) is
taught as top and core: a core is the top shrunk by half, and the label's centre is
near the top's only roughly (the camera sees some dice from the side)."""


@dataclass(frozen=True)
class Photo:
    """One labelled photo: its path, the label boxes (cx, cy, w, h) as fractions, and
    the pips each label boxes (1 to 6; 0 where the label's class is not a pip count)."""

    path: Path
    boxes: np.ndarray  # (N, 4) float64
    pips: np.ndarray | None = None  # (N,) int

    @property
    def held_out(self) -> bool:
        return self.path.name.startswith(HELD_OUT_PREFIX)

    def top_sides(self, size: tuple[int, int]) -> np.ndarray:
        """(N,) each labelled die's top side in pixels of a picture of `size` (width,
        height), from its label's longer side and the pips it boxes (LABEL_SPAN); a
        label of unknown pips is taken for a face-sized pattern (the median span)."""
        width, height = size
        longer = np.maximum(self.boxes[:, 2] * width, self.boxes[:, 3] * height)
        pips = np.zeros(len(self.boxes), int) if self.pips is None else self.pips
        spans = np.array([LABEL_SPAN[p - 1] if 1 <= p <= len(LABEL_SPAN)
                          else float(np.median(LABEL_SPAN)) for p in pips])
        return longer / spans


def load_photos(folder: Path) -> list[Photo]:
    """The photos of `folder/images` that have a non-empty `folder/labels/NAME.txt` (YOLO
    lines; class 0..5 is the pip count 1..6)."""
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
        classes = [int(float(row[0])) for row in rows]
        photos.append(Photo(path, np.array([[float(v) for v in row[1:5]] for row in rows]),
                            np.array([c + 1 if 0 <= c < len(LABEL_SPAN) else 0
                                      for c in classes])))
    return photos


def _fill(canvas: np.ndarray, box: np.ndarray, scale: float, value: int) -> None:
    """Set the cells of `box` (cx, cy, w, h in network cells) scaled by `scale` to `value`."""
    cx, cy, w, h = box
    half_w, half_h = w * scale / 2, h * scale / 2
    canvas[
        max(0, int(np.floor(cy - half_h))) : max(0, int(np.ceil(cy + half_h))),
        max(0, int(np.floor(cx - half_w))) : max(0, int(np.ceil(cx + half_w))),
    ] = value


def photo_sample(
    image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator, window: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One training window of a labelled photo: (image (H, W, 3) uint8 at network scale,
    target maps (C, H/s, W/s) uint8, loss mask (C, H/s, W/s) uint8). `boxes` are
    fractions (cx, cy, w, h) of `image`.

    Outside the labelled dice every map is 0 (no die, no hand: no labelled photo shows
    a hand). The labels box the pips, not the face: each die is taken as a square of
    DIE_PER_LABEL times the photo's median label side about its label's centre; its
    middle (CORE_SHARE) is taught as top and core, and the rest of a square MASK_GROWTH
    times as wide is left out of the loss (mask 0). Teaching the dice too, not only what
    is not a die, keeps the network from learning "a photo like these has no dice".
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
    targets = np.zeros((len(CHANNELS), *cells), np.uint8)
    mask = np.full((len(CHANNELS), *cells), 255, np.uint8)
    die = DIE_PER_LABEL * side * factor / NET_STRIDE  # a die's side, in cells
    for cx, cy, _, _ in (pixels * factor - np.array([left, top, 0.0, 0.0])) / NET_STRIDE:
        square = np.array([cx, cy, die, die])
        for channel in ("top", "core"):
            index = CHANNELS.index(channel)
            _fill(mask[index], square, MASK_GROWTH, 0)
            _fill(mask[index], square, CORE_SHARE, 255)
            _fill(targets[index], square, CORE_SHARE, 255)
    return crop, targets, mask


class LabelledPhotos:
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
        """`count` samples of random photos (images, targets, masks), stacked."""
        picks = rng.integers(0, len(self.images), count)
        samples = [photo_sample(self.images[i], self.boxes[i], rng, window) for i in picks]
        images, targets, masks = zip(*samples, strict=True)
        return np.stack([recoloured(image, rng) for image in images]), np.stack(targets), np.stack(
            masks
        )


def recoloured(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo with its colours changed: inverted half the time (the white dice on a
    light desk become dark dice on a dark one), then each channel scaled by 0.8 to 1.2.

    The labelled photos show white dice only; without this the locator learns from
    them that a die is bright, and misses dark dice with dim ink."""
    recolour = 255.0 - image if rng.random() < INVERTED_SHARE else image.astype(np.float64)
    gains = rng.uniform(0.8, 1.2, 3)
    return np.clip(recolour * gains, 0, 255).astype(np.uint8)

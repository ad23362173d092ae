"""Crops of real pip dice, cut as the reader cuts them, for teaching the face head "no face".

A pip die is a die, so the locator finds it, but it carries no numeral: the face
classifier must call it "not a Phase 10 face". Rendered pip dice teach part of
that; real photographs teach what a renderer leaves out (real plastic, real light,
real cameras). Each training photo is scaled so its dice measure what the camera
sees (`DIE_PX`), the shipped locator finds the tops as the reader would, and each
top found is cut with `crop_face`, with and without a small jitter of its corners.
Every labelled die is also cut from its label directly, so dice the locator misses
still teach.

    python -m models.real_negatives ../shared/realdata/pip-dice-desk OUT.npz

Only photos locator training may see are used (`models.real_photos.HELD_OUT_PREFIX`
names the validation split, which measures and is never cut here). The output holds
crops derived from the photos: keep it out of the repository, like the photos.
Training only.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

import cv2
import numpy as np

from models.options import npz_path
from models.real_photos import Photo, load_photos
from vision.read.crops import CROP_SIZE, crop_face
from vision.read.tops import TopFinder

logger = logging.getLogger(__name__)

DIE_PX: Final[tuple[float, ...]] = (40.0, 55.0, 70.0, 90.0)
"""Die top sides (pixels) each photo is scaled to: the camera's range and a phone's."""

JITTER: Final[float] = 0.08
"""Corner jitter of a second cut of each top, as a share of its side (an imprecise box)."""


def _square(cx: float, cy: float, side: float) -> np.ndarray:
    half = side / 2
    return np.array(
        [[cx - half, cy - half], [cx + half, cy - half], [cx + half, cy + half],
         [cx - half, cy + half]],
        np.float32,
    )


def photo_crops(
    photo: Photo, finder: TopFinder, rng: np.random.Generator, die_px: Iterable[float] = DIE_PX
) -> list[np.ndarray]:
    """Every crop of one photo: the tops the locator finds and the labelled dice, at
    each size of `die_px`."""
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        logger.warning("cannot read %s, skipped", photo.path.name)
        return []
    height, width = image.shape[:2]
    sides = photo.top_sides((width, height))
    centres = photo.boxes[:, :2] * np.array([width, height], np.float64)
    crops = []
    for px in die_px:
        factor = px / float(np.median(sides))
        size = (max(16, round(width * factor)), max(16, round(height * factor)))
        method = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
        frame = cv2.resize(image, size, interpolation=method)
        quads = [np.asarray(box, np.float32) for box in finder.locate(frame).boxes]
        quads += [_square(cx * factor, cy * factor, side * factor)
                  for (cx, cy), side in zip(centres, sides, strict=True)]
        for quad in quads:
            crops.append(crop_face(frame, quad))
            side = float(np.linalg.norm(quad[1] - quad[0]))
            moved = quad + rng.uniform(-JITTER, JITTER, quad.shape).astype(np.float32) * side
            crops.append(crop_face(frame, moved))
    return crops


def cut(folder: Path, seed: int = 0) -> np.ndarray:
    """(N, CROP_SIZE, CROP_SIZE, 3) uint8 crops of every training photo in `folder`."""
    photos = [photo for photo in load_photos(folder) if not photo.held_out]
    if not photos:
        raise FileNotFoundError(f"no labelled training photos under {folder}")
    finder = TopFinder.load()
    rng = np.random.default_rng(seed)
    crops: list[np.ndarray] = []
    for number, photo in enumerate(photos, 1):
        crops += photo_crops(photo, finder, rng)
        if number % 50 == 0 or number == len(photos):
            logger.info("%d of %d photos, %d crops", number, len(photos), len(crops))
    return np.stack(crops) if crops else np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.real_negatives", description=__doc__)
    parser.add_argument("folder", type=Path, help="a data set with images/ and labels/")
    parser.add_argument("output", type=npz_path,
                        help="the .npz to write (outside the repository)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        crops = cut(args.folder, args.seed)
    except FileNotFoundError as error:
        print(f"real_negatives: {error}", file=sys.stderr)
        return 1
    args.output.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.output, crops=crops)
    logger.info("wrote %d crops to %s", len(crops), args.output)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

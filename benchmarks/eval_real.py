"""Finding dice in real photographs: the reader on ../shared/realdata, never copied here.

    .venv/bin/python benchmarks/eval_real.py                  # pip-dice-desk, dice 70 px
    .venv/bin/python benchmarks/eval_real.py --die-px 45 --json
    .venv/bin/python benchmarks/eval_real.py --root /data/realdata --limit 50

`pip-dice-desk/` holds 396 webcam photos (640x480) of one to five white pip dice on
a wooden desk, no hands, with a YOLO box per die in `labels/NAME.txt`. The boxes
hold the top face's pips, not the whole die (a one's box is its single pip), so
each die's top side is estimated from its box and its pip count
(`models.real_photos.LABEL_SPAN`). Each photo is resized so that its median die top
measures `--die-px` pixels, then read twice: the locate step alone
(`DiceReader.locate`) and the full read (`DiceReader.read`, every die listed whether
read or unreadable). A die found counts as located when its centre lies within half
a top side of a label's centre (the pips' centre is the top's), one to one (nearest
first); every other die found is a false detection. Reported, for each step: the
share of labelled dice located, false detections per photo, the share of photos
flagged for a hand (none shows one) and the median time per photo (one thread).
With `--as-photos`, each photo is also read at its own size as `phase10 read` reads
a JPEG or PNG (the scorepad's photo reader: re-looks at the dice's size, the tray
crop), matched the same way in its own pixels. Pip faces are not Phase 10 faces, so
values are not scored: the full read should list them as unreadable or marked, and
`sure_face_share` is the share of the dice found that it reads as a Phase 10 face
anyway, unmarked (a silent error in a game), and `sure_value_share` the share whose
number a phase that does not count colour would take without a check (unmarked, or
marked for its colour alone).

Exits 0 with a message when the folder is absent (it lives outside the repository).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models.real_photos import Photo, load_photos
from vision.read.photo import read_photo_file

DEFAULT_ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "realdata"
SET_NAME = "pip-dice-desk"
DEFAULT_DIE_PX = 70.0


@dataclass
class Tally:
    """Counts of one step (locate or read) over the photos."""

    photos: int = 0
    labelled: int = 0
    located: int = 0
    false: int = 0
    hands: int = 0
    seconds: list[float] = field(default_factory=list)
    sure_faces: int = 0  # labelled (pip) dice read as a Phase 10 face, unmarked
    sure_values: int = 0  # the same, or marked for their colour alone (no check outside phase 8)

    def add(self, labelled: int, located: int, found: int, hand: bool, seconds: float) -> None:
        self.photos += 1
        self.labelled += labelled
        self.located += located
        self.false += found - located
        self.hands += bool(hand)
        self.seconds.append(seconds)

    def count_sure(self, reading, dice: np.ndarray) -> None:
        """Count the labelled dice `reading` shows as a sure face, and those whose number a
        phase that does not count colour would take without a check."""
        self.sure_faces += match([die.centre for die in reading.dice if not die.unsure], dice)
        self.sure_values += match(
            [die.centre for die in reading.dice if not die.value_doubtful], dice)

    def summary(self) -> dict[str, float | int]:
        return {
            "photos": self.photos,
            "labelled_dice": self.labelled,
            "located_share": round(self.located / self.labelled, 4) if self.labelled else 0.0,
            "false_per_photo": round(self.false / self.photos, 3) if self.photos else 0.0,
            "hand_flagged_share": round(self.hands / self.photos, 4) if self.photos else 0.0,
            "sure_face_share": round(self.sure_faces / self.located, 4) if self.located else 0.0,
            "sure_value_share": (round(self.sure_values / self.located, 4) if self.located
                                 else 0.0),
            "median_ms": round(1000 * statistics.median(self.seconds), 1) if self.seconds else 0.0,
        }


def scaled(photo: Photo, die_px: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The photo resized so its median die top measures `die_px`, and each labelled
    die as (cx, cy, top side) in pixels of the resized photo (None if the image cannot
    be read)."""
    image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
    if image is None:
        return None
    height, width = image.shape[:2]
    centres = photo.boxes[:, :2] * np.array([width, height], np.float64)
    sides = photo.top_sides((width, height))
    factor = die_px / float(np.median(sides))
    size = (max(8, round(width * factor)), max(8, round(height * factor)))
    method = cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR
    dice = np.column_stack([centres * factor, sides * factor])
    return cv2.resize(image, size, interpolation=method), dice


def match(centres: Sequence[tuple[float, float]], dice: np.ndarray) -> int:
    """How many labelled dice (cx, cy, top side) get a found die: a centre within half
    a top side of theirs, one to one, the nearest pairs first."""
    pairs = []
    for i, (x, y) in enumerate(centres):
        for j, (cx, cy, side) in enumerate(dice):
            distance = float(np.hypot(x - cx, y - cy))
            if distance <= side / 2:
                pairs.append((distance, i, j))
    used_found: set[int] = set()
    used_box: set[int] = set()
    for _, i, j in sorted(pairs):
        if i not in used_found and j not in used_box:
            used_found.add(i)
            used_box.add(j)
    return len(used_box)


def evaluate(reader, photos: Sequence[Photo], die_px: float) -> dict[str, dict]:
    """Both steps over the photos: {"locate": summary, "read": summary}."""
    from vision.reading import ReadingFlag

    locate, read = Tally(), Tally()
    for photo in photos:
        loaded = scaled(photo, die_px)
        if loaded is None:
            print(f"eval_real: cannot read {photo.path.name}, skipped", file=sys.stderr)
            continue
        frame, dice = loaded
        start = time.perf_counter()
        located = reader.locate(frame)
        seconds = time.perf_counter() - start
        centres = [tuple(box.mean(axis=0)) for box in located.boxes]
        locate.add(len(dice), match(centres, dice), len(centres), located.hand, seconds)
        start = time.perf_counter()
        reading = reader.read(frame)
        seconds = time.perf_counter() - start
        centres = list(reading.centres())
        hand = reading.has_flag(ReadingFlag.HAND)
        read.add(len(dice), match(centres, dice), len(centres), hand, seconds)
        read.count_sure(reading, dice)
    return {"locate": locate.summary(), "read": read.summary()}


def evaluate_as_photos(photo_reader, photos: Sequence[Photo]) -> dict[str, float | int]:
    """Each photo file at its own size, read as `phase10 read` reads a JPEG or PNG (the
    scorepad's photo reader, `vision.read.photo.read_photo_file`), the dice in its own pixels."""
    from vision.reading import ReadingFlag

    tally = Tally()
    for photo in photos:
        image = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if image is None:
            continue
        height, width = image.shape[:2]
        dice = np.column_stack([photo.boxes[:, :2] * np.array([width, height], np.float64),
                                photo.top_sides((width, height))])
        start = time.perf_counter()
        reading = read_photo_file(photo.path.read_bytes(), photo_reader).in_photo()
        seconds = time.perf_counter() - start
        centres = list(reading.centres())
        tally.add(len(dice), match(centres, dice), len(centres),
                  reading.has_flag(ReadingFlag.HAND), seconds)
        tally.count_sure(reading, dice)
    return tally.summary()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--root", type=Path, default=DEFAULT_ROOT, help=f"the realdata folder ({DEFAULT_ROOT})"
    )
    parser.add_argument(
        "--die-px",
        type=float,
        default=DEFAULT_DIE_PX,
        help="median die top each photo is scaled to, pixels (70; the camera sees Phase 10 "
        "dice at 45-90)",
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N photos (0: all)")
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="only the photos locator training never sees (models/real_photos.py)",
    )
    parser.add_argument(
        "--locator", type=Path, default=None, help="top-face locator (.onnx; default: shipped)"
    )
    parser.add_argument(
        "--as-photos",
        action="store_true",
        help="also read each photo at its own size as `phase10 read` reads a JPEG or PNG "
        "(the scorepad's photo reader)",
    )
    parser.add_argument(
        "--model", type=Path, default=None, help="face classifier (.onnx; default: shipped)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.die_px <= 0:
        parser.error("--die-px must be positive")
    folder = args.root / SET_NAME
    if not (folder / "images").is_dir() or not (folder / "labels").is_dir():
        print(f"eval_real: skipped: no {SET_NAME}/images and labels under {args.root}")
        return 0
    photos = load_photos(folder)
    if args.held_out:
        photos = [photo for photo in photos if photo.held_out]
    if args.limit > 0:
        photos = photos[: args.limit]
    if not photos:
        print(f"eval_real: skipped: no labelled photos in {folder}")
        return 0

    cv2.setNumThreads(1)
    from vision.read.classifier import FaceClassifier
    from vision.read.pipeline import DiceReader
    from vision.read.tops import TopFinder

    reader = DiceReader(FaceClassifier.load(args.model), threads=1,
                        finder=TopFinder.load(args.locator))
    results = evaluate(reader, photos, args.die_px)
    steps = [("locate", "locate step"), ("read", "full read (read + unreadable)")]
    if args.as_photos:
        results["photo"] = evaluate_as_photos(reader, photos)
        steps.append(("photo", "each photo at its own size, as `phase10 read` reads it"))
    report = {"set": SET_NAME, "die_px": args.die_px, "held_out": args.held_out, **results}
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"== {SET_NAME}: {len(photos)} photos, median die top scaled to {args.die_px:g} px")
    for step, title in steps:
        figures = results[step]
        print(f"-- {title}")
        share, labelled = figures["located_share"], figures["labelled_dice"]
        print(f"dice located:          {share:.2%} of {labelled}")
        print(f"false detections:      {figures['false_per_photo']:.3f} per photo")
        print(f"photos flagged (hand): {figures['hand_flagged_share']:.2%}")
        if step != "locate":
            print(f"read as a sure face:   {figures['sure_face_share']:.2%} of the dice found")
            print(f"a sure number (9 phases): {figures['sure_value_share']:.2%} of the dice found")
        print(f"median time:           {figures['median_ms']:.1f} ms per photo")
    return 0


if __name__ == "__main__":
    sys.exit(main())

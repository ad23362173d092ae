"""Accuracy of "Snap the dice" on rendered phone-style photos (issue 18): tipped up to 30
degrees from vertical, from near and far, blurred, 4:3 and 16:9, stored sideways.

    .venv/bin/python benchmarks/accuracy_photo.py                  # 200 photos
    .venv/bin/python benchmarks/accuracy_photo.py --photos 50 --json

Each photo is a rendered tray (held-out seeds: no network trained on them) whose
dice measure 3.5 to 13 % of the picture's width, seen by a camera tipped by an
angle drawn from 0 to 30 degrees in any direction (the exact homography of a
camera turned about its centre, focal length 0.73 of the width, a phone's main
camera; the tipped picture is then fitted back into the frame, aimed at the tray,
the uncovered edge filled with the mat's edge), blurred (Gaussian, sigma 0 to 2
pixels at 2000 wide: focus and hand shake), enlarged to 4000 pixels wide with
sensor noise, stored as a JPEG (quality 85 to 95) under a random EXIF orientation
(1, 3, 6 or 8). It goes through `vision.read.photo.read_photo_file`, the endpoint's reading.

Prints: every die found and nothing else, every die read right (faces as a
multiset; unsure dice counted as read), the same with no die unsure or
unreadable (what scores with no tap), per-die accuracy, photos shown as sure and
those sure but wrong (of all photos), the photos the scorepad takes with no tap (none of
its dice asked for, `scorer.dice_to_check`) for phase 8 and the other nine (their mean)
and those of them whose verdict or points are wrong, photos refused (no dice
or more than ten), photos cropped to their tray, the median time to read, and the
same broken down by angle, die size and blur.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from scorer import Die
from vision.evaluation import pad_readings, pad_shares, roll_of
from vision.read.photo import PhotoReading, read_photo_file
from vision.read.tops import longest_side
from vision.synth import random_conditions, render_scene, views
from vision.synth.seeds import HELD_OUT_SEED_BASE

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from photo_helpers import STORE, encode  # noqa: E402

FIRST_SEED = HELD_OUT_SEED_BASE + 700_000
WORK_WIDTH = 2000  # rendered at this width, then enlarged twice: a 12-megapixel photo
FOCAL = 0.73  # of the width: a phone's main camera (26 mm equivalent)


def tilt_homography(size: tuple[int, int], degrees: float, direction: float) -> np.ndarray:
    """The picture of a camera turned `degrees` about its centre (its axis of turn at
    `direction`, radians in the image plane), fitted back into the frame: aimed at the
    tray (`vision.synth.views.tilt_homography` with a phone's focal length)."""
    return views.tilt_homography(size, degrees, direction - np.pi / 2, FOCAL)


@dataclasses.dataclass
class Photo:
    seed: int
    data: bytes
    truth: list[str]
    angle: float
    die_share: float  # median die side / picture width
    blur: float
    aspect: str
    orientation: int


def make_photo(seed: int) -> Photo:
    rng = np.random.default_rng(seed)
    aspect = "16:9" if rng.random() < 0.3 else "4:3"
    size = (WORK_WIDTH, WORK_WIDTH * 9 // 16 if aspect == "16:9" else WORK_WIDTH * 3 // 4)
    conditions = random_conditions(rng, size)
    share = float(rng.uniform(0.035, 0.13))
    conditions = dataclasses.replace(conditions, scale=share * size[0])
    scene = render_scene(seed, conditions=conditions, size=size)
    angle = float(rng.uniform(0, 30))
    homography = tilt_homography(size, angle, float(rng.uniform(0, 2 * np.pi)))
    image = cv2.warpPerspective(scene.image, homography, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    sides = []
    for die in scene.dice:
        box = cv2.perspectiveTransform(die.corners.reshape(-1, 1, 2).astype(np.float64),
                                       homography).reshape(-1, 2)
        sides.append(longest_side(box))
    blur = float(rng.uniform(0, 2.0))
    if blur > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_CUBIC)
    noise = rng.normal(0, float(rng.uniform(2, 6)), image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    orientation = int(rng.choice([1, 3, 6, 8]))
    data = encode(STORE[orientation](image), orientation, quality=int(rng.integers(85, 96)))
    return Photo(seed, data, sorted(str(die.die) for die in scene.dice), angle,
                 float(np.median(sides)) / size[0] if sides else 0.0, blur, aspect, orientation)


@dataclasses.dataclass
class WholeReading:
    """What `OneLook.read` gives, shaped as the photo reader's result."""

    reading: object
    looks: int = 1
    tray_crop: None = None


class PhotoFiles:
    """Each photo read as the scorepad reads an upload (`vision.read.photo.read_photo_file`)."""

    def __init__(self) -> None:
        from vision.read.pipeline import DiceReader

        self.reader = DiceReader(threads=1)

    def read(self, data: bytes) -> PhotoReading:
        return read_photo_file(data, self.reader)


class OneLook:
    """The photo decoded whole (upright by its EXIF tag) and read in one
    `DiceReader.read`: what the photo reader adds to a single look, taken away."""

    def __init__(self) -> None:
        from vision.read.pipeline import DiceReader

        self.reader = DiceReader(threads=1)

    def read(self, data: bytes) -> WholeReading:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        return WholeReading(self.reader.read(image))


def score(photo: Photo, reader: PhotoFiles | OneLook) -> dict:
    start = time.perf_counter()
    result = reader.read(photo.data)
    seconds = time.perf_counter() - start
    reading = result.reading
    read = sorted(str(die.die) for die in reading.dice)
    matched = sum((Counter(read) & Counter(photo.truth)).values())
    found = reading.found_count()
    # A tray of fewer than ten dice is shown as sure when nothing in it is marked.
    sure = (reading.is_complete() if len(photo.truth) == 10
            else reading.unsure_count() == 0 and not reading.unreadable)
    pad_sure, pad_right = pad_readings(
        reading, roll_of(Die.from_text(face) for face in photo.truth), len(photo.truth))
    return {
        "seed": photo.seed, "angle": round(photo.angle, 1), "die_share": round(photo.die_share, 4),
        "blur": round(photo.blur, 2), "aspect": photo.aspect, "orientation": photo.orientation,
        "dice": len(photo.truth), "found": found, "read_right": matched,
        "all_found": found == len(photo.truth),
        "all_right": read == photo.truth and not reading.unreadable,
        "all_sure": sure and read == photo.truth,
        "shown_sure": sure,
        "sure_but_wrong": sure and read != photo.truth,
        **pad_shares([pad_sure], [pad_right]),
        "refused": found == 0 or found > 10,
        "ms": round(seconds * 1000, 1), "looks": result.looks, "flags": list(reading.flags),
        "tray": result.tray_crop is not None,
        "got": reading.notation(), "truth": " ".join(photo.truth),
    }


def summary(rows: list[dict]) -> dict:
    dice = sum(row["dice"] for row in rows)
    return {
        "photos": len(rows),
        "all_found": sum(row["all_found"] for row in rows) / len(rows),
        "all_right": sum(row["all_right"] for row in rows) / len(rows),
        "all_right_and_sure": sum(row["all_sure"] for row in rows) / len(rows),
        "per_die": sum(row["read_right"] for row in rows) / max(dice, 1),
        "shown_sure": sum(row["shown_sure"] for row in rows) / len(rows),
        "sure_but_wrong": sum(row["sure_but_wrong"] for row in rows) / len(rows),
        **{key: sum(row[key] for row in rows) / len(rows)
           for key in ("pad_phase_8_no_check", "pad_phase_8_taken_wrong",
                       "pad_other_phases_no_check", "pad_other_phases_taken_wrong")},
        "refused": sum(row["refused"] for row in rows),
        "cropped_to_tray": sum(row["tray"] for row in rows),
        "median_ms": statistics.median(row["ms"] for row in rows),
    }


def _line(title: str, rows: list[dict]) -> str:
    if not rows:
        return f"{title:<22} (none)"
    s = summary(rows)
    return (f"{title:<22} {s['photos']:>4}  found {s['all_found']:7.2%}"
            f"  right {s['all_right']:7.2%}  right+sure {s['all_right_and_sure']:7.2%}"
            f"  per die {s['per_die']:8.3%}"
            f"  sure {s['shown_sure']:7.2%} (wrong {s['sure_but_wrong']:6.2%})"
            f"  no tap: phase 8 {s['pad_phase_8_no_check']:7.2%}"
            f" (wrong {s['pad_phase_8_taken_wrong']:6.2%}),"
            f" others {s['pad_other_phases_no_check']:7.2%}"
            f" (wrong {s['pad_other_phases_taken_wrong']:6.2%})"
            f"  refused {s['refused']:>2}  tray {s['cropped_to_tray']:>3}"
            f"  {s['median_ms']:6.1f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--json", action="store_true", help="one JSON object, every photo")
    parser.add_argument("--one-look", action="store_true",
                        help="read each photo whole in one DiceReader.read instead, to compare")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    reader = OneLook() if args.one_look else PhotoFiles()
    rows = []
    for index in range(args.photos):
        rows.append(score(make_photo(args.first_seed + index), reader))
        if not args.json and (index + 1) % 25 == 0:
            print(f"... {index + 1} photos", file=sys.stderr)
    if args.json:
        print(json.dumps({"summary": summary(rows), "photos": rows}))
        return 0
    print(_line("all photos", rows))
    for low, high in ((0, 10), (10, 20), (20, 30)):
        print(_line(f"angle {low}-{high} deg", [r for r in rows if low <= r["angle"] < high]))
    for low, high in ((0.0, 0.05), (0.05, 0.08), (0.08, 0.11), (0.11, 1.0)):
        print(_line(f"die {low:.0%}-{high:.0%} of width" if high < 1 else f"die >= {low:.0%}",
                    [r for r in rows if low <= r["die_share"] < high]))
    for low, high in ((0, 0.7), (0.7, 1.4), (1.4, 2.1)):
        print(_line(f"blur sigma {low}-{high}", [r for r in rows if low <= r["blur"] < high]))
    for aspect in ("4:3", "16:9"):
        print(_line(f"aspect {aspect}", [r for r in rows if r["aspect"] == aspect]))
    wrong = [r for r in rows if not r["all_right"]]
    for row in wrong:
        print(f"  seed {row['seed']}: angle {row['angle']}, die {row['die_share']:.1%}, blur "
              f"{row['blur']}: read '{row['got']}' for '{row['truth']}' {row['flags']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""`phase10 read IMAGE...`: read the dice in photos of the tray, one line per image.

With `--json`, each line is one JSON object: the image path, the reading's flags,
whether it is complete, and every die found (value, colour letter, notation,
centre and box corners in pixels, confidence, unsure, unreadable), or the error
that stopped that image. A die found whose face cannot be read is listed with
value, colour and notation null and `"unreadable": true`, and the reading is
flagged `unreadable-dice` (never complete); more than ten dice are all listed,
flagged `too-many-dice`; a soft (out-of-focus) picture, whose dice were sharpened to be
read, is flagged `out-of-focus`. In plain output an unreadable die is `??`. A bad image
does not stop the others; the exit status is non-zero at the end when any image
could not be read. With `--profile DIR`, the dice are weighed with the dice profile
taught with `phase10 teach` (a folder without one reads as without it).

A JPEG or PNG is read as a phone's photo is on the scorepad (`vision.read.photo.read_photo`):
upright by its EXIF orientation, brought to a working size, read again where the dice
measure far from the locator's trained size, cropped to the tray when one shows; the
dice's centres and boxes are given in the pixels of the picture itself (upright).
Other formats OpenCV reads (BMP, TIFF, WebP) are read as they are, in one look.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from vision.read.pipeline import DiceReader
    from vision.reading import Reading

COMMAND = "read"
HELP = "read the dice in one or more photos of the tray"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Locate and read the dice in each image (value and colour of each top face).",
    )
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="photo(s) of the dice tray")
    parser.add_argument("--json", action="store_true", help="one JSON object per image per line")
    parser.add_argument(
        "--overlay", metavar="DIR", type=Path, help="also write each image annotated into DIR"
    )
    parser.add_argument(
        "--model", metavar="PATH", type=Path, help="face classifier (.onnx; default: shipped)"
    )
    parser.add_argument(
        "--locator", metavar="PATH", type=Path, help="top-face locator (.onnx; default: shipped)"
    )
    parser.add_argument(
        "--profile", metavar="DIR", type=Path, help="read with the dice profile in DIR (teach)"
    )
    parser.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads (default 1)")
    return parser


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.read.classifier import FaceClassifier, ModelFileError
    from vision.read.overlay import draw_overlay
    from vision.read.pipeline import DiceReader
    from vision.read.tops import TopFinder

    try:
        classifier = FaceClassifier.load(args.model, threads=args.threads)
    except (ModelFileError, OSError) as error:
        print(f"phase10 read: error: cannot load the face classifier: {error}", file=sys.stderr)
        return 2
    try:
        finder = TopFinder.load(args.locator, threads=args.threads)
    except (ModelFileError, OSError) as error:
        print(f"phase10 read: error: cannot load the top-face locator: {error}", file=sys.stderr)
        return 2
    from cli.dice_layout import household_dice

    reader = DiceReader(classifier, finder=finder, dice_set=household_dice())
    if args.profile is not None:
        from vision.profile.profile import DiceProfile, ProfileError
        from vision.profile.teach import use_profile

        try:
            use_profile(reader, DiceProfile.load(args.profile))
        except ProfileError as error:
            print(f"phase10 read: error: {error}", file=sys.stderr)
            return 2
    if args.overlay is not None:
        args.overlay.mkdir(parents=True, exist_ok=True)
    failures = 0
    for name in args.images:
        reading, frame, why = read_image(name, reader, keep_frame=args.overlay is not None)
        if reading is None:
            failures += 1
            _report_error(name, why, as_json=args.json)
            continue
        if args.json:
            print(json.dumps({"image": name, **reading.to_dict()}), flush=True)
        else:
            flags = f"  [{', '.join(reading.flags)}]" if reading.flags else ""
            print(f"{name}: {reading.notation() or '(no dice)'}{flags}", flush=True)
        if args.overlay is not None and frame is not None:
            target = args.overlay / f"{Path(name).stem}.overlay.jpg"
            cv2.imwrite(str(target), draw_overlay(frame, reading))
    return 1 if failures else 0


def read_image(
    name: str, reader: DiceReader, *, keep_frame: bool = False
) -> tuple[Reading | None, np.ndarray | None, str]:
    """The dice of the picture in file `name`, the picture as OpenCV decodes it (upright)
    when `keep_frame` asks for it (to draw on), and why nothing was read (None, None,
    why: no such file, not a readable image).

    A JPEG or PNG goes through the photo reader, in the picture's upright pixels; it is
    decoded in full by OpenCV only when the frame is wanted (a 12-megapixel photo costs
    about 50 ms more), and is then read in one look of `reader` instead where OpenCV
    turned it upright otherwise. Anything else, or a file the photo reader refuses, is
    read in one look."""
    from vision.read.photo import read_photo_file
    from vision.read.photo_file import PhotoError

    try:
        reading = read_photo_file(Path(name).read_bytes(), reader).in_photo()
    except (PhotoError, OSError):
        reading = None
    if reading is not None and not keep_frame:
        return reading, None, ""
    frame, why = load_image(name)
    if frame is None:
        return None, None, why
    if reading is None or reading.frame_size != (frame.shape[1], frame.shape[0]):
        reading = reader.read(frame)
    return reading, frame if keep_frame else None, ""


def load_image(name: str) -> tuple[np.ndarray | None, str]:
    """The colour image in file `name`, or None and why it cannot be read (no such file,
    not a readable image): what `read` and `teach` say of a bad IMAGE."""
    import cv2

    if not Path(name).is_file():
        return None, "no such file"
    frame = cv2.imread(name, cv2.IMREAD_COLOR)
    return (None, "not a readable image") if frame is None else (frame, "")


def _report_error(name: str, why: str, *, as_json: bool) -> None:
    if as_json:
        print(json.dumps({"image": name, "error": why}), flush=True)
    print(f"phase10 read: error: {name}: {why}", file=sys.stderr)

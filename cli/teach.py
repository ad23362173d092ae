"""`phase10 teach --profile DIR IMAGE ROLL`: teach a dice profile one confirmed roll.

The reader finds the dice of IMAGE; ROLL names the faces they really show (the
usual notation, in any order, quoted or not). Each die is labelled with the face
of ROLL it most likely shows (one face per die), and its crop is added to the
profile in DIR (created when missing). `phase10 read --profile DIR` then reads
with it, and the server uses the profile in its data folder. Refused, with the
profile left as it was, when the image has no dice or not as many as ROLL. Taught
dice whose face looks typed wrong (`vision.profile.teach.taught_slips`: the reader leaves
them out) are named, so the roll can be checked.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

COMMAND = "teach"
HELP = "teach a dice profile your own dice from a photo and the roll it shows"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND,
        help=HELP,
        description="Add the dice of a photo, labelled with the faces you confirm, to a profile.",
    )
    parser.add_argument(
        "--profile", metavar="DIR", type=Path, required=True, help="the profile's folder"
    )
    parser.add_argument("image", metavar="IMAGE", help="photo of the tray")
    parser.add_argument(
        "roll", metavar="ROLL", nargs="+", help='the faces the dice show, e.g. "1R 5B 7G W ..."'
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads (default 1)")
    return parser


def run(args: argparse.Namespace) -> int:
    from cli.dice_layout import household_dice
    from cli.read import load_image
    from scorer import parse_roll
    from vision.profile.profile import DiceProfile, ProfileError
    from vision.profile.teach import TeachError, teach, use_profile
    from vision.read.classifier import ModelFileError
    from vision.read.pipeline import DiceReader

    roll = list(parse_roll(" ".join(args.roll)))  # InvalidRollError: main reports it
    try:
        profile = DiceProfile.load(args.profile)
    except ProfileError as error:
        return _fail(f"{error}; move it away to start a new profile")
    frame, why = load_image(args.image)
    if frame is None:
        return _fail(f"{args.image}: {why}")
    try:
        reader = DiceReader(threads=args.threads, dice_set=household_dice())
    except (ModelFileError, OSError) as error:
        return _fail(f"cannot load the reader: {error}")
    try:
        lesson = teach(reader, frame, roll, profile)
    except TeachError as error:
        return _fail(f"{args.image}: {error}; the profile is unchanged")
    lesson.profile.save(args.profile)
    left_out = use_profile(reader, lesson.profile).left_out
    counts = lesson.profile.counts()
    if args.json:
        print(
            json.dumps(
                {
                    "image": args.image,
                    "taught": [
                        {"notation": str(die), "centre": list(centre)}
                        for die, centre in zip(lesson.dice, lesson.centres, strict=True)
                    ],
                    "not_found": [str(die) for die in lesson.not_found],
                    "examples": len(lesson.profile),
                    "faces_seen": len(counts),
                    "left_out": [
                        {"confirmed": str(out.confirmed), "looks_like": str(out.looks_like)}
                        for out in left_out
                    ],
                }
            )
        )
    else:
        print(
            f"{args.image}: taught {len(lesson.dice)} dice "
            f"({' '.join(str(die) for die in lesson.dice)}); the profile in {args.profile} "
            f"holds {len(lesson.profile)} examples of {len(counts)} faces"
        )
        if lesson.not_found:
            missing = " ".join(str(die) for die in lesson.not_found)
            print(
                f"not found in the picture, so not taught: {missing} "
                "(a die at the edge, under another, or out of the camera's view)"
            )
        if left_out:
            print(
                f"{len(left_out)} taught {'die is' if len(left_out) == 1 else 'dice are'} "
                "left out of the reading, the face confirmed unlike how it looks ("
                + ", ".join(f"{out.confirmed} looks like {out.looks_like}" for out in left_out)
                + "): check the rolls typed; the scorepad's set-up page can put them right"
            )
    return 0


def _fail(message: str) -> int:
    print(f"phase10 teach: error: {message}", file=sys.stderr)
    return 2

"""How often dice that are not Phase 10 dice are read as a sure Phase 10 face.

    .venv/bin/python benchmarks/eval_other_dice.py                  # 60 trays
    .venv/bin/python benchmarks/eval_other_dice.py --scenes 200 --json

Each tray (`vision.synth.other_dice`) holds up to ten faces of other numeral dice: a
d20's triangle, a d10's kite, a d12's pentagon, hexagons, and plain six-sided faces
with numerals 1 to 20 in one ink, drawn in the held-out fonts on the renderer's empty
trays. None is a Phase 10 face. Per shape: the faces drawn, the share found (read or
listed as unreadable within the face's radius), and `sure_face_share`, the share of
those found that the reader shows as a die with no mark, as `eval_real.py` counts the
real pip dice, and `sure_value_share`, those a phase that does not count colour would
take without a check (unmarked, or marked for their colour alone). A roll of such faces
should never be shown as sure either.
`--view steep` tips each tray as a phone held over it (up to 35 degrees).
`--no-face-probe` reads without the face probe (`vision.read.face_probe`), as the reader
read before it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.read.classifier import FaceClassifier
from vision.read.pipeline import DiceReader
from vision.read.tops import TopFinder
from vision.reading import Reading
from vision.synth.font_library import MissingFontError, Split, font_files
from vision.synth.other_dice import SHAPES, OtherDiceScene, other_dice_scene, steep_other_dice
from vision.synth.seeds import OTHER_DICE_SEED_BASE


def tally(scene: OtherDiceScene, reading: Reading, drawn: Counter, found: Counter,
          sure: Counter, sure_value: Counter | None = None) -> None:
    """Count each drawn face of `scene` by shape: drawn, found, read as a sure face, and
    read as a sure number (`sure_value`: unmarked, or marked for its colour alone, so a
    phase that does not count colour would take it without a check)."""
    for die in scene.dice:
        def near(centre: tuple[float, float], die=die) -> bool:
            return bool(np.hypot(centre[0] - die.centre[0], centre[1] - die.centre[1])
                        < die.radius)

        read = [d for d in reading.dice if near(d.centre)]
        drawn[die.shape] += 1
        found[die.shape] += bool(read) or any(near(u.centre) for u in reading.unreadable)
        sure[die.shape] += any(not d.unsure for d in read)
        if sure_value is not None:
            sure_value[die.shape] += any(not d.value_doubtful for d in read)


def evaluate(reader: DiceReader, fonts: list[str], first: int, scenes: int,
             steep: bool = False) -> dict:
    drawn, found, sure, sure_value = Counter(), Counter(), Counter(), Counter()
    rolls_sure = rolls_values_sure = 0
    for seed in range(first, first + scenes):
        scene = other_dice_scene(seed, fonts)
        if steep:
            scene = steep_other_dice(scene, seed)
        reading = reader.read(scene.image)
        tally(scene, reading, drawn, found, sure, sure_value)
        rolls_sure += bool(reading.dice) and reading.is_complete()
        rolls_values_sure += bool(reading.dice) and reading.values_complete()
    shapes = {
        shape: {"drawn": drawn[shape],
                "found_share": round(found[shape] / drawn[shape], 4) if drawn[shape] else 0.0,
                "sure_face_share": round(sure[shape] / found[shape], 4) if found[shape] else 0.0}
        for shape in SHAPES
    }
    total_found = sum(found.values())
    return {"scenes": scenes, "first_seed": first, "faces": sum(drawn.values()),
            "found_share": round(total_found / max(1, sum(drawn.values())), 4),
            "sure_face_share": round(sum(sure.values()) / total_found, 4) if total_found else 0.0,
            "sure_value_share": (round(sum(sure_value.values()) / total_found, 4)
                                 if total_found else 0.0),
            "rolls_shown_sure": rolls_sure, "rolls_values_shown_sure": rolls_values_sure,
            "by_shape": shapes}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=60, help="trays (60)")
    parser.add_argument("--first-scene", type=int, default=0,
                        help="the first tray's number (0): another draw")
    parser.add_argument("--locator", type=Path, default=None,
                        help="top-face locator (.onnx; default: shipped)")
    parser.add_argument("--model", type=Path, default=None,
                        help="face classifier (.onnx; default: shipped)")
    parser.add_argument("--view", choices=("upright", "steep"), default="upright",
                        help="upright (the default), or steep: each tray seen as a phone "
                             "tipped up to 35 degrees sees it")
    parser.add_argument("--no-face-probe", action="store_true",
                        help="read without the face probe (as before it)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.scenes < 1 or args.first_scene < 0:
        parser.error("need --scenes >= 1 and --first-scene >= 0")
    try:
        fonts = [str(path) for path in font_files(Split.HELD_OUT)]
    except MissingFontError as error:  # `bash models/install_fonts.sh --held-out`
        parser.error(str(error))
    cv2.setNumThreads(1)
    reader = DiceReader(FaceClassifier.load(args.model), threads=1,
                        finder=TopFinder.load(args.locator),
                        face_probe=not args.no_face_probe)
    figures = evaluate(reader, fonts, OTHER_DICE_SEED_BASE + args.first_scene, args.scenes,
                       steep=args.view == "steep")
    if args.json:
        print(json.dumps(figures))
        return 0
    print(f"{figures['faces']} faces of other dice on {args.scenes} trays: "
          f"{figures['found_share']:.1%} found, {figures['sure_face_share']:.1%} of those "
          f"read as a sure Phase 10 face; {figures['rolls_shown_sure']} rolls shown as sure")
    print(f"  read as a sure number (the phases that do not count colour): "
          f"{figures['sure_value_share']:.1%} of those found; "
          f"{figures['rolls_values_shown_sure']} rolls shown as sure of their numbers")
    for shape, row in figures["by_shape"].items():
        print(f"  {shape:9} {row['drawn']:4} drawn, {row['found_share']:.1%} found, "
              f"{row['sure_face_share']:.1%} read as a sure face")
    return 0


if __name__ == "__main__":
    sys.exit(main())

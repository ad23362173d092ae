"""What a dice profile is worth: dice sets read before and after teaching a few rolls.

    .venv/bin/python benchmarks/eval_profile.py                      # 20 sets x 10 scenes
    .venv/bin/python benchmarks/eval_profile.py --sets 40 --teach 3 --json
    .venv/bin/python benchmarks/eval_profile.py --group train-light --group train-dark

A household rolls the same ten dice every game. Each set here is one dice set (one
font and style, one set of inks, one body, drawn with `random_look`) shown in
`--scenes` scenes that differ in everything else (the roll, where the dice lie, the
mat, the lamp and its white balance). The first `--teach` scenes of a set are taught
as a user would (`vision.teach.teach` with the true roll, in shuffled order); the
rest are read without and with the profile. Half the sets are dark-bodied (the
held-out groups, by default: font families training never saw).

Prints, for both readings: per-die accuracy (value and colour, an unsure die counts
as wrong), the share of scenes with every die right, and the median read time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.classifier import FaceClassifier
from vision.evaluation import PipelineScore, score_reading
from vision.pipeline import DiceReader
from vision.profile import DiceProfile
from vision.synth.dice_sets import dice_set_scene, scene_seed
from vision.teach import TeachError, teach, use_profile
from vision.tops import TopFinder

DEFAULT_GROUPS = ("held-out-light", "held-out-dark")


def evaluate(
    reader: DiceReader, groups: list[str], sets: int, scenes: int, taught: int
) -> dict[str, PipelineScore]:
    """Scores without ("before") and with ("after") the profile, over every set."""
    before, after = [], []
    for index in range(sets):
        group = groups[index % len(groups)]
        profile = DiceProfile.empty()
        matcher = None
        for number in range(scenes):
            scene = dice_set_scene(group, index, number)
            seed = scene_seed(index, number)
            if number < taught:
                roll = [truth.die for truth in scene.dice]
                order = np.random.default_rng(seed).permutation(len(roll))
                try:
                    profile = teach(reader, scene.image, [roll[i] for i in order], profile).profile
                except TeachError as error:
                    print(f"set {index} scene {number}: not taught ({error})", file=sys.stderr)
                continue
            if number == taught:  # taught: the profile as the app reads with it
                use_profile(reader, profile)
                matcher = reader.profile
            for scores, used in ((before, None), (after, matcher)):
                reader.profile = used
                start = cv2.getTickCount()
                reading = reader.read(scene.image)
                seconds = (cv2.getTickCount() - start) / cv2.getTickFrequency()
                scores.append(score_reading(seed, scene.dice, reading, seconds))
    reader.profile = None
    return {"before": PipelineScore(tuple(before)), "after": PipelineScore(tuple(after))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=20, help="dice sets (20)")
    parser.add_argument("--scenes", type=int, default=10, help="scenes per set (10)")
    parser.add_argument("--teach", type=int, default=3, help="scenes taught per set (3)")
    parser.add_argument("--group", action="append", default=None, help="eval group (repeatable)")
    parser.add_argument("--model", type=Path, default=None, help="classifier (default: shipped)")
    parser.add_argument(
        "--locator", type=Path, default=None, help="top-face locator (.onnx; default: shipped)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.sets < 1 or not 0 <= args.teach < args.scenes:
        parser.error("need --sets >= 1 and 0 <= --teach < --scenes")
    cv2.setNumThreads(1)
    reader = DiceReader(
        FaceClassifier.load(args.model), finder=TopFinder.load(args.locator), threads=1
    )
    if not reader.classifier.has_embedding:
        parser.error(f"{reader.classifier.name} has no embedding output: no profile possible")
    groups = args.group or list(DEFAULT_GROUPS)
    scores = evaluate(reader, groups, args.sets, args.scenes, args.teach)
    if args.json:
        print(json.dumps({key: score.to_dict() for key, score in scores.items()}))
        return 0
    for key, score in scores.items():
        print(
            f"{key:6} profile: per die {score.die_accuracy:.3%}, all right "
            f"{score.all_right_rate:.2%} of {len(score.scenes)} scenes, "
            f"median read {score.median_ms:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

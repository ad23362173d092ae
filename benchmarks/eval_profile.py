"""What a dice profile is worth: dice sets read before and after teaching a few rolls.

    .venv/bin/python benchmarks/eval_profile.py                      # 20 sets x 10 scenes
    .venv/bin/python benchmarks/eval_profile.py --sets 40 --teach 3 --json
    .venv/bin/python benchmarks/eval_profile.py --group train-light --group train-dark
    .venv/bin/python benchmarks/eval_profile.py --renderer foreign   # the second renderer
    .venv/bin/python benchmarks/eval_profile.py --sets 40 --first-set 40   # 40 other sets

A household rolls the same ten dice every game. Each set here is one dice set (one
font and style, one set of inks, one body, drawn with `random_look`) shown in
`--scenes` scenes that differ in everything else (the roll, where the dice lie, the
mat, the lamp and its white balance). The first `--teach` scenes of a set are taught
as a user would (`vision.teach.teach` with the true roll, in shuffled order); the
rest are read without and with the profile. Half the sets are dark-bodied (the
held-out groups, by default: font families training never saw). With `--renderer
foreign` the sets and their scenes come from the second renderer
(`benchmarks/foreign_scenes.py`: held-out fonts, printers' inks, drawing code of its
own), alternately light and dark.

Prints, for both readings: per-die accuracy (value and colour, an unsure die counts
as wrong), the share of scenes with every die right, and the median read time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
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
FOREIGN_SET_BASE = 8_000_000
"""Seeds of the second renderer's dice sets: set k's scenes are FOREIGN_SET_BASE + 100 k + n."""

#: Scene `number` of dice set `index`: (seed, BGR image, true dice).
SceneOf = Callable[[int, int], tuple[int, np.ndarray, Sequence]]


def rendered_scenes(groups: list[str], first_set: int = 0) -> SceneOf:
    """Scenes of the renderer the networks learnt from: the k-th set evaluated is set
    first_set + k, in group (first_set + k) mod len(groups)."""

    def scene_of(index: int, number: int) -> tuple[int, np.ndarray, Sequence]:
        dice_set = first_set + index
        scene = dice_set_scene(groups[dice_set % len(groups)], dice_set, number)
        return scene_seed(dice_set, number), scene.image, scene.dice

    return scene_of


def foreign_scenes(first_set: int = 0) -> SceneOf:
    """Scenes of the second renderer, from set `first_set` on: even sets light-bodied,
    odd ones dark."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from foreign_scenes import fonts, foreign_scene, foreign_set

    fonts()  # MissingFontError now, naming the package, rather than at the first set

    def scene_of(index: int, number: int) -> tuple[int, np.ndarray, Sequence]:
        index += first_set
        first = FOREIGN_SET_BASE + 100 * index
        dice_set = foreign_set(first, dark=bool(index % 2))
        scene = foreign_scene(first + 1 + number, dice_set=dice_set)
        return first + 1 + number, scene.image, scene.dice

    return scene_of


def evaluate(
    reader: DiceReader, scene_of: SceneOf, sets: int, scenes: int, taught: int
) -> dict[str, PipelineScore]:
    """Scores without ("before") and with ("after") the profile, over every set."""
    before, after = [], []
    for index in range(sets):
        profile = DiceProfile.empty()
        matcher = None
        for number in range(scenes):
            seed, image, dice = scene_of(index, number)
            if number < taught:
                roll = [truth.die for truth in dice]
                order = np.random.default_rng(seed).permutation(len(roll))
                try:
                    profile = teach(reader, image, [roll[i] for i in order], profile).profile
                except TeachError as error:
                    print(f"scene {seed} (set {index} of this run, scene {number}): not "
                          f"taught ({error})", file=sys.stderr)
                continue
            if number == taught:  # taught: the profile as the app reads with it
                use_profile(reader, profile)
                matcher = reader.profile
            for scores, used in ((before, None), (after, matcher)):
                reader.profile = used
                start = cv2.getTickCount()
                reading = reader.read(image)
                seconds = (cv2.getTickCount() - start) / cv2.getTickFrequency()
                scores.append(score_reading(seed, dice, reading, seconds))
    reader.profile = None
    return {"before": PipelineScore(tuple(before)), "after": PipelineScore(tuple(after))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=20, help="dice sets (20)")
    parser.add_argument("--scenes", type=int, default=10, help="scenes per set (10)")
    parser.add_argument("--teach", type=int, default=3, help="scenes taught per set (3)")
    parser.add_argument(
        "--first-set", type=int, default=0, help="the first set's number (0): a fresh draw"
    )
    parser.add_argument("--group", action="append", default=None, help="eval group (repeatable)")
    parser.add_argument(
        "--renderer",
        choices=("ours", "foreign"),
        default="ours",
        help="whose scenes: the training renderer's (ours) or the second one's (foreign)",
    )
    parser.add_argument("--model", type=Path, default=None, help="classifier (default: shipped)")
    parser.add_argument(
        "--locator", type=Path, default=None, help="top-face locator (.onnx; default: shipped)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.sets < 1 or args.first_set < 0 or not 0 <= args.teach < args.scenes:
        parser.error("need --sets >= 1, --first-set >= 0 and 0 <= --teach < --scenes")
    cv2.setNumThreads(1)
    reader = DiceReader(
        FaceClassifier.load(args.model), finder=TopFinder.load(args.locator), threads=1
    )
    if not reader.classifier.has_embedding:
        parser.error(f"{reader.classifier.name} has no embedding output: no profile possible")
    if args.renderer == "foreign":
        if args.group:
            parser.error("--group picks scenes of our renderer; not with --renderer foreign")
        try:
            scene_of = foreign_scenes(args.first_set)
        except (RuntimeError, ImportError) as error:  # fonts not installed, no Pillow
            parser.error(str(error))
    else:
        scene_of = rendered_scenes(args.group or list(DEFAULT_GROUPS), args.first_set)
    scores = evaluate(reader, scene_of, args.sets, args.scenes, args.teach)
    if args.json:
        print(json.dumps({key: score.to_dict() for key, score in scores.items()}))
        return 0
    for key, score in scores.items():
        print(
            f"{key:6} profile: per die {score.die_accuracy:.3%}, all right "
            f"{score.all_right_rate:.2%} of {len(score.scenes)} scenes (first readings, unsure "
            f"too: {score.first_reading_accuracy:.3%}, {score.first_reading_all_right_rate:.2%}), "
            f"median read {score.median_ms:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

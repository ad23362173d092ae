"""What a dice profile is worth: dice sets read before and after teaching a few rolls.

    .venv/bin/python benchmarks/eval_profile.py                      # 20 sets x 10 scenes
    .venv/bin/python benchmarks/eval_profile.py --sets 40 --teach 3 --json
    .venv/bin/python benchmarks/eval_profile.py --group train-light --group train-dark
    .venv/bin/python benchmarks/eval_profile.py --renderer foreign   # the second renderer
    .venv/bin/python benchmarks/eval_profile.py --sets 40 --first-set 40   # 40 other sets
    .venv/bin/python benchmarks/eval_profile.py --teach 1 --read-from 5 --scenes 12
    .venv/bin/python benchmarks/eval_profile.py --corrections       # no roll taught
    .venv/bin/python benchmarks/eval_profile.py --scored-rolls --scenes 24 --read-from 10
    .venv/bin/python benchmarks/eval_profile.py --mistyped          # one colour slip

A household rolls the same ten dice every game. Each set here is one dice set (one
font and style, one set of inks, one body, drawn with `random_look`) shown in
`--scenes` scenes that differ in everything else (the roll, where the dice lie, the
mat, the lamp and its white balance). The first `--teach` scenes of a set are taught
as a user would (`vision.profile.teach.teach` with the true roll, in shuffled order); the
rest (from scene `--read-from` on, so that runs teaching more or fewer rolls can
read the same scenes) are read without and with the profile. With `--corrections` no
roll is taught: every scene is read in turn, and each die the profile's reading got
wrong joins the profile with its true face, as a correction on the scorepad adds it
(the household that only corrects). With `--scored-rolls` no roll is taught either:
every scene is read in turn and then scored as the players score a roll read by the
camera, which teaches the profile its dice (`web.profile_service.TableProfile.
roll_scored`): a die the reading marked with its true face (the players checked it, or
corrected it), every other die as read unless it is too doubtful to learn unchecked (a
die read wrong without a mark is learnt wrong, as at the table), keeping the newest
examples of each face; scenes from
`--read-from` on are counted (0 unless told). With `--mistyped` the first taught roll of each
set has one die's colour typed wrong (red for orange, green for blue, and back), as a
slip of the household's would; `--mistyped-value` types a value wrong instead (a 6 for
a 9, a 1 for a 7, and back; else the next value up). Half the sets are dark-bodied (the
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

from scorer.dice import WILD, Die
from vision.evaluation import MATCH_RADIUS, PipelineScore, SceneScore, score_reading
from vision.profile.profile import DiceProfile
from vision.profile.teach import TeachError, described_for, teach, use_profile
from vision.read.classifier import FaceClassifier
from vision.read.pipeline import DiceReader
from vision.read.tops import TopFinder
from vision.reading import Reading
from vision.synth.dice_sets import dice_set_scene, scene_seed
from web.crop_images import example_key

DEFAULT_GROUPS = ("held-out-light", "held-out-dark")
MISTYPED = {"R": "O", "O": "R", "G": "B", "B": "G"}
"""A colour typed wrong for `--mistyped`: the one each is most easily taken for."""
MISTYPED_VALUE = {6: 9, 9: 6, 1: 7, 7: 1, 10: 5, 4: 3, WILD: 1}
"""A value typed wrong for `--mistyped-value`: these, else the next value up."""
FOREIGN_SET_BASE = 8_000_000
"""Seeds of the second renderer's dice sets: set k's scenes are FOREIGN_SET_BASE + 100 k + n."""

#: Scene `number` of dice set `index`: (seed, BGR image, true dice).
SceneOf = Callable[[int, int], tuple[int, np.ndarray, Sequence]]


def rendered_scenes(groups: list[str], first_set: int = 0,
                    ink_spread: float | None = None) -> SceneOf:
    """Scenes of the renderer the networks learnt from: the k-th set evaluated is set
    first_set + k, in group (first_set + k) mod len(groups); `ink_spread` as
    `dice_set_scene` takes it (None: the renderer's)."""

    def scene_of(index: int, number: int) -> tuple[int, np.ndarray, Sequence]:
        dice_set = first_set + index
        scene = dice_set_scene(groups[dice_set % len(groups)], dice_set, number,
                               ink_spread=ink_spread)
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
    reader: DiceReader,
    scene_of: SceneOf,
    sets: int,
    scenes: int,
    taught: int,
    read_from: int | None = None,
    mistyped: bool = False,
    mistyped_value: bool = False,
) -> dict[str, PipelineScore]:
    """Scores without ("before") and with ("after") the profile taught from each set's
    first `taught` scenes, over its scenes from `read_from` (None: `taught`) on. With
    `mistyped` (`mistyped_value`), the first taught roll of each set has one die's colour
    (value) typed wrong."""
    read_from = taught if read_from is None else read_from
    before, after = [], []
    for index in range(sets):
        profile = DiceProfile.empty()
        matcher = None
        for number in [*range(taught), *range(read_from, scenes)]:
            seed, image, dice = scene_of(index, number)
            if number < taught:
                roll = [truth.die for truth in dice]
                if mistyped and number == 0 and roll:
                    roll[0] = Die(roll[0].value, MISTYPED[roll[0].colour])
                if mistyped_value and number == 0 and roll:
                    roll[0] = Die(MISTYPED_VALUE.get(roll[0].value, roll[0].value + 1),
                                  roll[0].colour)
                order = np.random.default_rng(seed).permutation(len(roll))
                try:
                    profile = teach(reader, image, [roll[i] for i in order], profile).profile
                except TeachError as error:
                    print(f"scene {seed} (set {index} of this run, scene {number}): not "
                          f"taught ({error})", file=sys.stderr)
                continue
            if number == read_from:  # taught: the profile as the app reads with it
                use_profile(reader, profile)
                matcher = reader.profile
            for scores, used in ((before, None), (after, matcher)):
                reader.profile = used
                scores.append(timed_score(reader, seed, image, dice)[0])
    reader.profile = None
    return {"before": PipelineScore(tuple(before)), "after": PipelineScore(tuple(after))}


def evaluate_corrections(
    reader: DiceReader, scene_of: SceneOf, sets: int, scenes: int
) -> dict[str, PipelineScore]:
    """Scores without ("before") and with ("after") a profile learnt only from
    corrections: each set's scenes read in turn, and after each one every die the
    profile's reading got wrong added with its true face."""
    before, after = [], []
    for index in range(sets):
        profile = DiceProfile.empty()
        for number in range(scenes):
            seed, image, dice = scene_of(index, number)
            reader.profile = None
            before.append(timed_score(reader, seed, image, dice)[0])
            use_profile(reader, profile)
            score, reading = timed_score(reader, seed, image, dice)
            after.append(score)
            profile = corrected(reader, profile, image, reading, dice)
    reader.profile = None
    return {"before": PipelineScore(tuple(before)), "after": PipelineScore(tuple(after))}


def evaluate_scored_rolls(
    reader: DiceReader, scene_of: SceneOf, sets: int, scenes: int, read_from: int = 0
) -> dict[str, PipelineScore]:
    """Scores without ("before") and with ("after") a profile learnt only from rolls
    scored during play: each set's scenes read in turn, and after each one its dice
    added as a scored roll adds them; scenes from `read_from` on are counted."""
    from web.profile_service import MAX_SCORED_PER_FACE, newest_scored

    before, after = [], []
    for index in range(sets):
        profile = DiceProfile.empty()
        scored: tuple[str, ...] = ()
        for number in range(scenes):
            seed, image, dice = scene_of(index, number)
            reader.profile = None
            unaided = timed_score(reader, seed, image, dice)[0]
            if len(profile):
                use_profile(reader, profile)
            score, reading = timed_score(reader, seed, image, dice)
            if number >= read_from:
                before.append(unaided)
                after.append(score)
            crops, faces = scored_dice(reader, image, reading, dice)
            if not crops:
                continue
            profile = with_examples(reader, profile, crops, faces)
            scored = (*scored, *(example_key(crop) for crop in crops))
            profile, scored = newest_scored(profile, scored, frozenset(), MAX_SCORED_PER_FACE)
    reader.profile = None
    return {"before": PipelineScore(tuple(before)), "after": PipelineScore(tuple(after))}


def scored_dice(reader: DiceReader, image: np.ndarray, reading: Reading, dice: Sequence
                ) -> tuple[list[np.ndarray], list]:
    """The crops of `reading`'s dice a scored roll teaches (cut as `reader` cuts them), and
    their faces: a marked die's true face (the true die nearest it, within `MATCH_RADIUS`
    sides: the players checked it, as every phase asks but for a die doubted for its
    colour alone), any other as read, unless it is too doubtful to learn unchecked
    (`web.profile_service.doubtful_dice`). A die on no true die is left out (no roll of
    ten would be scored with it)."""
    from web.profile_service import doubtful_dice

    doubtful = set(doubtful_dice(reading))
    crops, faces = [], []
    for index, (read, nearest) in enumerate(zip(reading.dice, nearest_truth(reading, dice),
                                                strict=True)):
        if nearest is None or (index in doubtful and not read.unsure):
            continue
        crops.append(reader.crop(image, np.asarray(read.corners, np.float32)))
        faces.append(dice[nearest].die if read.unsure else read.die)
    return crops, faces


def nearest_truth(reading: Reading, dice: Sequence) -> list[int | None]:
    """For each die of `reading`, the true die nearest it within `MATCH_RADIUS` sides (as
    `score_reading` matches), None where none lies so near."""
    if not dice:
        return [None] * len(reading.dice)
    centres = np.array([truth.centre for truth in dice], np.float64)
    side = float(np.median([np.linalg.norm(truth.corners[0] - truth.corners[1])
                            for truth in dice]))
    matched: list[int | None] = []
    for read in reading.dice:
        distances = np.hypot(*(centres - np.asarray(read.centre)).T)
        nearest = int(np.argmin(distances))
        matched.append(nearest if distances[nearest] <= MATCH_RADIUS * side else None)
    return matched


def with_examples(reader: DiceReader, profile: DiceProfile, crops: Sequence[np.ndarray],
                  faces: Sequence) -> DiceProfile:
    """`profile` with `crops` of `faces` added, described by `reader`'s model (unchanged
    when there are none)."""
    if not crops:
        return profile
    classifier = reader.classifier
    array = np.stack(crops)
    return described_for(reader, profile).add(
        array, list(faces), classifier.describe(array, reader.turns), classifier.sha256
    )


def timed_score(
    reader: DiceReader, seed: int, image: np.ndarray, dice: Sequence
) -> tuple[SceneScore, Reading]:
    """`reader`'s reading of `image`, scored against the true `dice`, and the reading."""
    start = cv2.getTickCount()
    reading = reader.read(image)
    seconds = (cv2.getTickCount() - start) / cv2.getTickFrequency()
    return score_reading(seed, dice, reading, seconds), reading


def corrected(
    reader: DiceReader, profile: DiceProfile, image: np.ndarray, reading: Reading,
    dice: Sequence,
) -> DiceProfile:
    """`profile` with each die of `reading` that shows another face than the true die
    nearest it (within `MATCH_RADIUS` sides, as `score_reading` matches) added with the
    true face: its crop as the reader cut it, as a correction on the scorepad adds it."""
    crops, faces = [], []
    for read, nearest in zip(reading.dice, nearest_truth(reading, dice), strict=True):
        if nearest is not None and read.die != dice[nearest].die:
            crops.append(reader.crop(image, np.asarray(read.corners, np.float32)))
            faces.append(dice[nearest].die)
    return with_examples(reader, profile, crops, faces)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=20, help="dice sets (20)")
    parser.add_argument("--scenes", type=int, default=10, help="scenes per set (10)")
    parser.add_argument("--teach", type=int, default=3, help="scenes taught per set (3)")
    parser.add_argument(
        "--read-from", type=int, default=None,
        help="the first scene read of each set (default: the first not taught)",
    )
    parser.add_argument(
        "--corrections", action="store_true",
        help="teach no roll: read every scene in turn, learning each die read wrong",
    )
    parser.add_argument(
        "--scored-rolls", action="store_true",
        help="teach no roll: read every scene in turn, learning it as a scored roll "
        "(marked dice with their true face, the others as read)",
    )
    parser.add_argument(
        "--mistyped", action="store_true",
        help="type one die's colour wrong in each set's first taught roll",
    )
    parser.add_argument(
        "--mistyped-value", action="store_true",
        help="type one die's value wrong in each set's first taught roll",
    )
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
    parser.add_argument(
        "--ink-spread", type=float, default=None,
        help="draw each die's ink this many grey levels at most from its set's (the "
        "renderer's 12, drawn afresh in every scene, unless told; 0: a household's dice "
        "printed alike, as real dice are)",
    )
    parser.add_argument("--model", type=Path, default=None, help="classifier (default: shipped)")
    parser.add_argument(
        "--locator", type=Path, default=None, help="top-face locator (.onnx; default: shipped)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    default_start = 0 if args.scored_rolls else args.teach
    read_from = default_start if args.read_from is None else args.read_from
    if args.scored_rolls and args.corrections:
        parser.error("--scored-rolls and --corrections are two households: pick one")
    if args.sets < 1 or args.first_set < 0 or not 0 <= read_from < args.scenes or (
            not args.scored_rolls and args.teach > read_from):
        parser.error("need --sets >= 1, --first-set >= 0 and "
                     "0 <= --teach <= --read-from < --scenes")
    if args.ink_spread is not None and args.ink_spread < 0:
        parser.error("--ink-spread must be 0 or more")
    if args.ink_spread is not None and args.renderer == "foreign":
        parser.error("--ink-spread draws scenes of our renderer; not with --renderer foreign")
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
        scene_of = rendered_scenes(args.group or list(DEFAULT_GROUPS), args.first_set,
                                   args.ink_spread)
    if args.corrections:
        scores = evaluate_corrections(reader, scene_of, args.sets, args.scenes)
    elif args.scored_rolls:
        scores = evaluate_scored_rolls(reader, scene_of, args.sets, args.scenes, read_from)
    else:
        scores = evaluate(reader, scene_of, args.sets, args.scenes, args.teach, read_from,
                          args.mistyped, args.mistyped_value)
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

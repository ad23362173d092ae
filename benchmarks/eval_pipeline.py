"""Accuracy of the camera pipeline on freshly rendered full scenes (held-out seeds), by group.

    .venv/bin/python benchmarks/eval_pipeline.py                 # 150 scenes per held-out group
    .venv/bin/python benchmarks/eval_pipeline.py --group hershey --scenes 300
    .venv/bin/python benchmarks/eval_pipeline.py --scenes 50 --json
    .venv/bin/python benchmarks/eval_pipeline.py --scenes 50 --die-scale 0.6   # smaller dice
    .venv/bin/python benchmarks/eval_pipeline.py --scenes 50 --size 640x480     # another camera

Groups (`vision.synth.looks.EVAL_GROUPS`): dice sets drawn in font families
training never saw on light and on dark bodies (the default), in the training
families, or in the first renderer's Hershey fonts. For each group, and pooled,
prints the share of scenes with every die found and nothing else, the share
with all ten dice read right (an unsure die counts as not right), the per-die
accuracy overall and by true colour, the same two shares counting each die's first
reading whether marked unsure or not (the reading the players are asked to confirm),
and the median read time, then the seeds of the rolls shown as sure but wrong and the
first of those not all read right and sure; with --json, one JSON object with those
figures and both lists of seeds whole. `--size` and `--die-scale`
draw the same scenes at another frame size, or with the dice larger or smaller.
`--view steep` reads each group as a phone held over the tray sees it
(`vision.evaluation.SteepView`), `--view aside` as one held at the tray's side;
`--ink-spread 0` the same scenes with every die of a colour printed alike (the
renderer draws each die's ink up to 12 grey levels off its set's). Every group also
reports the trust figures: per die
right and unmarked, right but marked, wrong but marked, wrong and unmarked (silent),
not found; rolls shown as sure (complete, nothing marked) and those sure but wrong,
with their count and the most they may be at 95 % (a one-sided Wilson bound);
and the values alone, what the nine phases that do not count colour rest on: rolls
whose every value is shown as sure, and those with a value wrong; and the rolls as the
scorepad takes them (a doubt checked only where some face the die could show changes
the score), for phase 8 and the other nine: with nothing to check, and those of them
whose verdict or points are wrong.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.evaluation import (
    EVALUATION_VIEWS,
    SCENE_SIZE,
    PipelineScore,
    evaluate_pipeline,
)
from vision.read.classifier import FaceClassifier
from vision.read.photo import PhotoSettings, read_photo_file
from vision.read.pipeline import DiceReader
from vision.read.settings import (
    ClassifySettings,
    ColourSettings,
    KeptLook,
    ReaderSettings,
    SecondLookSettings,
)
from vision.read.tops import TopFinder
from vision.reading import Reading
from vision.synth.looks import EVAL_GROUPS, eval_group
from vision.synth.seeds import HELD_OUT_SEED_BASE

DEFAULT_GROUPS = ("held-out-light", "held-out-dark")
VIEWS = tuple(EVALUATION_VIEWS)
#: Seeds of the scenes not all read right and sure that the text report names: on hard
#: groups most scenes hold a marked die, and hundreds of seeds would bury the figures.
SHOWN_FAILED_SEEDS = 20


def box_scale(text: str) -> float:
    """`--box-scale`'s value, held to `ClassifySettings`' own range (a clear error, not a
    traceback, for one outside it)."""
    try:
        return ClassifySettings(box_scale=float(text)).box_scale
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_box_scale(parser: argparse.ArgumentParser) -> None:
    """The `--box-scale` option the evaluation scripts share (`ClassifySettings.box_scale`)."""
    default = ClassifySettings().box_scale
    parser.add_argument("--box-scale", type=box_scale, default=default,
                        help="each located box scaled by this before its crop is cut "
                        f"(ClassifySettings.box_scale; {default})")


def add_flatten(parser: argparse.ArgumentParser) -> None:
    """The `--flatten` option the evaluation scripts share (`FlattenSettings.above_degrees`:
    a steep frame put back flat from its dice before it is read; off as shipped)."""
    parser.add_argument("--flatten", type=float, default=None, metavar="DEGREES",
                        help="read a frame whose dice show a camera tipped more than this "
                        "put back flat first (vision/read/flatten.py; off as shipped)")


def add_frame_second_look(parser: argparse.ArgumentParser) -> None:
    """The `--frame-second-look` option the evaluation scripts share
    (`SecondLookSettings.frames`: a frame not read as a whole roll sure looked at again at
    its dice's size; off as shipped)."""
    parser.add_argument("--frame-second-look", action="store_true",
                        help="look at a frame not read as a whole roll sure once more, at "
                        "its dice's size (vision/read/looks.py; off as shipped)")


PHOTO_QUALITY = 90
"""JPEG quality of a picture read `--as-photos` (a phone's camera saves at about 85 to
95)."""

KEPT_LOOKS = {"surer": KeptLook.SURER, "more-dice": KeptLook.MORE_DICE}
"""`--kept-look`'s choices: which of a photo's two readings it keeps."""


def as_photo(image: np.ndarray) -> bytes:
    """`image` as the JPEG file a phone would save of it."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, PHOTO_QUALITY])
    if not ok:
        raise RuntimeError("OpenCV could not encode the picture as a JPEG")
    return data.tobytes()


@dataclass
class ReadAsPhotos:
    """A reader of pictures that saves each as a phone's photo and reads that as the
    scorepad and `phase10 read` do (`vision.read.photo.read_photo_file`: its second looks
    and its tray crop), the reading in the picture's own pixels."""

    reader: DiceReader
    photo: PhotoSettings = field(default_factory=PhotoSettings)

    @property
    def settings(self) -> ReaderSettings:
        return self.reader.settings

    def read(self, image: np.ndarray) -> Reading:
        return read_photo_file(as_photo(image), self.reader,
                               settings=self.photo).in_photo()


def add_as_photos(parser: argparse.ArgumentParser) -> None:
    """The `--as-photos` and `--kept-look` options the evaluation scripts share."""
    parser.add_argument("--as-photos", action="store_true",
                        help="save each picture as a JPEG and read it as the scorepad reads "
                        "a photo (vision/read/photo.py), not as the camera's frame")
    shipped = next(key for key, kept in KEPT_LOOKS.items()
                   if kept is SecondLookSettings().keeps)
    parser.add_argument("--kept-look", choices=sorted(KEPT_LOOKS), default=shipped,
                        help="which of a photo's readings its second look keeps: the surer, "
                        "or the later only where it finds more dice (SecondLookSettings."
                        f"keeps; {shipped})")


def photo_settings(kept_look: str) -> PhotoSettings:
    """The photos' settings with `--kept-look`'s choice."""
    return PhotoSettings(look=SecondLookSettings(keeps=KEPT_LOOKS[kept_look]))


def print_score(title: str, score: PipelineScore, unit: str = "scenes") -> None:
    """The figures of one group of scenes (`unit` names them); the seeds of its rolls shown
    as sure but wrong, and the first `SHOWN_FAILED_SEEDS` of those that failed."""
    print(f"== {title}")
    print(f"{unit + ':':<27}{len(score.scenes)}")
    print(f"every die found, no extra: {score.found_rate:.2%}")
    print(f"all ten dice read right:   {score.all_right_rate:.2%}")
    print(f"per-die accuracy:          {score.die_accuracy:.3%}")
    print(f"first reading, unsure too: {score.first_reading_accuracy:.3%} per die, all ten "
          f"{score.first_reading_all_right_rate:.2%}")
    by_colour = ", ".join(f"{k} {v:.2%}" for k, v in score.colour_accuracy().items())
    print(f"per-die by true colour:    {by_colour}")
    trust = score.trust
    print(f"per die, right / marked:   right unmarked {trust['right_unmarked']:.3%}, right but "
          f"marked {trust['right_marked']:.3%}, wrong but marked {trust['wrong_marked']:.3%}")
    print(f"per die, silent / lost:    wrong and unmarked {trust['wrong_unmarked']:.3%}, "
          f"not found {trust['not_found']:.3%}")
    silent = [s.seed for s in score.sure_but_wrong()]
    print(f"rolls shown as sure:       {trust['rolls_shown_sure']:.2%}; sure but wrong "
          f"{trust['rolls_sure_but_wrong']:.2%} of all rolls "
          f"({trust['sure_rolls_wrong']:.2%} of the sure ones)")
    print(f"rolls sure but wrong:      {len(silent)} of {len(score.scenes)}; at most "
          f"{trust['rolls_sure_but_wrong_at_most']:.2%} of all rolls at 95 % confidence")
    print(f"values alone (9 phases):   every value shown as sure "
          f"{trust['rolls_values_shown_sure']:.2%}; sure but a value wrong "
          f"{trust['rolls_values_sure_but_wrong']:.2%} of all rolls; "
          f"dice whose value is wrong and unmarked {trust['dice_value_wrong_unmarked']:.3%}")
    if "pad_phase_8_no_check" in trust:
        print(f"as the scorepad takes them: phase 8 with no check "
              f"{trust['pad_phase_8_no_check']:.2%}, taken wrong "
              f"{trust['pad_phase_8_taken_wrong']:.2%}; the other nine phases (mean) "
              f"{trust['pad_other_phases_no_check']:.2%}, taken wrong "
              f"{trust['pad_other_phases_taken_wrong']:.2%} of all rolls")
    print(f"median read time:          {score.median_ms:.1f} ms")
    if silent:
        print(f"sure but wrong, seeds:     {' '.join(map(str, silent))}")
    failed = [s.seed for s in score.failures()]
    if failed:
        more = len(failed) - SHOWN_FAILED_SEEDS
        rest = f" and {more} more (--json lists them all)" if more > 0 else ""
        print(f"failed seeds:              {' '.join(map(str, failed[:SHOWN_FAILED_SEEDS]))}{rest}")


def pooled_score(scores: dict[str, PipelineScore]) -> PipelineScore:
    """Every scene of every group, as one score."""
    return PipelineScore(tuple(s for score in scores.values() for s in score.scenes))


def scores_json(scores: dict[str, PipelineScore]) -> str:
    """One JSON object: each group's figures by its key, and the pooled ones."""
    result = {key: score.to_dict() for key, score in scores.items()}
    result["pooled"] = pooled_score(scores).to_dict()
    return json.dumps(result)


def frame_size(text: str) -> tuple[int, int]:
    """"1920x1080" as (1920, 1080); argparse reports anything else."""
    width, sep, height = text.lower().partition("x")
    if not (sep and width.isdigit() and height.isdigit() and int(width) >= 64
            and int(height) >= 64):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1920x1080, got {text!r}")
    return int(width), int(height)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=150, help="scenes per group (150)")
    parser.add_argument(
        "--first-seed", type=int, default=HELD_OUT_SEED_BASE,
        help="first scene seed (a sweep to choose a setting reads from TUNING_SEED_BASE, "
        "vision.synth.seeds; its figures are then reported from another range)"
    )
    parser.add_argument(
        "--group",
        action="append",
        default=None,
        help=f"{', '.join(group.key for group in EVAL_GROUPS)} (repeatable; "
        "default: both held-out groups)",
    )
    parser.add_argument(
        "--model", type=Path, default=None, help="face classifier (.onnx; default: shipped)"
    )
    parser.add_argument(
        "--locator", type=Path, default=None, help="top-face locator (.onnx; default: shipped)"
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=ClassifySettings().turns,
        help=f"quarter turns classified per die (1 to 4; {ClassifySettings().turns})",
    )
    add_box_scale(parser)
    parser.add_argument(
        "--no-ink-order",
        action="store_true",
        help="read without mending distinct inks read as one colour (vision/read/ink_order.py)",
    )
    parser.add_argument(
        "--size", type=frame_size, default=SCENE_SIZE, metavar="WxH",
        help="frame size the scenes are drawn at (1280x960, the tray camera's)",
    )
    parser.add_argument(
        "--die-scale", type=float, default=1.0, metavar="F",
        help="the dice's size times F (1.0): smaller or larger dice than the camera's",
    )
    parser.add_argument(
        "--view", action="append", choices=VIEWS, default=None,
        help="upright (the tray camera), steep (a phone over the tray: tipped up to 35 "
        "degrees, dice tops 40-72 px, white balance off by up to 30 %%) or aside (the same, "
        "the phone held at the tray's side, so every die shows the sides facing it); "
        "repeatable, each group is read in each view (default: upright)",
    )
    parser.add_argument(
        "--ink-spread", type=float, default=None, metavar="N",
        help="each die's ink at most N grey levels off its set's (the renderer's 12 unless "
        "told; 0: every die of a colour printed alike, as a real set is)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-v", "--verbose", action="store_true", help="log each failed scene")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error(f"--scenes must be at least 1, got {args.scenes}")
    if args.die_scale <= 0:
        parser.error(f"--die-scale must be above 0, got {args.die_scale}")
    if args.ink_spread is not None and args.ink_spread < 0:
        parser.error(f"--ink-spread must be 0 or more, got {args.ink_spread}")
    try:
        groups = [eval_group(key) for key in args.group or DEFAULT_GROUPS]
        looks = [group.mix() for group in groups]
    except (ValueError, RuntimeError) as error:  # unknown group, fonts not installed
        parser.error(str(error))
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    cv2.setNumThreads(1)
    reader = DiceReader(
        FaceClassifier.load(args.model),
        threads=1,
        finder=TopFinder.load(args.locator),
        settings=ReaderSettings(classify=ClassifySettings(turns=args.turns,
                                                          box_scale=args.box_scale),
                                colour=ColourSettings(ink_order=not args.no_ink_order)),
    )
    scores: dict[str, PipelineScore] = {}
    titles: dict[str, str] = {}
    views = args.view or ["upright"]
    slices = [(group, look, view) for view in views
              for group, look in zip(groups, looks, strict=True)]
    for index, (group, look, view) in enumerate(slices):
        # Each slice its own seeds, so no scene is counted twice in the pooled figures.
        first = args.first_seed + index * args.scenes
        seeds = range(first, first + args.scenes)
        key = group.key if view == "upright" and len(views) == 1 else f"{group.key}-{view}"
        titles[key] = group.title if view == "upright" else f"{group.title}, {view} views"
        scores[key] = evaluate_pipeline(
            reader, seeds, None if group.split is None else look, size=args.size,
            die_scale=args.die_scale, steep=EVALUATION_VIEWS[view],
            ink_spread=args.ink_spread,
        )
    if args.json:
        print(scores_json(scores))
        return 0
    for key, score in scores.items():
        print_score(f"{key}: {titles[key]}", score)
    if len(views) > 1:
        for view in views:
            part = {k: v for k, v in scores.items() if k.endswith(f"-{view}")}
            print_score(f"{view} views pooled", pooled_score(part))
    if len(scores) > 1:
        print_score("all groups pooled", pooled_score(scores))
    return 0


if __name__ == "__main__":
    sys.exit(main())

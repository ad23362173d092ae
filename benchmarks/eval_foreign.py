"""Accuracy of the camera pipeline on trays drawn by a second, independent renderer.

    .venv/bin/python benchmarks/eval_foreign.py                # 100 light + 100 dark trays
    .venv/bin/python benchmarks/eval_foreign.py --scenes 300 --json
    .venv/bin/python benchmarks/eval_foreign.py --any-faces      # a set not laid out as the table

`benchmarks/foreign_scenes.py` draws the trays (held-out fonts, printers' inks,
cloths and lamps of its own, no drawing code shared with the renderer the models
were trained on). Prints, for light and dark bodies and pooled, the share of trays
with every die found and nothing else, with all ten read right (an unsure die is
not right), the per-die accuracy overall and by colour, the median read time and the
trays that failed. With `--any-faces` the dice show any six high and four low faces,
as a set laid out otherwise than the inventory table (`scorer/inventory.py`, an
unconfirmed transcription) would: the reader cannot lean on the table there.
With `--as-photos` each tray is saved as a phone saves a photo (JPEG, quality
`eval_pipeline.PHOTO_QUALITY`) and read as the scorepad and `phase10 read` read one
(`vision.read.photo.read_photo_file`: its second looks and its tray crop), not as the
camera's frame. Evaluation only: nothing is tuned on these trays.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_pipeline import (  # noqa: E402
    ReadAsPhotos,
    add_as_photos,
    add_box_scale,
    add_flatten,
    add_frame_second_look,
    photo_settings,
    pooled_score,
    print_score,
    scores_json,
)
from foreign_scenes import (  # noqa: E402
    FIRST_SEEDS,
    UPRIGHT,
    VIEWS,
    ForeignView,
    fonts,
    foreign_scene,
)

from vision.evaluation import PipelineScore, score_reading  # noqa: E402
from vision.read.classifier import FaceClassifier  # noqa: E402
from vision.read.pipeline import DiceReader  # noqa: E402
from vision.read.settings import (  # noqa: E402
    ClassifySettings,
    ColourSettings,
    FlattenSettings,
    ReaderSettings,
    SecondLookSettings,
)
from vision.read.tops import TopFinder  # noqa: E402

FIRST_SEED = FIRST_SEEDS["upright"]
"""Seeds of the foreign trays: their own range, drawn by their own renderer."""


def evaluate(
    reader: DiceReader | ReadAsPhotos, seeds: range, dark: bool, *, any_faces: bool = False,
    view: ForeignView = UPRIGHT,
) -> PipelineScore:
    """Draw, read and score each tray of `seeds` with bodies dark or light (`any_faces`:
    rolls of any six high and four low faces, not of the inventory table's dice), seen
    from `view`; each read by `reader`, as a camera frame or as a photo file."""
    scores = []
    for seed in seeds:
        scene = foreign_scene(seed, dark=dark, any_faces=any_faces, view=view)
        start = time.perf_counter()
        reading = reader.read(scene.image)
        scores.append(score_reading(seed, scene.dice, reading, time.perf_counter() - start))
    return PipelineScore(tuple(scores))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=100, help="trays per body shade (100)")
    parser.add_argument(
        "--view", choices=sorted(VIEWS), default="upright",
        help="upright: the Pi camera straight above; phone: tipped up to 35 degrees, dice "
        "tops 40 to 72 px, the white balance off by up to 30 %%",
    )
    parser.add_argument("--first-seed", type=int, default=None,
                        help="first tray's seed (default: the view's own range)")
    parser.add_argument("--model", type=Path, default=None, help="face classifier (.onnx)")
    parser.add_argument("--locator", type=Path, default=None, help="top-face locator (.onnx)")
    add_box_scale(parser)
    add_flatten(parser)
    add_frame_second_look(parser)
    parser.add_argument(
        "--any-faces", action="store_true",
        help="dice showing any six high and four low faces: a set laid out otherwise "
        "than the inventory table",
    )
    parser.add_argument(
        "--no-ink-order",
        action="store_true",
        help="read without mending distinct inks read as one colour (vision/read/ink_order.py)",
    )
    add_as_photos(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error(f"--scenes must be at least 1, got {args.scenes}")
    try:
        fonts()
    except (RuntimeError, ImportError) as error:  # fonts not installed, no Pillow
        parser.error(str(error))
    cv2.setNumThreads(1)
    reader = DiceReader(
        FaceClassifier.load(args.model),
        threads=1,
        finder=TopFinder.load(args.locator),
        settings=ReaderSettings(classify=ClassifySettings(box_scale=args.box_scale),
                                colour=ColourSettings(ink_order=not args.no_ink_order),
                                flatten=FlattenSettings(above_degrees=args.flatten),
                                second_look=SecondLookSettings(frames=args.frame_second_look)),
    )
    view = VIEWS[args.view]
    first_seed = FIRST_SEEDS[args.view] if args.first_seed is None else args.first_seed
    scores = {}
    for index, (key, dark) in enumerate((("light", False), ("dark", True))):
        first = first_seed + index * args.scenes
        seeds = range(first, first + args.scenes)
        scores[key] = evaluate(
            ReadAsPhotos(reader, photo_settings(args.kept_look)) if args.as_photos else reader,
            seeds, dark, any_faces=args.any_faces, view=view)
    if args.json:
        print(scores_json(scores))
        return 0
    for key, score in scores.items():
        print_score(f"{key} bodies", score, "trays")
    print_score("pooled", pooled_score(scores), "trays")
    return 0


if __name__ == "__main__":
    sys.exit(main())

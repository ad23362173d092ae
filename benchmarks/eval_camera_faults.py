"""How the reader holds up when the camera is at fault: blur, compression, exposure, tint.

    .venv/bin/python benchmarks/eval_camera_faults.py                  # 40 + 40 trays per fault
    .venv/bin/python benchmarks/eval_camera_faults.py --fault defocus --fault dim --trays 100
    .venv/bin/python benchmarks/eval_camera_faults.py --json

Draws trays with the second renderer (`foreign_scenes`: held-out fonts, half of the
sets dark-bodied), spoils each with every fault of `camera_faults.FAULTS` and reads
it. Prints one line per fault: the share of trays with every die found and nothing
else, with all ten right (an unsure die is not right), the per-die accuracy, the
dice missed and the dice marked unsure. The same trays go through every fault, so
each line differs from the clean one by the fault alone.
Evaluation only: nothing is tuned on these frames.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent))

from camera_faults import FAULTS, CameraFault, fault, spoiled  # noqa: E402
from foreign_scenes import fonts, foreign_scene  # noqa: E402

from vision.evaluation import PipelineScore, score_reading  # noqa: E402
from vision.read.classifier import FaceClassifier  # noqa: E402
from vision.read.pipeline import DiceReader  # noqa: E402
from vision.read.tops import TopFinder  # noqa: E402

FIRST_SEED = 7_300_000
"""Seeds of these trays: a range of their own, apart from eval_foreign's."""


def evaluate(
    reader: DiceReader, faults: tuple[CameraFault, ...], seeds: range
) -> dict[str, PipelineScore]:
    """Each fault's score over the trays of `seeds` (even seeds light bodies, odd dark)."""
    scores: dict[str, list] = {f.name: [] for f in faults}
    for seed in seeds:
        scene = foreign_scene(seed, dark=bool(seed % 2))
        for camera_fault in faults:
            frame, truth = spoiled(camera_fault, scene.image, scene.dice, seed)
            start = time.perf_counter()
            reading = reader.read(frame)
            seconds = time.perf_counter() - start
            scores[camera_fault.name].append(score_reading(seed, truth, reading, seconds))
    return {name: PipelineScore(tuple(s)) for name, s in scores.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trays", type=int, default=80, help="trays per fault (80)")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument(
        "--fault", action="append", default=None,
        help=f"one fault (repeatable; default all): {', '.join(f.name for f in FAULTS)}",
    )
    parser.add_argument("--model", type=Path, default=None, help="face classifier (.onnx)")
    parser.add_argument("--locator", type=Path, default=None, help="top-face locator (.onnx)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.trays < 1:
        parser.error(f"--trays must be at least 1, got {args.trays}")
    try:
        faults = tuple(fault(name) for name in args.fault) if args.fault else FAULTS
        fonts()
    except (ValueError, RuntimeError, ImportError) as error:  # unknown fault, no fonts
        parser.error(str(error))
    cv2.setNumThreads(1)
    reader = DiceReader(
        FaceClassifier.load(args.model), threads=1, finder=TopFinder.load(args.locator)
    )
    seeds = range(args.first_seed, args.first_seed + args.trays)
    scores = evaluate(reader, faults, seeds)
    if args.json:
        print(json.dumps({name: score.to_dict() for name, score in scores.items()}))
        return 0
    print(f"{args.trays} trays per fault (half dark-bodied), held-out fonts, second renderer")
    print(f"{'fault':<16}{'found':>8}{'all ten':>9}{'per die':>9}{'missed':>8}{'unsure':>8}")
    for camera_fault in faults:
        score = scores[camera_fault.name]
        missed = sum(s.missed for s in score.scenes)
        unsure = sum(s.unsure for s in score.scenes)
        print(
            f"{camera_fault.name:<16}{score.found_rate:>8.1%}{score.all_right_rate:>9.1%}"
            f"{score.die_accuracy:>9.2%}{missed:>8}{unsure:>8}   {camera_fault.stands_for}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

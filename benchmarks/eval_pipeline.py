"""Accuracy of the camera pipeline on freshly rendered full scenes (held-out seeds).

    .venv/bin/python benchmarks/eval_pipeline.py              # 300 scenes
    .venv/bin/python benchmarks/eval_pipeline.py --scenes 50 --json

Prints the share of scenes with every die found and nothing else, the share with
all ten dice read right (an unsure die counts as not right), and the per-die
accuracy; with --json, one JSON object with those figures and the failed seeds.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys

import cv2

from vision.evaluation import HELD_OUT_SEED_BASE, evaluate_pipeline
from vision.pipeline import DiceReader


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=300, help="scenes to render (300)")
    parser.add_argument(
        "--first-seed", type=int, default=HELD_OUT_SEED_BASE, help="first scene seed"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("-v", "--verbose", action="store_true", help="log each failed scene")
    args = parser.parse_args(argv)
    if args.scenes < 1:
        parser.error(f"--scenes must be at least 1, got {args.scenes}")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    cv2.setNumThreads(1)
    reader = DiceReader(threads=1)
    score = evaluate_pipeline(reader, range(args.first_seed, args.first_seed + args.scenes))
    if args.json:
        print(json.dumps(score.to_dict()))
    else:
        print(f"scenes:                    {len(score.scenes)}")
        print(f"every die found, no extra: {score.found_rate:.2%}")
        print(f"all ten dice read right:   {score.all_right_rate:.2%}")
        print(f"per-die accuracy:          {score.die_accuracy:.3%}")
        print(f"median read time:          {score.median_ms:.1f} ms")
        failed = [s.seed for s in score.failures()]
        if failed:
            print(f"failed seeds:              {' '.join(map(str, failed))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`phase10 eval-model`: accuracy of the face classifier on freshly rendered held-out crops.

The crops use seeds from 10**9 up, which training never uses. Prints value and
colour accuracy, both confusion matrices, the 6-vs-9 and 1-vs-7 confusions and
the not-a-die rejection rate (`--json` for the same as JSON).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "eval-model",
        help="measure the face classifier on held-out rendered crops",
        description="Render held-out crops (seeds >= 10**9) and report the classifier's "
        "accuracy, confusion matrices and not-a-die rejection rate.",
    )
    parser.add_argument(
        "--model", type=Path, default=None, help="ONNX file (default: the shipped model)"
    )
    parser.add_argument("--faces", type=int, default=5000, help="face crops to evaluate")
    parser.add_argument("--seed", type=int, default=0, help="offset added to the first eval seed")
    parser.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def run(args: argparse.Namespace) -> int:
    from models.evaluate import evaluate, format_report, render_eval_set
    from vision.classifier import FaceClassifier, ModelFileError
    from vision.synth.training import EVAL_SEED_BASE

    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    try:
        classifier = FaceClassifier.load(args.model, threads=args.threads)
    except ModelFileError as error:
        print(f"phase10 eval-model: error: {error}", file=sys.stderr)
        return 2
    data = render_eval_set(args.faces, EVAL_SEED_BASE + args.seed)
    report = evaluate(classifier, data)
    report["model"] = classifier.name
    report["first_seed"] = EVAL_SEED_BASE + args.seed
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return 0

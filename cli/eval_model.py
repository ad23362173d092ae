"""`phase10 eval-model`: accuracy of the face classifier on freshly rendered held-out crops.

The crops use seeds from 10**9 up, which training never uses, and are drawn per
group: dice sets in font families training never saw (light and dark bodies),
in the training families, and in the first renderer's Hershey fonts. Prints, per
group, value and colour accuracy (also by colour), both confusion matrices, the
6-vs-9 and 1-vs-7 confusions and the not-a-die rejection rate (`--json` for the
same as JSON). A group whose fonts are not installed is skipped with the reason.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

COMMAND = "eval-model"
HELP = "measure the face classifier on held-out rendered crops"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Render held-out crops (seeds >= 10**9) and report the classifier's "
        "accuracy, confusion matrices and not-a-die rejection rate.",
    )
    parser.add_argument(
        "--model", type=Path, default=None, help="ONNX file (default: the shipped model)"
    )
    parser.add_argument("--faces", type=int, default=5000, help="face crops to evaluate")
    parser.add_argument("--seed", type=int, default=0, help="offset added to the first eval seed")
    parser.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads")
    parser.add_argument(
        "--group",
        action="append",
        default=None,
        help="evaluation group (repeatable): held-out-light, held-out-dark, train-light, "
        "train-dark, hershey, handwritten-light, handwritten-dark (default: all)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    return parser


def run(args: argparse.Namespace) -> int:
    from models.evaluate import evaluate, format_report, render_eval_set
    from vision.read.classifier import FaceClassifier, ModelFileError
    from vision.synth.font_library import MissingFontError
    from vision.synth.looks import EVAL_GROUPS, eval_group
    from vision.synth.seeds import EVAL_SEED_BASE

    if args.seed < 0:
        raise ValueError(f"--seed must be >= 0, got {args.seed}")
    try:
        classifier = FaceClassifier.load(args.model, threads=args.threads)
    except ModelFileError as error:
        print(f"phase10 eval-model: error: {error}", file=sys.stderr)
        return 2
    groups = [eval_group(key) for key in args.group] if args.group else list(EVAL_GROUPS)
    reports: dict[str, dict] = {}
    skipped: dict[str, str] = {}
    for group in groups:
        try:
            look = group.mix()
        except MissingFontError as error:
            if args.group:  # asked for by name: an error, not a skip
                print(f"phase10 eval-model: error: {error}", file=sys.stderr)
                return 2
            skipped[group.key] = str(error)
            continue
        report = evaluate(classifier, render_eval_set(args.faces, EVAL_SEED_BASE + args.seed, look))
        report["title"] = group.title
        reports[group.key] = report
    result = {
        "model": classifier.name,
        "first_seed": EVAL_SEED_BASE + args.seed,
        "groups": reports,
        "skipped": skipped,
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for key, report in reports.items():
        print(f"== {key}: {report['title']} ==\n{format_report(report)}\n")
    for key, reason in skipped.items():
        print(f"== {key}: skipped: {reason}")
    return 0

"""`phase10 train`: render fresh crops, train the face classifier on the CPU, export ONNX.

Needs the `train` extra (torch, onnx, tqdm), which the app does not; the
options are the same as `python -m models.train`. Writes the model and its
`.sha256` beside it (by default the shipped models/dice_faces.onnx).
"""

from __future__ import annotations

import argparse
import json

COMMAND = "train"
HELP = "train the dice face classifier (needs the train extra: torch)"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Render labelled crops, train the face classifier on the CPU, "
        "export it to ONNX and check ONNX Runtime agrees with PyTorch.",
    )
    from models.options import add_arguments  # only when this command is the one run

    add_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    from models.options import config_from_args

    config = config_from_args(args)  # ValueError naming the bad option -> exit 2
    return run_training("train", "models.train", config)


def run_training(command: str, module: str, config: object) -> int:
    """Train with `module`'s train(config) (which needs torch), print its summary as JSON."""
    import importlib

    try:
        train = importlib.import_module(module).train
    except ImportError as error:
        raise SystemExit(
            f"phase10 {command}: needs the training extra ({error.name} is missing): "
            "pip install -e '.[train]'"
        ) from error
    print(json.dumps(train(config), indent=2, default=str))
    return 0

"""`phase10 train-locator`: render fresh scenes, train the top-face network on the CPU,
export ONNX.

Needs the `train` extra (torch, onnx, tqdm), which the app does not; the options
are the same as `python -m models.train_locator`. Writes the model and its
`.sha256` beside it (by default the shipped models/dice_tops.onnx).
"""

from __future__ import annotations

import argparse
import json

from models.options import add_locator_arguments


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "train-locator",
        help="train the top-face locator network (needs the train extra: torch)",
        description="Render scenes of the tray, train the network that finds the dice's "
        "top faces on the CPU, export it to ONNX and check ONNX Runtime agrees with PyTorch.",
    )
    add_locator_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    from models.options import locator_config_from_args

    config = locator_config_from_args(args)  # ValueError naming the bad option -> exit 2
    try:
        from models.train_locator import train
    except ImportError as error:
        raise SystemExit(
            f"phase10 train-locator: needs the training extra ({error.name} is missing): "
            "pip install -e '.[train]'"
        ) from error
    print(json.dumps(train(config), indent=2))
    return 0

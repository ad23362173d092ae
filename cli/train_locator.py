"""`phase10 train-locator`: render fresh scenes, train the top-face network (on the CPU,
or a GPU with --device cuda), export ONNX.

Needs the `train` extra (torch, onnx, tqdm), which the app does not; the options
are the same as `python -m models.train_locator`. Writes the model and its
`.sha256` beside it (by default the shipped models/dice_tops.onnx).
"""

from __future__ import annotations

import argparse

COMMAND = "train-locator"
HELP = "train the top-face locator network (needs the train extra: torch)"


def add_parser(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        COMMAND, help=HELP,
        description="Render scenes of the tray, train the network that finds the dice's "
        "top faces (on the CPU unless --device cuda), export it to ONNX and check ONNX "
        "Runtime agrees with PyTorch.",
    )
    from models.options import add_locator_arguments  # only when this command is the one run

    add_locator_arguments(parser)
    return parser


def run(args: argparse.Namespace) -> int:
    from cli.train import run_training
    from models.options import locator_config_from_args

    config = locator_config_from_args(args)  # ValueError naming the bad option -> exit 2
    return run_training("train-locator", "models.train_locator", config)

"""Training options and the shipped model's location: no torch here, so the CLI can list them.

`phase10 train --help` builds its parser from these without importing PyTorch,
which the app and CI do not install.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MODEL_PATH = Path(__file__).resolve().parent / "dice_faces.onnx"


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained weights (and the time it takes)."""

    seed: int = 0
    train_crops: int = 200_000
    val_crops: int = 2_000
    epochs: int = 10
    batch_size: int = 128
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    threads: int = 2
    workers: int = 2
    output: Path = DEFAULT_MODEL_PATH


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The training options, shared by `python -m models.train` and `phase10 train`."""
    defaults = TrainConfig()
    parser.add_argument("--seed", type=int, default=defaults.seed, help="run seed (0..9999)")
    parser.add_argument("--train-crops", type=int, default=defaults.train_crops)
    parser.add_argument("--val-crops", type=int, default=defaults.val_crops)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--threads", type=int, default=defaults.threads, help="torch CPU threads")
    parser.add_argument(
        "--workers", type=int, default=defaults.workers, help="processes rendering crops"
    )
    parser.add_argument("--output", type=Path, default=defaults.output, help="ONNX file to write")


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """A TrainConfig from parsed options, refusing values that cannot train."""
    for name in ("train_crops", "val_crops", "epochs", "batch_size", "threads", "workers"):
        value = getattr(args, name)
        if value < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {value}")
    if not 0 <= args.seed < 10_000:
        raise ValueError(f"--seed must be in 0..9999, got {args.seed}")
    if args.learning_rate <= 0:
        raise ValueError(f"--learning-rate must be positive, got {args.learning_rate}")
    return TrainConfig(
        seed=args.seed,
        train_crops=args.train_crops,
        val_crops=args.val_crops,
        epochs=args.epochs,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        threads=args.threads,
        workers=args.workers,
        output=args.output,
    )

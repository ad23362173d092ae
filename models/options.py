"""Training options and the shipped model's location: no torch here, so the CLI can list them.

`phase10 train --help` builds its parser from these without importing PyTorch,
which the app and CI do not install.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

DEFAULT_MODEL_PATH = Path(__file__).resolve().parent / "dice_faces.onnx"
DEFAULT_LOCATOR_PATH = Path(__file__).resolve().parent / "dice_tops.onnx"
#: The face classifier's sizes `models.net.build_net` builds: the stride-2 stem's
#: channels, then (channels, conv layers) of each later stage. Plain data here, so
#: --help needs no torch. Multiply-adds per 40-pixel crop: small 15 M, wide 34 M,
#: wider 60 M.
ARCHITECTURES: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {
    "small": (32, ((32, 1), (64, 2), (128, 2))),
    "wide": (48, ((48, 1), (96, 2), (192, 2))),
    "wider": (64, ((64, 1), (128, 2), (256, 2))),
}
SHIPPED_ARCHITECTURE = "wide"
"""The size of the shipped classifier, which --init loads into."""


def npz_path(text: str) -> Path:
    """An argparse type for a file numpy saves (`np.savez`): one not named .npz is refused,
    since numpy would add the suffix when saving it, and a later run given the name it was
    told would not find the file (a benchmark would read every scene again)."""
    path = Path(text)
    if path.suffix != ".npz":
        raise argparse.ArgumentTypeError(
            f"{text!r}: name the file with .npz (numpy adds it when saving, and a "
            "later run given this name would not find the file)")
    return path


@dataclass(frozen=True)
class TrainConfig:
    """Everything that decides the trained weights (and the time it takes)."""

    seed: int = 0
    architecture: str = SHIPPED_ARCHITECTURE
    train_crops: int = 200_000
    val_crops: int = 2_000
    epochs: int = 10
    batch_size: int = 128
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    threads: int = 2
    workers: int = 2
    output: Path = DEFAULT_MODEL_PATH
    resume: bool = False
    cache: Path | None = None
    init: Path | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The training options, shared by `python -m models.train` and `phase10 train`."""
    defaults = TrainConfig()
    parser.add_argument("--seed", type=int, default=defaults.seed, help="run seed (0..9999)")
    parser.add_argument(
        "--arch",
        dest="architecture",
        choices=tuple(ARCHITECTURES),
        default=defaults.architecture,
        help=f"network size ({defaults.architecture}: the shipped one)",
    )
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
    parser.add_argument("--cache", type=Path, default=None, help="keep rendered crops here")
    parser.add_argument(
        "--init", type=Path, default=None, help="start from this exported classifier (fine-tune)"
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the last finished epoch saved beside --output by an interrupted run",
    )


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """A TrainConfig from parsed options, refusing values that cannot train."""
    counts = ("train_crops", "val_crops", "epochs", "batch_size", "threads", "workers")
    return _checked(args, TrainConfig, counts, seeds=10_000)


def _checked(args: argparse.Namespace, config: type[T], counts: tuple[str, ...], seeds: int) -> T:
    """`config` built from the options of the same names, once the counts are at least 1,
    the seed below `seeds` and the learning rate positive (ValueError naming the option)."""
    for name in counts:
        value = getattr(args, name)
        if value < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1, got {value}")
    if not 0 <= args.seed < seeds:
        raise ValueError(f"--seed must be in 0..{seeds - 1}, got {args.seed}")
    if args.learning_rate <= 0:
        raise ValueError(f"--learning-rate must be positive, got {args.learning_rate}")
    given = {f.name: getattr(args, f.name) for f in fields(config) if hasattr(args, f.name)}
    return config(**given)


@dataclass(frozen=True)
class LocatorConfig:
    """Everything that decides the trained top-face network (and the time it takes)."""

    seed: int = 0
    scenes: int = 8000
    val_scenes: int = 300
    epochs: int = 30
    batch_size: int = 32
    crop: tuple[int, int] = (160, 128)
    learning_rate: float = 3e-3
    threads: int = 2
    workers: int = 2
    cache: Path | None = None
    output: Path = DEFAULT_LOCATOR_PATH
    init: Path | None = None
    real_photos: Path | None = None
    real_share: float = 0.25
    device: str = "cpu"
    steep_share: float = 0.0
    lean_share: float | None = None
    aside_share: float = 0.0
    keep_weight: float = 0.0
    resume: bool = False


def _window(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT, got {text!r}") from None
    if width < 16 or height < 16 or width % 16 or height % 16:
        raise argparse.ArgumentTypeError(f"sizes must be multiples of 16, got {text!r}")
    return width, height


def add_locator_arguments(parser: argparse.ArgumentParser) -> None:
    """The locator's training options, shared by `python -m models.train_locator` and
    `phase10 train-locator`."""
    defaults = LocatorConfig()
    parser.add_argument("--seed", type=int, default=defaults.seed, help="run seed (0..399)")
    parser.add_argument("--scenes", type=int, default=defaults.scenes, help="training scenes")
    parser.add_argument("--val-scenes", type=int, default=defaults.val_scenes)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument(
        "--crop", type=_window, default=defaults.crop, help="training window WxH (160x128)"
    )
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--threads", type=int, default=defaults.threads, help="torch CPU threads")
    parser.add_argument(
        "--workers", type=int, default=defaults.workers, help="processes rendering scenes"
    )
    parser.add_argument("--cache", type=Path, default=None, help="keep rendered scenes here")
    parser.add_argument("--output", type=Path, default=defaults.output, help="ONNX file to write")
    parser.add_argument(
        "--init", type=Path, default=None, help="start from this exported locator (fine-tune)"
    )
    parser.add_argument(
        "--real-photos",
        type=Path,
        default=None,
        help="labelled real photos (images/, labels/ in YOLO form) mixed into each batch: "
        "their dice taught as dice, the rest as 'no die' (models/real_photos.py)",
    )
    parser.add_argument(
        "--real-share",
        type=float,
        default=defaults.real_share,
        help="share of each batch drawn from --real-photos (0.25)",
    )
    parser.add_argument(
        "--device",
        choices=("cpu", "cuda"),
        default=defaults.device,
        help="where the network trains (cpu); the scenes are kept there too",
    )
    parser.add_argument(
        "--steep-share",
        type=float,
        default=defaults.steep_share,
        help="share of the real-world scenes seen as a phone held over the tray sees them: "
        "tipped up to 35 degrees, small dice, the white balance off (0: none)",
    )
    parser.add_argument(
        "--lean-share",
        type=float,
        default=defaults.lean_share,
        help="share of the real-world scenes with some dice leaning on the tray wall "
        "(default: the renderer's, 0.35), so the network sees more side faces that are "
        "not tops",
    )
    parser.add_argument(
        "--aside-share",
        type=float,
        default=defaults.aside_share,
        help="share of the steep scenes seen with the phone held at the tray's side, so each "
        "die shows the sides that face it (0: none)",
    )
    parser.add_argument(
        "--keep-weight",
        type=float,
        default=defaults.keep_weight,
        help="with --init, the weight of a second loss that keeps the maps close to the "
        "--init network's on the same windows, so a fine-tune learns what is new without "
        "unlearning the rest (0: none)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="go on from the last finished epoch saved beside --output by an interrupted run",
    )


def locator_config_from_args(args: argparse.Namespace) -> LocatorConfig:
    """A LocatorConfig from parsed options, refusing values that cannot train."""
    counts = ("scenes", "val_scenes", "epochs", "batch_size", "threads", "workers")
    share = args.real_share
    if not 0 < share < 1:
        raise ValueError(f"--real-share must be between 0 and 1, got {share}")
    if not 0 <= args.steep_share <= 1:
        raise ValueError(f"--steep-share must be between 0 and 1, got {args.steep_share}")
    if not 0 <= args.aside_share <= 1:
        raise ValueError(f"--aside-share must be between 0 and 1, got {args.aside_share}")
    if args.aside_share and not args.steep_share:
        raise ValueError("--aside-share needs --steep-share: it is a share of the steep scenes")
    if args.keep_weight < 0:
        raise ValueError(f"--keep-weight must be 0 or more, got {args.keep_weight}")
    if args.keep_weight and args.init is None:
        raise ValueError("--keep-weight needs --init: it keeps the maps of that network")
    lean = args.lean_share
    if lean is not None and not 0 <= lean <= 1:
        raise ValueError(f"--lean-share must be between 0 and 1, got {lean}")
    folder = args.real_photos
    if folder is not None and not (Path(folder) / "images").is_dir():
        raise ValueError(f"--real-photos {folder}: no images/ folder there")
    return _checked(args, LocatorConfig, counts, seeds=400)

"""Train a frame-colour network (`vision.read.frame_colours`): red against orange, or green
against blue (`--pair cool`), from the frame.

Three steps, each resumable:

1. **Frames.** Scenes in the training fonts, light and dark bodies
   (`vision.synth.looks` groups "train-light" and "train-dark"), from seeds at
   FRAME_COLOUR_SEED_BASE that no other model trained on, are rendered and read by the
   shipped locator and classifier (or `--model`/`--locator`); `--steep-share` of them
   as a phone held over the tray sees them (tipped up to 35 degrees, the white balance
   off by up to 30 %: `vision.synth.views`), as the reader meets them, `--aside-share` of
   those with the phone held at the tray's side (`SteepView.camera_aside`); `--alike-share` of
   them with the set's dice printed more alike than the renderer draws them (each frame's
   `Conditions.ink_spread` drawn between 0 and the renderer's), so the network learns to
   see from the frame how far one ink strays from die to die. What the network needs of
   each die (ink chroma, colour probabilities, body lightness, true colour) is written
   in chunks of CHUNK_FRAMES frames under `--cache`, each chunk tagged with the
   classifier's hash, the box scale its crops are cut at (`ClassifySettings.box_scale`)
   and the shares; a chunk already there for the same tag is not drawn again, so an
   interrupted run goes on where it stopped.
2. **Rows.** Every die of every frame that the classifier holds in the pair's colours
   becomes a feature row (`vision.read.frame_colours.pair_rows`) labelled with the pair's
   first colour or its second; such dice that are truly of another colour are left out.
   Every fifth frame is kept for validation. The same cached frames serve both pairs.
3. **Training.** A one-hidden-layer network, full batch, Adam, with the features'
   scaling folded into its first layer, exported with its hash
   (`models/frame_colours.onnx`, or `models/frame_cool_colours.onnx` for the cool
   pair). Every `--report` steps it prints the loss and the validation dice it gets
   wrong beside those the frame inks alone get wrong.

Training only (imports torch). `python -m models.train_frame_colours --help`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.export import _export_checked
from models.readout_reader import readout_reader
from vision.read.frame_colours import (
    FEATURES,
    INK_PLANE,
    INPUT,
    OUTPUTS,
    PAIRS,
    WARM_PAIR,
    ColourPair,
    pair_rows,
)
from vision.read.frame_inks import frame_ink_evidence
from vision.read.settings import ClassifySettings
from vision.synth.locator_training import STEEP_ASIDE_TRAINING_VIEW, STEEP_TRAINING_VIEW
from vision.synth.seeds import (
    FRAME_COLOUR_GROUP_SPAN,
    FRAME_COLOUR_SEED_BASE,
    HELD_OUT_SEED_BASE,
)
from vision.synth.views import SteepView

logger = logging.getLogger(__name__)

#: Frames per cached chunk.
CHUNK_FRAMES = 250
#: The body groups drawn, in seed order (group g starts at + g * FRAME_COLOUR_GROUP_SPAN).
GROUPS: tuple[str, ...] = ("train-light", "train-dark")
#: Every this-many-th frame is validation.
VALIDATION_EVERY = 5
#: The second key of the generator that decides whether a frame is seen steep.
STEEP_DRAW = 36
#: The second key of the generator that decides how alike a frame's dice are printed.
ALIKE_DRAW = 37
#: The second key of the generator that decides whether a steep frame is seen from aside.
ASIDE_DRAW = 38


@dataclass(frozen=True)
class TrainConfig:
    """One run's settings (the command's options)."""

    frames: int = 8000
    hidden: int = 32
    steps: int = 2000
    learning_rate: float = 1e-2
    weight_decay: float = 1e-4
    seed: int = 0
    report: int = 200
    workers: int = 2
    steep_share: float = 0.5
    alike_share: float = 0.5
    aside_share: float = 0.0

    def __post_init__(self) -> None:
        if not 1 <= self.frames <= FRAME_COLOUR_GROUP_SPAN:
            raise ValueError(f"frames must be 1..{FRAME_COLOUR_GROUP_SPAN}, got {self.frames}")
        last = FRAME_COLOUR_SEED_BASE + (len(GROUPS) - 1) * FRAME_COLOUR_GROUP_SPAN + self.frames
        if last > HELD_OUT_SEED_BASE:
            raise ValueError("the frames would reach the held-out seeds")
        for name in ("hidden", "steps", "report", "workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("steep_share", "alike_share", "aside_share"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {getattr(self, name)}")
        if self.learning_rate <= 0 or self.weight_decay < 0:
            raise ValueError("the learning rate must be positive and the weight decay not negative")


# --- step 1: frames -------------------------------------------------------------------

_READER = None


def _init_worker(model: str | None, locator: str | None) -> None:
    global _READER
    _READER = readout_reader(model, locator)


def is_steep(seed: int, steep_share: float) -> bool:
    """Whether the frame of `seed` is seen steep (its own draw, apart from the scene's)."""
    return bool(np.random.default_rng([seed, STEEP_DRAW]).random() < steep_share)


def view_of(seed: int, steep_share: float, aside_share: float = 0.0) -> SteepView | None:
    """How the frame of `seed` is seen: upright (None), or steep (`is_steep`), and then,
    by a draw of its own, `aside_share` of the time with the camera at the tray's side."""
    if not is_steep(seed, steep_share):
        return None
    if np.random.default_rng([seed, ASIDE_DRAW]).random() < aside_share:
        return STEEP_ASIDE_TRAINING_VIEW
    return STEEP_TRAINING_VIEW


def ink_spread_of(seed: int, alike_share: float) -> float | None:
    """How far the frame of `seed` lets each die's ink stray from its set's: drawn between 0
    and the renderer's own spread for `alike_share` of the frames, else None (as the renderer
    draws it). Its own draw, apart from the scene's."""
    from vision.synth.conditions import INK_SPREAD

    rng = np.random.default_rng([seed, ALIKE_DRAW])
    if rng.random() >= alike_share:
        return None
    return float(rng.uniform(0.0, INK_SPREAD))


def _draw_chunk(group: int, chunk: int, steep_share: float = 0.0,
                alike_share: float = 0.0, aside_share: float = 0.0) -> dict[str, np.ndarray]:
    """Render and read one chunk's frames; per die: chroma, colour probs, lightness, truth."""
    from vision.evaluation import MATCH_RADIUS, evaluation_scene
    from vision.read.frame_colours import crop_lightness
    from vision.read.frame_inks import ink_chroma
    from vision.read.model_io import COLOUR_LABELS
    from vision.read.pipeline import read_dice
    from vision.synth.looks import eval_group

    look = eval_group(GROUPS[group]).mix()
    first = FRAME_COLOUR_SEED_BASE + group * FRAME_COLOUR_GROUP_SPAN + chunk * CHUNK_FRAMES
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("chroma", "colour", "light", "truth")}
    sizes = []
    for seed in range(first, first + CHUNK_FRAMES):
        scene = evaluation_scene(seed, look, steep=view_of(seed, steep_share, aside_share),
                                 ink_spread=ink_spread_of(seed, alike_share))
        readout = _READER.readout(scene.image)
        keep, _ = read_dice(readout)
        crops = readout.crops[keep]
        centres = np.array([np.mean(np.asarray(readout.located.boxes[i]), 0) for i in keep])
        truth = np.full(len(keep), -1)
        for die in scene.dice:
            if not len(centres):
                break
            side = float(np.linalg.norm(die.corners[0] - die.corners[1]))
            distance = np.hypot(*(centres - np.asarray(die.centre)).T)
            nearest = int(np.argmin(distance))
            if distance[nearest] <= MATCH_RADIUS * side:
                truth[nearest] = COLOUR_LABELS.index(die.die.colour)
        parts["chroma"].append(ink_chroma(crops))
        parts["colour"].append(np.asarray(readout.colour_probs[keep], np.float64))
        parts["light"].append(crop_lightness(crops))
        parts["truth"].append(truth)
        sizes.append(len(keep))
    out = {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
    out["sizes"] = np.asarray(sizes, np.int64)
    return out


def chunk_tag(classifier_sha256: str, config: TrainConfig, box_scale: float) -> str:
    """What a cached chunk's name carries so that only the same drawing reuses it: the
    classifier, the scale its crops are cut from the boxes at (`ClassifySettings.box_scale`,
    as `readout_reader` reads), and the shares of steep, alike and aside frames asked."""
    tag = classifier_sha256[:16]
    if box_scale != 1.0:  # crops cut from other boxes give other readings
        tag += f"-box{box_scale:g}"
    if config.steep_share:
        tag += f"-steep{config.steep_share:g}"
    if config.alike_share:
        tag += f"-alike{config.alike_share:g}"
    if config.steep_share and config.aside_share:
        tag += f"-aside{config.aside_share:g}"
    return tag


def draw_frames(
    cache: Path, config: TrainConfig, model: Path | None, locator: Path | None
) -> list[Path]:
    """The chunk files of the run, drawing those missing (for this classifier)."""
    from vision.read.classifier import FaceClassifier

    tag = chunk_tag(FaceClassifier.load(model).sha256, config, ClassifySettings().box_scale)
    cache.mkdir(parents=True, exist_ok=True)
    chunks = -(-config.frames // CHUNK_FRAMES)
    wanted = [(g, c) for g in range(len(GROUPS)) for c in range(chunks)]
    path_of = {key: cache / f"{GROUPS[key[0]]}-{key[1]:04d}-{tag}.npz" for key in wanted}
    missing = [key for key in wanted if not path_of[key].is_file()]
    logger.info(
        "frames: %d chunks of %d wanted, %d cached, drawing %d with %d workers",
        len(wanted), CHUNK_FRAMES, len(wanted) - len(missing), len(missing), config.workers,
    )
    start = time.monotonic()
    with ProcessPoolExecutor(
        config.workers,
        initializer=_init_worker,
        initargs=(str(model) if model else None, str(locator) if locator else None),
    ) as pool:
        futures = {key: pool.submit(_draw_chunk, *key, config.steep_share, config.alike_share,
                                    config.aside_share)
                   for key in missing}
        for done, (key, future) in enumerate(futures.items(), 1):
            arrays = future.result()
            partial = path_of[key].with_suffix(".part.npz")
            np.savez_compressed(partial, **arrays)
            os.replace(partial, path_of[key])
            minutes = (time.monotonic() - start) / 60
            logger.info(
                "frames: chunk %d/%d (%s %d) written, %.1f min", done, len(missing),
                GROUPS[key[0]], key[1], minutes,
            )
    return [path_of[key] for key in wanted]


# --- step 2: rows ---------------------------------------------------------------------


@dataclass(frozen=True)
class Rows:
    """Feature rows of a pair's dice, their labels (1: the pair's first colour), the frame
    inks' own log-odds for them, and whether each belongs to a validation frame."""

    x: np.ndarray
    y: np.ndarray
    inks_log_odds: np.ndarray
    validation: np.ndarray


def frames_of(chunks: list[Path]) -> Iterator[tuple[int, dict[str, np.ndarray]]]:
    """Every cached frame of `chunks` in order: its number (from 1, which decides whether it
    is a validation frame) and its dice's arrays ("chroma", "colour", "light", "truth")."""
    frame = 0
    for path in chunks:
        with np.load(path) as data:
            bounds = np.concatenate([[0], np.cumsum(data["sizes"])])
            arrays = {key: data[key] for key in ("chroma", "colour", "light", "truth")}
            for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
                frame += 1
                yield frame, {key: values[lo:hi] for key, values in arrays.items()}


def build_rows(chunks: list[Path], pair: ColourPair = WARM_PAIR) -> Rows:
    xs, ys, odds, val = [], [], [], []
    for frame, dice in frames_of(chunks):
        if len(dice["truth"]) < 2:
            continue
        chroma, probs = dice["chroma"], dice["colour"]
        found = pair_rows(pair, chroma, probs, dice["light"], frame_ink_evidence(chroma, probs))
        truth = dice["truth"][found.index]
        keep = (truth == pair.first) | (truth == pair.second)
        xs.append(found.rows[keep])
        ys.append((truth[keep] == pair.first).astype(np.float32))
        odds.append(found.log_odds[keep])
        val.append(np.full(int(keep.sum()), frame % VALIDATION_EVERY == 0))
    return Rows(np.concatenate(xs), np.concatenate(ys), np.concatenate(odds), np.concatenate(val))


def pair_direction(chunks: list[Path], pair: ColourPair) -> tuple[np.ndarray, int]:
    """The unit direction in the ink plane from the pair's first ink to its second: the mean,
    over the fitting frames that show dice of both (truly), of the second colour's mean ink
    less the first's; and how many frames it is measured over. What `ColourPair.direction`
    holds, measured again on these frames."""
    steps = []
    for frame, dice in frames_of(chunks):
        truth = dice["truth"]
        if frame % VALIDATION_EVERY == 0 or not (
                (truth == pair.first).any() and (truth == pair.second).any()):
            continue
        plane = dice["chroma"] @ INK_PLANE.T
        steps.append(plane[truth == pair.second].mean(0) - plane[truth == pair.first].mean(0))
    if not steps:
        return np.zeros(2), 0
    mean = np.mean(steps, axis=0)
    return mean / np.linalg.norm(mean), len(steps)


# --- step 3: training -----------------------------------------------------------------


class FrameColourNet(nn.Module):
    """Features (scaled by the training rows' mean and spread) -> the log-odds of the pair's
    first colour over its second."""

    def __init__(self, mean: np.ndarray, scale: np.ndarray, hidden: int) -> None:
        super().__init__()
        self.register_buffer("mean", torch.as_tensor(mean, dtype=torch.float32))
        self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
        self.body = nn.Sequential(nn.Linear(len(mean), hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body((x - self.mean) / self.scale).squeeze(1)


def _wrong(log_odds: np.ndarray, y: np.ndarray) -> int:
    return int(np.sum((log_odds > 0) != (y > 0.5)))


def train(rows: Rows, config: TrainConfig) -> tuple[FrameColourNet, dict]:
    torch.manual_seed(config.seed)
    fit, val = ~rows.validation, rows.validation
    mean = rows.x[fit].mean(axis=0)
    scale = rows.x[fit].std(axis=0)
    scale[scale < 1e-6] = 1.0
    net = FrameColourNet(mean, scale, config.hidden)
    x, y = torch.from_numpy(rows.x), torch.from_numpy(rows.y)
    optimiser = torch.optim.Adam(
        net.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
    )
    baseline = _wrong(rows.inks_log_odds[val], rows.y[val])
    logger.info(
        "rows: %d dice to fit, %d to validate (frame inks alone get %d wrong)",
        int(fit.sum()), int(val.sum()), baseline,
    )
    figures: dict = {}
    for step in range(1, config.steps + 1):
        optimiser.zero_grad()
        loss = nn.functional.binary_cross_entropy_with_logits(net(x[fit]), y[fit])
        loss.backward()
        optimiser.step()
        if step % config.report == 0 or step == config.steps:
            with torch.no_grad():
                out = net(x).numpy()
                val_loss = float(nn.functional.binary_cross_entropy_with_logits(
                    torch.from_numpy(out[val]), y[val]))
            figures = {
                "step": step,
                "loss": round(loss.item(), 5),
                "validation_loss": round(val_loss, 5),
                "validation_dice": int(val.sum()),
                "validation_wrong": _wrong(out[val], rows.y[val]),
                "validation_wrong_frame_inks": baseline,
                "fit_wrong": _wrong(out[fit], rows.y[fit]),
            }
            logger.info(
                "step %d/%d  loss %.4f  validation loss %.4f  wrong %d of %d (frame inks %d)",
                step, config.steps, loss.item(), val_loss, figures["validation_wrong"],
                int(val.sum()), baseline,
            )
    return net.eval(), figures


def export(net: FrameColourNet, path: Path, sample: np.ndarray) -> dict:
    """Write the network to ONNX (input FEATURES rows, output the log-odds) with its hash."""
    x = np.ascontiguousarray(sample, np.float32)
    return _export_checked(
        net, path, torch.from_numpy(x[:1]), x, INPUT, OUTPUTS,
        {INPUT: {0: "dice"}, OUTPUTS[0]: {0: "dice"}},
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    defaults = TrainConfig()
    parser.add_argument("--pair", choices=[pair.name for pair in PAIRS], default=WARM_PAIR.name,
                        help="the colours to settle: warm (red against orange, the default) or "
                        "cool (green against blue)")
    parser.add_argument("--frames", type=int, default=defaults.frames,
                        help=f"frames per body group ({defaults.frames})")
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--steps", type=int, default=defaults.steps)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--weight-decay", type=float, default=defaults.weight_decay)
    parser.add_argument("--seed", type=int, default=defaults.seed, help="weights' seed")
    parser.add_argument("--report", type=int, default=defaults.report, help="steps per report")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--steep-share", type=float, default=defaults.steep_share,
                        help="share of the frames seen as a phone held over the tray sees them "
                        f"({defaults.steep_share})")
    parser.add_argument("--alike-share", type=float, default=defaults.alike_share,
                        help="share of the frames whose dice are printed more alike than the "
                        "renderer draws them: each die's ink strays from its set's by a spread "
                        f"drawn from 0 up to the renderer's ({defaults.alike_share})")
    parser.add_argument("--aside-share", type=float, default=defaults.aside_share,
                        help="share of the steep frames seen with the phone held at the tray's "
                        f"side rather than above its middle ({defaults.aside_share})")
    parser.add_argument("--cache", type=Path, default=Path(".cache/frame_colours"))
    parser.add_argument("--model", type=Path, default=None, help="face classifier (.onnx)")
    parser.add_argument("--locator", type=Path, default=None, help="top-face locator (.onnx)")
    parser.add_argument("--output", type=Path, default=None,
                        help="ONNX file to write (default: the pair's file in models/)")
    args = parser.parse_args(argv)
    pair = next(pair for pair in PAIRS if pair.name == args.pair)
    output = args.output or Path("models") / pair.model_file
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    try:
        config = TrainConfig(args.frames, args.hidden, args.steps, args.learning_rate,
                             args.weight_decay, args.seed, args.report, args.workers,
                             args.steep_share, args.alike_share, args.aside_share)
    except ValueError as error:
        parser.error(str(error))
    from vision.synth.font_library import MissingFontError
    from vision.synth.looks import eval_group

    try:
        for group in GROUPS:
            eval_group(group).mix()
    except MissingFontError as error:  # `bash models/install_fonts.sh`
        parser.error(str(error))
    chunks = draw_frames(args.cache, config, args.model, args.locator)
    direction, frames = pair_direction(chunks, pair)
    logger.info("%s pair: direction from the first ink to the second measured (%.3f, %.3f) "
                "over %d frames; the rows use (%.3f, %.3f)", pair.name, *direction, frames,
                *pair.direction)
    rows = build_rows(chunks, pair)
    net, figures = train(rows, config)
    figures["export"] = export(net, output, rows.x[rows.validation][:256])
    figures["pair"] = pair.name
    figures["direction_measured"] = [round(float(v), 4) for v in direction]
    figures["config"] = config.__dict__
    figures["features"] = list(FEATURES)
    figures["chunks_sha256"] = hashlib.sha256(
        b"".join(path.read_bytes() for path in chunks)).hexdigest()
    output.with_suffix(".json").write_text(json.dumps(figures, indent=2) + "\n")
    logger.info("wrote %s: %s", output, json.dumps({k: figures[k] for k in
                ("validation_wrong", "validation_wrong_frame_inks", "validation_dice")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Train the face classifier on the CPU from freshly rendered crops, then export it to ONNX.

Reproducible by seed: the crops come from `render_face_crops` with seeds derived
from `--seed` (all below EVAL_SEED_BASE, which evaluation alone uses), and torch
and numpy are seeded before anything random happens. Needs the `train` extra
(torch, onnx, tqdm); the app itself never imports this module.
"""

from __future__ import annotations

import argparse
import logging
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from functools import partial
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from models import checkpoint as checkpoints
from models.chunk_cache import cached_chunk, look_key
from models.export import export_model
from models.net import FaceNet, build_net
from models.onnx_init import freeze_norms, load_onnx_weights
from models.options import TrainConfig, add_arguments, config_from_args
from vision.read.crops import CROP_SIZE, crops_to_tensor
from vision.synth.font_library import Split, font_files
from vision.synth.looks import LookMix
from vision.synth.seeds import EVAL_SEED_BASE, FACE_RUN_SPAN, FACE_VALIDATION_OFFSET
from vision.synth.training import OUTLINE_SHARE, render_face_crops

logger = logging.getLogger(__name__)

CHUNK = 1000
"""Crops rendered per seed; data generation is split into chunks for worker processes."""


def chunk_seeds(seed: int, count: int, offset: int = 0) -> list[int]:
    """Seeds of the rendered chunks for a run: distinct per run seed, all below EVAL_SEED_BASE."""
    chunks = math.ceil(count / CHUNK)
    seeds = [seed * FACE_RUN_SPAN + offset + i for i in range(chunks)]
    if seeds and (seeds[-1] >= EVAL_SEED_BASE or seeds[0] < 0):
        raise ValueError(f"seed {seed} gives crop seeds outside [0, {EVAL_SEED_BASE})")
    return seeds


def _render_chunk(
    seed: int, look: LookMix | None = None, cache: Path | None = None
) -> tuple[np.ndarray, ...]:
    path = None if cache is None else cache / f"faces-{look_key(look)}-{seed}-{CHUNK}.npz"
    return cached_chunk(
        path,
        ("crops", "values", "colours", "faces"),
        lambda: render_face_crops(seed, CHUNK, look=look),
    )


def render_crops(
    seeds: Sequence[int],
    count: int,
    workers: int,
    desc: str,
    look: LookMix | None = None,
    cache: Path | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Render (or load from `cache`) the chunks for `seeds`, in order, in `workers`
    processes, and keep `count` crops. `look` says which dice sets are drawn (None: the
    Hershey fonts only)."""
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    render = partial(_render_chunk, look=look, cache=cache)
    if workers <= 1:
        parts = [render(seed) for seed in tqdm(seeds, desc=desc, unit="k")]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunks = pool.map(render, seeds)
            parts = list(tqdm(chunks, total=len(seeds), desc=desc, unit="k"))
    return tuple(np.concatenate(arrays)[:count] for arrays in zip(*parts, strict=True))


def _batches(n: int, batch_size: int, rng: np.random.Generator):
    order = rng.permutation(n)
    for start in range(0, n - batch_size + 1, batch_size):
        yield order[start : start + batch_size]


def _augment(crops: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Quarter turns on top of the renderer's jitter (a face reads the same at any
    rotation), and each crop's own light: colour gains, brightness, contrast and noise
    beyond what one renderer's camera model makes, so no one look is learnt."""
    turns = rng.integers(4, size=len(crops))
    out = crops.copy()
    for k in (1, 2, 3):
        picked = turns == k
        out[picked] = np.rot90(crops[picked], k, axes=(1, 2))
    n = len(out)
    x = out.astype(np.float32)
    gains = np.exp(rng.normal(0.0, 0.07, (n, 1, 1, 3)) + rng.normal(0.0, 0.15, (n, 1, 1, 1)))
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    contrast = np.exp(rng.normal(0.0, 0.15, (n, 1, 1, 1)))
    x = ((x - mean) * contrast + mean) * gains
    noisy = rng.random(n) < 0.3
    x[noisy] += rng.normal(0.0, 1.0, x[noisy].shape) * rng.uniform(
        1, 8, (int(noisy.sum()), 1, 1, 1)
    )
    return np.clip(x, 0, 255).astype(np.uint8)


def supervised_loss(
    logits: tuple[torch.Tensor, torch.Tensor, torch.Tensor], value, colour, face
) -> torch.Tensor:
    """Face BCE on every crop, plus value and half-weighted colour cross-entropy on the
    face crops: the training loss of both trainers."""
    value_logits, colour_logits, face_logits = logits
    loss = nn.functional.binary_cross_entropy_with_logits(face_logits, face.float())
    if bool(face.any()):
        loss = loss + nn.functional.cross_entropy(value_logits[face], value[face])
        loss = loss + 0.5 * nn.functional.cross_entropy(colour_logits[face], colour[face])
    return loss


def _losses(net: FaceNet, x: torch.Tensor, value, colour, face) -> torch.Tensor:
    return supervised_loss(net(x), value, colour, face)


@torch.no_grad()
def accuracy(net: FaceNet, crops, values, colours, faces, batch_size: int = 512) -> dict:
    """Value, colour and face accuracy of a PyTorch net on labelled crops."""
    net.eval()
    value_hits = colour_hits = face_hits = 0
    for start in range(0, len(crops), batch_size):
        x = torch.from_numpy(crops_to_tensor(crops[start : start + batch_size]))
        v, c, f = net(x)
        face = faces[start : start + batch_size]
        value_hits += int((v.argmax(1).numpy() == values[start : start + batch_size])[face].sum())
        colour_hits += int((c.argmax(1).numpy() == colours[start : start + batch_size])[face].sum())
        face_hits += int(((f.numpy() > 0) == face).sum())
    positives = max(int(faces.sum()), 1)
    return {
        "value": value_hits / positives,
        "colour": colour_hits / positives,
        "face": face_hits / max(len(crops), 1),
    }


def train(config: TrainConfig) -> dict:
    """Render data, train, export ONNX and check it; returns a summary for the model card."""
    started = time.perf_counter()
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    rng = np.random.default_rng(config.seed)
    train_seeds = chunk_seeds(config.seed, config.train_crops)
    val_seeds = chunk_seeds(config.seed, config.val_crops, offset=FACE_VALIDATION_OFFSET)
    # Training draws the training families only; validation the held-out ones, so the
    # figures printed each epoch are on fonts the network never saw.
    train_fonts = tuple(str(path) for path in font_files(Split.TRAIN))
    held_out_fonts = tuple(str(path) for path in font_files(Split.HELD_OUT))
    crops, values, colours, faces = render_crops(
        train_seeds,
        config.train_crops,
        config.workers,
        "render train",
        LookMix(train_fonts, OUTLINE_SHARE),
        config.cache,
    )
    val = render_crops(
        val_seeds,
        config.val_crops,
        config.workers,
        "render val",
        LookMix(held_out_fonts),
        config.cache,
    )
    logger.info("rendered %d training crops (%.0f%% faces)", len(crops), 100 * faces.mean())

    net = build_net(config.architecture)
    if config.init is not None:
        load_onnx_weights(net, config.init)
        logger.info("starting from %s", config.init)
    optimiser = torch.optim.AdamW(
        net.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
    )
    steps = config.epochs * (len(crops) // config.batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, max_lr=config.learning_rate, total_steps=max(steps, 1), pct_start=0.15
    )
    values_t, colours_t, faces_t = (torch.from_numpy(a) for a in (values, colours, faces))
    state = checkpoints.TrainingState(net, optimiser, schedule, rng)
    history = state.history
    checkpoint = checkpoints.checkpoint_path(config.output)
    first_epoch = 0
    if config.resume:
        first_epoch = checkpoints.load(checkpoint, config, state)
    for epoch in range(first_epoch, config.epochs):
        net.train()
        if config.init is not None:
            freeze_norms(net)
        progress = tqdm(
            list(_batches(len(crops), config.batch_size, rng)),
            desc=f"epoch {epoch + 1}/{config.epochs}",
            unit="batch",
        )
        for index in progress:
            x = torch.from_numpy(crops_to_tensor(_augment(crops[index], rng)))
            idx = torch.from_numpy(index)
            loss = _losses(net, x, values_t[idx], colours_t[idx], faces_t[idx])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            progress.set_postfix(loss=f"{loss.item():.3f}")
        scores = accuracy(net, *val)
        history.append(scores)
        logger.info("epoch %d validation (held-out fonts): %s", epoch + 1, scores)
        checkpoints.save(checkpoint, config, epoch + 1, state)
    net.eval()
    check = export_model(net, config.output, sample=val[0][:64])
    checkpoint.unlink(missing_ok=True)
    summary = {
        "config": {k: str(v) for k, v in asdict(config).items()},
        "train_seeds": [train_seeds[0], train_seeds[-1]],
        "validation": history[-1] if history else {},
        "onnx_max_abs_diff": check["max_abs_diff"],
        "sha256": check["sha256"],
        "crop_size": CROP_SIZE,
        "font_files": {"train": len(train_fonts), "held_out": len(held_out_fonts)},
        "minutes": (time.perf_counter() - started) / 60,
    }
    logger.info("trained in %.1f min: %s", summary["minutes"], summary)
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.train", description=__doc__)
    add_arguments(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    summary = train(config_from_args(args))
    print(summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

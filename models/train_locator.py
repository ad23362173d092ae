"""Train the top-face network from freshly rendered scenes, then export it to ONNX.

    python -m models.train_locator --scenes 8000 --epochs 30 --cache .cache/locator

It trains on the CPU unless `--device cuda` names a GPU (nothing needs one); the
rendered scenes then wait in the GPU's memory and training windows are cut there.

Reproducible by seed: scenes come from `render_locator_sample` with seeds derived
from `--seed` (all in the locator's own range, below the held-out scenes of the
pipeline evaluation), and torch and numpy are seeded first. Rendered scenes can
be kept in a cache folder (one file per chunk of seeds), so a second run skips
the rendering. Needs the `train` extra; the app never imports this module.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from models import checkpoint as checkpoints
from models.chunk_cache import cached_chunk, look_key
from models.export import export_locator
from models.locator_net import TopNet
from models.onnx_init import freeze_norms, load_onnx_weights
from models.options import LocatorConfig, add_locator_arguments, locator_config_from_args
from models.real_photos import LabelledPhotos
from vision.read.tops_input import CHANNELS, NET_GRID, NET_STRIDE, to_tensor
from vision.synth.font_library import Split, font_files
from vision.synth.locator_training import render_locator_samples
from vision.synth.looks import LookMix
from vision.synth.seeds import (
    LOCATOR_RUN_SEEDS,
    LOCATOR_RUN_SPAN,
    LOCATOR_SEED_BASE,
    LOCATOR_VALIDATION_OFFSET,
)
from vision.synth.training import OUTLINE_SHARE

logger = logging.getLogger(__name__)

CHUNK = 100
"""Scenes rendered per worker task (and per cache file)."""

PIP_SHARE = 0.15
"""Share of real-world scenes with pip dice: any die is a die to find."""

DARK_SHARE = 0.6
"""Share of outline-font dice sets with dark bodies: dark dice with dim ink on a grey mat
are the hardest to find (BODIES alone gives about half)."""
_CHANNEL_WEIGHTS = (1.0, 2.0, 0.5)  # top, core, hand: cores decide how many dice there are


def scene_seeds(seed: int, count: int, validation: bool = False) -> list[int]:
    """First seeds of the chunks of a run's training (or validation) scenes."""
    if not 0 <= seed < LOCATOR_RUN_SEEDS:
        raise ValueError(f"seed must be in 0..{LOCATOR_RUN_SEEDS - 1}, got {seed}")
    first = LOCATOR_SEED_BASE + seed * LOCATOR_RUN_SPAN
    if validation:
        first += LOCATOR_VALIDATION_OFFSET
    if count > LOCATOR_VALIDATION_OFFSET:
        raise ValueError(f"at most {LOCATOR_VALIDATION_OFFSET} scenes per run, got {count}")
    return [first + offset for offset in range(0, count, CHUNK)]


def training_look(
    steep_share: float = 0.0, lean_share: float | None = None, aside_share: float = 0.0
) -> LookMix:
    """The dice sets and tables of the locator's real-world scenes: the training fonts
    (never the held-out or reserved ones), pip dice, photographic surfaces, clutter;
    `steep_share` of them seen as a phone held over the tray sees them, `lean_share` with
    dice leaning on the tray wall (None: as the renderer draws them), `aside_share` of the
    steep ones with the phone at the tray's side."""
    fonts = tuple(str(path) for path in font_files(Split.TRAIN))
    return LookMix(fonts, OUTLINE_SHARE, pip_share=PIP_SHARE, world=True, dark_share=DARK_SHARE,
                   steep_share=steep_share, lean_share=lean_share, aside_share=aside_share)


def _render_chunk(
    task: tuple[int, int, Path | None, LookMix | None],
) -> tuple[np.ndarray, ...]:
    first, count, cache, look = task
    name = f"locator-{look_key(look)}-{first}-{count}.npz"
    path = None if cache is None else cache / name
    return cached_chunk(
        path, ("images", "targets"), lambda: render_locator_samples(first, count, look)
    )


def render_scenes(
    seeds: list[int],
    count: int,
    workers: int,
    cache: Path | None,
    desc: str,
    look: LookMix | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Render (or load from `cache`) the chunks starting at `seeds`, `count` scenes in all;
    `look` draws the real-world share of them (None: trays of the first renderer only)."""
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    tasks = [(first, min(CHUNK, count - i * CHUNK), cache, look) for i, first in enumerate(seeds)]
    if workers <= 1:
        parts = [_render_chunk(task) for task in tqdm(tasks, desc=desc, unit="chunk")]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(
                tqdm(pool.map(_render_chunk, tasks), total=len(tasks), desc=desc, unit="chunk")
            )
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


class _Scenes:
    """Rendered scenes as uint8 tensors on the training device (a GPU's memory holds tens
    of thousands), from which batches of random windows are cut where they are trained."""

    def __init__(self, images: np.ndarray, targets: np.ndarray, device: torch.device) -> None:
        self.images = torch.from_numpy(images).to(device)  # (N, H, W, 3) BGR
        self.targets = torch.from_numpy(targets).to(device)  # (N, 3, H / 2, W / 2)
        height, width = images.shape[1:3]
        position = to_tensor(np.zeros((1, height, width, 3), np.uint8))[0, 3:]
        self.position = torch.from_numpy(position).to(device)  # (2, H, W)

    def __len__(self) -> int:
        return len(self.images)

    def batch(
        self,
        chosen: np.ndarray,
        rng: np.random.Generator | None = None,
        window: tuple[int, int] | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Network input and target maps of the scenes `chosen`; with `rng`, a random
        `window` (width, height) of each, starting on the network's coarsest grid
        (NET_GRID pixels), and random mirroring. The position channels are the whole
        frame's, so a window still knows where in the picture it lies."""
        device = self.images.device
        index = torch.from_numpy(np.asarray(chosen, np.int64)).to(device)
        _, full_height, full_width, _ = self.images.shape
        width, height = (full_width, full_height) if window is None else window
        if rng is not None and window is not None:
            count = len(index)
            left = rng.integers(0, (full_width - width) // NET_GRID + 1, count) * NET_GRID
            top = rng.integers(0, (full_height - height) // NET_GRID + 1, count) * NET_GRID
        else:
            left = top = np.zeros(len(index), np.int64)
        rows = torch.from_numpy(top[:, None] + np.arange(height)).to(device)
        cols = torch.from_numpy(left[:, None] + np.arange(width)).to(device)
        pixels = self.images[index[:, None, None], rows[:, :, None], cols[:, None, :]]
        position = self.position[:, rows[:, :, None], cols[:, None, :]].transpose(0, 1)
        x = torch.cat([pixels.permute(0, 3, 1, 2).float() * (1.0 / 255.0), position], dim=1)
        s = NET_STRIDE
        map_rows, map_cols = rows[:, ::s] // s, cols[:, ::s] // s
        y = self.targets[index[:, None, None], :, map_rows[:, :, None], map_cols[:, None, :]]
        y = y.permute(0, 3, 1, 2).float() * (1.0 / 255.0)
        if rng is not None:  # mirrored tables are tables too; mirrored positions go with them
            flips = rng.random(2) < 0.5
            if flips[0]:
                x, y = x.flip(3), y.flip(3)
                x[:, 3] = -x[:, 3]
            if flips[1]:
                x, y = x.flip(2), y.flip(2)
                x[:, 4] = -x[:, 4]
        return x, y


def _loss(
    logits: torch.Tensor, target: torch.Tensor, mask: torch.Tensor | None = None
) -> torch.Tensor:
    """Weighted binary cross-entropy per cell; `mask` (0..1 per cell and channel) leaves
    out the cells a sample cannot teach (a real photo's labelled dice)."""
    weights = torch.tensor(_CHANNEL_WEIGHTS, device=logits.device).view(1, -1, 1, 1)
    per_cell = nn.functional.binary_cross_entropy_with_logits(logits, target, reduction="none")
    if mask is not None:
        per_cell = per_cell * mask
    return (per_cell * weights).mean()


def _with_photos(
    x: torch.Tensor,
    y: torch.Tensor,
    photos: LabelledPhotos,
    rng: np.random.Generator,
    count: int,
    window: tuple[int, int],
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The batch (x, y) with `count` windows of labelled real photos appended, and the loss
    mask (which leaves out the parts of the photos a label cannot teach)."""
    images, targets, masks = photos.batch(rng, count, window)
    x_real = torch.from_numpy(to_tensor(images)).to(x.device)
    y_real = torch.from_numpy(targets.astype(np.float32) / 255.0).to(x.device)
    masks_real = torch.from_numpy(masks.astype(np.float32) / 255.0).to(x.device)
    mask = torch.cat([torch.ones_like(y), masks_real])
    return torch.cat([x, x_real]), torch.cat([y, y_real]), mask


def _kept_loss(logits: torch.Tensor, teacher: TopNet, x: torch.Tensor) -> torch.Tensor:
    """How far the maps have moved from `teacher`'s on the same windows: the weighted
    cross-entropy against its probabilities (learning without forgetting)."""
    with torch.no_grad():
        kept = torch.sigmoid(teacher(x))
    return _loss(logits, kept)


def evaluate(net: TopNet, scenes: _Scenes) -> dict[str, float]:
    """Loss and intersection-over-union of each map (at probability 0.5) on held-out scenes."""
    net.eval()
    hits = torch.zeros(len(CHANNELS), dtype=torch.float64)
    union = torch.zeros(len(CHANNELS), dtype=torch.float64)
    losses = []
    with torch.no_grad():
        for start in range(0, len(scenes), 32):
            x, y = scenes.batch(np.arange(start, min(start + 32, len(scenes))))
            logits = net(x)
            losses.append(float(_loss(logits, y)) * len(x))
            predicted = logits > 0
            truth = y > 0.5
            hits += (predicted & truth).sum(dim=(0, 2, 3)).cpu().double()
            union += (predicted | truth).sum(dim=(0, 2, 3)).cpu().double()
    scores = {
        f"iou_{name}": float(h / max(float(u), 1.0))
        for name, h, u in zip(CHANNELS, hits, union, strict=True)
    }
    scores["loss"] = sum(losses) / len(scenes)
    return scores


def training_device(name: str) -> torch.device:
    """The torch device named by --device, refused with a clear error where it is absent."""
    if name == "cuda":
        if not torch.cuda.is_available():
            raise RuntimeError("--device cuda: no CUDA device is available to torch here")
        torch.backends.cudnn.benchmark = True  # the training window's size never changes
    return torch.device(name)


def train(config: LocatorConfig) -> dict[str, float]:
    """Render, train, export; returns the validation figures of the exported network.

    The network is exported (and checked under ONNX Runtime) after every epoch, and the
    training state saved beside it, so a run cut short keeps its last finished epoch and
    `resume` goes on from there (the scenes come back from the cache)."""
    torch.manual_seed(config.seed)
    torch.set_num_threads(config.threads)
    device = training_device(config.device)
    rng = np.random.default_rng(config.seed)
    started = time.perf_counter()
    look = training_look(config.steep_share, config.lean_share, config.aside_share)
    images, targets = render_scenes(
        scene_seeds(config.seed, config.scenes),
        config.scenes,
        config.workers,
        config.cache,
        "training scenes",
        look,
    )
    val_images, val_targets = render_scenes(
        scene_seeds(config.seed, config.val_scenes, validation=True),
        config.val_scenes,
        config.workers,
        config.cache,
        "validation scenes",
        look,
    )
    logger.info(
        "rendered %d + %d scenes in %.0f s",
        len(images),
        len(val_images),
        time.perf_counter() - started,
    )
    scenes = _Scenes(images, targets, device)
    val_scenes = _Scenes(val_images, val_targets, device)
    photos = None
    real_count = 0
    if config.real_photos is not None:
        photos = LabelledPhotos(config.real_photos)
        real_count = max(1, round(config.batch_size * config.real_share))
        logger.info(
            "%d real photos from %s: %d windows per batch",
            len(photos),
            config.real_photos,
            real_count,
        )
    net = TopNet()
    teacher = None
    if config.init is not None:
        load_onnx_weights(net, config.init)
        logger.info("starting from %s", config.init)
        if config.keep_weight:
            teacher = TopNet()
            load_onnx_weights(teacher, config.init)
            teacher.to(device).eval()
            logger.info("keeping the maps close to it, weight %s", config.keep_weight)
    net.to(device)
    optimiser = torch.optim.AdamW(net.parameters(), lr=config.learning_rate, weight_decay=1e-4)
    steps = config.epochs * (len(images) // config.batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, config.learning_rate, total_steps=steps
    )
    state = checkpoints.TrainingState(net, optimiser, schedule, rng)
    checkpoint = checkpoints.checkpoint_path(config.output)
    first_epoch = checkpoints.load(checkpoint, config, state) if config.resume else 0
    scores = state.history[-1] if state.history else {}
    for epoch in range(first_epoch, config.epochs):
        net.train()
        if config.init is not None:
            freeze_norms(net)
        order = rng.permutation(len(images))
        batches = range(0, len(order) - config.batch_size + 1, config.batch_size)
        progress = tqdm(batches, desc=f"epoch {epoch + 1}/{config.epochs}", unit="batch")
        for start in progress:
            chosen = np.sort(order[start : start + config.batch_size])
            x, y = scenes.batch(chosen, rng, config.crop)
            mask = None
            if photos is not None:
                x, y, mask = _with_photos(x, y, photos, rng, real_count, config.crop)
            logits = net(x)
            loss = _loss(logits, y, mask)
            if teacher is not None:
                loss = loss + config.keep_weight * _kept_loss(logits, teacher, x)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            progress.set_postfix(loss=f"{loss.item():.4f}", refresh=False)
        scores = evaluate(net, val_scenes)
        state.history.append(scores)
        logger.info("epoch %d: %s", epoch + 1, {k: round(v, 4) for k, v in scores.items()})
        net.to("cpu").eval()
        export_locator(net, config.output, val_images[:4])
        net.to(device)
        checkpoints.save(checkpoint, config, epoch + 1, state)
    checkpoint.unlink(missing_ok=True)
    logger.info("trained in %.0f s", time.perf_counter() - started)
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_locator_arguments(parser)
    args = parser.parse_args(argv)
    try:
        config = locator_config_from_args(args)
    except ValueError as error:
        parser.error(str(error))
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    print(json.dumps(train(config), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

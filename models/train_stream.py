"""Train face classifiers while the crops are still being rendered, on a GPU when there is one.

`models.train` renders every crop first and then trains: right for two CPU
cores, where rendering and training take turns anyway. On a machine with many
cores and a GPU, rendering is the slow part and the GPU would wait; here worker
processes render chunks without pause into a pool kept on the device, and the
network trains on batches drawn from the pool as it grows, so a fixed time buys
as many distinct crops as the cores can draw. Several architectures
(`models.options.ARCHITECTURES`) can train side by side on the same batches, which
compares them on equal data in one run; a trained network can teach another
(`--teacher`), the usual way to bring a large network's accuracy to a small one.

Augmentation (quarter turns, colour gains, contrast, noise) is `models.train`'s,
done on the device. The learning rate follows the planned time (warm-up, then a
cosine to zero), so a run ends at a low rate whenever it is stopped. Every
evaluation writes each network's state beside its ONNX export (`--output-dir`),
and `--init` goes on from such a state, so a run cut short loses little; it also
takes a shipped ONNX export, whose folded batch norms then stay frozen.
`--hardest-share` learns each step from the part of the batch the network reads worst
(`hardest`): a fine-tune of a network already right on 97 % of fresh crops spends its
steps on the crops it errs on or doubts.

The chunk seeds are the ones `models.train` uses for the same `--seed`; which
chunks a batch draws from depends on how fast they arrive, so runs are
reproducible in data and settings but not bit for bit. Training only.
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import multiprocessing
import os
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import torch
from torch import nn

from models.export import export_model
from models.net import FaceNet, build_net
from models.options import ARCHITECTURES
from models.train import CHUNK, _render_chunk, chunk_seeds, supervised_loss
from vision.read.crops import CROP_SIZE, PIXEL_MEAN, PIXEL_STD
from vision.synth.font_library import HANDWRITTEN_BUILDS, Split, font_files
from vision.synth.looks import LookMix
from vision.synth.seeds import FACE_VALIDATION_OFFSET
from vision.synth.training import OUTLINE_SHARE

logger = logging.getLogger(__name__)

#: Crops in the pool before the first step: enough that the first batches are not
#: drawn from a handful of dice sets.
FIRST_STEP_CROPS = 20_000


@dataclass(frozen=True)
class StreamConfig:
    """What a streaming run does: its data, its networks, its time."""

    seed: int
    minutes: float
    architectures: tuple[str, ...]
    output_dir: Path
    max_crops: int = 4_000_000
    val_crops: int = 6_000
    batch_size: int = 512
    learning_rate: float = 2e-3
    weight_decay: float = 5e-5
    workers: int = max(1, (os.cpu_count() or 2) - 1)
    device: str = "cuda" if torch.cuda.is_available() else "cpu"
    init: Path | None = None
    teacher: str | None = None
    teacher_weight: float = 0.5
    taught_where_right: bool = False
    taught: tuple[str, ...] = ()
    eval_every_minutes: float = 1.0
    wide_ink_share: float = 0.0
    pip_share: float = 0.0
    steep_share: float = 0.0
    white_balance_share: float = 0.0
    real_negatives: Path | None = None
    real_negative_share: float = 0.0
    hardest_share: float = 1.0
    handwritten_share: float = 0.0


def _worker_setup() -> None:
    """One thread per rendering process: the processes are the parallelism."""
    import cv2

    cv2.setNumThreads(1)


class CropPool:
    """Rendered crops and labels on the device, filled by worker processes in seed order."""

    def __init__(self, seeds: Sequence[int], look: LookMix, workers: int, device: str) -> None:
        capacity = len(seeds) * CHUNK
        self.crops = torch.empty(
            (capacity, CROP_SIZE, CROP_SIZE, 3), dtype=torch.uint8, device=device
        )
        self.values = torch.empty(capacity, dtype=torch.long, device=device)
        self.colours = torch.empty(capacity, dtype=torch.long, device=device)
        self.faces = torch.empty(capacity, dtype=torch.bool, device=device)
        self.size = 0
        self._seeds = list(seeds)
        self._next = 0
        self._pending: list[Future] = []
        # Started, not forked: the pool takes on workers while the network trains, and a
        # process forked from one whose OpenMP threads are running can hang.
        self._executor = ProcessPoolExecutor(
            max_workers=workers,
            initializer=_worker_setup,
            mp_context=multiprocessing.get_context("spawn"),
        )
        self._render = partial(_render_chunk, look=look)
        self._in_flight = 2 * workers

    def refill(self) -> int:
        """Take in every chunk finished in order, keep the workers busy; crops added."""
        while len(self._pending) < self._in_flight and self._next < len(self._seeds):
            self._pending.append(self._executor.submit(self._render, self._seeds[self._next]))
            self._next += 1
        added = 0
        while self._pending and self._pending[0].done():
            crops, values, colours, faces = self._pending.pop(0).result()
            n = len(crops)
            end = self.size + n
            self.crops[self.size : end] = torch.from_numpy(crops).to(self.crops.device)
            self.values[self.size : end] = torch.from_numpy(values.astype(np.int64)).to(
                self.crops.device
            )
            self.colours[self.size : end] = torch.from_numpy(colours.astype(np.int64)).to(
                self.crops.device
            )
            self.faces[self.size : end] = torch.from_numpy(faces).to(self.crops.device)
            self.size = end
            added += n
        return added

    @property
    def exhausted(self) -> bool:
        return self._next >= len(self._seeds) and not self._pending

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def to_input(crops: torch.Tensor) -> torch.Tensor:
    """(N, S, S, 3) uint8 crops on the device to the network's input (crops_to_tensor)."""
    x = crops.permute(0, 3, 1, 2).float()
    return x * (1.0 / (255.0 * PIXEL_STD)) - PIXEL_MEAN / PIXEL_STD


WHITE_BALANCE_SHIFT = 0.3
"""The farthest a camera's white balance is off, as a gain: blue against red (colour
temperature) up to this much, green (tint) up to a third of it."""


def augment(
    crops: torch.Tensor, generator: torch.Generator, white_balance_share: float = 0.0
) -> torch.Tensor:
    """`models.train._augment` on the device: quarter turns, colour gains, brightness,
    contrast and noise on 30 % of the crops, rounded back to whole pixel values; and on
    `white_balance_share` of them a white balance off by up to WHITE_BALANCE_SHIFT."""
    n, device = len(crops), crops.device

    def normal(*shape: int, std: float) -> torch.Tensor:
        return torch.randn(shape, generator=generator, device=device) * std

    turns = torch.randint(0, 4, (n,), generator=generator, device=device)
    x = crops.float()
    for k in (1, 2, 3):
        picked = turns == k
        x[picked] = torch.rot90(x[picked], k, dims=(1, 2))
    gains = torch.exp(normal(n, 1, 1, 3, std=0.07) + normal(n, 1, 1, 1, std=0.15))
    if white_balance_share > 0:
        shifted = (torch.rand(n, generator=generator, device=device) < white_balance_share)
        uniform = torch.rand((n, 2), generator=generator, device=device) * 2 - 1
        temperature = uniform[:, 0] * WHITE_BALANCE_SHIFT * shifted
        tint = uniform[:, 1] * (WHITE_BALANCE_SHIFT / 3) * shifted
        balance = torch.stack([1 + temperature, 1 + tint, 1 - temperature], dim=1)  # BGR
        gains = gains * balance.view(n, 1, 1, 3)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    contrast = torch.exp(normal(n, 1, 1, 1, std=0.15))
    x = ((x - mean) * contrast + mean) * gains
    noisy = (torch.rand(n, generator=generator, device=device) < 0.3).float().view(n, 1, 1, 1)
    strength = 1 + 7 * torch.rand((n, 1, 1, 1), generator=generator, device=device)
    x = x + noisy * strength * torch.randn(x.shape, generator=generator, device=device)
    return x.clamp(0, 255).round().to(torch.uint8)


def losses(
    net: FaceNet,
    x: torch.Tensor,
    values: torch.Tensor,
    colours: torch.Tensor,
    faces: torch.Tensor,
    taught: tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None = None,
    teacher_weight: float = 0.5,
    taught_where_right: bool = False,
) -> torch.Tensor:
    """`models.train.supervised_loss`, plus (with a teacher's logits) the divergence from
    its value and colour beliefs on faces and its face belief on every crop.

    `taught_where_right`: the teacher's beliefs count only on the crops it reads right
    (`teacher_right`); the others learn from their labels alone. A fine-tune on new
    lettering then keeps the teacher's calibration where it holds and is not pulled back
    towards its mistakes."""
    logits = net(x)
    value_logits, colour_logits, face_logits = logits
    loss = supervised_loss(logits, values, colours, faces)
    if taught is not None:
        t_value, t_colour, t_face = taught
        weight = (
            teacher_right(taught, values, colours, faces).float()
            if taught_where_right
            else torch.ones_like(face_logits)
        )
        count = weight.sum().clamp(min=1.0)  # kept on the device: no wait on each step
        on_face = weight[faces]
        face_count = on_face.sum().clamp(min=1.0)
        per_face = nn.functional.kl_div(
            value_logits[faces].log_softmax(1),
            t_value[faces].log_softmax(1),
            log_target=True,
            reduction="none",
        ).sum(1) + 0.5 * nn.functional.kl_div(
            colour_logits[faces].log_softmax(1),
            t_colour[faces].log_softmax(1),
            log_target=True,
            reduction="none",
        ).sum(1)
        per_crop = nn.functional.binary_cross_entropy_with_logits(
            face_logits, torch.sigmoid(t_face), reduction="none"
        )
        soft = (per_face * on_face).sum() / face_count + (per_crop * weight).sum() / count
        loss = (1 - teacher_weight) * loss + teacher_weight * soft
    return loss


def teacher_right(
    taught: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    values: torch.Tensor,
    colours: torch.Tensor,
    faces: torch.Tensor,
) -> torch.Tensor:
    """Which crops the teacher reads right: a face as a face of its value and colour, a
    crop that is no face as no face."""
    t_value, t_colour, t_face = taught
    said_face = t_face > 0
    named = (t_value.argmax(1) == values) & (t_colour.argmax(1) == colours)
    return torch.where(faces, said_face & named, ~said_face)


def crop_losses(
    logits: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    values: torch.Tensor,
    colours: torch.Tensor,
    faces: torch.Tensor,
) -> torch.Tensor:
    """`models.train.supervised_loss` crop by crop: (N,) the face loss of every crop, plus
    the value and half the colour loss of the face crops."""
    value_logits, colour_logits, face_logits = logits
    loss = nn.functional.binary_cross_entropy_with_logits(
        face_logits, faces.float(), reduction="none"
    )
    if bool(faces.any()):
        loss = loss.clone()
        value = nn.functional.cross_entropy(value_logits[faces], values[faces], reduction="none")
        colour = nn.functional.cross_entropy(colour_logits[faces], colours[faces], reduction="none")
        loss[faces] += value + 0.5 * colour
    return loss


def hardest(
    net: FaceNet,
    x: torch.Tensor,
    labels: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    share: float,
) -> torch.Tensor:
    """Indices of the `share` of the batch `net` reads worst (highest `crop_losses`): a
    network that reads 97 % of fresh crops right learns little from the rest, so a step
    spent on the crops it gets wrong or doubts teaches more per second of CPU."""
    training = net.training
    net.eval()  # judged by its running statistics: the judging pass must not move them
    with torch.no_grad():
        per_crop = crop_losses(net(x), *labels)
    if training:
        net.train()
        if getattr(net, "frozen_norms", False):  # a shipped export's norms stay folded
            from models.onnx_init import freeze_norms

            freeze_norms(net)
    count = max(1, int(round(share * len(x))))
    return per_crop.topk(count).indices


def _with_real_negatives(
    batch: torch.Tensor,
    labels: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
    negatives: torch.Tensor,
    share: float,
    generator: torch.Generator,
) -> tuple[torch.Tensor, tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
    """The batch with its first `share` of crops replaced by real pip-dice crops, labelled
    "not a face" (no value, no colour)."""
    count = int(round(share * len(batch)))
    if count <= 0:
        return batch, labels
    picked = torch.randint(0, len(negatives), (count,), generator=generator, device=batch.device)
    batch = torch.cat([negatives[picked], batch[count:]])
    values, colours, faces = labels
    none = torch.full((count,), -1, dtype=values.dtype, device=values.device)
    return batch, (
        torch.cat([none, values[count:]]),
        torch.cat([none, colours[count:]]),
        torch.cat([torch.zeros(count, dtype=torch.bool, device=faces.device), faces[count:]]),
    )


PIP_VALIDATION_CROPS = 2_000
"""Crops of rendered pip dice (held-out seeds) each evaluation reads: how many pass as faces."""


def _pip_validation(config: StreamConfig) -> torch.Tensor | None:
    """Rendered pip-dice tops on the validation seeds, or None when the run draws none."""
    if not config.pip_share:
        return None
    seeds = chunk_seeds(config.seed + 1, PIP_VALIDATION_CROPS, offset=FACE_VALIDATION_OFFSET)
    pool = CropPool(seeds, LookMix(pip_share=1.0), config.workers, config.device)
    while not pool.exhausted:
        pool.refill()
        time.sleep(0.05)
    pool.close()
    # A pip scene has no face, so `render_face_crops` cuts no mat or gap beside its dice:
    # every crop is a pip die's top, jittered as a locator's box would be.
    return pool.crops[: pool.size]


@torch.no_grad()
def _outputs(net: FaceNet, crops: torch.Tensor, batch_size: int) -> list:
    net.eval()
    outs = [net(to_input(crops[i : i + batch_size])) for i in range(0, len(crops), batch_size)]
    return outs


@torch.no_grad()
def scores(
    net: FaceNet,
    val: tuple[torch.Tensor, ...],
    pip_val: torch.Tensor | None = None,
    batch_size: int = 2048,
) -> dict:
    """Value, colour, both and face accuracy of `net` on the validation crops, and (with
    `pip_val`) the share of pip-dice crops it takes for a face."""
    crops, values, colours, faces = val
    outs = _outputs(net, crops, batch_size)
    pip_faces = None
    if pip_val is not None:
        pip_outs = _outputs(net, pip_val, batch_size)
        pip_faces = float((torch.cat([o[2] for o in pip_outs]) > 0).float().mean())
    net.train()
    if getattr(net, "frozen_norms", False):  # a shipped export's folded norms stay folded
        from models.onnx_init import freeze_norms

        freeze_norms(net)
    value = torch.cat([o[0] for o in outs]).argmax(1)
    colour = torch.cat([o[1] for o in outs]).argmax(1)
    face = torch.cat([o[2] for o in outs]) > 0
    v_ok, c_ok = (value == values)[faces], (colour == colours)[faces]
    result = {
        "value": round(float(v_ok.float().mean()), 4),
        "colour": round(float(c_ok.float().mean()), 4),
        "both": round(float((v_ok & c_ok).float().mean()), 4),
        "face": round(float((face == faces).float().mean()), 4),
    }
    if pip_faces is not None:
        result["pips_as_faces"] = round(pip_faces, 4)
    return result


def learning_rate(peak: float, progress: float) -> float:
    """Warm-up over the first 3 % of the run, then a cosine down to zero."""
    if progress < 0.03:
        return peak * progress / 0.03
    return peak * 0.5 * (1 + math.cos(math.pi * min(1.0, (progress - 0.03) / 0.97)))


def _load_state(architecture: str, path: Path, device: str) -> FaceNet:
    net = build_net(architecture)
    net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
    return net.to(device)


def _load_export(architecture: str, path: Path, device: str) -> FaceNet:
    """A network of `architecture` holding the weights of a shipped ONNX export, its batch
    norms folded into the convolutions and kept frozen (`models.onnx_init`)."""
    from models.onnx_init import freeze_norms, load_onnx_weights

    net = build_net(architecture)
    try:
        load_onnx_weights(net, path)
    except ValueError as error:
        raise ValueError(f"{path} is not a {architecture!r} network: {error}") from error
    net.frozen_norms = True
    freeze_norms(net)
    return net.to(device)


def run(config: StreamConfig) -> dict:
    """Render and train for `config.minutes`; export each network; return the figures."""
    started = time.perf_counter()
    torch.manual_seed(config.seed)
    generator = torch.Generator(device=config.device).manual_seed(config.seed)
    config.output_dir.mkdir(parents=True, exist_ok=True)
    train_fonts = tuple(str(path) for path in font_files(Split.TRAIN))
    held_out_fonts = tuple(str(path) for path in font_files(Split.HELD_OUT))
    val_seeds = chunk_seeds(config.seed, config.val_crops, offset=FACE_VALIDATION_OFFSET)
    val_pool = CropPool(val_seeds, LookMix(held_out_fonts), config.workers, config.device)
    while not val_pool.exhausted:
        val_pool.refill()
        time.sleep(0.05)
    val_pool.close()
    val = (val_pool.crops, val_pool.values, val_pool.colours, val_pool.faces)
    logger.info(
        "validation: %d crops in held-out fonts (%d font files)", val_pool.size, len(held_out_fonts)
    )

    pool = CropPool(
        chunk_seeds(config.seed, config.max_crops),
        LookMix(
            train_fonts,
            OUTLINE_SHARE,
            pip_share=config.pip_share,
            wide_ink_share=config.wide_ink_share,
            steep_share=config.steep_share,
            handwritten=tuple(
                str(path) for path in font_files(Split.TRAIN, builds=HANDWRITTEN_BUILDS)
            ),
            handwritten_share=config.handwritten_share,
        ),
        config.workers,
        config.device,
    )
    real_negatives = None
    if config.real_negatives is not None and config.real_negative_share > 0:
        with np.load(config.real_negatives) as stored:
            real_negatives = torch.from_numpy(stored["crops"]).to(config.device)
        logger.info("%d crops of real pip dice as negatives", len(real_negatives))
    pip_val = _pip_validation(config)
    nets: dict[str, FaceNet] = {}
    from_export = config.init is not None and config.init.suffix == ".onnx"
    for name in config.architectures:
        if from_export:
            nets[name] = _load_export(name, config.init, config.device)
            logger.info("%s: from %s (batch norms folded and frozen)", name, config.init)
            continue
        saved = None if config.init is None else config.init / f"{name}.pt"
        nets[name] = (
            _load_state(name, saved, config.device)
            if saved is not None and saved.exists()
            else build_net(name).to(config.device)
        )
        logger.info(
            "%s: %s", name, f"from {saved}" if saved is not None and saved.exists() else "fresh"
        )
    if config.init is not None:
        before = {name: scores(net, val, pip_val) for name, net in nets.items()}
        logger.info("before training: %s", json.dumps(before))
    teacher = None
    if config.teacher is not None:
        architecture, name = config.teacher.split(":", 1)
        path = Path(name)
        load = _load_export if path.suffix == ".onnx" else _load_state
        teacher = load(architecture, path, config.device).eval()
    optimisers = {
        name: torch.optim.AdamW(
            net.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay
        )
        for name, net in nets.items()
    }
    budget = config.minutes * 60
    train_started = time.perf_counter()
    steps = seen = 0
    last_eval = train_started
    history: list[dict] = []
    autocast = torch.autocast(
        device_type="cuda", dtype=torch.bfloat16, enabled=config.device == "cuda"
    )
    try:
        while True:
            pool.refill()
            elapsed = time.perf_counter() - train_started
            if elapsed >= budget:
                break
            if pool.size < min(FIRST_STEP_CROPS, config.max_crops):
                time.sleep(0.1)
                train_started = time.perf_counter()  # the clock starts with the first step
                continue
            rate = learning_rate(config.learning_rate, elapsed / budget)
            index = torch.randint(
                0, pool.size, (config.batch_size,), generator=generator, device=config.device
            )
            batch = pool.crops[index]
            labels = (pool.values[index], pool.colours[index], pool.faces[index])
            if real_negatives is not None:
                batch, labels = _with_real_negatives(
                    batch, labels, real_negatives, config.real_negative_share, generator
                )
            x = to_input(augment(batch, generator, config.white_balance_share))
            if config.hardest_share < 1.0:  # the first network chooses for every one
                picked = hardest(next(iter(nets.values())), x, labels, config.hardest_share)
                x = x[picked]
                labels = (labels[0][picked], labels[1][picked], labels[2][picked])
            with autocast:
                taught = None
                if teacher is not None:
                    with torch.no_grad():
                        taught = tuple(t.float() for t in teacher(x))
                for name, net in nets.items():
                    optimiser = optimisers[name]
                    for group in optimiser.param_groups:
                        group["lr"] = rate
                    lesson = taught if not config.taught or name in config.taught else None
                    loss = losses(
                        net, x, *labels, taught=lesson, teacher_weight=config.teacher_weight,
                        taught_where_right=config.taught_where_right,
                    )
                    optimiser.zero_grad(set_to_none=True)
                    loss.backward()
                    optimiser.step()
            steps += 1
            seen += config.batch_size
            if time.perf_counter() - last_eval >= config.eval_every_minutes * 60:
                last_eval = time.perf_counter()
                entry = {
                    "minute": round((last_eval - train_started) / 60, 2),
                    "steps": steps,
                    "pool": pool.size,
                    "lr": round(rate, 6),
                    "loss": round(float(loss.detach()), 4),
                    **{name: scores(net, val, pip_val) for name, net in nets.items()},
                }
                history.append(entry)
                logger.info("%s", json.dumps(entry))
                for name, net in nets.items():
                    torch.save(net.state_dict(), config.output_dir / f"{name}.pt")
    finally:
        pool.close()
    summary: dict = {
        "seed": config.seed,
        "steps": steps,
        "crops_rendered": pool.size,
        "crop_passes": seen,
        "minutes": round((time.perf_counter() - started) / 60, 2),
        "history": history,
        "final": {},
    }
    sample = val[0][:64].cpu().numpy()
    for name, net in nets.items():
        summary["final"][name] = scores(net, val, pip_val)
        torch.save(net.state_dict(), config.output_dir / f"{name}.pt")
        cpu = net.to("cpu").float().eval()
        check = export_model(cpu, config.output_dir / f"{name}.onnx", sample=sample)
        summary["final"][name]["sha256"] = check["sha256"]
    (config.output_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    logger.info("final: %s", json.dumps(summary["final"]))
    return summary


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.train_stream", description=__doc__)
    parser.add_argument("--seed", type=int, required=True, help="run seed (chunks as models.train)")
    parser.add_argument(
        "--minutes", type=float, required=True, help="training time after the first step"
    )
    parser.add_argument(
        "--arch",
        action="append",
        choices=sorted(ARCHITECTURES),
        required=True,
        help="a network to train (repeat to train several on the same batches)",
    )
    parser.add_argument("--output-dir", type=Path, required=True)
    parser.add_argument("--max-crops", type=int, default=4_000_000)
    parser.add_argument("--val-crops", type=int, default=6_000)
    parser.add_argument("--batch-size", type=int, default=512)
    parser.add_argument("--learning-rate", type=float, default=2e-3)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    parser.add_argument(
        "--init",
        type=Path,
        default=None,
        help="folder of <arch>.pt states to go on from, or a shipped .onnx export",
    )
    parser.add_argument(
        "--teacher", default=None,
        help="ARCH:STATE.pt (or ARCH:EXPORT.onnx) of a network that teaches",
    )
    parser.add_argument("--teacher-weight", type=float, default=0.5)
    parser.add_argument(
        "--taught-where-right", action="store_true",
        help="the teacher's beliefs count only on the crops it reads right (a fine-tune on "
        "new lettering keeps the teacher's calibration where it holds)",
    )
    parser.add_argument(
        "--taught",
        action="append",
        default=[],
        choices=sorted(ARCHITECTURES),
        help="a network the teacher teaches (default: every one)",
    )
    parser.add_argument(
        "--wide-ink-share",
        type=float,
        default=0.0,
        help="share of training dice sets drawn with looks.WIDE_INKS (validation keeps the "
        "table's inks)",
    )
    parser.add_argument(
        "--pip-share", type=float, default=0.0,
        help="share of training scenes showing pip dice, whose tops are taught as not faces",
    )
    parser.add_argument(
        "--steep-share", type=float, default=0.0,
        help="share of training scenes seen by a camera tipped up to 35 degrees",
    )
    parser.add_argument(
        "--white-balance-share", type=float, default=0.0,
        help="share of training crops with a white balance off by up to 30 %%",
    )
    parser.add_argument(
        "--real-negatives", type=Path, default=None,
        help="an .npz of real pip-dice crops (python -m models.real_negatives)",
    )
    parser.add_argument(
        "--real-negative-share", type=float, default=0.03,
        help="share of each batch drawn from --real-negatives",
    )
    parser.add_argument(
        "--hardest-share", type=float, default=1.0,
        help="learn each step from this share of the batch the network reads worst "
        "(1: every crop; see `hardest`)",
    )
    parser.add_argument(
        "--handwritten-share", type=float, default=0.0,
        help="share of training dice sets drawn in the training scripts and hands alone "
        "(font_library.HANDWRITTEN_BUILDS; beside their share of all the training fonts)",
    )
    args = parser.parse_args(argv)
    if not 0.0 < args.hardest_share <= 1.0:
        parser.error("--hardest-share must lie in (0, 1]")
    for name in ("wide_ink_share", "pip_share", "steep_share", "white_balance_share",
                 "real_negative_share", "handwritten_share"):
        if not 0.0 <= getattr(args, name) <= 1.0:
            parser.error(f"--{name.replace('_', '-')} must lie between 0 and 1")
    if args.real_negatives is not None and not args.real_negatives.is_file():
        parser.error(f"--real-negatives: no file {args.real_negatives}")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    config = StreamConfig(
        seed=args.seed,
        minutes=args.minutes,
        architectures=tuple(args.arch),
        output_dir=args.output_dir,
        max_crops=args.max_crops,
        val_crops=args.val_crops,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        workers=args.workers,
        init=args.init,
        teacher=args.teacher,
        teacher_weight=args.teacher_weight,
        taught_where_right=args.taught_where_right,
        taught=tuple(args.taught),
        wide_ink_share=args.wide_ink_share,
        pip_share=args.pip_share,
        steep_share=args.steep_share,
        white_balance_share=args.white_balance_share,
        real_negatives=args.real_negatives,
        real_negative_share=args.real_negative_share if args.real_negatives else 0.0,
        hardest_share=args.hardest_share,
        handwritten_share=args.handwritten_share,
    )
    run(config)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Fit the face probe (`vision.read.face_probe`): a Phase 10 face, or another numeral die's.

    PHASE10_FONT_ROOTS=... .venv/bin/python -m models.train_face_probe
    .venv/bin/python -m models.train_face_probe --phase10-doubt 0.002 --out probe.json

Three steps, each printing what it did:

1. **Boxes.** Scenes from the face probe's own seeds (`vision.synth.seeds.FACE_PROBE_PARTS`)
   are drawn and read by the shipped locator and classifier (or `--model`/`--locator`):
   Phase 10 sets, light and dark, half of them seen steep, and trays of other numeral
   dice (`vision.synth.other_dice`). Each box the locator finds gives the classifier's
   unit descriptor, whether the reader would decode it, and what it lies on: a Phase 10
   die, another die, or neither. Boxes are cached per chunk under `--cache`, tagged
   with the classifier's hash, so a second run (or one cut short) reads only what is
   missing.
2. **Fit.** A network of one hidden layer (`--hidden` units, full batch, Adam, weight
   decay `--weight-decay`; the descriptors standardised, the scaling folded into its
   hidden layer) of Phase 10 die against other die, on the boxes drawn in the training
   fonts. Every `--report` steps it prints the loss and the share of boxes it gets
   right. A plain logistic regression caught 77 % of the other faces where this catches
   about 90 % (MODEL_CARD.md, "Other dice's faces marked").
3. **Threshold.** On the boxes drawn in the held-out fonts (other scenes, never
   reported), the odds under which `--phase10-doubt` of the Phase 10 dice the reader
   decodes fall: a die under them is marked. Printed with the share of the other dice's
   decoded faces it catches; saved to `--out` (default `models/face_probe.json`).

Training only (imports torch). `python -m models.train_face_probe --help`.
"""

from __future__ import annotations

import argparse
import logging
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from models.chunk_cache import cached_chunk
from models.readout_reader import readout_reader
from vision.read.face_probe import PROBE_FILE, FaceProbe
from vision.synth.seeds import FACE_PROBE_PART_SPAN, FACE_PROBE_PARTS, FACE_PROBE_SEED_BASE

logger = logging.getLogger(__name__)

#: Scenes per cached chunk.
CHUNK_SCENES = 100
#: What a box lies on (`Boxes.on`).
ON_NOTHING, ON_OTHER_DIE, ON_PHASE10_DIE = -1, 0, 1
NAMES = ("descriptors", "on", "decoded", "face_prob")


@dataclass(frozen=True)
class ProbeConfig:
    """One run's settings (the command's options)."""

    fit_scenes: int = 1500
    """Phase 10 scenes per body group (light, dark) to fit on."""
    fit_trays: int = 3000
    """Trays of other dice to fit on."""
    threshold_scenes: int = 800
    """Phase 10 scenes per body group to choose the threshold on."""
    threshold_trays: int = 800
    """Trays of other dice to measure the threshold's catch on."""
    hidden: int = 32
    steps: int = 3000
    learning_rate: float = 3e-3
    weight_decay: float = 1e-3
    seed: int = 0
    report: int = 500
    phase10_doubt: float = 0.001
    workers: int = 2

    def __post_init__(self) -> None:
        for name in ("fit_scenes", "fit_trays", "threshold_scenes", "threshold_trays"):
            if not CHUNK_SCENES <= getattr(self, name) <= FACE_PROBE_PART_SPAN:
                raise ValueError(f"{name} must be {CHUNK_SCENES}..{FACE_PROBE_PART_SPAN}")
        if not 0.0 < self.phase10_doubt < 0.5:
            raise ValueError(f"phase10_doubt must be between 0 and 0.5, got {self.phase10_doubt}")
        for name in ("hidden", "steps", "report", "workers"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        if self.learning_rate <= 0 or self.weight_decay < 0:
            raise ValueError("the learning rate must be positive and the weight decay not negative")

    def chunks(self, part: str) -> int:
        """Chunks of `part` (a name of FACE_PROBE_PARTS) drawn."""
        stage, kind = part.split("-", 1)
        scenes = getattr(self, f"{stage}_{'trays' if kind == 'other' else 'scenes'}")
        return -(-scenes // CHUNK_SCENES)


# --- step 1: boxes --------------------------------------------------------------------

_READER = None


def _init_worker(model: str | None, locator: str | None) -> None:
    global _READER
    _READER = readout_reader(model, locator)


def _scene(part: str, seed: int):
    """The image of `seed` in `part`, and its dice as (centre, radius, on) rows."""
    from vision.evaluation import MATCH_RADIUS, STEEP_VIEW, evaluation_scene
    from vision.synth.font_library import Split, font_files
    from vision.synth.locator_training import STEEP_TRAINING_VIEW
    from vision.synth.looks import eval_group
    from vision.synth.other_dice import other_dice_scene

    fitting = part.startswith("fit")
    if part.endswith("other"):
        fonts = [str(p) for p in font_files(Split.TRAIN if fitting else Split.HELD_OUT)]
        tray = other_dice_scene(seed, fonts)
        return tray.image, [(d.centre, d.radius, ON_OTHER_DIE) for d in tray.dice]
    body = part.rsplit("-", 1)[1]  # light or dark
    group = f"{'train' if fitting else 'held-out'}-{body}"
    steep = (STEEP_TRAINING_VIEW if fitting else STEEP_VIEW) if seed % 2 else None
    scene = evaluation_scene(seed, eval_group(group).mix(), steep=steep)
    return scene.image, [
        (tuple(die.centre), MATCH_RADIUS * float(np.linalg.norm(die.corners[0] - die.corners[1])),
         ON_PHASE10_DIE) for die in scene.dice]


def _draw_chunk(part: str, chunk: int) -> tuple[np.ndarray, ...]:
    """Read one chunk's scenes; per located box its descriptor, what it lies on, whether
    the reader decodes it, and the face head's belief."""
    from vision.read.pipeline import read_dice

    assert _READER is not None
    first = (FACE_PROBE_SEED_BASE + FACE_PROBE_PARTS.index(part) * FACE_PROBE_PART_SPAN
             + chunk * CHUNK_SCENES)
    descriptors, on, decoded, face_prob = [], [], [], []
    for seed in range(first, first + CHUNK_SCENES):
        image, dice = _scene(part, seed)
        readout = _READER.readout(image)
        if not readout.located.boxes or readout.descriptors is None:
            continue
        keep, _ = read_dice(readout)
        centres = np.array([np.mean(np.asarray(box), 0) for box in readout.located.boxes])
        lies_on = np.full(len(centres), ON_NOTHING)
        for centre, radius, kind in dice:
            distance = np.hypot(*(centres - np.asarray(centre)).T)
            nearest = int(np.argmin(distance))
            if distance[nearest] <= radius:
                lies_on[nearest] = kind
        descriptors.append(np.asarray(readout.descriptors, np.float32))
        on.append(lies_on)
        decoded.append(np.isin(np.arange(len(centres)), keep))
        face_prob.append(np.asarray(readout.face_prob, np.float32))
    return (np.concatenate(descriptors), np.concatenate(on), np.concatenate(decoded),
            np.concatenate(face_prob))


@dataclass(frozen=True)
class Boxes:
    """The boxes of some parts: descriptors (N, D), and per box `on` (ON_*), whether it is
    decoded, and the face head's belief."""

    descriptors: np.ndarray
    on: np.ndarray
    decoded: np.ndarray
    face_prob: np.ndarray

    @classmethod
    def joined(cls, chunks: list[tuple[np.ndarray, ...]]) -> Boxes:
        return cls(*(np.concatenate([c[k] for c in chunks]) for k in range(len(NAMES))))


def draw_boxes(cache: Path, config: ProbeConfig, model: Path | None,
               locator: Path | None, classifier_sha256: str) -> dict[str, Boxes]:
    """Every part's boxes, drawing the chunks missing (for the classifier at `model`,
    whose SHA-256 tags the chunks)."""
    tag = classifier_sha256[:16]
    if locator is not None:
        tag += "-" + locator.stem
    cache.mkdir(parents=True, exist_ok=True)
    wanted = [(part, c) for part in FACE_PROBE_PARTS for c in range(config.chunks(part))]
    path_of = {key: cache / f"{key[0]}-{key[1]:04d}-{tag}.npz" for key in wanted}
    missing = [key for key in wanted if not path_of[key].is_file()]
    logger.info("boxes: %d chunks of %d scenes wanted, %d cached, drawing %d with %d workers",
                len(wanted), CHUNK_SCENES, len(wanted) - len(missing), len(missing),
                config.workers)
    started = time.monotonic()
    if missing:
        with ProcessPoolExecutor(config.workers, initializer=_init_worker,
                                 initargs=(str(model) if model else None,
                                           str(locator) if locator else None)) as pool:
            futures = {key: pool.submit(_draw_chunk, *key) for key in missing}
            for done, (key, future) in enumerate(futures.items(), 1):
                cached_chunk(path_of[key], NAMES, future.result)
                logger.info("  %s chunk %d drawn (%d of %d, %.0f s)", key[0], key[1], done,
                            len(missing), time.monotonic() - started)
    return {part: Boxes.joined([cached_chunk(path_of[(part, c)], NAMES, _no_render)
                                for c in range(config.chunks(part))])
            for part in FACE_PROBE_PARTS}


def _no_render() -> tuple[np.ndarray, ...]:
    raise RuntimeError("a chunk drawn a moment ago is missing from the cache")


# --- step 2: fit ------------------------------------------------------------------------

def fold_scaling(hidden_weights: np.ndarray, hidden_bias: np.ndarray, mean: np.ndarray,
                 spread: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A hidden layer (H, D) weights and (H,) biases that read descriptors standardised by
    `mean` and `spread`, as (D, H) weights and (H,) biases reading them as they are."""
    scaled = np.asarray(hidden_weights, np.float64) / spread
    return scaled.T, np.asarray(hidden_bias, np.float64) - scaled @ mean


def fit_probe(phase10: np.ndarray, other: np.ndarray, config: ProbeConfig = ProbeConfig()
              ) -> FaceProbe:
    """A probe (threshold 0) whose odds tell (N, D) Phase 10 descriptors from (M, D) other
    dice's: one hidden layer on the descriptors standardised by the Phase 10 ones' spread,
    trained full batch; prints the loss and the share right every `config.report` steps."""
    import torch

    torch.manual_seed(config.seed)
    x = np.concatenate([phase10, other]).astype(np.float64)
    mean, spread = phase10.mean(axis=0), phase10.std(axis=0) + 1e-6
    inputs = torch.tensor((x - mean) / spread, dtype=torch.float32)
    labels = torch.tensor(np.r_[np.ones(len(phase10)), np.zeros(len(other))],
                          dtype=torch.float32)
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], config.hidden), torch.nn.ReLU(),
                              torch.nn.Linear(config.hidden, 1))
    optimiser = torch.optim.Adam(net.parameters(), lr=config.learning_rate,
                                 weight_decay=config.weight_decay)
    for step in range(1, config.steps + 1):
        optimiser.zero_grad()
        odds = net(inputs).squeeze(1)
        loss = torch.nn.functional.binary_cross_entropy_with_logits(odds, labels)
        loss.backward()
        optimiser.step()
        if step % config.report == 0 or step == config.steps:
            right = float(((odds > 0).float() == labels).float().mean())
            logger.info("  step %d of %d: loss %.4f, %.2f %% of boxes right", step,
                        config.steps, float(loss.detach()), 100 * right)
    first, last = net[0], net[2]
    hidden_weights, hidden_bias = fold_scaling(first.weight.detach().numpy(),
                                               first.bias.detach().numpy(), mean, spread)
    return FaceProbe(hidden_weights, hidden_bias, last.weight.detach().numpy()[0],
                     float(last.bias.detach().numpy()[0]), 0.0)


# --- step 3: threshold ---------------------------------------------------------------

def choose_threshold(phase10_odds: np.ndarray, doubt: float) -> float:
    """The odds under which a share `doubt` of the Phase 10 dice's odds fall."""
    if not len(phase10_odds):
        raise ValueError("no Phase 10 dice to choose a threshold on")
    return float(np.quantile(phase10_odds, doubt))


def _decoded(boxes: Boxes, on: int) -> np.ndarray:
    return boxes.descriptors[(boxes.on == on) & boxes.decoded]


def train(config: ProbeConfig, cache: Path, out: Path, model: Path | None = None,
          locator: Path | None = None) -> FaceProbe:
    """Draw, fit, choose the threshold and save the probe; prints what each step found."""
    from vision.read.classifier import FaceClassifier

    sha256 = FaceClassifier.load(model).sha256
    boxes = draw_boxes(cache, config, model, locator, sha256)
    fit_p10 = np.concatenate([boxes[p].descriptors[boxes[p].on == ON_PHASE10_DIE]
                              for p in ("fit-phase10-light", "fit-phase10-dark")])
    fit_other = boxes["fit-other"].descriptors[boxes["fit-other"].on == ON_OTHER_DIE]
    logger.info("fit: %d Phase 10 dice and %d other dice's faces (training fonts), %d hidden "
                "units", len(fit_p10), len(fit_other), config.hidden)
    probe = fit_probe(fit_p10, fit_other, config)
    seen_p10, seen_other = probe.odds(fit_p10), probe.odds(fit_other)
    logger.info("  on its own boxes: %.2f %% of Phase 10 dice and %.2f %% of other faces "
                "under 0", 100 * np.mean(seen_p10 < 0), 100 * np.mean(seen_other < 0))
    held_p10 = np.concatenate([_decoded(boxes[p], ON_PHASE10_DIE)
                               for p in ("threshold-phase10-light", "threshold-phase10-dark")])
    held_other = _decoded(boxes["threshold-other"], ON_OTHER_DIE)
    p10_odds, other_odds = probe.odds(held_p10), probe.odds(held_other)
    threshold = choose_threshold(p10_odds, config.phase10_doubt)
    logger.info("threshold (held-out fonts, decoded boxes): %d Phase 10 dice, %d other faces",
                len(held_p10), len(held_other))
    for doubt in sorted({0.0005, 0.001, 0.002, 0.005, config.phase10_doubt}):
        at = choose_threshold(p10_odds, doubt)
        logger.info("  doubting %.2f %% of Phase 10 dice (odds under %.2f) catches %.1f %% "
                    "of other faces", 100 * doubt, at, 100 * np.mean(other_odds < at))
    probe = replace(probe, min_odds=threshold, classifier_sha256=sha256)
    probe.save(out)
    logger.info("saved %s: odds under %.3f doubted", out, threshold)
    return probe


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = ProbeConfig()
    parser.add_argument("--fit-scenes", type=int, default=defaults.fit_scenes,
                        help=f"Phase 10 scenes per body group to fit on ({defaults.fit_scenes})")
    parser.add_argument("--fit-trays", type=int, default=defaults.fit_trays,
                        help=f"trays of other dice to fit on ({defaults.fit_trays})")
    parser.add_argument("--threshold-scenes", type=int, default=defaults.threshold_scenes,
                        help="Phase 10 scenes per body group to choose the threshold on "
                             f"({defaults.threshold_scenes})")
    parser.add_argument("--threshold-trays", type=int, default=defaults.threshold_trays,
                        help="trays of other dice to measure the threshold on "
                             f"({defaults.threshold_trays})")
    parser.add_argument("--hidden", type=int, default=defaults.hidden,
                        help=f"hidden units ({defaults.hidden})")
    parser.add_argument("--steps", type=int, default=defaults.steps,
                        help=f"full-batch training steps ({defaults.steps})")
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate,
                        help=f"Adam's learning rate ({defaults.learning_rate})")
    parser.add_argument("--weight-decay", type=float, default=defaults.weight_decay,
                        help=f"Adam's weight decay ({defaults.weight_decay})")
    parser.add_argument("--seed", type=int, default=defaults.seed,
                        help=f"the network's first weights ({defaults.seed})")
    parser.add_argument("--report", type=int, default=defaults.report,
                        help=f"print the loss every this many steps ({defaults.report})")
    parser.add_argument("--phase10-doubt", type=float, default=defaults.phase10_doubt,
                        help="share of Phase 10 dice the threshold doubts "
                             f"({defaults.phase10_doubt})")
    parser.add_argument("--workers", type=int, default=defaults.workers,
                        help=f"processes drawing scenes ({defaults.workers})")
    parser.add_argument("--cache", type=Path, default=Path(".cache/face_probe"),
                        help="where drawn boxes are kept (.cache/face_probe)")
    parser.add_argument("--out", type=Path, default=PROBE_FILE,
                        help="the probe file written (models/face_probe.json)")
    parser.add_argument("--model", type=Path, default=None,
                        help="face classifier (.onnx; default: shipped)")
    parser.add_argument("--locator", type=Path, default=None,
                        help="top-face locator (.onnx; default: shipped)")
    args = parser.parse_args(argv)
    try:
        config = ProbeConfig(args.fit_scenes, args.fit_trays, args.threshold_scenes,
                             args.threshold_trays, args.hidden, args.steps,
                             args.learning_rate, args.weight_decay, args.seed, args.report,
                             args.phase10_doubt, args.workers)
    except ValueError as error:
        parser.error(str(error))
    from vision.synth.font_library import MissingFontError, Split, font_files

    try:
        font_files(Split.TRAIN)
        font_files(Split.HELD_OUT)
    except MissingFontError as error:  # `bash models/install_fonts.sh`
        parser.error(str(error))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    train(config, args.cache, args.out, args.model, args.locator)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

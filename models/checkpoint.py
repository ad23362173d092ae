"""A training run's state after each finished epoch, so a run cut short goes on where it
stopped (a long CPU run spans several sittings; a lent GPU's time runs out).

Shared by the classifier's and the locator's trainers. A checkpoint remembers the options
that decide the run (`run_key`); one written by another run is refused with a message,
never silently mixed in. Needs the `train` extra (torch).
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

logger = logging.getLogger(__name__)

TRANSIENT_OPTIONS = frozenset({"threads", "workers", "resume", "cache", "device"})
"""Options that change how fast a run goes or where it runs, never what it learns, so a
run may resume with other values of them (fewer threads, another machine)."""


def checkpoint_path(output: Path) -> Path:
    """Where a training run keeps its last finished epoch, beside the model it will write."""
    return output.with_name(output.stem + ".checkpoint.pt")


def run_key(config: Any) -> dict[str, str]:
    """What must match for a checkpoint to go on: every option but the transient ones."""
    return {k: str(v) for k, v in asdict(config).items() if k not in TRANSIENT_OPTIONS}


@dataclass
class TrainingState:
    """The parts of a run that a checkpoint saves and restores."""

    net: torch.nn.Module
    optimiser: torch.optim.Optimizer
    schedule: torch.optim.lr_scheduler.LRScheduler
    rng: np.random.Generator
    history: list[dict] = field(default_factory=list)


def save(path: Path, config: Any, epochs_done: int, state: TrainingState) -> None:
    """The state after `epochs_done` finished epochs, written whole or not at all."""
    saved = {
        "run": run_key(config),
        "epochs_done": epochs_done,
        "history": state.history,
        "net": state.net.state_dict(),
        "optimiser": state.optimiser.state_dict(),
        "schedule": state.schedule.state_dict(),
        "numpy_rng": state.rng.bit_generator.state,
        "torch_rng": torch.get_rng_state(),
    }
    partial = path.with_name(path.name + ".partial")
    torch.save(saved, partial)
    partial.replace(path)


def load(path: Path, config: Any, state: TrainingState) -> int:
    """Restore `state` from `path` and return the epochs it had finished (0 when there is
    no checkpoint). Its history is restored too."""
    if not path.exists():
        logger.info("no checkpoint at %s: starting from the first epoch", path)
        return 0
    saved = torch.load(path, weights_only=False, map_location="cpu")
    wanted = run_key(config)
    if saved["run"] != wanted:
        differ = sorted(
            k for k in set(saved["run"]) | set(wanted) if saved["run"].get(k) != wanted.get(k)
        )
        raise ValueError(
            f"{path} belongs to another training run (it differs in {', '.join(differ)}); "
            "delete it or match its options"
        )
    state.net.load_state_dict(saved["net"])
    state.optimiser.load_state_dict(saved["optimiser"])
    state.schedule.load_state_dict(saved["schedule"])
    state.rng.bit_generator.state = saved["numpy_rng"]
    torch.set_rng_state(saved["torch_rng"])
    state.history[:] = saved["history"]
    logger.info("resuming after epoch %d from %s", saved["epochs_done"], path)
    return int(saved["epochs_done"])

"""A training run cut short goes on where it stopped (`models.checkpoint`), and never
from another run's state."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest


@dataclass(frozen=True)
class _Run:
    seed: int = 0
    learning_rate: float = 1e-2
    threads: int = 2
    output: Path = Path("net.onnx")


def _state(seed: int = 0):
    import torch

    from models.checkpoint import TrainingState

    torch.manual_seed(seed)
    net = torch.nn.Linear(3, 1)
    optimiser = torch.optim.AdamW(net.parameters(), lr=1e-2)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 1e-2, total_steps=20)
    return TrainingState(net, optimiser, schedule, np.random.default_rng(seed))


def _epoch(state) -> None:
    import torch

    for _ in range(5):
        x = torch.from_numpy(state.rng.normal(size=(8, 3)).astype(np.float32))
        loss = (state.net(x) - x.sum(1, keepdim=True) + 0.1 * torch.randn(8, 1)).pow(2).mean()
        state.optimiser.zero_grad()
        loss.backward()
        state.optimiser.step()
        state.schedule.step()
    state.history.append({"loss": loss.item()})


def test_a_run_resumed_from_its_checkpoint_ends_as_an_uninterrupted_one(tmp_path):
    torch = pytest.importorskip("torch")
    from models import checkpoint

    whole = _state()
    for _ in range(4):
        _epoch(whole)

    first = _state()
    path = tmp_path / "run.checkpoint.pt"
    for done in (1, 2):
        _epoch(first)
        checkpoint.save(path, _Run(), done, first)
    _epoch(first)  # an epoch lost to the interruption: never saved

    resumed = _state(seed=1)  # a new process: other weights and draws until loaded
    assert checkpoint.load(path, _Run(threads=1), resumed) == 2  # threads may differ
    for _ in range(2):
        _epoch(resumed)
    assert resumed.history == whole.history
    for got, want in zip(resumed.net.parameters(), whole.net.parameters(), strict=True):
        torch.testing.assert_close(got, want, rtol=0, atol=0)
    assert not path.with_name(path.name + ".partial").exists()


def test_no_checkpoint_starts_from_the_first_epoch(tmp_path):
    pytest.importorskip("torch")
    from models import checkpoint

    state = _state()
    assert checkpoint.load(tmp_path / "none.pt", _Run(), state) == 0
    assert state.history == []


def test_another_runs_checkpoint_is_refused_naming_what_differs(tmp_path):
    pytest.importorskip("torch")
    from models import checkpoint

    state = _state()
    _epoch(state)
    path = checkpoint.checkpoint_path(tmp_path / "tops.onnx")
    assert path == tmp_path / "tops.checkpoint.pt"
    checkpoint.save(path, _Run(), 1, state)
    with pytest.raises(ValueError, match="differs in learning_rate, seed"):
        checkpoint.load(path, replace(_Run(), seed=3, learning_rate=0.1), _state())

"""Blending two exported classifiers by their weights (training only: needs torch and onnx)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow
torch = pytest.importorskip("torch", reason="blending is training code: the train extra")
pytest.importorskip("onnx", reason="blending is training code: the train extra")


def _export(path: Path, seed: int, architecture: str = "small") -> Path:
    from models.export import export_model
    from models.net import build_net

    torch.manual_seed(seed)
    net = build_net(architecture).eval()
    with torch.no_grad():  # norms with statistics, as a trained network's (folded on export)
        for module in net.modules():
            if isinstance(module, torch.nn.BatchNorm2d):
                module.running_mean.uniform_(-0.1, 0.1)
                module.running_var.uniform_(0.5, 1.5)
                module.bias.uniform_(-0.1, 0.1)
    sample = np.random.default_rng(seed).integers(0, 256, (4, 40, 40, 3), np.uint8)
    export_model(net, path, sample)
    return path


def _probabilities(path: Path, crops: np.ndarray) -> np.ndarray:
    from vision.read.classifier import FaceClassifier

    return FaceClassifier.load(path).predict(crops).value_probs


def test_the_ends_of_a_blend_are_the_two_networks_and_the_middle_neither(tmp_path):
    from models.blend import blend

    first, second = _export(tmp_path / "a.onnx", 1), _export(tmp_path / "b.onnx", 2)
    crops = np.random.default_rng(3).integers(0, 256, (6, 40, 40, 3), np.uint8)
    ends = {}
    for weight in (0.0, 0.5, 1.0):
        output = tmp_path / f"blend{weight}.onnx"
        blend(first, second, weight, output, "small")
        ends[weight] = _probabilities(output, crops)
    np.testing.assert_allclose(ends[0.0], _probabilities(first, crops), atol=1e-5)
    np.testing.assert_allclose(ends[1.0], _probabilities(second, crops), atol=1e-5)
    assert np.abs(ends[0.5] - ends[0.0]).max() > 1e-3
    assert np.abs(ends[0.5] - ends[1.0]).max() > 1e-3


def test_networks_of_different_sizes_or_a_weight_out_of_range_are_refused(tmp_path):
    from models.blend import blend

    small, wide = _export(tmp_path / "s.onnx", 1), _export(tmp_path / "w.onnx", 1, "wide")
    with pytest.raises(ValueError, match="weight must be 0 to 1"):
        blend(small, small, 1.5, tmp_path / "x.onnx", "small")
    with pytest.raises(ValueError):
        blend(small, wide, 0.5, tmp_path / "x.onnx", "small")

"""Export a trained FaceNet to ONNX, check ONNX Runtime agrees with PyTorch, write its hash.

Training only (imports torch). The hash file beside the model is what the
runtime verifies before it trusts the weights.
"""

from __future__ import annotations

import hashlib
import logging
import warnings
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch

from models.net import FaceNet, FaceNetProbabilities, build_net
from vision.read.crops import CROP_SIZE, crops_to_tensor
from vision.read.model_io import FACE_EMBEDDING as EMBEDDING_OUTPUT
from vision.read.model_io import FACE_INPUT as INPUT_NAME
from vision.read.model_io import FACE_OUTPUTS as CLASSIFIER_OUTPUTS
from vision.read.model_io import LOCATOR_INPUT, LOCATOR_OUTPUTS

logger = logging.getLogger(__name__)

OPSET = 17
OUTPUT_NAMES = (*CLASSIFIER_OUTPUTS, EMBEDDING_OUTPUT)
MAX_ABS_DIFF = 1e-4


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def hash_path(model: Path) -> Path:
    """Where a model's SHA-256 lives: beside it, same name, `.sha256`."""
    return model.with_suffix(".sha256")


def export_model(net: FaceNet, path: Path, sample: np.ndarray) -> dict:
    """Write `net` to `path` (opset 17, dynamic batch), verify it on `sample` crops, hash it.

    Raises RuntimeError when ONNX Runtime and PyTorch disagree by more than MAX_ABS_DIFF.
    """
    model = FaceNetProbabilities(net).eval()
    dummy = torch.zeros(1, 3, CROP_SIZE, CROP_SIZE)
    axes = {name: {0: "batch"} for name in (INPUT_NAME, *OUTPUT_NAMES)}
    return _export_checked(
        model, Path(path), dummy, crops_to_tensor(sample), INPUT_NAME, OUTPUT_NAMES, axes
    )


def _export_checked(
    model: torch.nn.Module,
    path: Path,
    example: torch.Tensor,
    x: np.ndarray,
    input_name: str,
    output_names: tuple[str, ...],
    axes: dict[str, dict[int, str]],
) -> dict:
    """Export `model` (traced on `example`) to `path`, check ONNX Runtime agrees with
    PyTorch on the input `x`, write the hash beside it; the figures of the export."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # The TorchScript exporter gives opset 17 with dynamic axes in one file; torch
    # 2.13 flags it and its helpers deprecated (and its torch.export path still warns
    # internally), so deprecations are silenced for this call only; ONNX Runtime's
    # agreement with PyTorch is checked below.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            model,
            (example,),
            str(path),
            input_names=[input_name],
            output_names=list(output_names),
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )
    with torch.no_grad():
        outputs = model(torch.from_numpy(x))
    expected = [t.numpy() for t in (outputs if isinstance(outputs, tuple) else (outputs,))]
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    got = session.run(list(output_names), {input_name: x})
    diff = max(float(np.abs(a - b).max()) for a, b in zip(expected, got, strict=True))
    if diff > MAX_ABS_DIFF:
        raise RuntimeError(f"ONNX Runtime and PyTorch differ by {diff:.2e} on {path}")
    digest = sha256_of(path)
    hash_path(path).write_text(f"{digest}  {path.name}\n")
    logger.info(
        "exported %s (%d bytes, sha256 %s, max abs diff %.2e)",
        path,
        path.stat().st_size,
        digest,
        diff,
    )
    return {"max_abs_diff": diff, "sha256": digest, "bytes": path.stat().st_size}


def export_locator(net, path: Path, sample: np.ndarray) -> dict:
    """Write a trained TopNet to `path` (opset 17, dynamic batch, height and width),
    verify ONNX Runtime against PyTorch on `sample` network inputs (N, H, W, 3) uint8,
    and write the hash beside it."""
    from models.locator_net import TopNetProbabilities
    from vision.read.tops_input import to_tensor

    model = TopNetProbabilities(net).eval()
    x = to_tensor(sample)
    axes = {
        LOCATOR_INPUT: {0: "batch", 2: "height", 3: "width"},
        LOCATOR_OUTPUTS[0]: {0: "batch", 2: "map_height", 3: "map_width"},
    }
    return _export_checked(
        model, Path(path), torch.from_numpy(x[:1]), x, LOCATOR_INPUT, LOCATOR_OUTPUTS, axes
    )


def reexport_classifier(source: Path, output: Path, architecture: str = "small") -> dict:
    """Write the classifier at `source` (of size `architecture`; those exported before
    dice profiles were all "small") again, same weights, with the current graph's
    outputs (the embedding, which such models lack), and check the new file gives the
    same probabilities as the old one."""
    from models.onnx_init import load_onnx_weights

    net = build_net(architecture)
    load_onnx_weights(net, Path(source))
    net.eval()
    sample = np.random.default_rng(0).integers(0, 256, (16, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    figures = export_model(net, Path(output), sample)
    x = crops_to_tensor(sample)
    before = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"])
    after = ort.InferenceSession(str(output), providers=["CPUExecutionProvider"])
    old = before.run(list(CLASSIFIER_OUTPUTS), {INPUT_NAME: x})
    new = after.run(list(CLASSIFIER_OUTPUTS), {INPUT_NAME: x})
    diff = max(float(np.abs(a - b).max()) for a, b in zip(old, new, strict=True))
    if diff > MAX_ABS_DIFF:
        raise RuntimeError(f"{output} differs from {source} by {diff:.2e}")
    return figures


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(
        description="Write an exported classifier again with the current graph's outputs."
    )
    parser.add_argument("source", type=Path, help="the exported classifier (.onnx)")
    parser.add_argument("output", type=Path, help="where to write it (its .sha256 beside it)")
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    print(reexport_classifier(arguments.source, arguments.output))

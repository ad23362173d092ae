"""Blend two exported classifiers of one architecture by averaging their weights.

A network fine-tuned on new data drifts from what it knew; the weighted mean of the
original's weights and the fine-tuned one's (weight-space ensembling) often reads
unseen data better than either, at the cost of one network. Both files must be
exports of the same architecture (`models.options.ARCHITECTURES`), loaded back with
their batch norms folded (`models.onnx_init`), so every weight lines up one to one.
Training only.

    python -m models.blend models/dice_faces.onnx tuned.onnx --weight 0.5 --output blend.onnx
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import numpy as np

from models.export import export_model
from models.net import build_net
from models.onnx_init import load_onnx_weights
from vision.read.crops import CROP_SIZE


def blend(first: Path, second: Path, weight: float, output: Path, architecture: str) -> dict:
    """Write to `output` the network whose every weight is (1 - weight) times `first`'s
    plus `weight` times `second`'s, exported and checked as any classifier
    (`models.export.export_model`); returns the export's figures."""
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"weight must be 0 to 1, got {weight}")
    nets = []
    for path in (first, second):
        net = build_net(architecture)
        load_onnx_weights(net, Path(path))
        nets.append(net.eval())
    blended = nets[0].state_dict()
    for name, value in nets[1].state_dict().items():
        if value.is_floating_point():
            blended[name] = (1.0 - weight) * blended[name] + weight * value
    nets[0].load_state_dict(blended)
    sample = np.random.default_rng(0).integers(0, 256, (16, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    return export_model(nets[0], Path(output), sample)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path, help="an exported classifier (.onnx)")
    parser.add_argument("second", type=Path, help="another export of the same architecture")
    parser.add_argument("--weight", type=float, default=0.5, help="share of the second (0.5)")
    parser.add_argument("--output", type=Path, required=True, help="the blend (.onnx)")
    parser.add_argument("--arch", default="wide", help="the architecture of both (wide)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    print(blend(args.first, args.second, args.weight, args.output, args.arch))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

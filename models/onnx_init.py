"""Start training from a shipped network: its ONNX export loaded back into PyTorch.

The exporter folds each batch norm into the convolution before it, so the
export holds one weight and bias per convolution and none for the norms. Loading
puts those into the network's convolutions (in graph order, which is the order
the modules run), turns each batch norm into the folded bias (scale 1, mean 0,
variance 1) and keeps it so while fine-tuning (`freeze_norms`); linear layers
and unfolded convolutions come back by name. Training only (needs onnx).
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn


def _is_block(module: nn.Module) -> bool:
    return (
        isinstance(module, nn.Sequential)
        and len(module) >= 2
        and isinstance(module[0], nn.Conv2d)
        and isinstance(module[1], nn.BatchNorm2d)
    )


def load_onnx_weights(net: nn.Module, path: Path) -> None:
    """Copy the weights of the ONNX file at `path` (an export of a network shaped like
    `net`) into `net`; ValueError when the shapes or the number of layers differ."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    exported = [node.input[1:] for node in model.graph.node if node.op_type == "Conv"]
    convs = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    norms = {id(block[0]): block[1] for block in net.modules() if _is_block(block)}
    if len(exported) != len(convs):
        raise ValueError(f"{path} has {len(exported)} convolutions, the network {len(convs)}")

    def tensor(name: str, like: torch.Tensor) -> torch.Tensor:
        value = torch.from_numpy(weights[name].copy())
        if value.shape != like.shape:
            raise ValueError(f"{path}: {name} is {tuple(value.shape)}, not {tuple(like.shape)}")
        return value

    with torch.no_grad():
        for conv, (weight_name, bias_name) in zip(convs, exported, strict=True):
            conv.weight.copy_(tensor(weight_name, conv.weight))
            norm = norms.get(id(conv))
            if norm is None:
                conv.bias.copy_(tensor(bias_name, conv.bias))
            else:
                norm.weight.fill_(1.0)
                norm.bias.copy_(tensor(bias_name, norm.bias))
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
        for name, module in net.named_modules():
            if isinstance(module, nn.Linear):
                module.weight.copy_(tensor(f"net.{name}.weight", module.weight))
                module.bias.copy_(tensor(f"net.{name}.bias", module.bias))


def freeze_norms(net: nn.Module) -> None:
    """Batch norms use their stored statistics (a fine-tuned network keeps its folding)."""
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()

"""The face classifier network (PyTorch, training only; the app runs the ONNX export).

A small VGG-style CNN on a CROP_SIZE square crop, global-average pooled so a
face reads the same at any rotation, with three heads: value (1..10, W),
colour (the palette) and face (is this a die's top face at all).
"""

from __future__ import annotations

import torch
from torch import nn

from models.options import ARCHITECTURES, SHIPPED_ARCHITECTURE
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS

#: FaceNet's default size, "small" of `models.options.ARCHITECTURES`: the stem's channels,
#: then (channels, conv layers) of each later stage; a 2x2 max-pool sits between stages
#: (40 -> 20 -> 10 -> 5 pixels for 40-pixel crops).
STEM, STAGES = ARCHITECTURES["small"]


def _block(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class FaceNet(nn.Module):
    """Crops (N, 3, S, S) normalised as crops_to_tensor -> value, colour and face logits.

    Sized for a CPU: about 15 M multiply-adds per crop, so training fits in half an
    hour and ten crops classify in a few milliseconds on one Raspberry Pi core.
    """

    def __init__(self, stem: int = STEM, stages: tuple[tuple[int, int], ...] = STAGES) -> None:
        super().__init__()
        layers: list[nn.Module] = [_block(3, stem, stride=2)]
        cin = stem
        for i, (width, repeats) in enumerate(stages):
            if i > 0:
                layers.append(nn.MaxPool2d(2))
            for _ in range(repeats):
                layers.append(_block(cin, width))
                cin = width
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.value = nn.Linear(cin, len(VALUE_LABELS))
        self.colour = nn.Linear(cin, len(COLOUR_LABELS))
        self.face = nn.Linear(cin, 1)

    def embed(self, x: torch.Tensor) -> torch.Tensor:
        """The pooled features the three heads read: a dice profile compares faces by them."""
        return self.pool(self.features(x)).flatten(1)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        features = self.embed(x)
        return self.value(features), self.colour(features), self.face(features).squeeze(1)


def build_net(architecture: str = SHIPPED_ARCHITECTURE) -> FaceNet:
    """A fresh FaceNet of a named size (ARCHITECTURES); ValueError naming the known ones."""
    if architecture not in ARCHITECTURES:
        known = ", ".join(ARCHITECTURES)
        raise ValueError(f"unknown architecture {architecture!r}; known: {known}")
    stem, stages = ARCHITECTURES[architecture]
    return FaceNet(stem, stages)


class FaceNetProbabilities(nn.Module):
    """The exported graph: probabilities instead of logits, as the runtime consumes them,
    and the embedding (`FaceNet.embed`) a dice profile compares faces by."""

    def __init__(self, net: FaceNet) -> None:
        super().__init__()
        self.net = net

    def forward(
        self, x: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
        features = self.net.embed(x)
        value, colour = self.net.value(features), self.net.colour(features)
        face = self.net.face(features).squeeze(1)
        return value.softmax(1), colour.softmax(1), torch.sigmoid(face), features

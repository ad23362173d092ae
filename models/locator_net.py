"""The top-face network (PyTorch, training only; the app runs the ONNX export).

A small encoder-decoder: four stride-2 stages down to 1/16 of the input, the
last one dilated for context (is this square a die's top, or the side of a die
leaning on the wall?), then back up to 1/2 with skip connections. Three maps come out: top faces,
their cores (to part touching dice) and the hand. About 0.3 G multiply-adds
on a 320x240 input, a few milliseconds on one CPU core.
"""

from __future__ import annotations

import torch
from torch import nn

from vision.read.tops_input import CHANNELS, INPUT_CHANNELS

WIDTHS: tuple[int, int, int, int] = (16, 32, 64, 96)


def _block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TopNet(nn.Module):
    """Frames (N, 5, H, W) as `to_tensor` makes them (H and W multiples of 16) -> logits
    (N, 3, H/2, W/2)."""

    def __init__(self, widths: tuple[int, int, int, int] = WIDTHS) -> None:
        super().__init__()
        a, b, c, d = widths
        # colours centred and scaled; the position channels pass through as they are
        self.register_buffer("mean", torch.tensor([0.4, 0.4, 0.4, 0.0, 0.0]).view(1, -1, 1, 1))
        self.register_buffer("scale", torch.tensor([4.0, 4.0, 4.0, 1.0, 1.0]).view(1, -1, 1, 1))
        self.down1 = nn.Sequential(_block(INPUT_CHANNELS, a, 2), _block(a, a))
        self.down2 = nn.Sequential(_block(a, b, 2), _block(b, b))
        self.down3 = nn.Sequential(_block(b, c, 2), _block(c, c))
        self.down4 = nn.Sequential(_block(c, d, 2), _block(d, d, dilation=2))
        self.reduce4 = nn.Conv2d(d, c, 1)
        self.up3 = _block(c, c)
        self.reduce3 = nn.Conv2d(c, b, 1)
        self.up2 = _block(b, b)
        self.reduce2 = nn.Conv2d(b, a, 1)
        self.up1 = _block(a, a)
        self.head = nn.Conv2d(a, len(CHANNELS), 1)
        self.upsample = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - self.mean) * self.scale
        half = self.down1(x)
        quarter = self.down2(half)
        eighth = self.down3(quarter)
        y = self.up3(self.upsample(self.reduce4(self.down4(eighth))) + eighth)
        y = self.up2(self.upsample(self.reduce3(y)) + quarter)
        y = self.up1(self.upsample(self.reduce2(y)) + half)
        return self.head(y)


class TopNetProbabilities(nn.Module):
    """The exported graph: probabilities instead of logits, as the runtime consumes them."""

    def __init__(self, net: TopNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.net(x))

"""What the top-face network sees and predicts: its input size and its output maps.

Shared by the runtime locator (`vision.read.tops`) and the training samples
(`vision.synth.locator_training`), so a frame is shrunk the same way in both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Final

import cv2
import numpy as np

NET_WIDTH: Final[int] = 320
"""Frames are shrunk to this width (height in proportion, a multiple of NET_GRID)."""

NET_GRID: Final[int] = 16
"""The network halves its input four times: input sides are multiples of this."""

NET_STRIDE: Final[int] = 2
"""Input pixels per output cell of the network's maps."""

#: The network's output channels, each a probability per cell.
TOP, CORE, HAND = 0, 1, 2
CHANNELS: Final[tuple[str, ...]] = ("top", "core", "hand")

CORE_SHRINK: Final[float] = 0.5
"""A core is its top face shrunk about its centre by this factor: cores of touching
tops stay apart, so each core is one die."""


def net_size(width: int, height: int, net_width: int = NET_WIDTH) -> tuple[int, int]:
    """(width, height) of the network input for a frame of this size.

    `net_width` (a multiple of NET_GRID) is NET_WIDTH for every frame the network was
    trained on; the locator picks another one to bring dice to their trained size."""
    if width < 1 or height < 1:
        raise ValueError(f"frame size must be positive, got {width}x{height}")
    if net_width < NET_GRID or net_width % NET_GRID:
        raise ValueError(f"network width must be a multiple of {NET_GRID}, got {net_width}")
    net_height = max(NET_GRID, int(net_width * height / width / NET_GRID + 0.5) * NET_GRID)
    return net_width, net_height


def output_size(width: int, height: int, net_width: int = NET_WIDTH) -> tuple[int, int]:
    """(width, height) of the network's maps for a frame of this size."""
    net_width, net_height = net_size(width, height, net_width)
    return net_width // NET_STRIDE, net_height // NET_STRIDE


@dataclass(frozen=True)
class ExposureSettings:
    """When a frame short of dice is shown to the network with its levels changed, and how
    (`second_looks`): lifted when under-exposed, darkened when clipped at white, else with
    its shadows lightened and with its highlights darkened."""

    target: float = 140.0
    """A frame whose brightest part (the 99th percentile of each pixel's brightest
    channel) is below this is under-exposed, darker than nearly all the frames the
    network was trained on, and is looked at lifted to it (`lift_exposure`)."""
    max_lift: float = 3.0
    """The most a frame is brightened: a nearly black frame stays dark, its noise
    unamplified."""
    clipped: int = 250
    """A pixel whose brightest channel reaches this is (nearly) clipped at white."""
    over_exposed_share: float = 0.9
    """A frame with this share of its pixels clipped is over-exposed: a pale table and
    light dice alike turned white, a light die told from the table only by the few
    levels left below it; it is looked at with its highlights darkened."""
    darken_gamma: float = 2.0
    """The tone curve of a darkened look, level x to 255 (x / 255) ** darken_gamma: it
    spreads the levels just below white, keeps white white, and undoes a soft tone
    curve that lifts dark dice towards a mid-grey cloth."""
    lighten_gamma: float = 0.5
    """The tone curve of a lightened look, level x to 255 (x / 255) ** lighten_gamma: it
    spreads the levels just above black, keeps black and white, and undoes a hard tone
    curve that sinks dark dice into black on a bright cloth, where no gain would lift
    them."""


def _brightest_channel(image: np.ndarray) -> np.ndarray:
    """(H, W) uint8: each pixel's brightest channel of a uint8 BGR image."""
    channels = cv2.split(image)
    return cv2.max(cv2.max(channels[0], channels[1]), channels[2])


def brightest(image: np.ndarray) -> float:
    """The 99th percentile of each pixel's brightest channel of a uint8 BGR image."""
    if not image.size:
        return 0.0
    counts = cv2.calcHist([_brightest_channel(image)], [0], None, [256], [0, 256])
    counts = counts.ravel().cumsum()
    return float(np.searchsorted(counts, 0.99 * counts[-1]))


def lift_exposure(image: np.ndarray, settings: ExposureSettings = ExposureSettings()) -> np.ndarray:
    """The uint8 BGR image brightened (one gain for all channels, at most
    `settings.max_lift`) so its brightest part reaches `settings.target`, as a camera's
    auto exposure would; an image already that bright is returned as it is."""
    level = brightest(image)
    target = settings.target
    if not image.size or level >= target:
        return image
    return cv2.convertScaleAbs(image, alpha=min(target / max(level, 1.0), settings.max_lift))


def under_exposed(frame: np.ndarray, settings: ExposureSettings = ExposureSettings()) -> bool:
    """Whether the frame, as the network sees it, is darker than `settings.target`."""
    return brightest(net_input(frame)) < settings.target


@lru_cache(maxsize=2)
def _tone_curve(gamma: float) -> np.ndarray:
    """The 256-entry lookup table of level x -> 255 (x / 255) ** gamma."""
    return np.round(255.0 * (np.arange(256) / 255.0) ** gamma).astype(np.uint8)


def darken_highlights(
    image: np.ndarray, settings: ExposureSettings = ExposureSettings()
) -> np.ndarray:
    """The uint8 BGR image through the `settings.darken_gamma` tone curve (white stays
    white)."""
    return cv2.LUT(image, _tone_curve(settings.darken_gamma))


def lighten_shadows(
    image: np.ndarray, settings: ExposureSettings = ExposureSettings()
) -> np.ndarray:
    """The uint8 BGR image through the `settings.lighten_gamma` tone curve (black stays
    black)."""
    return cv2.LUT(image, _tone_curve(settings.lighten_gamma))


def _clipped(image: np.ndarray, settings: ExposureSettings) -> bool:
    """Whether at least `settings.over_exposed_share` of a uint8 BGR image's pixels reach
    `settings.clipped`."""
    if not image.size:
        return False
    top = _brightest_channel(image)
    _, clipped = cv2.threshold(top, settings.clipped - 1, 1, cv2.THRESH_BINARY)
    return cv2.countNonZero(clipped) >= settings.over_exposed_share * top.size


def over_exposed(frame: np.ndarray, settings: ExposureSettings = ExposureSettings()) -> bool:
    """Whether the frame, as the network sees it, is clipped at white over at least
    `settings.over_exposed_share` of its pixels."""
    return _clipped(net_input(frame), settings)


class Exposure(Enum):
    """How a frame's levels are shown to the network: as they are, lifted (an
    under-exposed frame, `lift_exposure`), with its highlights darkened (an
    over-exposed one or a soft tone curve, `darken_highlights`) or its shadows
    lightened (a hard tone curve, `lighten_shadows`)."""

    AS_SEEN = "as seen"
    LIFTED = "lifted"
    DARKENED = "darkened"
    LIGHTENED = "lightened"


def second_looks(
    frame: np.ndarray, settings: ExposureSettings = ExposureSettings()
) -> tuple[Exposure, ...]:
    """How else to show a frame short of dice to the network: lifted when it is
    under-exposed, darkened when it is over-exposed; otherwise its exposure is fine
    but its tone curve may not be (a camera's hard or soft curve hides dark dice in
    the shadows or pale ones in the highlights), so lightened and darkened. The frame
    is shrunk to the network's input once for the tests."""
    small = net_input(frame)
    if brightest(small) < settings.target:
        return (Exposure.LIFTED,)
    if _clipped(small, settings):
        return (Exposure.DARKENED,)
    return (Exposure.LIGHTENED, Exposure.DARKENED)


def net_input(
    frame: np.ndarray,
    net_width: int = NET_WIDTH,
    *,
    exposure: Exposure = Exposure.AS_SEEN,
    settings: ExposureSettings = ExposureSettings(),
) -> np.ndarray:
    """The frame (H, W, 3) uint8 BGR resized to the network's input size, still uint8 BGR
    (shrunk by area averaging, enlarged bilinearly), its levels shown as `exposure`
    says (`settings`: how)."""
    height, width = frame.shape[:2]
    size = net_size(width, height, net_width)
    shrink = size[0] <= width
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    return _SHOWN[exposure](small, settings)


#: What each Exposure does to the shrunk frame.
_SHOWN: dict[Exposure, Callable[[np.ndarray, ExposureSettings], np.ndarray]] = {
    Exposure.AS_SEEN: lambda image, settings: image,
    Exposure.LIFTED: lift_exposure,
    Exposure.DARKENED: darken_highlights,
    Exposure.LIGHTENED: lighten_shadows,
}


INPUT_CHANNELS: Final[int] = 5
"""B, G, R, then each pixel's x and y across the frame (-1..1): where a die lies
tells which of its side faces the camera sees, so a side face is not taken for a top."""


def to_tensor(images: np.ndarray) -> np.ndarray:
    """(N, H, W, 3) uint8 BGR whole frames -> (N, 5, H, W) float32: colours in 0..1 (the
    graph normalises them) and the two position channels."""
    count, height, width, _ = images.shape
    tensor = np.empty((count, INPUT_CHANNELS, height, width), np.float32)
    tensor[:, :3] = images.transpose(0, 3, 1, 2)
    tensor[:, :3] *= 1.0 / 255.0
    tensor[:, 3:] = _position(height, width)
    return tensor


@lru_cache(maxsize=4)
def _position(height: int, width: int) -> np.ndarray:
    """(2, H, W) x and y of each pixel centre across the frame, -1..1 (read-only: shared
    by every frame of that size)."""
    xs = (np.arange(width, dtype=np.float32) + 0.5) * (2.0 / width) - 1.0
    ys = (np.arange(height, dtype=np.float32) + 0.5) * (2.0 / height) - 1.0
    position = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None]))
    position.flags.writeable = False
    return position

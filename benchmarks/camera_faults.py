"""What a real camera does to a tray that a clean render does not: one table of faults.

A phone held over the table or a Pi camera in a dim room blurs, streaks, compresses,
under- or over-exposes, tints and tilts its pictures. `FAULTS` names each fault, says
what it stands for and applies it to a frame (BGR uint8) and, where the fault moves
the dice (a tilted camera), to their true corners too, so a reading of the faulty
frame is scored against where the dice now are. `benchmarks/eval_camera_faults.py`
reads the second renderer's trays (`foreign_scenes`) through each fault.
Evaluation only: nothing is tuned on these frames.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Spoil = Callable[[np.ndarray, np.random.Generator], np.ndarray]
"""A fault on a frame: (image, rng) -> the spoilt image."""


@dataclass(frozen=True)
class CameraFault:
    """One way a camera spoils a frame: `spoil(image, rng)` gives the faulty frame;
    `warp` (None: the dice stay where they are) maps (width, height) to the 3x3
    homography the fault applies to the frame's points."""

    name: str
    stands_for: str
    spoil: Spoil
    warp: Callable[[int, int], np.ndarray] | None = None


def _clean(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return image


def _defocus(sigma: float) -> Spoil:
    return lambda image, rng: cv2.GaussianBlur(image, (0, 0), sigma)


def _streak(length: int) -> Spoil:
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    return lambda image, rng: cv2.filter2D(image, -1, kernel)


def _jpeg(quality: int) -> Spoil:
    def spoil(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(encoded, cv2.IMREAD_COLOR)

    return spoil


def _noise(sigma: float, gain: float = 1.0) -> Spoil:
    """Sensor noise of `sigma` grey levels on `gain` of the light."""
    return lambda image, rng: np.clip(
        image * gain + rng.normal(0.0, sigma, image.shape), 0, 255
    ).astype(np.uint8)


def _tone(gamma: float) -> Spoil:
    table = np.clip(255.0 * (np.arange(256) / 255.0) ** gamma + 0.5, 0, 255).astype(np.uint8)
    return lambda image, rng: cv2.LUT(image, table)


def _white_balance(blue: float, red: float) -> Spoil:
    gains = np.array([blue, 1.0, red], np.float32)
    return lambda image, rng: np.clip(image * gains, 0, 255).astype(np.uint8)


def _saturation(share: float) -> Spoil:
    def spoil(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        grey = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
        return cv2.addWeighted(image, share, grey, 1.0 - share, 0.0)

    return spoil


def _resolution(share: float) -> Spoil:
    def spoil(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        small = cv2.resize(image, None, fx=share, fy=share, interpolation=cv2.INTER_AREA)
        return cv2.resize(small, (image.shape[1], image.shape[0]), interpolation=cv2.INTER_LINEAR)

    return spoil


def _keystone(share: float) -> Callable[[int, int], np.ndarray]:
    """The homography of a camera tipped towards the frame's bottom edge: the top edge
    shrinks by `share` of the width at each end."""

    def warp(width: int, height: int) -> np.ndarray:
        inset = share * width
        source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
        target = np.float32([[inset, 0], [width - inset, 0], [width, height], [0, height]])
        return cv2.getPerspectiveTransform(source, target)

    return warp


def _warped(warp: Callable[[int, int], np.ndarray]) -> Spoil:
    def spoil(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        height, width = image.shape[:2]
        return cv2.warpPerspective(
            image, warp(width, height), (width, height), borderMode=cv2.BORDER_REPLICATE
        )

    return spoil


_TILT = _keystone(0.12)

#: The faults, mildest first within each kind. Sizes are in frame pixels of a
#: 1280x960 tray whose dice measure 52 to 78 pixels.
FAULTS: tuple[CameraFault, ...] = (
    CameraFault("clean", "the tray as drawn", _clean),
    CameraFault("defocus", "out of focus: a Gaussian blur of 2.2 pixels", _defocus(2.2)),
    CameraFault("motion", "a shaken phone: a 7-pixel streak", _streak(7)),
    CameraFault("jpeg", "a heavily compressed photo: JPEG quality 25", _jpeg(25)),
    CameraFault("noise", "a small sensor in a dim room: noise of 12 grey levels", _noise(12.0)),
    CameraFault("dim", "under-exposed: 45 % of the light, with noise", _noise(4.0, gain=0.45)),
    CameraFault("bright", "over-exposed: a tone curve of gamma 0.6", _tone(0.6)),
    CameraFault("blown", "over-exposed and clipped: 140 % of the light, cut at white",
                _noise(0.0, gain=1.4)),
    CameraFault("contrasty", "a hard tone curve: gamma 1.6", _tone(1.6)),
    CameraFault("warm", "a warm lamp: blue -25 %, red +25 %", _white_balance(0.75, 1.25)),
    CameraFault(
        "cool", "daylight through a window: blue +25 %, red -25 %", _white_balance(1.25, 0.75)
    ),
    CameraFault("washed out", "a cheap sensor: 60 % of the colour saturation", _saturation(0.6)),
    CameraFault("half resolution", "a far or cheap camera: half the pixels", _resolution(0.5)),
    CameraFault("tilted", "a camera tipped by about 15 degrees: keystone", _warped(_TILT), _TILT),
)


def fault(name: str) -> CameraFault:
    """The fault of this name (ValueError naming the known ones)."""
    for candidate in FAULTS:
        if candidate.name == name:
            return candidate
    known = ", ".join(f.name for f in FAULTS)
    raise ValueError(f"unknown camera fault {name!r}: known are {known}")


def moved_truth(truth: Sequence, homography: np.ndarray) -> tuple:
    """Each true die (a dataclass with `centre` and (4, 2) `corners`) where the
    homography puts it."""

    def moved(points: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), homography)

    return tuple(
        dataclasses.replace(
            die,
            centre=tuple(float(v) for v in moved(np.asarray(die.centre, np.float64))[0, 0]),
            corners=moved(np.asarray(die.corners, np.float64)).reshape(4, 2).astype(np.float32),
        )
        for die in truth
    )


def spoiled(camera_fault: CameraFault, image: np.ndarray, truth: Sequence, seed: int):
    """(faulty frame, its true dice) for one tray; the noise is the seed's own."""
    rng = np.random.default_rng([seed, 77])
    frame = camera_fault.spoil(image, rng)
    if camera_fault.warp is None:
        return frame, tuple(truth)
    height, width = image.shape[:2]
    return frame, moved_truth(truth, camera_fault.warp(width, height))

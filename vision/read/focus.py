"""A soft picture's dice, sharpened before they are read.

A camera out of focus (a fixed-focus lens set for farther than the tray, a phone that
focused on the table's edge) blurs every die alike. The classifier learnt from sharp
and mildly blurred faces; a face blurred by two pixels or more it reads mostly right
but unsure, and the players are asked to confirm half the roll. An unsharp mask on
the crops gives the numerals back enough edge to be read for sure.

Whether a picture is soft is judged on all its dice together (the median of their
`sharpness`), never die by die: a "1" has few edges on any camera, and sharpening a
sharp face costs more than it gains. Only the classifier's input is sharpened: the
crops the reader keeps, which the frame's inks and bodies are measured on and a dice
profile learns from, stay as cut. The thresholds are `FocusSettings`; how they were
measured is in models/MODEL_CARD.md ("The reader's settings"). A reading of a soft
frame is flagged (`vision.reading.ReadingFlag.SOFT_FOCUS`), so the players learn their
camera needs focusing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import cv2
import numpy as np


@dataclass(frozen=True)
class FocusSettings:
    """When a frame is soft, and how its crops are sharpened before the classifier reads
    them (`vision.read.settings.ClassifySettings.focus`)."""

    soft_below: float = 0.5
    """A frame is soft when the median `sharpness` of its dice's crops is below this:
    sharp trays measure above it, most blurred by two pixels or more below."""
    sharpen_amount: float = 1.5
    """Strength of the unsharp mask: a crop gains this much of its difference from its
    own blurred copy. Stronger gives the numerals of a heavier blur back, but costs dice
    of mildly blurred and streaked trays."""
    sharpen_sigma: float = 1.0
    """Radius (Gaussian sigma, crop pixels) of the blurred copy the mask subtracts."""


_MIDDLE: Final[int] = 6
"""The face's middle, where the numeral is: the crop less this margin on each side
(the die's outline and the table beyond it would count as edges of the print)."""


def sharpness(crop: np.ndarray) -> float:
    """How sharp a face crop (uint8 BGR) is: the variance of the Laplacian of its middle's
    grey levels over their variance. Dividing by the contrast makes a pale print on a
    light body and a bright one on a dark body comparable; blur lowers it, whatever
    the print."""
    grey = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_BGR2GRAY).astype(np.float32)
    middle = grey[_MIDDLE:-_MIDDLE, _MIDDLE:-_MIDDLE]
    if middle.size == 0:
        raise ValueError(f"a crop of {crop.shape[:2]} pixels has no middle to judge")
    return float(cv2.Laplacian(middle, cv2.CV_32F).var() / max(float(middle.var()), 1.0))


def is_soft(crops: np.ndarray, settings: FocusSettings = FocusSettings()) -> bool:
    """Whether the frame these crops (N, S, S, 3) of its dice were cut from is soft:
    their median `sharpness` is below `settings.soft_below`. No crops: not soft."""
    if len(crops) == 0:
        return False
    return float(np.median([sharpness(crop) for crop in crops])) < settings.soft_below


def sharpened(crops: np.ndarray, settings: FocusSettings = FocusSettings()) -> np.ndarray:
    """The crops (N, S, S, 3) uint8 through an unsharp mask (`settings.sharpen_amount`,
    `sharpen_sigma`), each on its own, clipped to uint8."""
    array = np.asarray(crops)
    amount = settings.sharpen_amount
    out = np.empty_like(array)
    for index, crop in enumerate(array):
        blurred = cv2.GaussianBlur(crop, (0, 0), settings.sharpen_sigma)
        out[index] = cv2.addWeighted(crop, 1.0 + amount, blurred, -amount, 0.0)
    return out

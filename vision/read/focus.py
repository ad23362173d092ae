"""A soft picture's dice, sharpened before they are read.

A camera out of focus (a fixed-focus lens set for farther than the tray, a phone that
focused on the table's edge) blurs every die alike. The classifier learnt from sharp
and mildly blurred faces; a face blurred by two pixels or more it reads mostly right
but unsure, and the players are asked to confirm half the roll. An unsharp mask on
the crops gives the numerals back enough edge to be read for sure.

Whether a picture is soft is judged on all its dice together (the median of their
`sharpness`), never die by die: a "1" has few edges on any camera, and sharpening a
sharp face costs more than it gains (measured: sharpening every frame lost 3 dice of
800 on sharp trays; judging each die on its own lost 2 more dice on each blur than
judging the frame). Only the classifier's input is sharpened: the crops the reader
keeps, which the frame's inks and bodies are measured on and a dice profile learns
from, stay as cut (sharpening those too lost 3 dice of 6,000 on the held-out scenes,
`benchmarks/eval_pipeline.py --scenes 300`). A reading of a soft frame is flagged
(`vision.reading.ReadingFlag.SOFT_FOCUS`), so the players learn their camera needs
focusing.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

SOFT_BELOW: Final[float] = 0.5
"""A frame is soft when the median `sharpness` of its dice's crops is below this.
Sharp trays of the second renderer measure 0.66 and up (light bodies 0.92 and up), a
blur of 1.7 pixels 0.13 to 0.93 (median 0.42), of 2.2 pixels 0.10 to 0.61; chosen on
80 trays from seed 7,600,000 (`benchmarks/eval_camera_faults.py` reads others)."""

SHARPEN_AMOUNT: Final[float] = 1.5
"""Strength of the unsharp mask: a crop gains this much of its difference from its
own blurred copy. 1.0 / 1.5 / 2.0 / 3.0 on the 80 trays blurred by 2.2 pixels read
99.00 / 99.12 / 99.12 / 99.12 % of dice right (97.75 % unsharpened), by 3 pixels
94.88 / 95.75 / 96.50 / 97.12 % (92.12 %), but from 2.0 up it lost dice of trays
blurred by 1.2 pixels (99.62 -> 99.38 %) and streaked ones."""

SHARPEN_SIGMA: Final[float] = 1.0
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


def is_soft(crops: np.ndarray) -> bool:
    """Whether the frame these crops (N, S, S, 3) of its dice were cut from is soft:
    their median `sharpness` is below SOFT_BELOW. No crops: not soft."""
    if len(crops) == 0:
        return False
    return float(np.median([sharpness(crop) for crop in crops])) < SOFT_BELOW


def sharpened(crops: np.ndarray) -> np.ndarray:
    """The crops (N, S, S, 3) uint8 through an unsharp mask (SHARPEN_AMOUNT,
    SHARPEN_SIGMA), each on its own, clipped to uint8."""
    array = np.asarray(crops)
    out = np.empty_like(array)
    for index, crop in enumerate(array):
        blurred = cv2.GaussianBlur(crop, (0, 0), SHARPEN_SIGMA)
        out[index] = cv2.addWeighted(crop, 1.0 + SHARPEN_AMOUNT, blurred, -SHARPEN_AMOUNT, 0.0)
    return out

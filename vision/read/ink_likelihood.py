"""How well a die's ink matches a colour's reference ink: one likelihood for every use.

A die's ink is measured against its body (`vision.read.frame_inks.ink_chroma`), and most of the
time the measure lands near its colour's reference. Sometimes it does not: the box takes
in a side face or the table, glare bleaches the print, a dark body's ink is a few noisy
pixels. Such a measure lies far from every colour's reference, and under a Gaussian the
colour it lies a little less far from wins by tens of nats, whatever the classifier saw.
A Student-t likelihood keeps the Gaussian's verdict near the references and turns a far
measure into weak evidence, so a lost ink leaves the colour to the classifier.
"""

from __future__ import annotations

import numpy as np

from vision.read.settings import FrameInkSettings


def ink_log_likelihood(
    squared_distance: np.ndarray, sigma: float, degrees: float = FrameInkSettings().degrees
) -> np.ndarray:
    """Log-likelihood (up to a constant) of inks `squared_distance` from a reference.

    Student-t with `degrees` of freedom (the shipped reader's `FrameInkSettings.degrees`
    by default) and scale `sigma`; zero at the reference, about -d^2 / (2 sigma^2) near
    it, growing only as the log far from it.
    """
    scaled = np.asarray(squared_distance, np.float64) / (sigma**2)
    return -0.5 * (degrees + 1.0) * np.log1p(scaled / degrees)

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

from typing import Final

import numpy as np

#: Degrees of freedom of the ink likelihood: small is heavy-tailed (a far ink says
#: little), large is the Gaussian. Chosen on dice in the training fonts, 600 scenes
#: (benchmarks/eval_pipeline.py) and 40 taught sets of 7 scenes (benchmarks/eval_profile.py):
#: dice not read right and sure, scenes / sets / sets with their profiles, were 120 / 49 /
#: 43 under the Gaussian, 117 / 48 / 42 at 30, 116 / 45 / 41 at 10, 117 / 51 / 40 at 4 and
#: 119 / 50 / 42 at 1.
INK_DEGREES: Final[float] = 10.0


def ink_log_likelihood(
    squared_distance: np.ndarray, sigma: float, degrees: float | None = None
) -> np.ndarray:
    """Log-likelihood (up to a constant) of inks `squared_distance` from a reference.

    Student-t with `degrees` of freedom (None: INK_DEGREES) and scale `sigma`; zero at
    the reference, about -d^2 / (2 sigma^2) near it, growing only as the log far from it.
    """
    nu = INK_DEGREES if degrees is None else degrees
    scaled = np.asarray(squared_distance, np.float64) / (sigma**2)
    return -0.5 * (nu + 1.0) * np.log1p(scaled / nu)

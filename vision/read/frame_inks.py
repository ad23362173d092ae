"""Colour from the frame: dice printed with the same ink look alike in one picture.

A dice set is printed with four inks, and no renderer knows which red and which
orange the user's set carries: a set's red may lean towards orange and its orange
towards yellow, so a single die's ink can be ambiguous on its own. In one frame,
though, every die is lit by the same lamp and seen by the same camera, so the dice
that carry the same ink show (nearly) the same ink colour relative to their
bodies (`vision.profile.profile.ink_chroma`, in which the lamp's colour cancels). This
module turns that into evidence for the decoder: each die's colour is compared
with the ink of the other dice the classifier believes carry each colour, and a
die whose ink matches the frame's other orange dice gains orange.

Leave-one-out (a die's own ink never votes for itself) and a neutral value for
a colour no other die in the frame shows keep a lone die's reading where the
classifier put it. Standard numpy only; no profile needed.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from vision.read import ink_likelihood

#: Spread of one ink's chroma between the dice of one frame (log units): a die's ink
#: this far from a colour's frame reference costs that colour 0.5 in log-likelihood.
#: Chosen on scenes in the training fonts (benchmarks/eval_pipeline.py --group train-*).
FRAME_INK_SIGMA: Final[float] = 0.2
#: Evidence for a colour no other die of the frame carries: as if 1.5 sigma from it.
FRAME_UNSEEN_INK: Final[float] = -1.125
#: A colour's frame reference needs this much classifier belief among the other dice.
FRAME_MIN_WEIGHT: Final[float] = 0.8
#: Rounds of re-weighting the references by the updated colour beliefs.
FRAME_ROUNDS: Final[int] = 2


def frame_ink_evidence(
    chroma: np.ndarray,
    colour_probs: np.ndarray,
    *,
    sigma: float = FRAME_INK_SIGMA,
    unseen: float = FRAME_UNSEEN_INK,
    min_weight: float = FRAME_MIN_WEIGHT,
    rounds: int = FRAME_ROUNDS,
) -> np.ndarray:
    """(N, C) log-likelihood adjustments to each die's colours from the frame's inks.

    `chroma`: (N, 3) ink chroma of the frame's dice (`ink_chroma`); `colour_probs`:
    (N, C) the classifier's colour probabilities. Each colour's reference for die i
    is the mean ink of the other dice weighted by their belief in that colour; die i
    gains the ink likelihood (`vision.read.ink_likelihood`, scale `sigma`) around it, or
    `unseen` where the other dice hold less than `min_weight` belief in that colour.
    A frame of one die gets zeros.
    """
    chroma = np.asarray(chroma, np.float64)
    probs = np.asarray(colour_probs, np.float64)
    count, colours = probs.shape
    evidence = np.zeros((count, colours))
    if count < 2:
        return evidence
    belief = probs
    for _ in range(max(1, rounds)):
        total = belief.sum(axis=0, keepdims=True) - belief  # (N, C): the others' belief
        weighted = belief.T @ chroma  # (C, 3)
        others = weighted[None, :, :] - belief[:, :, None] * chroma[:, None, :]  # (N, C, 3)
        known = total >= min_weight
        reference = others / np.maximum(total, 1e-9)[:, :, None]
        distance = np.sum((chroma[:, None, :] - reference) ** 2, axis=2)
        evidence = np.where(known, ink_likelihood.ink_log_likelihood(distance, sigma), unseen)
        logits = np.log(np.maximum(probs, 1e-12)) + evidence
        logits -= logits.max(axis=1, keepdims=True)
        belief = np.exp(logits)
        belief /= belief.sum(axis=1, keepdims=True)
    return evidence

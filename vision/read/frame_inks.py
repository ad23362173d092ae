"""Colour from the frame: dice printed with the same ink look alike in one picture.

A dice set is printed with four inks, and no renderer knows which red and which
orange the user's set carries: a set's red may lean towards orange and its orange
towards yellow, so a single die's ink can be ambiguous on its own. In one frame,
though, every die is lit by the same lamp and seen by the same camera, so the dice
that carry the same ink show (nearly) the same ink colour relative to their
bodies (`ink_chroma`, in which the lamp's colour cancels). This
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
from vision.read.settings import FrameInkSettings

#: The ink of a face is its pixels far in colour from the face's median (the body): every
#: pixel of the face's middle at least this share as far as the farthest ones (INK_PEAK).
#: A share of the glyph's own contrast, not a fixed count of pixels, so a thin "1" is not
#: diluted by its anti-aliased rim and body, nor a bold "10" cut to its darkest core. Its
#: colour is taken relative to the body's, so the room light's white balance cancels, and
#: without brightness (`ink_chroma`). Not a setting: the frame network's inputs, the profile's
#: stored references and the frame inks' spread are all measured in it (how it was chosen:
#: models/MODEL_CARD.md, "The colour and decode stages' settings").
INK_FROM_PEAK: Final[float] = 0.5
#: The farthest pixels, whose mean distance is the glyph's contrast: this share of the middle.
INK_PEAK: Final[float] = 0.02
#: The face's middle, where the print is: the crop less this margin on each side.
_FACE_MARGIN: Final[int] = 6


def ink_chroma(crops: np.ndarray) -> np.ndarray:
    """(N, 3) chroma of each crop's ink relative to its body: log(ink) - log(body) per
    channel, less its mean over the channels (brightness). A room light's colour gains
    multiply ink and body alike, so they cancel; this is what tells orange from red
    under a warm lamp once the profile has seen both inks."""
    array = np.asarray(crops, np.float64)
    if len(array) == 0:
        return np.zeros((0, 3))
    margin = _FACE_MARGIN
    middle = np.log(array[:, margin:-margin, margin:-margin].reshape(len(array), -1, 3) + 1.0)
    median = np.median(middle, axis=1, keepdims=True)
    distance = np.linalg.norm(middle - median, axis=2)
    order = np.argsort(distance, axis=1)
    pixels = middle.shape[1]
    body = np.take_along_axis(middle, order[:, : pixels // 2, None], axis=1).mean(axis=1)
    peak_count = max(1, int(pixels * INK_PEAK))
    peak = np.take_along_axis(distance, order[:, -peak_count:], axis=1).mean(axis=1)
    weight = (distance >= INK_FROM_PEAK * peak[:, None]).astype(np.float64)  # peak included
    ink = (middle * weight[:, :, None]).sum(axis=1) / weight.sum(axis=1, keepdims=True)
    chroma = ink - body
    return chroma - chroma.mean(axis=1, keepdims=True)


def frame_ink_evidence(
    chroma: np.ndarray,
    colour_probs: np.ndarray,
    settings: FrameInkSettings = FrameInkSettings(),
) -> np.ndarray:
    """(N, C) log-likelihood adjustments to each die's colours from the frame's inks.

    `chroma`: (N, 3) ink chroma of the frame's dice (`ink_chroma`); `colour_probs`:
    (N, C) the classifier's colour probabilities. Each colour's reference for die i
    is the mean ink of the other dice weighted by their belief in that colour; die i
    gains the ink likelihood (`vision.read.ink_likelihood`, scale `settings.sigma`) around
    it, or `settings.unseen` where the other dice hold less than `settings.min_weight`
    belief in that colour; `settings.rounds` times, each round's references weighted by
    the last round's beliefs. A frame of one die gets zeros.
    """
    chroma = np.asarray(chroma, np.float64)
    probs = np.asarray(colour_probs, np.float64)
    count, colours = probs.shape
    evidence = np.zeros((count, colours))
    if count < 2:
        return evidence
    belief = probs
    for _ in range(max(1, settings.rounds)):
        total = belief.sum(axis=0, keepdims=True) - belief  # (N, C): the others' belief
        weighted = belief.T @ chroma  # (C, 3)
        others = weighted[None, :, :] - belief[:, :, None] * chroma[:, None, :]  # (N, C, 3)
        known = total >= settings.min_weight
        reference = others / np.maximum(total, 1e-9)[:, :, None]
        distance = np.sum((chroma[:, None, :] - reference) ** 2, axis=2)
        likelihood = ink_likelihood.ink_log_likelihood(distance, settings.sigma, settings.degrees)
        evidence = np.where(known, likelihood, settings.unseen)
        logits = np.log(np.maximum(probs, 1e-12)) + evidence
        logits -= logits.max(axis=1, keepdims=True)
        belief = np.exp(logits)
        belief /= belief.sum(axis=1, keepdims=True)
    return evidence

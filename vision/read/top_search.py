"""Where in an oversized box the top face lies: closer quads tried, the classifier judges.

Seen at a slant, a light die's side faces are nearly as bright as its top, and the
locator may box the whole die, top and sides, as one. Such a box is larger than the
dice have at its place (`vision.read.die_shape.SizeByPlace`), and its centre lies off
the top, where the die is then placed and drawn. The face classifier was trained to call
a crop off a face's centre "not a face", so among quads cut closer inside the box, the
one it reads most surely as one face is where the top is. `candidate_quads` lays them
out; `DiceReader` (`vision.read.pipeline`) crops and reads them, and keeps the best
where it beats the box as found. Numpy only.
"""

from __future__ import annotations

import numpy as np

from vision.read.settings import TopSearchSettings


def candidate_quads(box: np.ndarray, settings: TopSearchSettings = TopSearchSettings()
                    ) -> np.ndarray:
    """(K, 4, 2) float32: the box itself first, then the box scaled by each of
    `settings.scales` about its centre and moved along its own two axes to each of
    `settings.steps` evenly spaced places that keep it inside the box (corners in the
    box's order)."""
    quad = np.asarray(box, np.float64)
    centre = quad.mean(axis=0)
    across = (quad[1] - quad[0]) / 2  # half of the box along its first side
    down = (quad[3] - quad[0]) / 2  # and along its second
    places = np.linspace(-1.0, 1.0, settings.steps) if settings.steps > 1 else np.zeros(1)
    quads = [quad]
    for scale in settings.scales:
        shrunk = (quad - centre) * scale + centre
        room = 1.0 - scale  # how far it may move each way and stay inside
        quads += [shrunk + (a * across + b * down) * room for b in places for a in places]
    return np.asarray(quads, np.float32)


def face_scores(value_probs: np.ndarray, colour_probs: np.ndarray, face_prob: np.ndarray
                ) -> np.ndarray:
    """How surely each crop shows one face: the classifier's belief that it is a face,
    times its likeliest value's and its likeliest colour's probabilities."""
    return (np.asarray(face_prob, np.float64)
            * np.asarray(value_probs, np.float64).max(axis=1)
            * np.asarray(colour_probs, np.float64).max(axis=1))


def searched(ratios: np.ndarray, settings: TopSearchSettings = TopSearchSettings()
             ) -> np.ndarray:
    """Indices of the boxes whose top is looked for: those more than `settings.above`
    times the side the dice have where they lie (`ratios`), the largest first, at most
    `settings.most` of them; none when the search is off (`above` None)."""
    if settings.above is None:
        return np.zeros(0, np.int64)
    ratios = np.asarray(ratios, np.float64)
    over = np.flatnonzero(ratios > settings.above)
    return over[np.argsort(-ratios[over], kind="stable")][: settings.most]

"""Vector arithmetic shared by the reader's stages: descriptors (the classifier and the dice
profile) and the sides of a die's box."""

from __future__ import annotations

import numpy as np


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (float32): descriptors are compared by cosine."""
    array = np.asarray(vectors, np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return (array / np.maximum(norms, 1e-12)).astype(np.float32)


def side_lengths(corners: np.ndarray) -> np.ndarray:
    """The lengths of a polygon's sides, its corners in order: (..., N, 2) corners give
    (..., N), each corner's distance from the one before it (the first's from the last).

    Every box is measured so many times a frame that `np.roll` and `np.linalg.norm`'s own
    overhead showed in the read's time; this is the same arithmetic without them."""
    points = np.asarray(corners)
    step = points - points[..., np.arange(-1, points.shape[-2] - 1), :]
    return np.sqrt(np.add.reduce(step * step, axis=-1))

"""Descriptor arithmetic shared by the classifier and the dice profile."""

from __future__ import annotations

import numpy as np


def unit_rows(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled to unit length (float32): descriptors are compared by cosine."""
    array = np.asarray(vectors, np.float32)
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return (array / np.maximum(norms, 1e-12)).astype(np.float32)

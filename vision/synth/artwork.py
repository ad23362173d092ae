"""What a dice set draws on its faces, as the renderer needs it: one method per face value.

The renderer composes any artwork alike (`scene._face_texture`): numerals in an
outline font (`outline_glyphs.OutlineStyle`) or pips (`pips.PipStyle`); the
Hershey numerals of the first renderer are the fallback when a table has none.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class FaceArtwork(Protocol):
    """A dice set's face artwork; frozen and hashable, so faces are cached per style."""

    def layers(self, value: int) -> np.ndarray:
        """(TEXTURE * TEXTURE, 3) float32 columns: body x bevel, ink x bevel, face coverage."""
        ...

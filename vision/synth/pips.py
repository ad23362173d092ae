"""Pip dice: faces with one to six spots, for teaching the locator that any die is a die.

Real photographs (and the user's table) hold dice that are not Phase 10 dice;
the locator must still find them, and the reader reports them as found but
unreadable. Only the locator's training draws them: a face's value picks its
pip count, since what matters is that the top face is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.synth.glyphs import TEXTURE, layers_of_ink

_SUPERSAMPLE = 4

#: Pip centres per count, in face fractions (the usual layout of a six-sided die).
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def pip_count(value: int) -> int:
    """The pips a face of this value shows (values 1..10 and W (0) map onto 1..6)."""
    return (value - 1) % 6 + 1 if value > 0 else 6


@dataclass(frozen=True)
class PipStyle:
    """How one set draws its pips: radius (face fraction), spread, and a recess rim."""

    radius: float = 0.09
    spread: float = 1.0  # 1 = the layout as is; below 1 pulls pips towards the centre
    engraved: float = 0.3

    def layers(self, value: int) -> np.ndarray:
        """The face of `value` as the renderer's layer columns (`FaceArtwork`)."""
        return pip_face_layers(pip_count(value), self)


@lru_cache(maxsize=256)
def pip_face_layers(count: int, style: PipStyle) -> np.ndarray:
    """(TEXTURE * TEXTURE, 3) float32 columns of a face with `count` pips."""
    big = TEXTURE * _SUPERSAMPLE
    canvas = np.zeros((big, big), np.uint8)
    radius = int(style.radius * big)
    for fx, fy in PIP_LAYOUTS[count]:
        x = (0.5 + (fx - 0.5) * style.spread) * big
        y = (0.5 + (fy - 0.5) * style.spread) * big
        cv2.circle(canvas, (int(x), int(y)), radius, 255, -1, cv2.LINE_AA)
    ink = cv2.resize(canvas, (TEXTURE, TEXTURE), interpolation=cv2.INTER_AREA) / 255.0
    return layers_of_ink(ink.astype(np.float32), style.engraved)

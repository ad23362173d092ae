"""How large the dice of a reading measure: what the photo reader sizes its looks by and
the set-up page's advice on the camera's distance."""

from __future__ import annotations

import numpy as np

from vision.read.tops import longest_side
from vision.reading import ReadDie, Reading, UnreadableDie


def die_side(reading: Reading) -> float:
    """The median longest side of the dice found (read or not), in pixels; 0 without dice."""
    found: list[ReadDie | UnreadableDie] = [*reading.dice, *reading.unreadable]
    boxes = [np.asarray(die.corners, np.float64).reshape(-1, 2) for die in found]
    sides = [longest_side(box) for box in boxes if len(box) >= 3]
    return float(np.median(sides)) if sides else 0.0

"""Whether the table camera sees the dice large enough to read them well.

Dice whose tops measure much under a twentieth of the frame's width (60 pixels of the
camera's 1280) are missed and misread more often, and take longer to find
(`models/MODEL_CARD.md`, "Smaller or larger dice, other frame sizes"): at 50 to 83
pixels 97.5 % of held-out scenes had every die found against 99.5 % at the trained
sizes. The set-up page's test reading says so, so the players can move the camera.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Final

#: A die's top should measure at least this share of the frame's width.
MIN_DIE_SHARE: Final[float] = 60 / 1280


def die_side(corners: Sequence[Sequence[float]]) -> float | None:
    """The mean length of a die top's four edges (pixels), or None without four corners."""
    if len(corners) != 4:
        return None
    return sum(math.dist(corners[i], corners[(i + 1) % 4]) for i in range(4)) / 4


def small_dice_advice(corner_sets: Iterable[Sequence[Sequence[float]]],
                      frame_width: int) -> str | None:
    """What to do when the dice found measure (median) under MIN_DIE_SHARE of the frame's
    width; None when they are large enough, or none has corners."""
    sides = [side for corners in corner_sets if (side := die_side(corners)) is not None]
    if not sides or frame_width <= 0:
        return None
    median, wanted = statistics.median(sides), MIN_DIE_SHARE * frame_width
    if median >= wanted:
        return None
    return (f"the dice measure about {median:.0f} pixels across, and are read best from "
            f"{wanted:.0f}: move the camera closer to the tray (or lower it) so the tray "
            "fills the picture")

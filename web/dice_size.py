"""Whether the table camera sees the dice large enough to read them well.

Dice whose tops measure much under a twentieth of the frame's width (60 pixels of the
camera's 1280) are missed and misread more often, and take longer to find
(`models/MODEL_CARD.md`, "Smaller or larger dice, other frame sizes"): at 50 to 83
pixels 97.5 % of held-out scenes had every die found against 99.5 % at the trained
sizes. The set-up page's test reading says so, so the players can move the camera.
"""

from __future__ import annotations

from typing import Final

from vision.reading import Reading

#: A die's top should measure at least this share of the frame's width.
MIN_DIE_SHARE: Final[float] = 60 / 1280


def small_dice_advice(reading: Reading) -> str | None:
    """What to do when the dice found (read or not) measure under MIN_DIE_SHARE of the
    frame's width (`vision.read.die_measure.die_side`, as the photo reader measures them); None when
    they are large enough, or none was found."""
    from vision.read.die_measure import (
        die_side,  # loaded on use: the app without a camera loads no OpenCV or model
    )

    median, wanted = die_side(reading), MIN_DIE_SHARE * reading.frame_size[0]
    if median <= 0 or median >= wanted:
        return None
    return (f"the dice measure about {median:.0f} pixels across, and are read best from "
            f"{wanted:.0f}: move the camera closer to the tray (or lower it) so the tray "
            "fills the picture")

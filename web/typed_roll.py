"""A roll typed or tapped on a phone: all ten dice, or a plain word on what is missing.

A roll shows ten dice. Fewer typed by hand is a slip ("8R 8B" then Enter), not a
roll of the turn used up; the camera's partial readings take another path
(`GameService.set_roll` from the camera thread), with the dice it missed shown as "?".
"""

from __future__ import annotations

from scorer import FULL_ROLL, Roll
from web.commands import BadActionError

EXAMPLE = "8R 8B 8G 10O 5G 7R WR WB 1G 3R"


def typed_roll(text: str) -> Roll:
    """The roll typed, refused with what to do next unless it has all ten dice."""
    roll = Roll.from_text(text)
    count = len(roll.dice)
    if count == 0:
        raise BadActionError(f"type the roll first: all ten dice, like {EXAMPLE}")
    if count < FULL_ROLL:
        missing = FULL_ROLL - count
        raise BadActionError(
            f"that is {count} {'die' if count == 1 else 'dice'}, and a roll has all ten: add "
            f"the other {missing}, then tap again (nothing was used up)")
    return roll

"""Class indices of dice faces, in the classifier's class order (`vision.read.model_io`).

The training data labels crops with these indices and the runtime turns them back
into dice.
"""

from __future__ import annotations

from typing import Final

from scorer.dice import Die
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS

NO_LABEL: Final[int] = -1
"""Value/colour index of a crop that shows no die face (a negative)."""


def value_index(die: Die) -> int:
    """Class index of a die's value in VALUE_LABELS."""
    return VALUE_LABELS.index(die.value)


def colour_index(die: Die) -> int:
    """Class index of a die's colour in COLOUR_LABELS."""
    return COLOUR_LABELS.index(die.colour)


def die_from_indices(value: int, colour: int) -> Die:
    """The Die for a pair of class indices."""
    return Die(VALUE_LABELS[value], COLOUR_LABELS[colour])

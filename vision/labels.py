"""The classifier's label tables, taken from the scorer's dice tables (never restated here).

Value classes are 1..10 then Wild; colour classes follow the palette order.
"""

from __future__ import annotations

from typing import Final

from scorer.dice import COLOUR_LETTERS, HIGH_VALUES, LOW_VALUES, WILD, Die

VALUE_LABELS: Final[tuple[int, ...]] = (
    *sorted(v for v in (*LOW_VALUES, *HIGH_VALUES) if v != WILD),
    WILD,
)
COLOUR_LABELS: Final[tuple[str, ...]] = COLOUR_LETTERS

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

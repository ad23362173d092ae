"""The Phase 10 card game's scoring rules, as data: what each card left in hand costs,
and who wins once someone completes phase 10.

The card game keeps the dice game's ten phases (scorer.phases) but scores the other
way round: points are what a player is left holding when someone goes out, so the
lowest total wins. The printed card rules crown only a player who completed phase 10;
many tables simply take the lowest total. A game names the reading it follows.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from scorer.game_errors import InvalidEventError


class InvalidWinnerRuleError(InvalidEventError):
    """A card game's winner rule that is not one of the readings offered."""


@dataclass(frozen=True)
class CardValue:
    """What one kind of card left in hand costs (colour never matters)."""

    label: str
    points: int


CARD_VALUES: Final[tuple[CardValue, ...]] = (
    CardValue("1-9", 5),
    CardValue("10-12", 10),
    CardValue("Skip or Wild", 25),
)
POINT_STEP: Final[int] = 5
"""Every card costs a multiple of this, so every hand's points are one too."""
MAX_CARDS_HELD: Final[int] = 11
"""The most cards a player can hold when a hand ends: the ten dealt and one drawn."""
MAX_HAND_POINTS: Final[int] = MAX_CARDS_HELD * max(value.points for value in CARD_VALUES)
"""275: every card held a Skip or a Wild. More than this is a slip in the counting."""


class CardWinnerRule(enum.Enum):
    """Who wins the card game once a hand ends with phase 10 completed."""

    LOWEST_TOTAL = "lowest_total"
    LOWEST_WITH_PHASE_10 = "lowest_with_phase_10"

    @property
    def description(self) -> str:
        """The reading in plain words, for the page."""
        return _DESCRIPTIONS[self]

    @classmethod
    def from_value(cls, value: object) -> CardWinnerRule:
        """The rule named by its value (`lowest_total`), refused by name otherwise."""
        for rule in cls:
            if value == rule.value:
                return rule
        expected = " or ".join(repr(rule.value) for rule in cls)
        raise InvalidWinnerRuleError(
            f"{value!r} is not a card game winner rule: expected {expected}")


_DESCRIPTIONS: Final[dict[CardWinnerRule, str]] = {
    CardWinnerRule.LOWEST_TOTAL: "the lowest total wins, whoever completed phase 10",
    CardWinnerRule.LOWEST_WITH_PHASE_10: (
        "the printed card rules: the lowest total among the players who completed phase 10 wins"
    ),
}

DEFAULT_WINNER_RULE: Final[CardWinnerRule] = CardWinnerRule.LOWEST_TOTAL
"""What most tables play: the issue's default, the printed rule one tap away."""

"""The rules a game is played by, as chosen when it starts and kept in its log.

The printings of the rulebook disagree on the First Finish Bonus, so a game
names the reading it follows. The engine's own readings of the rulebook have
changed once too (issue 16: a full roll-off order, last tries that go straight
on); a log records which edition of them it was played by, so a game stored
before the change replays to exactly the scorepad it had.
"""

from __future__ import annotations

import enum
from typing import Final

from scorer.game_errors import InvalidEventError, InvalidFirstFinishRuleError

LEGACY_RULES: Final[int] = 1
"""Logs written before the `rules` field: the roll-off only finds who starts (play
then follows the seats from them, ties below the top never re-thrown), and a
player who makes a phase on a last try waits for the next round to try the next."""

RULES: Final[int] = 2
"""The rulebooks as written: every player ranked by their roll-off throw, and a
player who makes a phase on a last try goes straight on with the next one."""

KNOWN_RULES: Final[tuple[int, ...]] = (LEGACY_RULES, RULES)

ROLLS_PER_TURN: Final[int] = 3
"""A turn is at most three rolls of the dice: the first of all ten, then two more of any
dice the player chooses to throw again."""


class FirstFinishRule(enum.Enum):
    """Who else, besides the first player to complete phase 10, gets the +40.

    Only a round's turns after the first finisher's can earn it, so both readings
    agree on everyone seated before them (never). They differ on a player who
    was on phase 9 and, on their last tries in that round, makes phase 9 and
    then phase 10: the newest printings pay them, the 2010 printing does not.
    """

    SAME_ROUND = "same_round"
    ALREADY_ON_PHASE_10 = "already_on_phase_10"

    @property
    def printing(self) -> str:
        return _PRINTINGS[self]

    @property
    def description(self) -> str:
        """The reading in plain words, for the page and the command line."""
        return _DESCRIPTIONS[self]

    @classmethod
    def from_value(cls, value: object) -> FirstFinishRule:
        """The rule named by its value (`same_round`), refused by name otherwise."""
        for rule in cls:
            if value == rule.value:
                return rule
        expected = " or ".join(repr(rule.value) for rule in cls)
        raise InvalidFirstFinishRuleError(
            f"{value!r} is not a First Finish Bonus rule: expected {expected}"
        )


_PRINTINGS: Final[dict[FirstFinishRule, str]] = {
    FirstFinishRule.SAME_ROUND: "2011 and 2020 printings",
    FirstFinishRule.ALREADY_ON_PHASE_10: "2010 printing",
}

_DESCRIPTIONS: Final[dict[FirstFinishRule, str]] = {
    FirstFinishRule.SAME_ROUND: (
        "2011 and 2020 printings: the first player to complete phase 10 and every "
        "other player who completes it later in the same round"
    ),
    FirstFinishRule.ALREADY_ON_PHASE_10: (
        "2010 printing: the first player to complete phase 10 and the players seated "
        "after them who were already on phase 10 and complete it in that round"
    ),
}

DEFAULT_FIRST_FINISH: Final[FirstFinishRule] = FirstFinishRule.SAME_ROUND
"""The newest printing's reading."""


def check_rules(rules: object) -> int:
    """A known edition of the engine's rules, refused by name otherwise."""
    if isinstance(rules, bool) or rules not in KNOWN_RULES:
        known = ", ".join(str(edition) for edition in KNOWN_RULES)
        raise InvalidEventError(f"rules={rules!r} is not an edition of the rules: expected {known}")
    assert isinstance(rules, int)
    return rules

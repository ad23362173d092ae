"""The scorepad: one column per player, and the bonus rules that fill it.

The numbers of the score sheet's rules live in one table here; scorer.game
decides who made what and when, this module turns that into the columns.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from scorer.dice import Roll
from scorer.phases import LAST_PHASE

logger = logging.getLogger(__name__)

BONUS_PHASE: Final[int] = 5
"""The Five Phase Bonus is judged when this phase is completed..."""
FIVE_PHASE_THRESHOLD: Final[int] = 220
"""...and is paid when phases 1-5 together score more than this."""
FIVE_PHASE_BONUS: Final[int] = 40
FIRST_FINISH_BONUS: Final[int] = 40
FAILED_TURN_PENALTY: Final[int] = 5
"""Solitaire only: points taken off for each failed turn."""


@dataclass(frozen=True)
class TurnRecord:
    """One turn as it stands after replay (corrections applied)."""

    index: int
    round: int
    player: str
    phase: int
    roll: Roll | None
    made: bool
    score: int
    """The phase score when made, else 0."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "round": self.round,
            "player": self.player,
            "phase": self.phase,
            "roll": None if self.roll is None else str(self.roll),
            "made": self.made,
            "score": self.score,
        }


@dataclass(frozen=True)
class PlayerColumn:
    """One player's column of the score sheet."""

    player: str
    phase_scores: tuple[int | None, ...]
    """Ten entries, phase 1 first; None where the phase is not made yet."""
    five_phase_bonus: int
    five_phase_total: int
    first_finish_bonus: int
    grand_total: int
    failed_turns: int
    current_phase: int | None
    """The phase the player attempts next; None once all ten are made."""
    finished: bool
    """All ten phases made."""
    out: bool
    """Failed a last try after someone finished: takes no more turns."""

    @classmethod
    def tally(
        cls,
        player: str,
        phase_scores: Sequence[int | None],
        *,
        first_finish: bool,
        failed_turns: int,
        solitaire: bool,
        out: bool,
    ) -> PlayerColumn:
        """Fill a column from the phase scores and the facts the sheet cannot see."""
        scores = tuple(phase_scores)
        if len(scores) != LAST_PHASE:
            raise ValueError(f"a column needs {LAST_PHASE} phase rows, got {len(scores)}")
        first_five = sum(score or 0 for score in scores[:BONUS_PHASE])
        bonus = five_phase_bonus(scores)
        finish = FIRST_FINISH_BONUS if first_finish else 0
        penalty = FAILED_TURN_PENALTY * failed_turns if solitaire else 0
        made = sum(score is not None for score in scores)
        return cls(
            player=player,
            phase_scores=scores,
            five_phase_bonus=bonus,
            five_phase_total=first_five + bonus,
            first_finish_bonus=finish,
            grand_total=sum(score or 0 for score in scores) + bonus + finish - penalty,
            failed_turns=failed_turns,
            current_phase=None if made == LAST_PHASE else made + 1,
            finished=made == LAST_PHASE,
            out=out,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "phase_scores": list(self.phase_scores),
            "five_phase_bonus": self.five_phase_bonus,
            "five_phase_total": self.five_phase_total,
            "first_finish_bonus": self.first_finish_bonus,
            "grand_total": self.grand_total,
            "failed_turns": self.failed_turns,
            "current_phase": self.current_phase,
            "finished": self.finished,
            "out": self.out,
        }


def five_phase_bonus(phase_scores: Sequence[int | None]) -> int:
    """+40 once phase 5 is made, if phases 1-5 total more than 220 (221 gets it, 220 not)."""
    if phase_scores[BONUS_PHASE - 1] is None:
        return 0
    total = sum(score or 0 for score in phase_scores[:BONUS_PHASE])
    return FIVE_PHASE_BONUS if total > FIVE_PHASE_THRESHOLD else 0


@dataclass(frozen=True)
class Scorepad:
    """The whole score sheet: columns in play order (equal pads compare equal)."""

    columns: tuple[PlayerColumn, ...]
    solitaire: bool = False

    def column(self, player: str) -> PlayerColumn:
        """The column of a player (exact name)."""
        for column in self.columns:
            if column.player == player:
                return column
        raise KeyError(player)

    def to_dict(self) -> dict[str, Any]:
        return {
            "solitaire": self.solitaire,
            "columns": [column.to_dict() for column in self.columns],
        }

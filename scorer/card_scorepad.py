"""The card game's score sheet: one column per player, and each hand as it stands.

These are the engine's answers (scorer.card_table derives them); frozen so a
replay can be compared with another by equality.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorer.card_rules import CardWinnerRule


@dataclass(frozen=True)
class HandLine:
    """One player's line of a played hand: the phase they were on, made or not, points."""

    player: str
    phase: int
    made: bool
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "phase": self.phase, "made": self.made,
                "points": self.points}


@dataclass(frozen=True)
class HandRecord:
    """One hand as it stands after replay (corrections applied); lines in seat order."""

    index: int
    lines: tuple[HandLine, ...]

    @property
    def number(self) -> int:
        """The hand's number as the table counts it (1 for the first)."""
        return self.index + 1

    @property
    def went_out(self) -> tuple[str, ...]:
        """Who went out: the player with 0 points."""
        return tuple(line.player for line in self.lines if line.points == 0)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "number": self.number,
            "went_out": list(self.went_out),
            "results": [line.to_dict() for line in self.lines],
        }


@dataclass(frozen=True)
class CardColumn:
    """One player's column: the hand each phase was made in, and the points of every hand."""

    player: str
    phase_hands: tuple[int | None, ...]
    """Ten entries, phase 1 first: the number of the hand it was made in, or None."""
    hand_points: tuple[int, ...]
    """Points of every hand so far, first hand first."""
    current_phase: int | None
    """The phase the player is on; None once phase 10 is completed."""

    @property
    def grand_total(self) -> int:
        return sum(self.hand_points)

    @property
    def phases_made(self) -> int:
        return sum(hand is not None for hand in self.phase_hands)

    @property
    def finished(self) -> bool:
        """Completed phase 10."""
        return self.current_phase is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "phase_hands": list(self.phase_hands),
            "hand_points": list(self.hand_points),
            "grand_total": self.grand_total,
            "current_phase": self.current_phase,
            "phases_made": self.phases_made,
            "finished": self.finished,
        }


@dataclass(frozen=True)
class CardScorepad:
    """The whole sheet of a card game: columns in seat order, and the winner rule."""

    columns: tuple[CardColumn, ...]
    winner: CardWinnerRule

    def column(self, player: str) -> CardColumn:
        for column in self.columns:
            if column.player == player:
                return column
        raise KeyError(player)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner.value, "columns": [c.to_dict() for c in self.columns]}

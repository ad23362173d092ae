"""What "Undo" would take back, in words for the page: the players see what they undo.

A correction, a roll-off throw and a turn are all undone by the same button; without
words a correction undone looked like nothing happened (issue 46, point 8).
"""

from __future__ import annotations

from scorer import Game
from scorer.events import RollOffThrown, TurnCorrected, TurnFailed, TurnScored


def undo_words(game: Game) -> str | None:
    """The latest action not yet undone, said plainly; None when there is nothing to undo."""
    action = game.last_action
    if isinstance(action, TurnScored):
        return f"{action.player}'s turn on Phase {action.phase} ({action.score} points)"
    if isinstance(action, TurnFailed):
        return f"{action.player}'s turn on Phase {action.phase} (no score)"
    if isinstance(action, RollOffThrown):
        return f"{action.player}'s roll-off throw of {action.value}"
    if isinstance(action, TurnCorrected):
        turns = game.turns
        if 0 <= action.turn < len(turns):
            record = turns[action.turn]
            return f"the correction of {record.player}'s turn in round {record.round}"
        return "the last correction"
    return None

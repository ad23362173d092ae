"""A game's line of the list, as the store keeps it beside the log (no replay to browse).

It is the stored form, written with each event (`GameStore.append_event`) and read
back by the list of games; the service makes it, so the store never imports the engine.
"""

from __future__ import annotations

from typing import Any

from scorer import CardGame, Game, GameKind


def summary_of(game: Game | CardGame) -> dict[str, Any]:
    """What the list of past games shows without replaying the game (kept in the store)."""
    totals = {column.player: column.grand_total for column in game.scorepad.columns}
    if isinstance(game, CardGame):
        return {
            "game": GameKind.CARDS.value,
            "hand": game.hand_number,
            "is_over": bool(game.is_over),
            "winners": list(game.winners),
            "totals": totals,
            "active_player": None,
        }
    return {
        "round": game.round,
        "is_over": bool(game.is_over),
        "winners": list(game.winners) if game.is_over else [],
        "totals": totals,
        "active_player": None if game.is_over else game.active_player,
    }

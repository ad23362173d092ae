"""A card game's state as the phones draw it, and its line in the list of games.

The card game has no dice, rolls, camera or turns; its state says so with the
same keys the dice game uses (`current`, `camera`, `active_player` empty), so a
client that only knows dice games is never handed a shape it cannot read.
"""

from __future__ import annotations

from typing import Any

from scorer import CARD_VALUES, PHASES, CardGame, CardWinnerRule, GameKind


def winner_rule_dict(rule: CardWinnerRule) -> dict[str, str]:
    """The game's winner rule for the page: its value and plain words."""
    return {"rule": rule.value, "description": rule.description}


def card_scorepad_dict(game: CardGame) -> dict[str, Any]:
    """Phase rows with labels and one column per player, in seat order."""
    return {
        "phases": [{"number": phase.number, "label": phase.label} for phase in PHASES],
        "columns": [column.to_dict() for column in game.scorepad.columns],
    }


def card_summary_dict(game: CardGame) -> dict[str, Any]:
    """What the list of games shows without replaying the game."""
    return {
        "game": GameKind.CARDS.value,
        "hand": game.hand_number,
        "is_over": bool(game.is_over),
        "winners": list(game.winners),
        "totals": {column.player: column.grand_total for column in game.scorepad.columns},
        "active_player": None,
    }


def card_state_dict(game: CardGame, game_id: int, created: str, updated: str) -> dict[str, Any]:
    """Everything a phone draws for one card game (also each live update's body)."""
    return {
        "id": game_id,
        "game": GameKind.CARDS.value,
        "created": created,
        "updated": updated,
        "version": len(game.events),
        "roll_id": None,
        "players": list(game.players),
        "play_order": list(game.players),
        "hand": game.hand_number,
        "winner_rule": winner_rule_dict(game.winner_rule),
        "card_values": [{"label": value.label, "points": value.points} for value in CARD_VALUES],
        "active_player": None,
        "active_phase": None,
        "is_over": bool(game.is_over),
        "winners": list(game.winners),
        "scorepad": card_scorepad_dict(game),
        "camera": False,
        "hands": [record.to_dict() for record in game.hands],
        "current": None,
    }

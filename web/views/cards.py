"""The card game's API (issue 17): start one, record a hand, correct an earlier hand.

Undo and the game's state are the dice game's own calls (`POST .../undo`,
`GET /api/games/<id>`); the service answers them by the game's kind.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify
from flask.typing import ResponseReturnValue

from scorer import DEFAULT_WINNER_RULE, GameKind, InvalidGameKindError
from web.commands import BadActionError
from web.presenters import game_state_dict
from web.views.common import json_body, require_pin, table
from web.views.parse import action_of, body_field, players_field

bp = Blueprint("cards", __name__, url_prefix="/api")

#: Options of the dice game only; a card game refuses them by name.
DICE_OPTIONS = ("solitaire", "roll_off", "first_finish")


def game_kind(value: str) -> GameKind:
    """The `game` field of a new game: "dice" or "cards", refused by name otherwise."""
    try:
        return GameKind.from_value(value)
    except InvalidGameKindError as error:
        raise BadActionError(f"field 'game': {error}") from error


def create_card_game(body: dict[str, Any]) -> ResponseReturnValue:
    """`POST /api/games` with `"game": "cards"` (the body already read and PIN-checked)."""
    for name in DICE_OPTIONS:
        if name in body:
            raise BadActionError(f"field {name!r} is an option of dice games: a card game "
                                 "takes 'players' and 'winner'")
    players = players_field(body)
    winner = body_field(body, "winner", str, required=False, default=DEFAULT_WINNER_RULE.value)
    service = table().service
    game_id = service.create_cards(players, winner=winner)
    return jsonify(game_state_dict(service.state(game_id))), 201


@bp.post("/games/<int:game_id>/hand")
def play_hand(game_id: int) -> ResponseReturnValue:
    """Record a whole hand: `{"hand": [{"player": "Ann", "made": true, "points": 0}, ...]}`."""
    body = json_body("hand", "version")
    require_pin(body)
    return jsonify(game_state_dict(table().service.act(game_id, action_of("hand", body))))


@bp.put("/games/<int:game_id>/hands/<int:index>")
def correct_hand(game_id: int, index: int) -> ResponseReturnValue:
    """Give hand `index` (0-based, as in the state's `hands`) new results."""
    body = json_body("hand", "version")
    require_pin(body)
    action = action_of("correct-hand", body, index=index)
    return jsonify(game_state_dict(table().service.act(game_id, action)))

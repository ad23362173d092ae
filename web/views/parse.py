"""Request bodies into typed commands (`web.commands`): the one place a phone's JSON is read.

Each field is checked for its type here and refused by name (bool is no number);
whether the command makes sense for the game is the service's call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorer import Die, Roll, hand_from_dicts
from web.commands import (
    BadActionError,
    CorrectHand,
    CorrectTurn,
    FailTurn,
    GameAction,
    PlayHand,
    PreviewCorrection,
    RollOff,
    ScoreTurn,
    Seen,
    Undo,
)


def body_field(payload: Mapping[str, Any], name: str, kind: type | tuple[type, ...], *,
               required: bool = True, default: Any = None) -> Any:
    """One field of a request body, checked for type (bool is not accepted as int)."""
    if name not in payload or payload[name] is None:
        if required:
            raise BadActionError(f"missing field {name!r}")
        return default
    value = payload[name]
    wants_int = kind is int or (isinstance(kind, tuple) and int in kind)
    if isinstance(value, bool) and wants_int and kind is not bool:
        raise BadActionError(f"field {name!r} must be a number, got {value!r}")
    if not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise BadActionError(f"field {name!r} must be {names}, got {value!r}")
    return value


def roll_field(payload: Mapping[str, Any], name: str = "roll", *, required: bool = True
               ) -> Roll | None:
    """A roll in notation ("8R 8B ..."); None when it may be left out and is."""
    text = body_field(payload, name, str, required=required)
    return None if text is None else Roll.from_text(text)


def _roll(payload: Mapping[str, Any]) -> Roll:
    roll = roll_field(payload)
    assert roll is not None  # required: refused above when missing
    return roll


def seen_of(payload: Mapping[str, Any]) -> Seen:
    """What the phone showed: `version`, and `roll_id` (sent as null: no roll on the table)."""
    return Seen(version=body_field(payload, "version", int, required=False),
                roll_id=body_field(payload, "roll_id", int, required=False),
                roll_id_sent="roll_id" in payload)


def players_field(payload: Mapping[str, Any]) -> tuple[str, ...]:
    """The names as sent; the engine checks them (count, length, duplicates)."""
    players = body_field(payload, "players", list)
    if not all(isinstance(name, str) for name in players):
        raise BadActionError("field 'players' must be a list of names")
    return tuple(players)


def faces_field(value: object) -> tuple[Die | None, ...]:
    """The faces confirmed for a teaching reading: notation, or null to leave a die out."""
    if not isinstance(value, list) or not value:
        raise BadActionError("field 'dice' must be a list of faces (\"3O\"; null to leave a "
                             "die out), one per die of the reading, in order")
    faces: list[Die | None] = []
    for item in value:
        if item is None:
            faces.append(None)
        elif isinstance(item, str):
            faces.append(Die.from_text(item))  # InvalidDieError: 400
        else:
            raise BadActionError(f"a face must be notation like \"3O\" or null, got {item!r}")
    return tuple(faces)


def action_of(name: str, payload: Mapping[str, Any], *, index: int | None = None
              ) -> GameAction:
    """The action `name` of the API (`score`, `hand`, ...) with its body's fields;
    `index`: the hand a `correct-hand` names in its URL."""
    seen = seen_of(payload)
    if name == "score":
        confirmed = body_field(payload, "confirmed", bool, required=False, default=False)
        roll = roll_field(payload, required=False)
        return ScoreTurn(body_field(payload, "player", str), roll, confirmed, seen)
    if name == "fail":
        roll = roll_field(payload, required=False)
        return FailTurn(body_field(payload, "player", str), roll, seen)
    if name == "undo":
        return Undo(seen)
    if name == "roll-off":
        return RollOff(body_field(payload, "player", str), body_field(payload, "value", int),
                       seen)
    if name == "correct":
        roll = _roll(payload)
        return CorrectTurn(body_field(payload, "turn", int), roll,
                           body_field(payload, "made", bool), seen)
    if name == "hand":
        return PlayHand(hand_from_dicts(body_field(payload, "hand", list)), seen)
    if name == "correct-hand" and index is not None:
        return CorrectHand(index, hand_from_dicts(body_field(payload, "hand", list)), seen)
    raise BadActionError(f"unknown action {name!r}")


def preview_of(payload: Mapping[str, Any]) -> PreviewCorrection:
    """A correction to preview: the turn, its roll and outcome, and the version shown."""
    version = body_field(payload, "version", int, required=False)
    turn, made = body_field(payload, "turn", int), body_field(payload, "made", bool)
    return PreviewCorrection(turn, _roll(payload), made, version)

"""The two games the scorepad keeps: Phase 10 Dice and the Phase 10 card game.

A stored log says which it is by its first event (`game_created` or
`card_game_created`), so logs written before the card game replay unchanged.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

from scorer.card_events import CARD_GAME_CREATED, card_event_from_dict
from scorer.card_game import CardGame
from scorer.events import event_from_dict
from scorer.game import Game
from scorer.game_errors import InvalidEventError


class InvalidGameKindError(InvalidEventError):
    """A game kind that is neither dice nor cards."""


class GameKind(enum.Enum):
    DICE = "dice"
    CARDS = "cards"

    @classmethod
    def from_value(cls, value: object) -> GameKind:
        for kind in cls:
            if value == kind.value:
                return kind
        expected = " or ".join(repr(kind.value) for kind in cls)
        raise InvalidGameKindError(f"{value!r} is not a game: expected {expected}")

    @classmethod
    def of(cls, game: Game | CardGame) -> GameKind:
        return cls.CARDS if isinstance(game, CardGame) else cls.DICE


def replay_log(events: Iterable[Mapping[str, Any]]) -> Game | CardGame:
    """The game a stored log (events in their `to_dict()` form) describes, of either kind."""
    dicts = list(events)
    if dicts and isinstance(dicts[0], Mapping) and dicts[0].get("type") == CARD_GAME_CREATED:
        return CardGame.replay(card_event_from_dict(event) for event in dicts)
    return Game.replay(event_from_dict(event) for event in dicts)

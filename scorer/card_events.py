"""The card game's event log: each hand as the table reports it, as JSON-safe frozen records.

Like the dice game (scorer.events), a card game is nothing but its events and the
scorepad is derived by replaying them. A hand is recorded whole, one result per
player, because that is how a card table reports it: once someone goes out,
everyone says whether they laid down their phase and counts what they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias

from scorer.card_rules import DEFAULT_WINNER_RULE, CardWinnerRule
from scorer.events import Undone, read_event
from scorer.game_errors import GameError, InvalidEventError

#: The `type` of the first event of a card game's log (the dice game's is game_created).
CARD_GAME_CREATED = "card_game_created"


class InvalidHandError(GameError):
    """A hand whose results cannot be right: a player missing or repeated, bad points,
    nobody out. The message names the player or value."""


@dataclass(frozen=True)
class HandResult:
    """One player's line of a hand: did they lay down their phase, and their points."""

    player: str
    made: bool
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "made": self.made, "points": self.points}


def hand_from_dicts(entries: object) -> tuple[HandResult, ...]:
    """Results from their JSON form (`[{"player": "Ann", "made": true, "points": 0}]`).

    Only the shape is checked here (a list of such objects with the right types);
    whether they make a legal hand is the game's call (scorer.card_game).
    """
    if isinstance(entries, str | bytes) or not isinstance(entries, Sequence):
        raise InvalidHandError(f"a hand is a list of one result per player, got {entries!r}")
    results = []
    for position, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            raise InvalidHandError(f"result {position} of the hand is not an object: {entry!r}")
        unknown = sorted(set(entry) - {"player", "made", "points"})
        if unknown:
            raise InvalidHandError(
                f"result {position} of the hand has unknown field {unknown[0]!r}: "
                "each result takes 'player', 'made', 'points'"
            )
        for name in ("player", "made", "points"):
            if name not in entry:
                raise InvalidHandError(f"result {position} of the hand is missing {name!r}")
        player, made, points = entry["player"], entry["made"], entry["points"]
        if not isinstance(player, str):
            raise InvalidHandError(
                f"result {position} of the hand has player={player!r}: expected a name"
            )
        if not isinstance(made, bool):
            raise InvalidHandError(f"{player}'s 'made' is {made!r}: expected true or false")
        if isinstance(points, bool) or not isinstance(points, int):
            raise InvalidHandError(f"{player}'s points are {points!r}: expected a whole number")
        results.append(HandResult(player, made, points))
    return tuple(results)


@dataclass(frozen=True)
class CardGameCreated:
    """The first event of a card game's log: the players in seat order and the winner rule."""

    players: tuple[str, ...]
    winner: CardWinnerRule = DEFAULT_WINNER_RULE
    TYPE: ClassVar[str] = CARD_GAME_CREATED

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if not isinstance(self.winner, CardWinnerRule):
            object.__setattr__(self, "winner", CardWinnerRule.from_value(self.winner))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "players": list(self.players), "winner": self.winner.value}


@dataclass(frozen=True)
class HandPlayed:
    """One hand, from deal to someone going out: every player's result."""

    results: tuple[HandResult, ...]
    TYPE: ClassVar[str] = "hand_played"

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(self.results))

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "results": [result.to_dict() for result in self.results]}


@dataclass(frozen=True)
class HandCorrected:
    """New results for an earlier hand (by index); later hands are re-derived from it."""

    hand: int
    results: tuple[HandResult, ...]
    TYPE: ClassVar[str] = "hand_corrected"

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(self.results))

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "hand": self.hand,
            "results": [result.to_dict() for result in self.results],
        }


CardEvent: TypeAlias = CardGameCreated | HandPlayed | HandCorrected | Undone
CardAction: TypeAlias = HandPlayed | HandCorrected
"""Events that Undone can take back."""


def _results(data: Mapping[str, Any]) -> tuple[HandResult, ...]:
    if "results" not in data:
        raise InvalidEventError(f"{data.get('type')!r} event is missing 'results': {dict(data)!r}")
    try:
        return hand_from_dicts(data["results"])
    except InvalidHandError as error:
        raise InvalidEventError(f"{data.get('type')!r} event has bad results: {error}") from error


def _created(data: Mapping[str, Any]) -> CardGameCreated:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise InvalidEventError(
            f"{CARD_GAME_CREATED!r} event has players={players!r}: expected names"
        )
    return CardGameCreated(tuple(players), CardWinnerRule.from_value(data.get("winner")))


def _corrected(data: Mapping[str, Any]) -> HandCorrected:
    hand = data.get("hand")
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise InvalidEventError(f"'hand_corrected' event has hand={hand!r}: expected int")
    return HandCorrected(hand, _results(data))


_READERS: dict[str, Callable[[Mapping[str, Any]], CardEvent]] = {
    CardGameCreated.TYPE: _created,
    HandPlayed.TYPE: lambda d: HandPlayed(_results(d)),
    HandCorrected.TYPE: _corrected,
    Undone.TYPE: lambda d: Undone(),
}

CARD_EVENT_TYPES: tuple[str, ...] = tuple(_READERS)


def card_event_from_dict(data: Mapping[str, Any]) -> CardEvent:
    """Rebuild a card game's event from its `to_dict()` form."""
    return read_event(data, _READERS, "a card game event type")

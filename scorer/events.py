"""The game's event log: what happened at the table, as JSON-safe frozen records.

A game is nothing but its events; every score on the pad is derived by replaying
them (see scorer.game). Rolls travel as dice notation so a stored log stays
readable and survives changes to the Python types.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeAlias, TypeVar

from scorer.dice import InvalidDieError, InvalidRollError, Roll
from scorer.game_errors import InvalidEventError
from scorer.rules import DEFAULT_FIRST_FINISH, LEGACY_RULES, RULES, FirstFinishRule, check_rules

logger = logging.getLogger(__name__)


def _roll_text(roll: Roll | None) -> str | None:
    return None if roll is None else str(roll)


@dataclass(frozen=True)
class GameCreated:
    """The first event of every log: who sits at the table, in seat order, and the rules.

    `rules` is the edition of the engine's rules (scorer.rules); a stored log
    without it was written before there were editions and replays by the first.
    """

    players: tuple[str, ...]
    solitaire: bool = False
    roll_off: bool = False
    first_finish: FirstFinishRule = DEFAULT_FIRST_FINISH
    rules: int = RULES
    TYPE: ClassVar[str] = "game_created"

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        if not isinstance(self.first_finish, FirstFinishRule):
            object.__setattr__(self, "first_finish", FirstFinishRule.from_value(self.first_finish))
        check_rules(self.rules)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": self.TYPE,
            "players": list(self.players),
            "solitaire": self.solitaire,
            "roll_off": self.roll_off,
        }
        # A legacy log keeps its exact old form.
        if self.rules != LEGACY_RULES or self.first_finish is not DEFAULT_FIRST_FINISH:
            data["first_finish"] = self.first_finish.value
        if self.rules != LEGACY_RULES:
            data["rules"] = self.rules
        return data


@dataclass(frozen=True)
class RollOffThrown:
    """One player's high die in the roll-off for the first turn."""

    player: str
    value: int
    TYPE: ClassVar[str] = "roll_off_thrown"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "player": self.player, "value": self.value}


@dataclass(frozen=True)
class TurnScored:
    """A turn whose roll made the phase; `score` is kept for readers and checked on replay."""

    player: str
    phase: int
    roll: Roll
    score: int
    TYPE: ClassVar[str] = "turn_scored"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "player": self.player,
            "phase": self.phase,
            "roll": str(self.roll),
            "score": self.score,
        }


@dataclass(frozen=True)
class TurnFailed:
    """A turn that did not make the phase (the final roll is optional)."""

    player: str
    phase: int
    roll: Roll | None = None
    TYPE: ClassVar[str] = "turn_failed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "player": self.player,
            "phase": self.phase,
            "roll": _roll_text(self.roll),
        }


@dataclass(frozen=True)
class TurnCorrected:
    """A new outcome for an earlier turn (by turn index); later turns are re-derived."""

    turn: int
    roll: Roll | None
    made: bool
    TYPE: ClassVar[str] = "turn_corrected"

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.TYPE,
            "turn": self.turn,
            "roll": _roll_text(self.roll),
            "made": self.made,
        }


@dataclass(frozen=True)
class Undone:
    """Takes back the latest action not yet taken back."""

    TYPE: ClassVar[str] = "undone"

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE}


Event: TypeAlias = GameCreated | RollOffThrown | TurnScored | TurnFailed | TurnCorrected | Undone
Action: TypeAlias = RollOffThrown | TurnScored | TurnFailed | TurnCorrected
"""Events that Undone can take back."""


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    if key not in data:
        raise InvalidEventError(f"{data.get('type')!r} event is missing {key!r}: {dict(data)!r}")
    value = data[key]
    bad_bool = isinstance(value, bool) and kind is int
    if bad_bool or not isinstance(value, kind):
        raise InvalidEventError(
            f"{data.get('type')!r} event has {key}={value!r}: expected {_kind_name(kind)}"
        )
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join("null" if k is type(None) else k.__name__ for k in kinds)


def _roll(data: Mapping[str, Any]) -> Roll:
    text = _field(data, "roll", str)
    try:
        return Roll.from_text(text)
    except (InvalidDieError, InvalidRollError) as error:
        raise InvalidEventError(f"{data.get('type')!r} event has a bad roll: {error}") from error


def _optional_roll(data: Mapping[str, Any]) -> Roll | None:
    return None if _field(data, "roll", (str, type(None))) is None else _roll(data)


def _game_created(data: Mapping[str, Any]) -> GameCreated:
    """A log from before rule editions has neither `rules` nor `first_finish`: edition 1."""
    rules = _field(data, "rules", int) if "rules" in data else LEGACY_RULES
    first_finish = (
        FirstFinishRule.from_value(_field(data, "first_finish", str))
        if "first_finish" in data
        else DEFAULT_FIRST_FINISH
    )
    return GameCreated(
        _players(data),
        _field(data, "solitaire", bool),
        _field(data, "roll_off", bool),
        first_finish=first_finish,
        rules=rules,
    )


def _players(data: Mapping[str, Any]) -> tuple[str, ...]:
    players = _field(data, "players", list)
    if not all(isinstance(name, str) for name in players):
        raise InvalidEventError(f"'game_created' event has players={players!r}: expected names")
    return tuple(players)


_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    GameCreated.TYPE: _game_created,
    RollOffThrown.TYPE: lambda d: RollOffThrown(_field(d, "player", str), _field(d, "value", int)),
    TurnScored.TYPE: lambda d: TurnScored(
        _field(d, "player", str),
        _field(d, "phase", int),
        _roll(d),
        _field(d, "score", int),
    ),
    TurnFailed.TYPE: lambda d: TurnFailed(
        _field(d, "player", str), _field(d, "phase", int), _optional_roll(d)
    ),
    TurnCorrected.TYPE: lambda d: TurnCorrected(
        _field(d, "turn", int), _optional_roll(d), _field(d, "made", bool)
    ),
    Undone.TYPE: lambda d: Undone(),
}

EVENT_TYPES: tuple[str, ...] = tuple(_READERS)


T = TypeVar("T")


def read_event(
    data: Mapping[str, Any], readers: Mapping[str, Callable[[Mapping[str, Any]], T]], what: str
) -> T:
    """The event `data` describes, built by the reader of its "type" among `readers`
    (InvalidEventError naming the known types otherwise); `what` names the log's kind."""
    if not isinstance(data, Mapping):
        raise InvalidEventError(f"an event must be a mapping, got {data!r}")
    kind = data.get("type")
    reader = readers.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise InvalidEventError(f"{kind!r} is not {what}: expected one of {', '.join(readers)}")
    return reader(data)


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from its `to_dict()` form (e.g. after a JSON round trip)."""
    return read_event(data, _READERS, "an event type")

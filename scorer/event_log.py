"""The event log both games keep: the dice game (scorer.game) and the card game
(scorer.card_game).

A game's log starts with its created event. Every later event is an action, which the
table checks and applies, or an undo, which drops the latest action and rebuilds the
table by replaying the rest. The log is the only source of truth, so a saved log
restores a game exactly. The mechanism is written once here. Each game says which
events start it and act in it, how its table is made, and how one action advances it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Final, Generic, Self, TypeVar, cast

from scorer.events import Undone
from scorer.game_errors import (
    GameError,
    InvalidEventError,
    InvalidPlayersError,
    NothingToUndoError,
)

logger = logging.getLogger(__name__)

MAX_PLAYERS: Final[int] = 12
"""The rulebooks say "one or more"; twelve columns still scroll on a phone beside the
fixed label column."""
MAX_NAME_LENGTH: Final[int] = 20

CreatedT = TypeVar("CreatedT")
ActionT = TypeVar("ActionT")
TableT = TypeVar("TableT")
#: One action of a game's kind, as a method that records it names it.
RecordedT = TypeVar("RecordedT")


def apply_logged(
    events: Iterable[Any],
    apply: Callable[[Any], None],
    refusals: tuple[type[Exception], ...],
) -> None:
    """Apply a log's events after its first, in order. A refusal is raised again as the
    same class (so callers can still tell refusals apart) with the event's place and the
    event in its message; an InvalidEventError (a log that is not a game) as it is."""
    for position, event in enumerate(events, start=1):
        try:
            apply(event)
        except InvalidEventError:
            raise
        except refusals as error:
            raise type(error)(f"event {position} ({event!r}): {error}") from error


def validate_players(players: Sequence[str], *, solitaire: bool) -> tuple[str, ...]:
    """Names stripped of outer spaces; refuses empty, over-long, duplicate or too many."""
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidPlayersError(f"players must be a list of names, got {players!r}")
    names: list[str] = []
    for raw in players:
        if not isinstance(raw, str):
            raise InvalidPlayersError(f"player name {raw!r} is not text")
        name = raw.strip()
        if not name:
            raise InvalidPlayersError(f"player name {raw!r} is empty")
        if len(name) > MAX_NAME_LENGTH:
            raise InvalidPlayersError(
                f"player name {name!r} is {len(name)} characters: at most {MAX_NAME_LENGTH}"
            )
        if not name.isprintable():
            raise InvalidPlayersError(f"player name {name!r} has control characters")
        clash = [other for other in names if other.casefold() == name.casefold()]
        if clash:
            raise InvalidPlayersError(f"player name {name!r} is used twice (as {clash[0]!r})")
        names.append(name)
    if solitaire and len(names) != 1:
        raise InvalidPlayersError(f"solitaire is for exactly one player, got {len(names)}")
    if not solitaire and not 2 <= len(names) <= MAX_PLAYERS:
        raise InvalidPlayersError(
            f"a game needs 2-{MAX_PLAYERS} players (or solitaire for one), got {len(names)}"
        )
    return tuple(names)


class EventLogGame(Generic[CreatedT, ActionT, TableT]):
    """A game as its event log and the table derived from it.

    A subclass names its events in the class attributes below and says how a table is
    made (`_new_table`) and how one action advances it (`_advanced`).
    """

    #: The class of a log's first event (its `TYPE` names it in messages).
    CREATED: ClassVar[type]
    #: The classes of the actions that may follow it (besides an undo).
    ACTIONS: ClassVar[tuple[type, ...]]
    #: What the game is called in messages: "a {KIND} log starts with ...".
    KIND: ClassVar[str]
    #: The refusals `replay` reports with the refused event's place in the log.
    REFUSALS: ClassVar[tuple[type[Exception], ...]] = (GameError,)

    def __init__(self, created: CreatedT) -> None:
        start = self.CREATED.TYPE  # type: ignore[attr-defined]  # every event class has one
        if not isinstance(created, self.CREATED):
            raise InvalidEventError(f"a {self.KIND} log starts with {start}, not {created!r}")
        players = created.players  # type: ignore[attr-defined]
        names = validate_players(players, solitaire=self._solitaire(created))
        if names != players:
            raise InvalidEventError(f"{start} has untidy player names {players!r}")
        self._events: list[Any] = [created]
        self._actions: list[ActionT] = []
        self._table: TableT = self._new_table(created)

    @classmethod
    def replay(cls, events: Iterable[Any]) -> Self:
        """The game a log describes; raises a GameError at the first event that is illegal."""
        iterator = iter(events)
        first = next(iterator, None)
        if first is None:
            start = cls.CREATED.TYPE  # type: ignore[attr-defined]
            raise InvalidEventError(f"an empty log is not a game: it starts with {start}")
        game = cls(first)  # refused by name if it is not the start
        apply_logged(iterator, game._apply, cls.REFUSALS)
        return game

    # -- what each game supplies -----------------------------------------------------

    @staticmethod
    def _solitaire(created: CreatedT) -> bool:
        """Whether the created event starts a game of one (names are checked for it)."""
        return False

    @staticmethod
    def _new_table(created: CreatedT) -> TableT:
        raise NotImplementedError

    def _advanced(self, table: TableT, action: ActionT, *, verify: bool) -> TableT:
        """The table after one action (the same object, or a new one for a correction).
        `verify`: a logged event is checked against the replay; actions replayed for an
        undo were checked when they were first applied."""
        raise NotImplementedError

    # -- the log ---------------------------------------------------------------------

    @property
    def events(self) -> tuple[Any, ...]:
        return tuple(self._events)

    @property
    def last_action(self) -> ActionT | None:
        """The action an undo would take back now (None: nothing to undo), so a page can
        say what its Undo button undoes."""
        return self._actions[-1] if self._actions else None

    def _apply(self, event: Any) -> None:
        """Check one logged event against the table, then record it."""
        if isinstance(event, Undone):
            self._undo()
        elif isinstance(event, self.ACTIONS):
            action = cast("ActionT", event)  # ACTIONS holds the classes ActionT stands for
            self._table = self._advanced(self._table, action, verify=True)
            self._actions.append(action)
        else:
            raise InvalidEventError(f"{event!r} cannot follow the start of a {self.KIND}")
        self._events.append(event)
        logger.debug("event %d: %r", len(self._events) - 1, event)

    def _record(self, event: RecordedT, table: TableT) -> RecordedT:
        """Log an action the table has just checked and applied (giving `table`); the
        caller's own action type comes back."""
        self._table = table
        self._actions.append(cast("ActionT", event))
        self._events.append(event)
        logger.debug("event %d: %r", len(self._events) - 1, event)
        return event

    def undo(self) -> Undone:
        """Take back the latest action not yet taken back (each undo goes one further)."""
        self._undo()
        event = Undone()
        self._events.append(event)
        logger.debug("event %d: undone", len(self._events) - 1)
        return event

    def _undo(self) -> None:
        if not self._actions:
            raise NothingToUndoError("there is nothing to undo")
        kept = self._actions[:-1]
        table = self._new_table(self._events[0])
        for action in kept:
            table = self._advanced(table, action, verify=False)
        self._table = table
        self._actions = kept

    @property
    def players(self) -> tuple[str, ...]:
        """Names in seat order."""
        players: tuple[str, ...] = self._table.created.players  # type: ignore[attr-defined]
        return players

"""The Phase 10 card game as an event log, beside the dice game (scorer.game).

The table reports a whole hand at once (who laid down their phase, what everyone
holds); the engine checks it, appends one event, and derives the sheet by replay,
so undo, corrections of an earlier hand and a restart work as in the dice game.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence

from scorer.card_events import (
    CardAction,
    CardEvent,
    CardGameCreated,
    HandCorrected,
    HandPlayed,
    HandResult,
)
from scorer.card_rules import DEFAULT_WINNER_RULE, CardWinnerRule
from scorer.card_scorepad import CardScorepad, HandRecord
from scorer.card_table import CardTable
from scorer.events import Undone
from scorer.game import apply_logged, validate_players
from scorer.game_errors import GameError, InvalidEventError, NothingToUndoError

logger = logging.getLogger(__name__)


class CardGame:
    """One card game: its event log and the table derived from it.

    Build one with `CardGame.new(...)` or `CardGame.replay(events)`.
    """

    def __init__(self, created: CardGameCreated) -> None:
        if not isinstance(created, CardGameCreated):
            raise InvalidEventError(f"a card game log starts with card_game_created, "
                                    f"not {created!r}")
        names = validate_players(created.players, solitaire=False)
        if names != created.players:
            raise InvalidEventError(f"card_game_created has untidy player names "
                                    f"{created.players!r}")
        self._events: list[CardEvent] = [created]
        self._actions: list[CardAction] = []
        self._table = CardTable(created)

    @classmethod
    def new(cls, players: Sequence[str], *,
            winner: CardWinnerRule | str = DEFAULT_WINNER_RULE) -> CardGame:
        """A fresh card game for 2-12 players (seat order as given).

        `winner` is the reading of who wins (a CardWinnerRule or its value).
        """
        names = validate_players(players, solitaire=False)
        rule = winner if isinstance(winner, CardWinnerRule) else CardWinnerRule.from_value(winner)
        return cls(CardGameCreated(names, rule))

    @classmethod
    def replay(cls, events: Iterable[CardEvent]) -> CardGame:
        """The game a log describes; raises a GameError at the first illegal event."""
        iterator = iter(events)
        first = next(iterator, None)
        if first is None:
            raise InvalidEventError("an empty log is not a game: it starts with card_game_created")
        game = cls(first)  # type: ignore[arg-type]  # refused by name if not the start
        apply_logged(iterator, game._apply, (GameError,))
        return game

    # -- the log ------------------------------------------------------------------

    @property
    def events(self) -> tuple[CardEvent, ...]:
        return tuple(self._events)

    def _apply(self, event: CardEvent) -> None:
        if isinstance(event, Undone):
            self._undo()
        elif isinstance(event, HandPlayed | HandCorrected):
            self._table = self._advanced(self._table, event)
            self._actions.append(event)
        else:
            raise InvalidEventError(f"{event!r} cannot follow the start of a card game")
        self._events.append(event)

    @staticmethod
    def _advanced(table: CardTable, action: CardAction) -> CardTable:
        if isinstance(action, HandCorrected):
            return table.corrected(action.hand, action.results)
        checked = table.check_hand(action.results)
        if checked != action.results:
            # The engine logs hands in seat order with the seated names; anything else
            # was written by something else and is not replayed by guesswork.
            raise InvalidEventError(f"{action!r} does not list the players as seated")
        table.apply_hand(checked)
        return table

    def _record(self, event: CardAction, table: CardTable) -> None:
        self._table = table
        self._actions.append(event)
        self._events.append(event)
        logger.debug("event %d: %r", len(self._events) - 1, event)

    # -- actions ------------------------------------------------------------------

    def play_hand(self, results: Sequence[HandResult]) -> HandPlayed:
        """Record a hand: one result per player, the player who went out at 0 points."""
        checked = self._table.check_hand(results)
        event = HandPlayed(checked)
        self._table.apply_hand(checked)
        self._record(event, self._table)
        return event

    def correct_hand(self, hand: int, results: Sequence[HandResult]) -> HandCorrected:
        """Give an earlier hand (by index) new results; refused if a later hand breaks."""
        table = self._table.corrected(hand, results)
        lines = table.hands[hand].lines
        event = HandCorrected(hand, tuple(HandResult(x.player, x.made, x.points) for x in lines))
        self._record(event, table)
        return event

    def undo(self) -> Undone:
        """Take back the latest action not yet taken back (each undo goes one further)."""
        self._undo()
        event = Undone()
        self._events.append(event)
        return event

    def _undo(self) -> None:
        if not self._actions:
            raise NothingToUndoError("there is nothing to undo")
        kept = self._actions[:-1]
        table = CardTable(self._table.created)
        for action in kept:
            table = self._advanced(table, action)
        self._table = table
        self._actions = kept

    # -- queries ------------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        """Names in seat order."""
        return self._table.created.players

    @property
    def winner_rule(self) -> CardWinnerRule:
        return self._table.created.winner

    @property
    def hands(self) -> tuple[HandRecord, ...]:
        return tuple(self._table.hands)

    @property
    def hand_number(self) -> int:
        """The number of the next hand (of the last one once the game is over)."""
        played = len(self._table.hands)
        return played if self.is_over else played + 1

    @property
    def is_over(self) -> bool:
        return self._table.is_over

    @property
    def winners(self) -> tuple[str, ...]:
        """By the game's winner rule once it is over (ties: several); () before."""
        return self._table.winners()

    @property
    def scorepad(self) -> CardScorepad:
        return self._table.scorepad()

    def phase_of(self, player: str) -> int | None:
        """The phase a player is on (None once phase 10 is completed)."""
        return self._table.seats[self._table.resolve(player)].phase

"""The Phase 10 card game as an event log, beside the dice game (scorer.game).

The table reports a whole hand at once (who laid down their phase, what everyone
holds); the engine checks it, appends one event, and derives the sheet by replay,
so undo, corrections of an earlier hand and a restart work as in the dice game.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.card_events import CardAction, CardGameCreated, HandCorrected, HandPlayed, HandResult
from scorer.card_rules import DEFAULT_WINNER_RULE, CardWinnerRule
from scorer.card_scorepad import CardScorepad, HandRecord
from scorer.card_table import CardTable
from scorer.event_log import EventLogGame, validate_players
from scorer.game_errors import InvalidEventError


class CardGame(EventLogGame[CardGameCreated, CardAction, CardTable]):
    """One card game: its event log and the table derived from it (`scorer.event_log`).

    Build one with `CardGame.new(...)` or `CardGame.replay(events)`.
    """

    CREATED = CardGameCreated
    ACTIONS = (HandPlayed, HandCorrected)
    KIND = "card game"

    @classmethod
    def new(cls, players: Sequence[str], *,
            winner: CardWinnerRule | str = DEFAULT_WINNER_RULE) -> CardGame:
        """A fresh card game for 2-12 players (seat order as given).

        `winner` is the reading of who wins (a CardWinnerRule or its value).
        """
        names = validate_players(players, solitaire=False)
        rule = winner if isinstance(winner, CardWinnerRule) else CardWinnerRule.from_value(winner)
        return cls(CardGameCreated(names, rule))

    @staticmethod
    def _new_table(created: CardGameCreated) -> CardTable:
        return CardTable(created)

    def _advanced(self, table: CardTable, action: CardAction, *, verify: bool) -> CardTable:
        """The table after one hand or correction: checked each time, as it costs little."""
        if isinstance(action, HandCorrected):
            return table.corrected(action.hand, action.results)
        checked = table.check_hand(action.results)
        if checked != action.results:
            # The engine logs hands in seat order with the seated names; anything else
            # was written by something else and is not replayed by guesswork.
            raise InvalidEventError(f"{action!r} does not list the players as seated")
        table.apply_hand(checked)
        return table

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

    # -- queries ------------------------------------------------------------------

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

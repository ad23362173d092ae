"""A game of Phase 10 Dice as an event log: the log is the only source of truth.

Every action checks itself against the table derived from the log, raises a
GameError (changing nothing) or appends one event. Replaying the same events
always gives the same table, so a saved log restores a game exactly; undo and
corrections are events too, and the table is rebuilt by replay after them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorer.dice import InvalidRollError, Roll
from scorer.event_log import EventLogGame, validate_players
from scorer.events import (
    Action,
    GameCreated,
    RollOffThrown,
    TurnCorrected,
    TurnFailed,
    TurnScored,
)
from scorer.game_errors import GameError, InvalidEventError, UnknownPlayerError
from scorer.rules import DEFAULT_FIRST_FINISH, FirstFinishRule
from scorer.scorepad import Scorepad, TurnRecord
from scorer.table import Table


@dataclass(frozen=True)
class TurnChange:
    """One turn as it stands now and as it would stand after a correction."""

    before: TurnRecord
    after: TurnRecord

    @property
    def changed(self) -> tuple[str, ...]:
        """What differs: any of "round", "phase", "made", "score", "roll"."""
        fields = ("round", "phase", "made", "score", "roll")
        return tuple(name for name in fields
                     if getattr(self.before, name) != getattr(self.after, name))

    def to_dict(self) -> dict[str, Any]:
        def outcome(record: TurnRecord) -> dict[str, Any]:
            return {"round": record.round, "phase": record.phase, "made": record.made,
                    "score": record.score,
                    "roll": None if record.roll is None else str(record.roll)}

        return {"index": self.after.index, "player": self.after.player,
                "changed": list(self.changed),
                "before": outcome(self.before), "after": outcome(self.after)}


@dataclass(frozen=True)
class CorrectionPreview:
    """What a correction of an earlier turn would do, worked out by replay, nothing changed.

    `later` lists only the later turns that would change (their phase, made or
    missed, score or round); `totals_*` are each player's Grand Total, `next_*`
    who would play next and on which phase (None: nobody, the game is over).
    """

    turn: TurnChange
    later: tuple[TurnChange, ...]
    totals_before: dict[str, int]
    totals_after: dict[str, int]
    next_before: tuple[str, int | None] | None
    next_after: tuple[str, int | None] | None
    winners_after: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        def whose(next_turn: tuple[str, int | None] | None) -> dict[str, Any] | None:
            return None if next_turn is None else {"player": next_turn[0],
                                                   "phase": next_turn[1]}

        return {
            "turn": self.turn.to_dict(),
            "later": [change.to_dict() for change in self.later],
            "totals": {name: {"before": self.totals_before[name],
                              "after": self.totals_after[name]}
                       for name in self.totals_before},
            "next": {"before": whose(self.next_before), "after": whose(self.next_after)},
            "winners_after": list(self.winners_after),
        }


class Game(EventLogGame[GameCreated, Action, Table]):
    """One game: its event log and the table derived from it (`scorer.event_log`).

    Build one with `Game.new(...)` or `Game.replay(events)`.
    """

    CREATED = GameCreated
    ACTIONS = (RollOffThrown, TurnScored, TurnFailed, TurnCorrected)
    KIND = "game"
    REFUSALS = (GameError, InvalidRollError)

    @classmethod
    def new(
        cls,
        players: Sequence[str],
        *,
        solitaire: bool = False,
        roll_off: bool = False,
        first_finish: FirstFinishRule | str = DEFAULT_FIRST_FINISH,
    ) -> Game:
        """A fresh game by the current rules. Without a roll-off, play follows the seats.

        `first_finish` is the printing's reading of the First Finish Bonus (a
        FirstFinishRule or its value, e.g. "already_on_phase_10").
        """
        names = validate_players(players, solitaire=solitaire)
        rule = (
            first_finish
            if isinstance(first_finish, FirstFinishRule)
            else FirstFinishRule.from_value(first_finish)
        )
        created = GameCreated(
            names, solitaire=bool(solitaire), roll_off=bool(roll_off), first_finish=rule
        )
        return cls(created)

    @staticmethod
    def _solitaire(created: GameCreated) -> bool:
        return bool(created.solitaire)

    @staticmethod
    def _new_table(created: GameCreated) -> Table:
        return Table(created)

    def _advanced(self, table: Table, action: Action, *, verify: bool) -> Table:
        """The table after one action (the same object, or a new one for a correction).

        `verify`: check a logged event against the replay (a throw the rules allow,
        the phase and score it logged); actions replayed for an undo were verified
        when they were first applied.
        """
        if isinstance(action, RollOffThrown):
            if verify:
                table.check_throw(self._exact(action.player), action.value)
            table.apply_throw(action)
        elif isinstance(action, TurnCorrected):
            table = table.corrected(action.turn, action.roll, action.made)
        else:
            made = isinstance(action, TurnScored)
            phase, roll, score = table.check_turn(self._exact(action.player), action.roll, made)
            if verify:
                logged_score = action.score if isinstance(action, TurnScored) else 0
                if (action.phase, logged_score) != (phase, score):
                    raise InvalidEventError(
                        f"{action!r} does not match the replay: {action.player} is on phase "
                        f"{phase} and the roll scores {score}"
                    )
            table.apply_turn(action.player, phase, roll, made, score)
        return table

    def _exact(self, player: object) -> str:
        if not isinstance(player, str) or player not in self._table.seats:
            raise UnknownPlayerError(f"{player!r} is not a player of this game")
        return player

    def _resolve(self, player: object) -> str:
        """The seated name for `player`, matched ignoring case and outer spaces."""
        if isinstance(player, str):
            key = player.strip().casefold()
            for name in self._table.seats:
                if name.casefold() == key:
                    return name
        raise UnknownPlayerError(
            f"{player!r} is not a player of this game: expected one of "
            f"{', '.join(self._table.seats)}"
        )

    # -- actions ------------------------------------------------------------------

    def roll_off(self, player: str, value: int) -> RollOffThrown:
        """Record one player's high die (5-10) in the roll-off for the first turn."""
        name = self._resolve(player)
        self._table.check_throw(name, value)
        event = RollOffThrown(name, value)
        self._table.apply_throw(event)
        return self._record(event, self._table)

    def score_turn(self, player: str, roll: Roll) -> TurnScored:
        """The active player takes the score of a roll that makes their phase."""
        name = self._resolve(player)
        phase, checked, score = self._table.check_turn(name, roll, True)
        assert checked is not None
        event = TurnScored(name, phase, checked, score)
        self._table.apply_turn(name, phase, checked, True, score)
        return self._record(event, self._table)

    def fail_turn(self, player: str, roll: Roll | None = None) -> TurnFailed:
        """The active player fails their phase this turn (the final roll is optional)."""
        name = self._resolve(player)
        phase, checked, _ = self._table.check_turn(name, roll, False)
        event = TurnFailed(name, phase, checked)
        self._table.apply_turn(name, phase, checked, False, 0)
        return self._record(event, self._table)

    def correct_turn(self, turn: int, roll: Roll | None, made: bool) -> TurnCorrected:
        """Give an earlier turn a new outcome; refused if a later turn would become illegal."""
        table = self._table.corrected(turn, roll, made)
        corrected = table.turns[turn]
        event = TurnCorrected(turn, corrected.roll, made)
        return self._record(event, table)

    def preview_correction(self, turn: int, roll: Roll | None, made: bool
                           ) -> CorrectionPreview:
        """What `correct_turn(turn, roll, made)` would change, without changing anything.

        Refused exactly as the correction would be (a GameError): the same replay
        decides both, so the preview shows what confirming it does.
        """
        table = self._table.corrected(turn, roll, made)
        pairs = [TurnChange(old, new) for old, new in zip(self._table.turns, table.turns,
                                                          strict=True)]
        later = tuple(change for change in pairs[turn + 1:] if change.changed)

        def totals(of: Table) -> dict[str, int]:
            return {column.player: column.grand_total for column in of.scorepad().columns}

        def next_turn(of: Table) -> tuple[str, int | None] | None:
            return None if of.active is None else (of.active, of.phase_of(of.active))

        return CorrectionPreview(
            turn=pairs[turn], later=later,
            totals_before=totals(self._table), totals_after=totals(table),
            next_before=next_turn(self._table), next_after=next_turn(table),
            winners_after=table.winners(),
        )

    # -- queries ------------------------------------------------------------------

    @property
    def solitaire(self) -> bool:
        return self._table.solitaire

    @property
    def first_finish(self) -> FirstFinishRule:
        """The printing's reading of the First Finish Bonus this game follows."""
        return self._table.created.first_finish

    @property
    def rules(self) -> int:
        """The edition of the engine's rules the log was played by (scorer.rules)."""
        return self._table.created.rules

    @property
    def roll_off_throws(self) -> dict[str, tuple[int, ...]]:
        """Each player's roll-off throws, first throw first, in seat order (empty: none)."""
        return {name: self._table.throws_of(name) for name in self.players}

    @property
    def roll_off_pending(self) -> tuple[str, ...]:
        """Who still has to throw in the current roll-off round; () once the order is set."""
        return self._table.waiting_for_throws

    @property
    def play_order(self) -> tuple[str, ...]:
        """Seat order from the starting player (seat order until the roll-off settles)."""
        return self._table.order or self.players

    @property
    def active_player(self) -> str | None:
        """Whose turn it is; None while the roll-off is pending or once the game is over."""
        return self._table.active

    @property
    def active_phase(self) -> int | None:
        active = self._table.active
        return None if active is None else self._table.phase_of(active)

    @property
    def round(self) -> int:
        """The round of the next turn (of the last turn once the game is over)."""
        return self._table.round

    @property
    def is_over(self) -> bool:
        return self._table.is_over

    @property
    def winners(self) -> tuple[str, ...]:
        """Highest Grand Total once the game is over (ties: several); () before."""
        return self._table.winners()

    @property
    def scorepad(self) -> Scorepad:
        return self._table.scorepad()

    @property
    def turns(self) -> tuple[TurnRecord, ...]:
        return tuple(self._table.turns)

    def phase_of(self, player: str) -> int | None:
        """The phase a player attempts next (None once all ten are made)."""
        return self._table.phase_of(self._resolve(player))

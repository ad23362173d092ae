"""The state of the table derived from a game's actions: turn order, phases, end game.

`Table` is the rule book applied step by step. scorer.game feeds it the events
of the log; every `check_*` method refuses an illegal step without changing
anything, every `apply_*` method records a step already checked.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import lru_cache

from scorer import solver
from scorer.dice import HIGH_VALUES, InvalidRollError, Roll
from scorer.events import GameCreated, RollOffThrown
from scorer.game_errors import (
    GameError,
    GameOverError,
    InvalidCorrectionError,
    NotYourTurnError,
    PhaseNotMadeError,
    RollOffError,
)
from scorer.phases import LAST_PHASE, get_phase
from scorer.rules import LEGACY_RULES, FirstFinishRule
from scorer.scorepad import PlayerColumn, Scorepad, TurnRecord

logger = logging.getLogger(__name__)


@lru_cache(maxsize=8192)
def verdict(roll: Roll, phase: int) -> tuple[bool, int]:
    """(made, best score) of a roll for a phase; cached because replays re-ask often."""
    result = solver.evaluate(roll, phase)
    return result.made, result.score


def require_turn_roll(roll: object, *, needed: bool) -> Roll | None:
    """A turn's roll must be all ten dice; a failed turn may leave it out (None)."""
    if roll is None and not needed:
        return None
    if not isinstance(roll, Roll):
        raise InvalidRollError(f"{roll!r} is not a Roll: a turn needs the ten dice rolled")
    return roll.require_full()


@dataclass
class _Seat:
    """One player's progress, as the replay has it so far."""

    name: str
    scores: list[int | None] = field(default_factory=lambda: [None] * LAST_PHASE)
    failed_turns: int = 0
    failed_on_last_phase: int = 0
    finish_round: int | None = None
    finished_on_extra_turn: bool = False
    """Completed phase 10 on a turn gained by making phase 9 on a last try."""
    out: bool = False

    @property
    def phase(self) -> int | None:
        made = sum(score is not None for score in self.scores)
        return None if made == LAST_PHASE else made + 1

    @property
    def done(self) -> bool:
        return self.out or self.phase is None


class Table:
    """Everything the log implies so far; rebuilt from scratch after undo or correction."""

    def __init__(self, created: GameCreated) -> None:
        self.created = created
        self.seats: dict[str, _Seat] = {name: _Seat(name) for name in created.players}
        self.throws: list[RollOffThrown] = []
        # The roll-off's ranking so far: groups in rank order, highest throw first,
        # each marked settled or not: everyone throws once, then each tie again.
        self._ranks: list[tuple[tuple[str, ...], bool]] = (
            [(created.players, False)] if created.roll_off else []
        )
        self._round_throws: dict[str, int] = {}
        self.order: tuple[str, ...] = () if created.roll_off else created.players
        self.turns: list[TurnRecord] = []
        self.first_finish_round: int | None = None
        self.round = 1
        self.active: str | None = self.order[0] if self.order else None
        self._extra_turn = False  # the active player's turn comes from a made last try

    # -- queries --------------------------------------------------------------

    @property
    def solitaire(self) -> bool:
        return self.created.solitaire

    @property
    def legacy(self) -> bool:
        """Played by the first edition of the engine's rules (see scorer.rules)."""
        return self.created.rules == LEGACY_RULES

    @property
    def pending(self) -> tuple[str, ...]:
        """Players still to throw in the roll-off: every tie, highest first, seats within."""
        return tuple(name for group, settled in self._ranks if not settled for name in group)

    def phase_of(self, player: str) -> int | None:
        return self.seats[player].phase

    @property
    def is_over(self) -> bool:
        if self.solitaire:
            return all(seat.phase is None for seat in self.seats.values())
        finished = self.first_finish_round is not None
        return finished and all(seat.done for seat in self.seats.values())

    def scorepad(self) -> Scorepad:
        order = self.order or self.created.players
        return Scorepad(tuple(self._column(self.seats[name]) for name in order), self.solitaire)

    def _column(self, seat: _Seat) -> PlayerColumn:
        return PlayerColumn.tally(
            seat.name,
            seat.scores,
            first_finish=self._earns_first_finish(seat),
            failed_turns=seat.failed_turns,
            solitaire=self.solitaire,
            out=seat.out,
        )

    def _earns_first_finish(self, seat: _Seat) -> bool:
        """Solitaire: phase 10 made on its first try. Else: finished in the first finish round.

        Players seated before the first finisher have had their turn of that round,
        so only those after can join them. The 2010 printing also wants them "already
        in Phase 10": not there by making phase 9 on a last try in that round.
        """
        if seat.finish_round is None:
            return False
        if self.solitaire:
            return seat.failed_on_last_phase == 0
        if seat.finish_round != self.first_finish_round:
            return False
        if self.created.first_finish is FirstFinishRule.ALREADY_ON_PHASE_10:
            return not seat.finished_on_extra_turn
        return True

    def winners(self) -> tuple[str, ...]:
        """Highest Grand Total once the game is over (several on a tie); () before."""
        if not self.is_over:
            return ()
        columns = self.scorepad().columns
        best = max(column.grand_total for column in columns)
        return tuple(column.player for column in columns if column.grand_total == best)

    # -- roll-off -------------------------------------------------------------

    def check_throw(self, player: str, value: object) -> None:
        if not self.pending:
            settled = (
                "there is no roll-off in this game"
                if not self.created.roll_off
                else (f"the play order is already settled ({', '.join(self.order)})")
            )
            raise RollOffError(f"{player} cannot throw for the roll-off: {settled}")
        if player not in self.pending:
            raise RollOffError(
                f"{player} does not throw in this roll-off round: only the tied "
                f"{', '.join(self.pending)} throw again"
            )
        if player in self._round_throws:
            waiting = ", ".join(self.waiting_for_throws)
            raise RollOffError(
                f"{player} has already thrown in this roll-off round; waiting for {waiting}"
            )
        if isinstance(value, bool) or value not in HIGH_VALUES:
            raise RollOffError(
                f"{value!r} is not a high die for {player}'s roll-off throw: expected 5-10"
            )

    def apply_throw(self, event: RollOffThrown) -> None:
        self.throws.append(event)
        self._round_throws[event.player] = event.value
        at = next(i for i, (group, _) in enumerate(self._ranks) if event.player in group)
        group = self._ranks[at][0]
        if any(player not in self._round_throws for player in group):
            return
        thrown = {player: self._round_throws.pop(player) for player in group}
        split = [
            tuple(p for p in group if thrown[p] == value)
            for value in sorted(set(thrown.values()), reverse=True)
        ]
        if self.legacy:
            # Edition 1 only looked for the starting player; the seats from them gave the rest.
            if len(split[0]) == 1:
                seats = self.created.players
                start = seats.index(split[0][0])
                split = [(p,) for p in seats[start:] + seats[:start]]
            else:
                split = split[:1]
        self._ranks[at : at + 1] = [(tied, len(tied) == 1) for tied in split]
        if self.pending:
            logger.debug("roll-off ties: %s throw again", self.pending)
            return
        self.order = tuple(group[0] for group, _ in self._ranks)
        self.active = self.order[0]
        logger.debug("roll-off settled; play order %s", self.order)

    def throws_of(self, player: str) -> tuple[int, ...]:
        """A player's roll-off throws so far, first throw first."""
        return tuple(throw.value for throw in self.throws if throw.player == player)

    @property
    def waiting_for_throws(self) -> tuple[str, ...]:
        """Players of the current roll-off round who have not thrown yet."""
        return tuple(p for p in self.pending if p not in self._round_throws)

    # -- turns ----------------------------------------------------------------

    def check_turn(self, player: str, roll: object, made: bool) -> tuple[int, Roll | None, int]:
        """(phase, roll, score) of a legal turn; raises for an illegal one."""
        if self.is_over:
            raise GameOverError(f"the game is over: {player} cannot take another turn")
        if self.pending:
            waiting = ", ".join(self.waiting_for_throws)
            raise RollOffError(
                f"{player} cannot play yet: the roll-off is not settled (waiting for {waiting})"
            )
        if player != self.active:
            raise NotYourTurnError(f"it is {self.active}'s turn, not {player}'s")
        phase = self.seats[player].phase
        assert phase is not None  # an active player is never finished
        checked = require_turn_roll(roll, needed=made)
        if not made:
            return phase, checked, 0
        assert checked is not None
        is_made, score = verdict(checked, phase)
        if not is_made:
            raise PhaseNotMadeError(f"{checked} does not make {get_phase(phase)} for {player}")
        return phase, checked, score

    def apply_turn(
        self, player: str, phase: int, roll: Roll | None, made: bool, score: int
    ) -> None:
        seat = self.seats[player]
        self.turns.append(TurnRecord(len(self.turns), self.round, player, phase, roll, made, score))
        if made:
            seat.scores[phase - 1] = score
            if phase == LAST_PHASE:
                seat.finish_round = self.round
                seat.finished_on_extra_turn = self._extra_turn
                if self.first_finish_round is None:
                    self.first_finish_round = self.round
                    logger.debug("%s finished first, in round %d", player, self.round)
        else:
            seat.failed_turns += 1
            seat.failed_on_last_phase += phase == LAST_PHASE
            seat.out = self.first_finish_round is not None and not self.solitaire
        self._advance(goes_on=made and self._on_last_tries and not seat.done)

    @property
    def _on_last_tries(self) -> bool:
        """Someone has completed phase 10: every turn now is a last try (not in solitaire)."""
        return self.first_finish_round is not None and not self.solitaire

    def _advance(self, *, goes_on: bool) -> None:
        """Pass play to the next player in play order who is not done; a wrap is a new round.

        A player who makes a phase on a last try "gets another turn, to try and make"
        the next one (`goes_on`): they keep playing, in the same round, until they
        fail or complete phase 10. Edition 1 of the rules passed the turn instead.
        """
        if self.is_over:
            self.active = None
            self._extra_turn = False
            return
        assert self.active is not None
        self._extra_turn = goes_on and not self.legacy
        if self._extra_turn:
            logger.debug("%s made a phase on a last try and goes on", self.active)
            return
        current = self.order.index(self.active)
        for step in range(1, len(self.order) + 1):
            candidate = self.seats[self.order[(current + step) % len(self.order)]]
            if not candidate.done:
                if current + step >= len(self.order):
                    self.round += 1
                self.active = candidate.name
                return
        raise AssertionError("a game that is not over has a player who is not done")

    # -- corrections ----------------------------------------------------------

    def corrected(self, turn: int, roll: object, made: bool) -> Table:
        """A new table with turn `turn` given a new outcome and every later turn re-checked."""
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn < len(self.turns):
            last = f"0-{len(self.turns) - 1}" if self.turns else "none yet"
            raise InvalidCorrectionError(f"{turn!r} is not a turn to correct: turns are {last}")
        if not isinstance(made, bool):
            raise InvalidCorrectionError(f"made={made!r} must be True or False")
        if made and roll is None:
            raise InvalidCorrectionError(
                "a made phase needs its roll: type the dice of that turn, then check again")
        table = Table(self.created)
        for throw in self.throws:
            table.apply_throw(throw)
        for record in self.turns:
            if record.index == turn:
                phase, checked, score = table.check_turn(record.player, roll, made)
                table.apply_turn(record.player, phase, checked, made, score)
                continue
            try:
                phase, checked, score = table.check_turn(record.player, record.roll, record.made)
            except GameError as error:
                raise InvalidCorrectionError(
                    f"this change does not fit {record.player}'s turn in round "
                    f"{record.round}, which comes after it ({error}): correct that "
                    "later turn first, or choose another outcome here"
                ) from error
            table.apply_turn(record.player, phase, checked, record.made, score)
        return table

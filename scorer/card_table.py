"""The card game's table derived from its hands: phases made, points, the end and the winner.

`CardTable` is the card game's rule book applied hand by hand. scorer.card_game
feeds it the log; `check_hand` refuses an impossible hand without changing
anything, `apply_hand` records a checked one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from scorer.card_events import CardGameCreated, HandResult, InvalidHandError
from scorer.card_rules import (
    CARD_VALUES,
    MAX_CARDS_HELD,
    MAX_HAND_POINTS,
    POINT_STEP,
    CardWinnerRule,
)
from scorer.card_scorepad import CardColumn, CardScorepad, HandLine, HandRecord
from scorer.game_errors import GameError, GameOverError, InvalidCorrectionError, UnknownPlayerError
from scorer.phases import LAST_PHASE

logger = logging.getLogger(__name__)

_CARD_WORDS = ", ".join(f"{value.label} {value.points}" for value in CARD_VALUES)


@dataclass
class _Seat:
    """One player's progress so far."""

    name: str
    phase_hands: list[int | None] = field(default_factory=lambda: [None] * LAST_PHASE)
    hand_points: list[int] = field(default_factory=list)

    @property
    def phase(self) -> int | None:
        made = sum(hand is not None for hand in self.phase_hands)
        return None if made == LAST_PHASE else made + 1


def _names(players: Sequence[str]) -> str:
    return " and ".join(players) if len(players) <= 2 else (
        ", ".join(players[:-1]) + " and " + players[-1])


class CardTable:
    """Everything the hands imply so far; rebuilt from scratch after undo or correction."""

    def __init__(self, created: CardGameCreated) -> None:
        self.created = created
        self.seats: dict[str, _Seat] = {name: _Seat(name) for name in created.players}
        self.hands: list[HandRecord] = []

    # -- queries --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """A hand in which someone completed phase 10 has ended."""
        return any(seat.phase is None for seat in self.seats.values())

    def scorepad(self) -> CardScorepad:
        return CardScorepad(
            tuple(
                CardColumn(seat.name, tuple(seat.phase_hands), tuple(seat.hand_points),
                           seat.phase)
                for seat in self.seats.values()
            ),
            self.created.winner,
        )

    def winners(self) -> tuple[str, ...]:
        """The lowest total once the game is over (several on a tie); () before.

        By the printed rule only players who completed phase 10 are in the running.
        """
        if not self.is_over:
            return ()
        columns = self.scorepad().columns
        if self.created.winner is CardWinnerRule.LOWEST_WITH_PHASE_10:
            columns = tuple(column for column in columns if column.finished)
        best = min(column.grand_total for column in columns)
        return tuple(column.player for column in columns if column.grand_total == best)

    def resolve(self, player: object) -> str:
        """The seated name for `player`, matched ignoring case and outer spaces."""
        if isinstance(player, str):
            key = player.strip().casefold()
            for name in self.seats:
                if name.casefold() == key:
                    return name
        raise UnknownPlayerError(
            f"{player!r} is not a player of this game: expected one of {', '.join(self.seats)}"
        )

    # -- hands ----------------------------------------------------------------

    def check_hand(self, results: Sequence[HandResult]) -> tuple[HandResult, ...]:
        """The results of a legal next hand, in seat order with seated names; raises otherwise."""
        if self.is_over:
            finished = [seat.name for seat in self.seats.values() if seat.phase is None]
            raise GameOverError(
                f"the game is over: {_names(finished)} completed phase 10 in hand "
                f"{len(self.hands)}, so no further hand is played"
            )
        return self.checked_results(results)

    def checked_results(self, results: Sequence[HandResult]) -> tuple[HandResult, ...]:
        """One result per player, points a multiple of 5, exactly one player out (0 points)."""
        by_name: dict[str, HandResult] = {}
        for result in results:
            name = self.resolve(result.player)
            if name in by_name:
                raise InvalidHandError(f"{name} is in this hand twice: one result per player")
            by_name[name] = HandResult(name, result.made, result.points)
        missing = [name for name in self.seats if name not in by_name]
        if missing:
            raise InvalidHandError(
                f"this hand has no result for {_names(missing)}: send one result per player"
            )
        for result in by_name.values():
            if isinstance(result.points, bool) or not isinstance(result.points, int):
                raise InvalidHandError(
                    f"{result.player}'s points are {result.points!r}: expected a whole number")
            if result.points < 0:
                raise InvalidHandError(
                    f"{result.player}'s points are {result.points}: points cannot be negative")
            if result.points > MAX_HAND_POINTS:
                raise InvalidHandError(
                    f"{result.player}'s points are {result.points}: a player holds at most "
                    f"{MAX_CARDS_HELD} cards when a hand ends, {MAX_HAND_POINTS} points even if "
                    "every one is a Skip or a Wild: count the cards again")
            if result.points % POINT_STEP:
                raise InvalidHandError(
                    f"{result.player}'s points are {result.points}: not a multiple of "
                    f"{POINT_STEP} (cards left in hand count {_CARD_WORDS})"
                )
        out = [name for name, result in by_name.items() if result.points == 0]
        if not out:
            raise InvalidHandError(
                "nobody has 0 points: a hand ends when a player goes out, and they score 0")
        if len(out) > 1:
            raise InvalidHandError(
                f"{_names(out)} all have 0 points: only the player who went out scores 0, "
                "everyone else still holds cards"
            )
        if not by_name[out[0]].made:
            raise InvalidHandError(
                f"{out[0]} has 0 points (went out) but did not make the phase: a player "
                "goes out only after laying down their phase"
            )
        return tuple(by_name[name] for name in self.seats)

    def apply_hand(self, results: Sequence[HandResult]) -> None:
        """Record a checked hand: who moves on, and everyone's points."""
        number = len(self.hands) + 1
        lines = []
        for result in results:
            seat = self.seats[result.player]
            phase = seat.phase
            assert phase is not None  # check_hand refused a hand after the game ended
            if result.made:
                seat.phase_hands[phase - 1] = number
            seat.hand_points.append(result.points)
            lines.append(HandLine(result.player, phase, result.made, result.points))
        self.hands.append(HandRecord(number - 1, tuple(lines)))
        if self.is_over:
            logger.debug("phase 10 completed in hand %d: the game is over", number)

    # -- corrections ----------------------------------------------------------

    def corrected(self, hand: object, results: Sequence[HandResult]) -> CardTable:
        """A new table with hand `hand` (an index) given new results; later hands re-checked."""
        if isinstance(hand, bool) or not isinstance(hand, int) or not 0 <= hand < len(self.hands):
            known = f"0-{len(self.hands) - 1}" if self.hands else "none yet"
            raise InvalidCorrectionError(f"{hand!r} is not a hand to correct: hands are {known}")
        table = CardTable(self.created)
        for record in self.hands:
            if record.index == hand:
                table.apply_hand(table.check_hand(results))
                continue
            kept = [HandResult(line.player, line.made, line.points) for line in record.lines]
            try:
                checked = table.check_hand(kept)
            except GameError as error:
                raise InvalidCorrectionError(
                    f"correcting hand {hand + 1} would make hand {record.number} "
                    f"impossible: {error}"
                ) from error
            table.apply_hand(checked)
        return table

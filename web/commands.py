"""What a phone asks the games to do, typed: the service takes these, never a request body.

`web.views.parse` builds them from the JSON a phone sends (refusing a field of the
wrong type by name); the service checks them against the game and the table. Keeping
them frozen and free of Flask lets the camera thread, the photo upload and a test
speak to the service exactly as a phone does.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer import Roll
from scorer.card_events import HandResult


class BadActionError(ValueError):
    """A request whose fields are missing or of the wrong type; the message names the field."""


class MissingGuardError(BadActionError):
    """A change sent without the `version` (and, for dice, `roll_id`) the phone showed (428):
    without them a phone looking at an older screen could change a newer game."""


@dataclass(frozen=True)
class Seen:
    """What the phone showed when it asked for a change: the game's `version` and the id of
    the roll on the table (`roll_id_sent`: whether it named one at all; null is "no roll")."""

    version: int | None = None
    roll_id: int | None = None
    roll_id_sent: bool = False


@dataclass(frozen=True)
class ScoreTurn:
    """Score the player's turn with `roll` (None: the roll on the table)."""

    player: str
    roll: Roll | None
    confirmed: bool
    seen: Seen


@dataclass(frozen=True)
class FailTurn:
    """The player's turn ends without the phase (its roll, when sent, kept on the sheet)."""

    player: str
    roll: Roll | None
    seen: Seen


@dataclass(frozen=True)
class Undo:
    """Take back the game's last event."""

    seen: Seen


@dataclass(frozen=True)
class RollOff:
    """One player's throw of the roll-off that decides the play order."""

    player: str
    value: int
    seen: Seen


@dataclass(frozen=True)
class CorrectTurn:
    """An earlier turn given another roll or outcome (later turns replayed)."""

    turn: int
    roll: Roll
    made: bool
    seen: Seen


@dataclass(frozen=True)
class PlayHand:
    """A card game's whole hand at once."""

    hand: tuple[HandResult, ...]
    seen: Seen


@dataclass(frozen=True)
class CorrectHand:
    """A card game's earlier hand given new results."""

    index: int
    hand: tuple[HandResult, ...]
    seen: Seen


#: Every action on a game's log (`GameService.act`).
GameAction = ScoreTurn | FailTurn | Undo | RollOff | CorrectTurn | PlayHand | CorrectHand

#: The action each name of the API stands for, by the game's kind.
DICE_ACTIONS: dict[str, type[GameAction]] = {
    "score": ScoreTurn, "fail": FailTurn, "undo": Undo, "roll-off": RollOff,
    "correct": CorrectTurn,
}
CARD_ACTIONS: dict[str, type[GameAction]] = {
    "hand": PlayHand, "undo": Undo, "correct-hand": CorrectHand,
}
#: Actions that end a turn (the camera starts counting rolls anew).
ENDS_TURN: frozenset[type[GameAction]] = frozenset({ScoreTurn, FailTurn})


@dataclass(frozen=True)
class PreviewCorrection:
    """What `CorrectTurn` would change, asked without changing anything."""

    turn: int
    roll: Roll
    made: bool
    version: int | None

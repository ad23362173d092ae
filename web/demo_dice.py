"""What the demo table throws when someone taps "Roll the demo dice": the turn's next roll.

A real player throws all ten dice on roll 1, then keeps the dice that help and
throws the rest on rolls 2 and 3; the demo plays the same way, keeping what the
odds advisor would keep from the roll on the table. After roll 3 there is no
next roll: the turn ends with a score or without one. Pure rules: nothing here
touches the camera.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorer import ROLLS_PER_TURN, Die, advise
from web.game_view import CardGameView, GameView


class DemoRollError(ValueError):
    """The demo dice cannot be thrown now (game over, roll-off, last roll); says why."""


@dataclass(frozen=True)
class DemoPlan:
    """The next throw: which roll of the turn, and the faces left lying."""

    roll_number: int
    keep: tuple[Die, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"roll_number": self.roll_number, "keep": [str(die) for die in self.keep]}


def plan_throw(view: GameView | CardGameView) -> DemoPlan:
    """The next roll of the turn for a game (the service's view of it)."""
    if isinstance(view, CardGameView):
        raise DemoRollError(f"game {view.id} is a card game: there are no dice to throw")
    if view.is_over:
        raise DemoRollError(f"game {view.id} is over: no more rolls")
    if view.roll_off_pending:
        raise DemoRollError("the roll-off comes first: each player rolls one high die by hand")
    table_roll = view.table_roll
    if table_roll is None:
        return DemoPlan(1, ())
    number = table_roll.roll_number
    if number >= ROLLS_PER_TURN:
        raise DemoRollError(f"that was roll {number} of {ROLLS_PER_TURN}: take the score "
                            "or end the turn without one")
    phase = view.active_phase
    roll = table_roll.roll
    keep: tuple[Die, ...] = ()
    if roll.is_full() and phase is not None:
        keep = advise(roll, phase, ROLLS_PER_TURN - number).keep
        if len(keep) == len(roll.dice):
            raise DemoRollError("these dice make the phase and the advice is to stop: "
                                "take the score")
    return DemoPlan(number + 1, keep)

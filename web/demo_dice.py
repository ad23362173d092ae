"""What the demo table throws when someone taps "Roll the demo dice": the turn's next roll.

A real player throws all ten dice on roll 1, then keeps the dice that help and
throws the rest on rolls 2 and 3; the demo plays the same way, keeping what the
odds advisor would keep from the roll on the table. After roll 3 there is no
next roll: the turn ends with a score or without one. Pure rules: nothing here
touches the camera.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorer import ROLLS_PER_TURN, Die, Roll, advise


class DemoRollError(ValueError):
    """The demo dice cannot be thrown now (game over, roll-off, last roll); says why."""


@dataclass(frozen=True)
class DemoPlan:
    """The next throw: which roll of the turn, and the faces left lying."""

    roll_number: int
    keep: tuple[Die, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"roll_number": self.roll_number, "keep": [str(die) for die in self.keep]}


def plan_throw(state: Mapping[str, Any]) -> DemoPlan:
    """The next roll of the turn for a game state (the scorepad's `state` dict)."""
    if state["is_over"]:
        raise DemoRollError(f"game {state['id']} is over: no more rolls")
    if state["roll_off_pending"]:
        raise DemoRollError("the roll-off comes first: each player rolls one high die by hand")
    current = state["current"]
    if current is None:
        return DemoPlan(1, ())
    number = int(current["roll_number"])
    if number >= ROLLS_PER_TURN:
        raise DemoRollError(f"that was roll {number} of {ROLLS_PER_TURN}: take the score "
                            "or end the turn without one")
    phase = state["active_phase"]
    keep: tuple[Die, ...] = ()
    if current["full"] and phase is not None:
        roll = Roll.from_text(current["notation"])
        keep = advise(roll, phase["number"], ROLLS_PER_TURN - number).keep
        if len(keep) == len(roll.dice):
            raise DemoRollError("these dice make the phase and the advice is to stop: "
                                "take the score")
    return DemoPlan(number + 1, keep)

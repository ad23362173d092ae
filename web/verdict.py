"""The roll on the table as the page draws it: each die, and the solver's verdict on it.

Views hold no rules: the solver decides; this module only says, per die of
the roll, which group of the verdict uses it and what number a Wild stands for.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from scorer import ROLLS_PER_TURN, Die, PhaseResult, Roll, evaluate, get_phase
from scorer.dice import COLOUR_NAMES

log = logging.getLogger(__name__)



def die_dict(die: Die) -> dict[str, Any]:
    return {
        "notation": str(die),
        "value": "W" if die.is_wild() else die.value,
        "colour": die.colour,
        "colour_name": COLOUR_NAMES[die.colour],
        "wild": die.is_wild(),
    }


def unreadable_die_dict() -> dict[str, Any]:
    """A die the camera found but could not read: in the shape of `die_dict`, no face."""
    return {"notation": None, "value": None, "colour": None, "colour_name": None,
            "wild": False, "unreadable": True}


def _placement(roll: Roll, result: PhaseResult) -> list[tuple[int, int | None] | None]:
    """For each die of the roll: (group index, the number it stands for), or None if unused."""
    placement: list[tuple[int, int | None] | None] = [None] * len(roll.dice)
    for group_index, group in enumerate(result.groups):
        for die, number in zip(group.dice, group.stands_for, strict=True):
            for index, candidate in enumerate(roll.dice):
                if placement[index] is None and candidate == die:
                    placement[index] = (group_index, number)
                    break
    return placement


def verdict_dict(roll: Roll, phase_number: int) -> dict[str, Any]:
    """The solver's verdict for the phase plus, per die of the roll, where it is used."""
    result = evaluate(roll, get_phase(phase_number))
    verdict = result.to_dict()
    verdict["placement"] = [
        None if place is None else {"group": place[0], "stands_for": place[1]}
        for place in _placement(roll, result)
    ]
    return verdict


def current_dict(
    current: Mapping[str, Any] | None, phase_number: int | None
) -> dict[str, Any] | None:
    """The stored current roll, expanded for the page: dice, unsure marks, verdict.

    Dice the camera found but could not read come after the dice read, each with
    `"unreadable": true` and no face; until each is fixed the roll cannot be
    scored (`unreadable_count`), and the verdict is of the dice read only.
    """
    if current is None:
        return None
    roll = Roll.from_text(" ".join(current.get("dice", ())))
    unsure = set(current.get("unsure", ()))
    unreadable = int(current.get("unreadable", 0))
    dice: list[dict[str, Any]] = []
    for index, die in enumerate(roll.dice):
        entry = die_dict(die)
        entry["unsure"] = index in unsure
        entry["unreadable"] = False
        dice.append(entry)
    dice += [{**unreadable_die_dict(), "unsure": True} for _ in range(unreadable)]
    verdict = None
    if phase_number is not None and roll.dice:
        verdict = verdict_dict(roll, phase_number)
    return {
        "notation": str(roll),
        "dice": dice,
        "full": roll.is_full(),
        "explained": roll.is_explained_by_inventory(),
        "roll_number": int(current.get("roll_number", 1)),
        "rolls_per_turn": ROLLS_PER_TURN,
        "source": current.get("source", "hand"),
        "flags": list(current.get("flags", ())),
        "unsure_count": len(unsure),
        "unreadable_count": unreadable,
        "verdict": verdict,
    }


def stored_current(
    roll: Roll,
    *,
    roll_number: int,
    source: str,
    unsure: Sequence[int] = (),
    flags: Sequence[str] = (),
    roll_id: int | None = None,
    unreadable: int = 0,
) -> dict[str, Any]:
    """The compact form of the current roll that the store keeps (`id`: the roll id;
    `unreadable`: how many dice the camera found but could not read, kept only when some)."""
    stored: dict[str, Any] = {
        "id": roll_id,
        "dice": [str(die) for die in roll.dice],
        "roll_number": roll_number,
        "source": source,
        "unsure": sorted(set(unsure)),
        "flags": list(flags),
    }
    if unreadable:
        stored["unreadable"] = int(unreadable)
    return stored

"""Which of the dice the camera doubted the players must check before a phase is scored.

The camera doubts a die either for its value (and so its whole face) or for its colour
alone, its value sure (red against orange). Nine phases of ten do not count colour, so
a colour doubt never changes their score. Phase 8 ("7 of all one colour") does, but most
rolls miss it, or make it, whatever colours the doubted dice turn out to have: checking
them then changes nothing either. A tap that cannot change the score is not asked for;
one that might always is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from itertools import product

from scorer.dice import COLOUR_LETTERS, Roll
from scorer.phases import Phase, get_phase
from scorer.solver import PhaseResult, evaluate

#: Colour doubts tried together at most (4 ** 6 colourings of them); a roll with more has
#: every one of them checked, so no doubt is let through untried.
MAX_RECOLOURED = 6


def _outcome(result: PhaseResult) -> tuple[bool, int]:
    """What the scorepad writes for a roll: whether it makes the phase, and its points."""
    return result.is_made(), result.score


def colours_can_change(roll: Roll, phase: int | Phase, indices: Iterable[int]) -> bool:
    """Whether giving the dice at `indices` other colours (any of the four, all of them
    together) could change whether `roll` makes `phase`, or its points. Never where the
    phase does not count colour; always with more than MAX_RECOLOURED such dice."""
    phase = get_phase(phase)
    doubted = sorted(set(indices))
    if not doubted or not phase.is_colour_phase():
        return False
    if not all(0 <= index < len(roll.dice) for index in doubted):
        raise IndexError(f"die indices {doubted} outside a roll of {len(roll.dice)} dice")
    if len(doubted) > MAX_RECOLOURED:
        return True
    as_read = _outcome(evaluate(roll, phase))
    dice = list(roll.dice)
    for colours in product(COLOUR_LETTERS, repeat=len(doubted)):
        for index, colour in zip(doubted, colours, strict=True):
            dice[index] = replace(roll.dice[index], colour=colour)
        if _outcome(evaluate(Roll(tuple(dice)), phase)) != as_read:
            return True
    return False


def dice_to_check(roll: Roll, phase: int | Phase | None, *, value_doubts: Iterable[int],
                  colour_doubts: Iterable[int], unread: int = 0) -> tuple[int, ...]:
    """The dice (indices into `roll`, sorted) the players must check before scoring `phase`.

    `value_doubts` are dice doubted for their value, `colour_doubts` those doubted for
    their colour alone, `unread` the dice found but not read (not in `roll`). Every die
    doubted for its value is checked; so is every doubt where no phase is known, so
    nothing is let through on a guess. A colour doubt is checked where the phase counts
    colour and a colour could change the score (`colours_can_change`); there, while any
    other die is to be checked or read, whose face could change what the colours do, all
    are.
    """
    values = set(value_doubts)
    colours = set(colour_doubts) - values
    if phase is None:
        return tuple(sorted(values | colours))
    if not get_phase(phase).is_colour_phase():
        return tuple(sorted(values))
    if colours and (values or unread or colours_can_change(roll, phase, colours)):
        return tuple(sorted(values | colours))
    return tuple(sorted(values))

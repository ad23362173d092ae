"""Which of the dice the camera doubted the players must check before a phase is scored.

The camera doubts a die either for its value (and so its whole face) or for its colour
alone, its value sure (red against orange). A doubt is worth a tap only where the die's
true face could change the score: whether the roll makes the active phase, and for how
many points. Nine phases of ten do not count colour, so there a colour doubt never can.
And most rolls miss the phase, or make it for the same points, whatever the doubted dice
show: a run that no face of the doubted die completes, a phase 8 roll with no colour near
seven. A tap that cannot change the score is not asked for; one that might always is.
The dice the camera did not doubt are taken as read, as they are whenever nothing is
asked.

Where the camera tells which faces a doubted die is likely to show (a 3 or a 5, red or
orange), only those are tried: a die in doubt between two faces that score alike needs
no tap, whatever other faces a die of its kind has.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from functools import lru_cache
from itertools import product

from scorer.dice import (
    COLOUR_LETTERS,
    FULL_ROLL,
    HIGH_VALUES,
    LOW_VALUES,
    Die,
    InvalidRollError,
    Roll,
)
from scorer.phases import Phase, get_phase
from scorer.solver import evaluate

#: Ways for the doubted dice to lie tried at most (44 faces for each die doubted for its
#: value in phase 8, 11 values in the others, 4 colours for a colour doubt); a roll with
#: more has every doubt checked, so none is let through untried.
MAX_TRIED = 2000

_VALUES = HIGH_VALUES + LOW_VALUES


#: The faces the camera found a doubted die likely to show, by its index in the roll.
Likely = Mapping[int, Collection[Die]]


def faces_it_could_show(die: Die, phase: Phase, colour_only: bool,
                        likely: Collection[Die] | None = None) -> tuple[Die, ...]:
    """The faces a doubted `die` may truly show, as far as `phase`'s score can tell them
    apart: its value in every colour for a colour doubt; for a value doubt every value,
    in every colour where the phase counts colour, else in the colour read. With `likely`
    (the faces the camera found likely), only those of them and the face read."""
    colours = COLOUR_LETTERS if phase.is_colour_phase() else (die.colour,)
    values = (die.value,) if colour_only else _VALUES
    faces = tuple(Die(value, colour) for value in values for colour in colours)
    if likely is None:
        return faces
    kept = {die} | {as_counted(face, die, phase) for face in likely}
    return tuple(face for face in faces if face in kept)


def as_counted(face: Die, read: Die, phase: Phase) -> Die:
    """`face`, a face die `read` may truly show, as far as `phase`'s score tells it apart:
    as it is where the phase counts colour, else its value in the colour read."""
    return face if phase.is_colour_phase() else Die(face.value, read.colour)


def _likely_of(likely: Likely | None, indices: Iterable[int]
               ) -> tuple[tuple[int, frozenset[Die]], ...]:
    """`likely` for the dice `indices`, in a form the cache can hold (dice it names no
    faces for keep every face)."""
    if likely is None:
        return ()
    return tuple((index, frozenset(likely[index])) for index in sorted(indices)
                 if index in likely)


def doubts_can_change(roll: Roll, phase: int | Phase, *, value_doubts: Iterable[int],
                      colour_doubts: Iterable[int] = (), likely: Likely | None = None) -> bool:
    """Whether the true faces of the doubted dice (indices into `roll`) could change
    whether `roll` makes `phase`, or its points. Every face they could show is tried
    (`faces_it_could_show`, only the `likely` ones for a die it names), all of them
    together; a way no ten dice lie (more than six high dice or four low) is no true roll
    and is skipped. True where there are more than MAX_TRIED ways."""
    phase = get_phase(phase)
    values = frozenset(value_doubts)
    colours = frozenset(colour_doubts) - values if phase.is_colour_phase() else frozenset()
    doubted = values | colours
    if any(not 0 <= index < len(roll.dice) for index in doubted):
        raise IndexError(f"die indices {sorted(doubted)} outside a roll of {len(roll.dice)} dice")
    return _can_change(roll, phase.number, tuple(sorted(values)), tuple(sorted(colours)),
                       _likely_of(likely, doubted))


@lru_cache(maxsize=256)
def _can_change(roll: Roll, phase_number: int, values: tuple[int, ...],
                colours: tuple[int, ...],
                likely: tuple[tuple[int, frozenset[Die]], ...] = ()) -> bool:
    """`doubts_can_change`, kept for the rolls the page draws again and again."""
    phase = get_phase(phase_number)
    indices = values + colours
    faces_of = dict(likely)
    choices = [faces_it_could_show(roll.dice[i], phase, colour_only=i in colours,
                                   likely=faces_of.get(i)) for i in indices]
    ways = 1
    for faces in choices:
        ways *= len(faces)
    if ways > MAX_TRIED:
        return True
    as_read = evaluate(roll, phase)
    dice = list(roll.dice)
    for faces in product(*choices):
        for index, face in zip(indices, faces, strict=True):
            dice[index] = face
        try:
            other = Roll(tuple(dice))
        except InvalidRollError:
            continue
        result = evaluate(other, phase)
        if (result.is_made(), result.score) != (as_read.is_made(), as_read.score):
            return True
    return False


def dice_to_check(roll: Roll, phase: int | Phase | None, *, value_doubts: Iterable[int],
                  colour_doubts: Iterable[int], unread: int = 0,
                  likely: Likely | None = None) -> tuple[int, ...]:
    """The dice (indices into `roll`, sorted) the players must check before scoring `phase`.

    `value_doubts` are dice doubted for their value, `colour_doubts` those doubted for
    their colour alone, `unread` the dice found but not read (not in `roll`). Where no
    phase is known every doubt is checked, so nothing is let through on a guess; so it is
    while a die found is not read, or fewer than ten dice are read, since the face of a
    die not read could change what the doubted ones do (once it is read, the doubts are
    weighed again). Otherwise the doubts `phase`'s score can tell
    apart (a colour doubt only where the phase counts colour) are checked, all of them,
    where their true faces could change the score (`doubts_can_change`, trying only the
    `likely` faces of a die it names), and none where they could not.
    """
    values = set(value_doubts)
    colours = set(colour_doubts) - values
    if phase is None or unread or len(roll.dice) < FULL_ROLL:
        return tuple(sorted(values | colours))
    phase = get_phase(phase)
    counted = values | colours if phase.is_colour_phase() else values
    if counted and doubts_can_change(roll, phase, value_doubts=values, colour_doubts=colours,
                                     likely=likely):
        return tuple(sorted(counted))
    return ()


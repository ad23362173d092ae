"""Advice for the colour phase ("7 of all one colour"), from the inventory's face layout.

Here each die's own colours matter. The advised keep is always one colour (or
stopping): the exact chance tables (scorer.odds_colour_tables) show, over every
colour state, that no other keep has a better chance with one or two rolls left.
The expected score is that of the *target-colour* policy: keep every die of the
colour, re-roll the others, and do so on every roll left; for that policy it is
exact (each re-rolled die ends in the colour with chance 1 - (1 - q)^k, its value
then uniform over its faces of that colour; another colour can still reach seven
when seven or more dice are re-rolled), but it is not optimised beyond that
policy: re-asking after the next roll may switch colour, and a made phase might
score more by re-rolling a low die of the colour.

A roll no matching of the inventory explains falls back to the target-colour
policy's chance, with each re-rolled die the average die of its kind.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from scorer.dice import COLOUR_LETTERS, PHYSICAL_DICE, Die, Roll, inventory_matching
from scorer.odds_colour_tables import colour_table

logger = logging.getLogger(__name__)

COLOUR_GROUP: Final[int] = 7
"""Dice of one colour that the colour phase needs."""

#: A die's re-roll model: each face with its chance.
DieModel = tuple[tuple[Die, float], ...]


def _model(faces: Sequence[Die]) -> DieModel:
    return tuple((face, 1 / len(faces)) for face in faces)


@lru_cache(maxsize=1)
def _average_models() -> tuple[DieModel, DieModel]:
    """The average high die and the average low die, for rolls the inventory cannot explain."""
    high = [face for die in PHYSICAL_DICE if die.is_high() for face in die.faces]
    low = [face for die in PHYSICAL_DICE if not die.is_high() for face in die.faces]
    return _model(high), _model(low)


def die_models(roll: Roll) -> tuple[DieModel, ...]:
    """How each die of the roll re-rolls: its physical die's faces, found by matching."""
    by_name = {die.name: die for die in PHYSICAL_DICE}
    matching = inventory_matching(roll)
    if matching is None:
        logger.info("%s: no matching of the inventory; re-rolls use average dice", roll)
        high, low = _average_models()
        return tuple(high if die.is_high() else low for die in roll)
    return tuple(_model(by_name[matching[index]].faces) for index in range(len(roll)))


def made_score(dice: Sequence[Die]) -> int | None:
    """Best score of the colour phase with these dice showing, or None when not made."""
    best: int | None = None
    for colour in COLOUR_LETTERS:
        values = sorted((die.value for die in dice if die.colour == colour), reverse=True)
        if len(values) >= COLOUR_GROUP:
            score = sum(values[:COLOUR_GROUP])
            best = score if best is None else max(best, score)
    return best


#: One re-rolled die in a walk: (chance it ends showing the colour, ((value, chance), ...)).
_Ending = tuple[float, tuple[tuple[int, float], ...]]


def _ending(model: DieModel, colour: str, chance_to_reach: float) -> _Ending:
    """How a die ends in `colour`: each of its faces of that colour, times a chance to get there."""
    faces = tuple((face.value, chance) for face, chance in model if face.colour == colour)
    return chance_to_reach * sum(chance for _, chance in faces), faces


def _with(top: tuple[int, ...], value: int) -> tuple[int, ...]:
    """The best seven values (high to low) once `value` joins them."""
    if not top or value <= top[-1]:
        return top + (value,) if len(top) < COLOUR_GROUP else top
    return tuple(sorted((*top, value), reverse=True)[:COLOUR_GROUP])


def _walk(start: Sequence[int], endings: Sequence[_Ending]) -> tuple[float, float]:
    """(chance, expected score) of seven in one colour: a walk over the dice keeping the
    distribution of the best seven values in that colour (dropping states that
    cannot reach seven any more)."""
    if len(start) + len(endings) < COLOUR_GROUP:
        return 0.0, 0.0
    states: dict[tuple[int, ...], float] = {tuple(sorted(start, reverse=True)[:COLOUR_GROUP]): 1.0}
    for at, (ends, faces) in enumerate(endings):
        left = len(endings) - at - 1  # dice still to come after this one
        total = sum(chance for _, chance in faces)
        branches = [(None, 1 - ends)]
        if total:
            branches += [(value, ends * chance / total) for value, chance in faces]
        nxt: dict[tuple[int, ...], float] = defaultdict(float)
        for top, weight in states.items():
            for value, chance in branches:
                if value is None:
                    if len(top) + left >= COLOUR_GROUP:  # else seven is out of reach
                        nxt[top] += weight * chance
                else:
                    nxt[_with(top, value)] += weight * chance
        states = nxt
    chance = sum(w for top, w in states.items() if len(top) == COLOUR_GROUP)
    score = sum(w * sum(top) for top, w in states.items() if len(top) == COLOUR_GROUP)
    return chance, score


def _policy_walks(
    kept: Sequence[Die], rerolled: Sequence[DieModel], colour: str, rolls_left: int
) -> list[tuple[tuple[int, ...], list[_Ending]]]:
    """The target-colour policy as walks, one per colour that can reach seven.

    `kept` are the dice showing the colour now; each re-rolled die is re-rolled
    on every roll left until it shows the colour (chance 1 - (1 - q)^k). With
    seven or more dice re-rolled another colour can still reach seven on the
    last roll (a die gets there with chance (1 - q)^(k-1) times its face's
    chance); colours' successes are disjoint, so their values add.
    """
    misses = [
        1 - sum(chance for face, chance in model if face.colour == colour) for model in rerolled
    ]
    walks = [
        (
            tuple(die.value for die in kept),
            [
                _ending(model, colour, (1 - miss**rolls_left) / (1 - miss) if miss < 1 else 0.0)
                for model, miss in zip(rerolled, misses, strict=True)
            ],
        )
    ]
    if len(rerolled) >= COLOUR_GROUP:
        for other in COLOUR_LETTERS:
            if other != colour:
                endings = [
                    _ending(model, other, miss ** (rolls_left - 1))
                    for model, miss in zip(rerolled, misses, strict=True)
                ]
                walks.append(((), endings))
    return walks


def target_value(
    kept: Sequence[Die], rerolled: Sequence[DieModel], colour: str, rolls_left: int
) -> tuple[float, float]:
    """(chance, expected score) of the target-colour policy for `colour`."""
    values = [
        _walk(start, endings)
        for start, endings in _policy_walks(kept, rerolled, colour, rolls_left)
    ]
    return sum(v[0] for v in values), sum(v[1] for v in values)


def target_chance(
    kept: Sequence[Die], rerolled: Sequence[DieModel], colour: str, rolls_left: int
) -> float:
    """The chance alone of the target-colour policy: cheap (no values tracked)."""
    return sum(
        at_least(COLOUR_GROUP - len(start), [ends for ends, _ in endings])
        for start, endings in _policy_walks(kept, rerolled, colour, rolls_left)
    )


@dataclass(frozen=True)
class ColourChoice:
    """The advised target colour and its value."""

    colour: str
    keep: tuple[int, ...]  # indices into the roll
    chance: float
    expected_score: float
    exact: bool  # the chance is the exact optimum (from the colour tables)


def type_state(roll: Roll) -> list[tuple[int, ...]] | None:
    """Per dice type, how many of its dice show each colour; None if no matching exists.

    Uses one matching of the roll to the inventory; where several exist and they
    put a face on dice of different types, the chance is that of this matching.
    """
    matching = inventory_matching(roll)
    if matching is None:
        return None
    table = colour_table()
    state = [[0] * len(COLOUR_LETTERS) for _ in table.type_faces]
    for index, name in matching.items():
        state[table.die_type[name]][COLOUR_LETTERS.index(roll.dice[index].colour)] += 1
    return [tuple(counts) for counts in state]


def best_target(roll: Roll, rolls_left: int, tolerance: float) -> ColourChoice:
    """The colour to keep: the best chance, then the best expected score.

    Chances come from the exact colour tables (keeping one colour, then playing
    optimally; the tests check over every state that no other keep does better),
    or from the target-colour policy when the inventory cannot explain the roll.
    The expected score, computed only for the colours tied on chance, is the
    target-colour policy's.
    """
    models = die_models(roll)
    state = type_state(roll)
    options = []
    for c, colour in enumerate(COLOUR_LETTERS):
        keep = tuple(i for i, die in enumerate(roll) if die.colour == colour)
        if state is not None:
            kept_per_type = [tuple(n if j == c else 0 for j, n in enumerate(m)) for m in state]
            chance = colour_table().keep_value(rolls_left, kept_per_type)
        else:
            kept = [roll.dice[i] for i in keep]
            rerolled = [models[i] for i in range(len(roll)) if i not in keep]
            chance = target_chance(kept, rerolled, colour, rolls_left)
        options.append((chance, colour, keep))
    top = max(chance for chance, _, _ in options)
    best: ColourChoice | None = None
    for chance, colour, keep in options:
        if chance < top - tolerance:
            continue
        kept = [roll.dice[i] for i in keep]
        rerolled = [models[i] for i in range(len(roll)) if i not in keep]
        walk_chance, score = target_value(kept, rerolled, colour, rolls_left)
        if best is None or score > best.expected_score:
            exact = state is not None
            best = ColourChoice(colour, keep, chance if exact else walk_chance, score, exact)
    assert best is not None  # the palette is never empty
    return best


def at_least(needed: int, chances: Sequence[float]) -> float:
    """Chance that at least `needed` of independent events with these chances happen."""
    dist = [1.0]
    for p in chances:
        dist = [
            (dist[i] if i < len(dist) else 0.0) * (1 - p) + (dist[i - 1] * p if i else 0.0)
            for i in range(len(dist) + 1)
        ]
    return sum(dist[max(needed, 0) :])

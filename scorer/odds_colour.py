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

The chance depends on which physical die shows which face, and the faces on the
table do not always say (WR is on L1 and on L4, whose other faces differ). So
every way of placing the shown faces on distinct dice (a placement) is weighed
by how likely the dice are to show them, and the chance of a keep is the
weighted mean of its chance under each placement; the dice the camera matched,
when given, are the one placement. Each placement's chance assumes the rest of
the turn is played knowing which die is which (the dice can be told apart by
their other faces), as the tables do.

A roll no placement explains falls back to the target-colour policy's chance,
with each re-rolled die the average die of its kind.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from scorer.dice import COLOUR_LETTERS, Die, Roll
from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.odds_cache import colour_table

logger = logging.getLogger(__name__)

COLOUR_GROUP: Final[int] = 7
"""Dice of one colour that the colour phase needs."""

#: A die's re-roll model: each face with its chance.
DieModel = tuple[tuple[Die, float], ...]


def _model(faces: Sequence[Die]) -> DieModel:
    return tuple((face, 1 / len(faces)) for face in faces)


class InvalidPlacementError(ValueError):
    """Physical dice named for a roll that cannot be showing its faces."""


@dataclass(frozen=True)
class Placement:
    """One way the faces of a roll lie on the physical dice, and how likely it is."""

    dice: tuple[str, ...]
    """The physical die's name for each die of the roll, in roll order."""
    weight: float
    """Its chance given the faces shown: the placements of a roll sum to 1."""


def _likelihood(roll: Roll, names: Sequence[str], dice_set: DiceSet) -> float:
    """Chance that these dice show these faces: a die carrying a face m of n times, m/n."""
    chance = 1.0
    for face, name in zip(roll.dice, names, strict=True):
        faces = dice_set.by_name(name).faces
        chance *= faces.count(face) / len(faces)
    return chance


def placements(roll: Roll, dice: Sequence[str] | None = None, *,
               dice_set: DiceSet = PRINTED_DICE) -> tuple[Placement, ...]:
    """Every placement of the roll's faces on distinct physical dice, weighted; () if none.

    Two dice showing the same face are interchangeable, so placements that only
    swap them are one (the first of them takes the lower-listed die). `dice`,
    the names the camera matched (roll order), makes the one placement, checked.
    """
    if dice is not None:
        return (Placement(check_placement(roll, dice, dice_set=dice_set), 1.0),)
    carriers = [
        [at for at, physical in enumerate(dice_set.dice) if face in physical.faces]
        for face in roll.dice
    ]
    found: list[tuple[str, ...]] = []
    chosen: list[int] = []

    def place(index: int) -> None:
        if index == len(roll.dice):
            found.append(tuple(dice_set.dice[at].name for at in chosen))
            return
        twin = max((i for i in range(index) if roll.dice[i] == roll.dice[index]), default=None)
        floor = -1 if twin is None else chosen[twin]
        for at in carriers[index]:
            if at > floor and at not in chosen:
                chosen.append(at)
                place(index + 1)
                chosen.pop()

    place(0)
    weights = [_likelihood(roll, names, dice_set) for names in found]
    total = sum(weights)
    return tuple(Placement(names, w / total) for names, w in zip(found, weights, strict=True))


def check_placement(roll: Roll, dice: Sequence[str], *, dice_set: DiceSet = PRINTED_DICE
                    ) -> tuple[str, ...]:
    """The camera's matched dice for a roll, refused by name unless each shows its face."""
    by_name = {die.name: die for die in dice_set.dice}
    names = tuple(dice)
    if len(names) != len(roll.dice):
        raise InvalidPlacementError(
            f"{len(names)} physical dice named for the {len(roll.dice)} dice of {roll}"
        )
    for face, name in zip(roll.dice, names, strict=True):
        if name not in by_name:
            raise InvalidPlacementError(
                f"{name!r} is not a die of the inventory: expected one of {', '.join(by_name)}"
            )
        if names.count(name) > 1:
            raise InvalidPlacementError(f"{name} is named for {names.count(name)} dice of {roll}")
        if face not in by_name[name].faces:
            raise InvalidPlacementError(
                f"{name} has no face {face}: its faces are "
                f"{' '.join(str(f) for f in by_name[name].faces)}"
            )
    return names


@lru_cache(maxsize=8)
def _average_models(dice_set: DiceSet) -> tuple[DieModel, DieModel]:
    """The average high die and the average low die, for rolls the set cannot explain."""
    high = [face for die in dice_set.dice if die.is_high() for face in die.faces]
    low = [face for die in dice_set.dice if not die.is_high() for face in die.faces]
    return _model(high), _model(low)


def die_models(roll: Roll, placement: Placement | None = None, *,
               dice_set: DiceSet = PRINTED_DICE) -> tuple[DieModel, ...]:
    """How each die of the roll re-rolls: its physical die's faces under `placement`
    (the first placement when None), or the average die of its kind when none exists."""
    if placement is None:
        found = placements(roll, dice_set=dice_set)
        if not found:
            logger.info("%s: no matching of the inventory; re-rolls use average dice", roll)
            high, low = _average_models(dice_set)
            return tuple(high if die.is_high() else low for die in roll)
        placement = found[0]
    return tuple(_model(dice_set.by_name(name).faces) for name in placement.dice)


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
        branches: list[tuple[int | None, float]] = [(None, 1 - ends)]
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


#: Per dice type, how many of its dice show each colour (a colour-table state).
TypeState = tuple[tuple[int, ...], ...]


def type_state(roll: Roll, placement: Placement, keep: Sequence[int] | None = None, *,
               dice_set: DiceSet = PRINTED_DICE) -> TypeState:
    """Per dice type, how many of its dice show each colour, under a placement.

    With `keep` (indices into the roll), only those dice are counted.
    """
    table = colour_table(dice_set)
    letters = dice_set.letters
    state = [[0] * len(letters) for _ in table.type_faces]
    for index, name in enumerate(placement.dice):
        if keep is None or index in keep:
            state[table.die_type[name]][letters.index(roll.dice[index].colour)] += 1
    return tuple(tuple(counts) for counts in state)


def keep_chance(
    roll: Roll, found: Sequence[Placement], keep: Sequence[int], rolls_left: int, *,
    dice_set: DiceSet = PRINTED_DICE,
) -> float:
    """Chance of keeping these dice (indices) and playing on, weighed over the placements."""
    table = colour_table(dice_set)
    return sum(
        placement.weight
        * table.keep_value(rolls_left, type_state(roll, placement, keep, dice_set=dice_set))
        for placement in found
    )


def is_one_state(roll: Roll, found: Sequence[Placement], *,
                 dice_set: DiceSet = PRINTED_DICE) -> bool:
    """Whether every placement puts the same colours on the same dice types."""
    return len({type_state(roll, placement, dice_set=dice_set) for placement in found}) == 1


def best_of_all_keeps(
    roll: Roll, found: Sequence[Placement], rolls_left: int, *, dice_set: DiceSet = PRINTED_DICE
) -> tuple[float, tuple[int, ...]]:
    """The best chance over all 1,024 keeps (and stopping), weighed over the placements.

    For one type state the tables prove one colour is always a best keep; a mix
    of states need not follow, so it is searched in full (a few milliseconds).
    """
    made = float(made_score(roll.dice) is not None)
    best = (made, tuple(range(len(roll.dice))))
    for size in range(len(roll.dice)):
        for keep in combinations(range(len(roll.dice)), size):
            chance = keep_chance(roll, found, keep, rolls_left, dice_set=dice_set)
            if chance > best[0]:
                best = (chance, keep)
    return best


def best_target(
    roll: Roll, rolls_left: int, tolerance: float, dice: Sequence[str] | None = None, *,
    dice_set: DiceSet = PRINTED_DICE,
) -> ColourChoice:
    """The colour to keep: the best chance, then the best expected score.

    Chances come from the exact colour tables weighed over the placements of the
    roll (or the one placement `dice` names), or from the target-colour policy
    when no placement explains the roll. The expected score, computed only for
    the colours tied on chance, is the target-colour policy's, weighed the same
    way. Exact where the placements agree on every die type's colours, and where
    they do not, once no keep of any colours beats the advised one.
    """
    found = placements(roll, dice, dice_set=dice_set)
    options = []
    for colour in dice_set.letters:
        keep = tuple(i for i, die in enumerate(roll) if die.colour == colour)
        if found:
            chance = keep_chance(roll, found, keep, rolls_left, dice_set=dice_set)
        else:
            models = die_models(roll, dice_set=dice_set)
            kept = [roll.dice[i] for i in keep]
            rerolled = [models[i] for i in range(len(roll)) if i not in keep]
            chance = target_chance(kept, rerolled, colour, rolls_left)
        options.append((chance, colour, keep))
    top = max(chance for chance, _, _ in options)
    best: ColourChoice | None = None
    weighed = found or (None,)
    for chance, colour, keep in options:
        if chance < top - tolerance:
            continue
        kept = [roll.dice[i] for i in keep]
        walk_chance = score = 0.0
        for placement in weighed:
            models = die_models(roll, placement, dice_set=dice_set)
            rerolled = [models[i] for i in range(len(roll)) if i not in keep]
            part_chance, part_score = target_value(kept, rerolled, colour, rolls_left)
            weight = 1.0 if placement is None else placement.weight
            walk_chance += weight * part_chance
            score += weight * part_score
        if best is None or score > best.expected_score:
            exact = bool(found)
            best = ColourChoice(colour, keep, chance if exact else walk_chance, score, exact)
    assert best is not None  # the palette is never empty
    if found and not is_one_state(roll, found, dice_set=dice_set):
        beaten, keep = best_of_all_keeps(roll, found, rolls_left, dice_set=dice_set)
        if beaten > best.chance + tolerance:
            logger.info("%s: keeping %s beats one colour over its placements", roll, keep)
            best = ColourChoice(best.colour, best.keep, best.chance, best.expected_score, False)
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

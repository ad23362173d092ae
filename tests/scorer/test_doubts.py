"""Which doubted dice the players must check: a colour doubt only where a colour could
change the score, checked against a brute-force scorer."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_budget import examples
from scorer_brute_force import best_score

from scorer import PHASES, WILD, Die, Roll, get_phase, parse_roll
from scorer.dice import COLOUR_LETTERS
from scorer.doubts import MAX_RECOLOURED, colours_can_change, dice_to_check

PHASE_8 = get_phase(8)
#: Seven natural reds and a blue Wild: made for 46 points whatever the Wild's colour.
SEVEN_REDS = parse_roll("5R 6R 7R 8R 9R 10R 1R WB 2G 3O")
#: Five orange and four red dice: no colour reaches seven whatever the Wild's colour.
FIVE_AND_FOUR = parse_roll("4O 5R WR 4R 8O 9O 7R 5O 1O 9G")


def brute_outcome(roll: Roll) -> int | None:
    """Phase 8's points by trying every grouping (None: not made)."""
    return best_score(roll.dice, PHASE_8)


@pytest.mark.parametrize(("roll", "doubted", "can_change"), [
    (SEVEN_REDS, [7], False),  # the Wild is not used whatever its colour
    (SEVEN_REDS, [6], True),  # the 1R as another colour leaves six reds
    (SEVEN_REDS, [8], True),  # the 2G as red scores 47, not 46
    (SEVEN_REDS, [7, 8, 9], True),
    (FIVE_AND_FOUR, [2], False),  # six orange at most
    (FIVE_AND_FOUR, [2, 9], True),  # WR and 9G both orange: seven
    (FIVE_AND_FOUR, [], False),
])
def test_a_colour_doubt_matters_only_where_a_colour_changes_phase_8(
        roll: Roll, doubted: list[int], can_change: bool) -> None:
    assert colours_can_change(roll, 8, doubted) is can_change


def test_phases_without_colour_never_change_with_colours() -> None:
    for phase in PHASES:
        if not phase.is_colour_phase():
            assert not colours_can_change(SEVEN_REDS, phase, range(10))


def test_too_many_colour_doubts_are_all_checked() -> None:
    doubted = range(MAX_RECOLOURED + 1)
    assert colours_can_change(FIVE_AND_FOUR, 8, doubted)
    assert dice_to_check(FIVE_AND_FOUR, 8, value_doubts=(), colour_doubts=doubted) == tuple(
        doubted)


def test_a_die_outside_the_roll_is_refused() -> None:
    with pytest.raises(IndexError, match="outside a roll of 10 dice"):
        colours_can_change(SEVEN_REDS, 8, [10])


@pytest.mark.parametrize(("phase", "value_doubts", "colour_doubts", "unread", "expected"), [
    (8, [], [7], 0, ()),  # the Wild's colour cannot change the score
    (8, [], [6], 0, (6,)),
    (8, [3], [7], 0, (3, 7)),  # a value to check: what the colours do is open again
    (8, [], [7], 1, (7,)),  # a die not read yet: likewise
    (1, [3], [6, 7], 0, (3,)),  # phase 1 does not count colour
    (None, [3], [6, 7], 0, (3, 6, 7)),  # no phase known: every doubt
    (8, [7], [7], 0, (7,)),  # a die doubted both ways is a value doubt
])
def test_dice_to_check(phase: int | None, value_doubts: list[int], colour_doubts: list[int],
                       unread: int, expected: tuple[int, ...]) -> None:
    assert dice_to_check(SEVEN_REDS, phase, value_doubts=value_doubts,
                         colour_doubts=colour_doubts, unread=unread) == expected


@st.composite
def colourful_rolls(draw: st.DrawFn) -> tuple[Roll, list[int]]:
    """Ten dice whose colours lean to one or two, so phase 8 is often near, and up to
    three of them doubted for their colour."""
    leaning = draw(st.lists(st.sampled_from(COLOUR_LETTERS), min_size=1, max_size=2))
    colours = st.sampled_from(COLOUR_LETTERS) | st.sampled_from(leaning) | st.sampled_from(
        leaning)
    high = [Die(draw(st.integers(5, 10)), draw(colours)) for _ in range(6)]
    low = [Die(draw(st.sampled_from((1, 2, 3, 4, WILD))), draw(colours)) for _ in range(4)]
    roll = Roll(tuple(draw(st.permutations(high + low))))
    doubted = draw(st.lists(st.integers(0, 9), max_size=3, unique=True))
    return roll, doubted


@settings(max_examples=examples(150), deadline=None)
@given(colourful_rolls())
def test_colours_can_change_exactly_when_some_colouring_changes_the_score(
        case: tuple[Roll, list[int]]) -> None:
    roll, doubted = case
    as_read = brute_outcome(roll)
    changes = False
    for colours in product(COLOUR_LETTERS, repeat=len(doubted)):
        dice = list(roll.dice)
        for index, colour in zip(doubted, colours, strict=True):
            dice[index] = replace(dice[index], colour=colour)
        changes |= brute_outcome(Roll(tuple(dice))) != as_read
    assert colours_can_change(roll, 8, doubted) is changes


@settings(max_examples=examples(100), deadline=None)
@given(colourful_rolls(), st.lists(st.integers(0, 9), max_size=2, unique=True),
       st.sampled_from([None, *range(1, 11)]), st.integers(0, 1))
def test_every_value_doubt_is_checked_and_nothing_else_is_asked(
        case: tuple[Roll, list[int]], value_doubts: list[int], phase: int | None,
        unread: int) -> None:
    roll, colour_doubts = case
    checked = set(dice_to_check(roll, phase, value_doubts=value_doubts,
                                colour_doubts=colour_doubts, unread=unread))
    assert set(value_doubts) <= checked <= set(value_doubts) | set(colour_doubts)
    left = set(colour_doubts) - checked
    if left:  # a colour doubt let through: its colours cannot change this phase's score
        assert phase is not None
        assert not colours_can_change(roll, phase, left)

"""Which doubted dice the players must check: only where their true faces could change
the score, checked against every face a die has (and a brute-force scorer for colours)."""

from __future__ import annotations

from dataclasses import replace
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_budget import examples
from scorer_brute_force import best_score

from scorer import PHASES, WILD, Die, InvalidRollError, Roll, evaluate, get_phase, parse_roll
from scorer.dice import COLOUR_LETTERS
from scorer.doubts import MAX_TRIED, dice_to_check, doubts_can_change

PHASE_8 = get_phase(8)
#: Seven natural reds and a blue Wild: made for 46 points whatever the Wild's colour.
SEVEN_REDS = parse_roll("5R 6R 7R 8R 9R 10R 1R WB 2G 3O")
#: Five orange and four red dice: no colour reaches seven whatever the Wild's colour.
FIVE_AND_FOUR = parse_roll("4O 5R WR 4R 8O 9O 7R 5O 1O 9G")
#: Odd values only: no run of 7 however one die falls.
FAR_FROM_RUNS = parse_roll("5R 5G 5B 7B 7G 9O 1B 1R 3O 3G")
#: Every face a die can show.
ALL_FACES = tuple(Die(value, colour) for value in (*range(1, 11), WILD)
                  for colour in COLOUR_LETTERS)


def brute_outcome(roll: Roll) -> int | None:
    """Phase 8's points by trying every grouping (None: not made)."""
    return best_score(roll.dice, PHASE_8)


def outcome(roll: Roll, phase: int) -> tuple[bool, int]:
    result = evaluate(roll, phase)
    return result.is_made(), result.score


@pytest.mark.parametrize(("roll", "colour_doubts", "can_change"), [
    (SEVEN_REDS, [7], False),  # the Wild is not used whatever its colour
    (SEVEN_REDS, [6], True),  # the 1R as another colour leaves six reds
    (SEVEN_REDS, [8], True),  # the 2G as red scores 47, not 46
    (SEVEN_REDS, [7, 8, 9], True),
    (FIVE_AND_FOUR, [2], False),  # six orange at most
    (FIVE_AND_FOUR, [2, 9], True),  # WR and 9G both orange: seven
    (FIVE_AND_FOUR, [], False),
])
def test_a_colour_doubt_matters_only_where_a_colour_changes_phase_8(
        roll: Roll, colour_doubts: list[int], can_change: bool) -> None:
    assert doubts_can_change(roll, 8, value_doubts=(), colour_doubts=colour_doubts) is can_change


@pytest.mark.parametrize(("roll", "phase", "value_doubts", "can_change"), [
    (FIVE_AND_FOUR, 8, [0], False),  # any face of die 1: five orange at most
    (FIVE_AND_FOUR, 8, [3, 9], True),  # the 4R and the 9G orange: seven
    (FIVE_AND_FOUR, 4, [9], True),  # the 9G as a 6 runs 4 to 10 with the Wild
    (FAR_FROM_RUNS, 4, [0], False),  # 1 3 5 7 9: no face of the 5R makes a run of 7
    (SEVEN_REDS, 4, [0], True),  # made: the 5R as a Wild scores 5 less
    (SEVEN_REDS, 1, [8], False),  # no pair: no value of the 2G makes two sets of 3
])
def test_a_value_doubt_matters_only_where_a_face_changes_the_score(
        roll: Roll, phase: int, value_doubts: list[int], can_change: bool) -> None:
    assert doubts_can_change(roll, phase, value_doubts=value_doubts) is can_change


def test_phases_without_colour_never_change_with_colours() -> None:
    for phase in PHASES:
        if not phase.is_colour_phase():
            assert not doubts_can_change(SEVEN_REDS, phase, value_doubts=(),
                                         colour_doubts=range(10))


def test_too_many_ways_are_all_checked() -> None:
    doubted = range(6)  # 4 ** 6 colourings
    assert 4 ** 6 > MAX_TRIED
    assert doubts_can_change(FIVE_AND_FOUR, 8, value_doubts=(), colour_doubts=doubted)
    assert dice_to_check(FIVE_AND_FOUR, 8, value_doubts=(), colour_doubts=doubted) == tuple(
        doubted)


def test_with_fewer_than_ten_dice_read_every_doubt_is_checked() -> None:
    nine = Roll(SEVEN_REDS.dice[:9])  # the 3O not found: its face is open
    assert not doubts_can_change(nine, 8, value_doubts=(), colour_doubts=[7])
    assert dice_to_check(nine, 8, value_doubts=(), colour_doubts=[7]) == (7,)


def test_a_die_outside_the_roll_is_refused() -> None:
    with pytest.raises(IndexError, match="outside a roll of 10 dice"):
        doubts_can_change(SEVEN_REDS, 8, value_doubts=[10])


@pytest.mark.parametrize(("phase", "value_doubts", "colour_doubts", "unread", "expected"), [
    (8, [], [7], 0, ()),  # the Wild's colour cannot change the score
    (8, [], [6], 0, (6,)),
    (8, [7], [8], 0, (7, 8)),  # the Wild as a 4R scores 49, not 46
    (8, [7], [], 1, (7,)),  # a die not read yet: every doubt
    (4, [0], [6, 7], 0, (0,)),  # the 5R as a Wild scores less; colours do not count
    (1, [8], [6, 7], 0, ()),  # no value of the 2G makes two sets of 3
    (None, [3], [6, 7], 0, (3, 6, 7)),  # no phase known: every doubt
    (8, [7], [7], 0, (7,)),  # a die doubted both ways is a value doubt
])
def test_dice_to_check(phase: int | None, value_doubts: list[int], colour_doubts: list[int],
                       unread: int, expected: tuple[int, ...]) -> None:
    assert dice_to_check(SEVEN_REDS, phase, value_doubts=value_doubts,
                         colour_doubts=colour_doubts, unread=unread) == expected


@st.composite
def colourful_rolls(draw: st.DrawFn) -> Roll:
    """Ten dice, six high and four low, whose colours and values lean to a few, so that
    phases are often near."""
    leaning = draw(st.lists(st.sampled_from(COLOUR_LETTERS), min_size=1, max_size=2))
    colours = st.sampled_from(COLOUR_LETTERS) | st.sampled_from(leaning) | st.sampled_from(
        leaning)
    low_high = draw(st.integers(5, 8))
    highs = st.integers(5, 10) | st.integers(low_high, low_high + 2)
    high = [Die(draw(highs), draw(colours)) for _ in range(6)]
    low = [Die(draw(st.sampled_from((1, 2, 3, 4, WILD))), draw(colours)) for _ in range(4)]
    return Roll(tuple(draw(st.permutations(high + low))))


def other_outcomes(roll: Roll, phase: int, doubted: list[int], faces) -> set:
    """The outcomes of `phase` over every way the `doubted` dice may show `faces` (each
    die its own list), ways no ten dice lie left out."""
    seen = set()
    for chosen in product(*faces):
        dice = list(roll.dice)
        for index, face in zip(doubted, chosen, strict=True):
            dice[index] = face
        try:
            seen.add(outcome(Roll(tuple(dice)), phase))
        except InvalidRollError:
            continue
    return seen


@settings(max_examples=examples(150), deadline=None)
@given(colourful_rolls(), st.lists(st.integers(0, 9), max_size=3, unique=True))
def test_a_colour_doubt_can_change_phase_8_exactly_when_some_colouring_does(
        roll: Roll, doubted: list[int]) -> None:
    as_read = brute_outcome(roll)
    changes = False
    for colours in product(COLOUR_LETTERS, repeat=len(doubted)):
        dice = list(roll.dice)
        for index, colour in zip(doubted, colours, strict=True):
            dice[index] = replace(dice[index], colour=colour)
        changes |= brute_outcome(Roll(tuple(dice))) != as_read
    assert doubts_can_change(roll, 8, value_doubts=(), colour_doubts=doubted) is changes


@settings(max_examples=examples(100), deadline=None)
@given(colourful_rolls(), st.lists(st.integers(0, 9), min_size=1, max_size=2, unique=True),
       st.sampled_from(PHASES))
def test_a_value_doubt_can_change_the_score_exactly_when_some_face_does(
        roll: Roll, doubted: list[int], phase) -> None:
    """Tried over every face a die has, in every colour, whatever the phase counts."""
    seen = other_outcomes(roll, phase.number, doubted, [ALL_FACES] * len(doubted))
    changes = seen != {outcome(roll, phase.number)}
    assert doubts_can_change(roll, phase, value_doubts=doubted) is changes


@settings(max_examples=examples(100), deadline=None)
@given(colourful_rolls(), st.lists(st.integers(0, 9), max_size=2, unique=True),
       st.lists(st.integers(0, 9), max_size=2, unique=True),
       st.sampled_from([None, *range(1, 11)]), st.integers(0, 1))
def test_the_dice_to_check_are_doubts_and_those_let_through_cannot_change_the_score(
        roll: Roll, value_doubts: list[int], colour_doubts: list[int], phase: int | None,
        unread: int) -> None:
    checked = set(dice_to_check(roll, phase, value_doubts=value_doubts,
                                colour_doubts=colour_doubts, unread=unread))
    assert checked <= set(value_doubts) | set(colour_doubts)
    if phase is None or unread:
        assert checked == set(value_doubts) | set(colour_doubts)
        return
    counts_colour = get_phase(phase).is_colour_phase()
    # The doubts the phase counts (colour doubts only where it counts colour) are asked
    # for all together or not at all.
    counted = sorted(set(value_doubts) | (set(colour_doubts) if counts_colour else set()))
    assert checked in (set(), set(counted))
    if counted and not checked:  # whatever they truly show, the score stays as read
        faces = [ALL_FACES if i in value_doubts else
                 [replace(roll.dice[i], colour=c) for c in COLOUR_LETTERS] for i in counted]
        assert other_outcomes(roll, phase, counted, faces) == {outcome(roll, phase)}


#: Phase 1 made with 8,8,8 and 10,W,W (34 points); die 5 (7R) joins neither set.
PHASE_1_MADE = parse_roll("8R 8B 8G 10O 5G 7R WR WB 1G 3R")


def test_only_the_likely_faces_of_a_doubted_die_are_tried():
    """Read as 7 where a 9 is likely too: neither joins a set, so no tap; any face could
    (a 10 makes 10,10,W for 44), so without the likely faces the die is checked."""
    nine = {5: [Die.from_text("9R")]}
    assert dice_to_check(PHASE_1_MADE, 1, value_doubts=[5], colour_doubts=()) == (5,)
    assert not doubts_can_change(PHASE_1_MADE, 1, value_doubts=[5], likely=nine)
    assert dice_to_check(PHASE_1_MADE, 1, value_doubts=[5], colour_doubts=(), likely=nine) == ()
    ten = {5: [Die.from_text("9R"), Die.from_text("10B")]}  # colour does not count here
    assert dice_to_check(PHASE_1_MADE, 1, value_doubts=[5], colour_doubts=(), likely=ten) == (5,)
    # a die the likely faces name nothing for keeps every face
    assert dice_to_check(PHASE_1_MADE, 1, value_doubts=[5], colour_doubts=(),
                         likely={0: [Die.from_text("9R")]}) == (5,)


@settings(max_examples=examples(100), deadline=None)
@given(colourful_rolls(), st.lists(st.integers(0, 9), min_size=1, max_size=2, unique=True),
       st.lists(st.integers(0, 9), max_size=2, unique=True), st.sampled_from(PHASES),
       st.lists(st.sampled_from(ALL_FACES), max_size=4))
def test_likely_faces_let_through_only_what_those_faces_cannot_change(
        roll: Roll, value_doubts: list[int], colour_doubts: list[int], phase,
        likely_faces: list[Die]) -> None:
    """Told the likely faces, the scorepad asks for a subset of what it asks untold, and
    every doubt it lets through is one no likely face (in the colour read where colour
    does not count; of the number read for a colour doubt) changes; told every face, it
    asks for the same dice as untold."""
    doubted = sorted(set(value_doubts) | set(colour_doubts))
    likely = {i: likely_faces for i in doubted}
    args = {"value_doubts": value_doubts, "colour_doubts": colour_doubts}
    told = set(dice_to_check(roll, phase, **args, likely=likely))
    untold = set(dice_to_check(roll, phase, **args))
    assert told <= untold
    assert set(dice_to_check(roll, phase, **args, likely=dict.fromkeys(doubted, ALL_FACES))) \
        == untold
    counts_colour = phase.is_colour_phase()
    counted = sorted(set(value_doubts) | (set(colour_doubts) if counts_colour else set()))
    if counted and not told:
        def faces(i: int) -> list[Die]:
            read = roll.dice[i]
            if i not in value_doubts:  # a colour doubt: its number is sure
                return [read, *(f for f in likely_faces if f.value == read.value)]
            if counts_colour:
                return [read, *likely_faces]
            return [read, *(replace(f, colour=read.colour) for f in likely_faces)]
        assert other_outcomes(roll, phase.number, counted,
                              [faces(i) for i in counted]) == {outcome(roll, phase.number)}

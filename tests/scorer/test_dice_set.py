"""The dice set as a value (issue 47): two sets live in one process, each with its own
matching, layout check and odds tables."""

from __future__ import annotations

import pytest

from scorer import Roll
from scorer.dice import PHYSICAL_DICE
from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.inventory import DEFAULT_LAYOUT, PALETTE
from scorer.layout_check import check_layout
from scorer.odds import advise, turn_odds
from scorer.odds_cache import colour_table, odds_table
from scorer.phases import get_phase

#: The printed table with H1's red 5 green instead.
GREEN_FIVE = DiceSet.from_layout(
    tuple((name, faces.replace("5R", "5G") if name == "H1" else faces)
          for name, faces in DEFAULT_LAYOUT))
#: Two green fives (H1's and H2's) and no red five on H1: only GREEN_FIVE throws it.
TWO_GREEN_FIVES = Roll.from_text("5G 5G 7R 8B 9R 10O 1B 2B 3R 4R")


def test_a_set_is_its_layout_and_compares_by_value():
    assert PRINTED_DICE.layout == DEFAULT_LAYOUT
    assert PRINTED_DICE.dice == PHYSICAL_DICE
    assert DiceSet.from_layout(DEFAULT_LAYOUT) == PRINTED_DICE
    assert hash(DiceSet.from_layout(DEFAULT_LAYOUT)) == hash(PRINTED_DICE)
    assert GREEN_FIVE != PRINTED_DICE and GREEN_FIVE.key != PRINTED_DICE.key
    assert GREEN_FIVE.letters == tuple(letter for _, letter, _ in PALETTE)
    assert GREEN_FIVE.by_name("H1").faces[0] == Roll.from_text("5G").dice[0]
    assert GREEN_FIVE.carriers(Roll.from_text("5G").dice[0]) == ("H1", "H2")
    with pytest.raises(KeyError):
        GREEN_FIVE.by_name("H9")


def test_each_set_matches_a_roll_against_its_own_dice():
    assert GREEN_FIVE.explains(TWO_GREEN_FIVES)
    assert GREEN_FIVE.matching(TWO_GREEN_FIVES)[0] in {"H1", "H2"}
    assert not PRINTED_DICE.explains(TWO_GREEN_FIVES)
    assert PRINTED_DICE.matching(TWO_GREEN_FIVES) is None


def test_the_layout_check_judges_against_the_set_it_is_given():
    assert check_layout([TWO_GREEN_FIVES], PRINTED_DICE).unexplained == (TWO_GREEN_FIVES,)
    assert check_layout([TWO_GREEN_FIVES], GREEN_FIVE).unexplained == ()


@pytest.mark.slow
def test_set_and_run_tables_are_the_same_for_every_set_and_kept_per_set():
    phase = get_phase(1)
    printed, green = odds_table(phase, PRINTED_DICE), odds_table(phase, GREEN_FIVE)
    assert odds_table(phase, DiceSet.from_layout(DEFAULT_LAYOUT)) is printed  # cached by value
    assert printed.build_seconds == 0.0 and green.build_seconds > 0  # shipped for the printed
    assert (green.turn_chance, green.turn_score) == (printed.turn_chance, printed.turn_score)


@pytest.mark.slow
def test_the_colour_phase_odds_follow_the_set():
    """A green five on H1 instead of a red one changes the colour phase's chances."""
    assert colour_table(GREEN_FIVE) is colour_table(GREEN_FIVE)
    assert colour_table(GREEN_FIVE).turn_chance != colour_table(PRINTED_DICE).turn_chance
    assert turn_odds(8, GREEN_FIVE) == colour_table(GREEN_FIVE).turn_chance
    roll = Roll.from_text("5G 6G 7G 8G 9G 10O 1G 2B 3R 4R")
    on_green = advise(roll, 8, 2, dice_set=GREEN_FIVE)
    on_printed = advise(roll, 8, 2, dice_set=PRINTED_DICE)
    assert on_green.probability != on_printed.probability

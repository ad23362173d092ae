"""Checking the dice table against confirmed rolls (scorer.layout_check)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from scorer.dice import PHYSICAL_DICE, Die, PhysicalDie, Roll
from scorer.dice_set import DiceSet
from scorer.inventory import PALETTE
from scorer.layout_check import MIN_SHOWN, ROLLS_TO_JUDGE, check_layout


def thrown(dice, count: int, seed: int) -> list[Roll]:
    """`count` rolls of `dice`, each die showing one of its six faces at random."""
    rng = random.Random(seed)
    return [Roll.from_dice([rng.choice(die.faces) for die in dice]) for _ in range(count)]


def with_face(dice, name: str, old: str, new: str) -> tuple[PhysicalDie, ...]:
    """`dice` with die `name`'s face `old` printed as `new` instead."""
    return tuple(
        PhysicalDie(die.name, tuple(Die.from_text(new) if die.name == name and str(face) == old
                                    else face for face in die.faces))
        for die in dice
    )


@given(st.integers(0, 10**6), st.integers(1, 12))
def test_rolls_of_the_tables_own_dice_always_fit_it(seed, count):
    report = check_layout(thrown(PHYSICAL_DICE, count, seed))
    assert report.rolls == count and not report.unexplained and not report.unknown_faces
    assert not report.disagrees
    assert "the dice table" in report.message() and "differ" not in report.message()


def test_a_face_no_die_of_the_table_carries_shows_at_once():
    table = with_face(PHYSICAL_DICE, "H3", "5O", "5R")  # a table with no orange 5
    rolls = [roll for roll in thrown(PHYSICAL_DICE, 60, 3) if Die.from_text("5O") in roll.dice]
    report = check_layout(rolls[:1], DiceSet(PALETTE, table))
    assert report.unknown_faces == (Die.from_text("5O"),) and report.unexplained
    assert report.message().startswith("Your dice differ from the dice table: it has no die "
                                       "with 5O")


def test_colours_swapped_between_two_dice_show_as_rolls_the_table_cannot_throw():
    """H1 and H2 with their 5s in each other's colours: the colours per value are the
    table's, but a roll showing H1's 5 beside H2's 6R needs H2 twice."""
    swapped = with_face(with_face(PHYSICAL_DICE, "H1", "5R", "5G"), "H2", "5G", "5R")
    report = check_layout(thrown(swapped, 300, 5))
    assert report.unexplained and not any(v.disagrees for v in report.values)
    assert "cannot be thrown with it" in report.message()


def test_a_value_printed_in_other_colours_shows_over_many_rolls():
    ours = with_face(PHYSICAL_DICE, "H1", "5R", "5G")  # 5: R1 O1 G2 B2 (table R2 O1 G1 B2)
    report = check_layout(thrown(ours, 300, 5))
    odd = [v for v in report.values if v.disagrees]
    assert [v.value for v in odd] == [5]
    assert odd[0].likely == (1, 1, 2, 2) and odd[0].table == (2, 1, 1, 2)
    assert report.to_dict()["values"][4]["likely"] == {"R": 1, "O": 1, "G": 2, "B": 2}


def test_too_few_rolls_are_not_judged_but_say_how_many_are_needed():
    report = check_layout(thrown(PHYSICAL_DICE, 5, 1))
    assert not report.judged and all(v.likely is None for v in report.values
                                     if v.shown < MIN_SHOWN)
    assert f"about {ROLLS_TO_JUDGE}" in report.message()
    assert check_layout([]).message().startswith("Confirm whole rolls")
    partial = Roll.from_dice(list(thrown(PHYSICAL_DICE, 1, 2)[0].dice)[:7])
    assert check_layout([partial]).rolls == 0  # only whole rolls say what the dice carry


def test_the_message_names_the_values_whose_colours_disagree():
    from scorer.layout_check import LayoutReport, ValueColours

    odd = ValueColours(5, (2, 1, 1, 2), (10, 12, 40, 38), (1, 1, 2, 2), 30.0)
    fine = ValueColours(6, (1, 2, 1, 2), (15, 35, 16, 34), (1, 2, 1, 2), 0.5)
    report = LayoutReport(100, (), (), (odd, fine))
    assert report.disagrees and report.judged
    assert report.message() == ("The colours of your 5 faces seem to differ from the dice "
                                "table (over 100 rolls).")

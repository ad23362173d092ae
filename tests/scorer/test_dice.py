"""Dice notation, roll composition and the inventory matching."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer import (
    FULL_ROLL,
    WILD,
    Die,
    InvalidDieError,
    InvalidRollError,
    Roll,
    inventory_matching,
    parse_roll,
)
from scorer.dice import COLOUR_LETTERS, PHYSICAL_DICE, PhysicalDie, matching_shortfall


def test_parse_and_format_round_trip_canonical_upper_case():
    roll = parse_roll("8r 8B 8g 10o 5G 7R wr WB 1G 3r")
    assert str(roll) == "8R 8B 8G 10O 5G 7R WR WB 1G 3R"
    assert roll.dice[0] == Die(8, "R")
    assert roll.dice[6] == Die(WILD, "R") and roll.dice[6].is_wild()
    assert roll.is_full()


@pytest.mark.parametrize("token", ["11X", "0R", "11R", "8", "R8", "8P", "WW", "10", "1.5R"])
def test_bad_token_is_named_in_the_error(token):
    with pytest.raises(InvalidDieError) as info:
        parse_roll(f"8R {token} 9G")
    assert repr(token) in str(info.value)
    assert "expected 1-10 or W" in str(info.value)


def test_design_error_message():
    expected = r"'11X' is not a die: expected 1-10 or W, then R/O/G/B"
    with pytest.raises(InvalidDieError, match=expected):
        Die.from_text("11X")


def test_too_many_high_or_low_dice_is_refused():
    with pytest.raises(InvalidRollError, match="7 high dice"):
        parse_roll("5R 6R 7R 8R 9R 10R 5G")
    with pytest.raises(InvalidRollError, match="5 low dice"):
        parse_roll("1R 2R 3R 4R WG")


def test_partial_roll_is_valid_but_not_full():
    roll = parse_roll("8R WB")
    assert not roll.is_full()
    with pytest.raises(InvalidRollError, match="needs all 10 dice"):
        roll.require_full()
    assert parse_roll("") == Roll(())


def test_inventory_has_ten_dice_each_colour_on_fifteen_faces():
    assert len(PHYSICAL_DICE) == FULL_ROLL
    assert sum(die.is_high() for die in PHYSICAL_DICE) == 6
    faces = [face for die in PHYSICAL_DICE for face in die.faces]
    for letter in "ROGB":
        assert sum(face.colour == letter for face in faces) == 15
        assert sum(face.colour == letter and face.is_wild() for face in faces) == 2


def test_inventory_matching_explains_real_rolls_and_flags_impossible_ones():
    real = parse_roll("10G 10R 10O 10B 5B 5B WR WB 1O 4R")  # H1..H6, L1..L4
    matching = inventory_matching(real)
    assert matching is not None and len(set(matching.values())) == len(real)
    # Only H3 carries 5O: two of them cannot show at once.
    impossible = parse_roll("5O 5O 7R 8R 9R 10R 1B 2G 3O WR")
    assert inventory_matching(impossible) is None
    assert not impossible.is_explained_by_inventory()


def test_matching_shortfall_counts_the_dice_left_without_a_physical_die():
    assert matching_shortfall(parse_roll("10G 10R 10O 10B 5B 5B WR WB 1O 4R")) == 0
    # Only H3 carries 5O: of three, two are left (unmatched_dice names all three).
    assert matching_shortfall(parse_roll("5O 5O 5O 10G 10R 10B WR WB 1O 4R")) == 2
    # One of two 5O left, and two of 1B, 2G and 3O (L1 alone carries them).
    assert matching_shortfall(parse_roll("5O 5O 7R 8R 9R 10R 1B 2G 3O WR")) == 3


@given(st.data())
def test_one_changed_face_changes_the_shortfall_by_one_at_most(data):
    """What the layout proposal's search of pairs of moves relies on: a changed face
    changes one die, and one die matches one of the roll's dice."""
    high = [face for die in PHYSICAL_DICE for face in die.faces if face.is_high()]
    low = [face for die in PHYSICAL_DICE for face in die.faces if not face.is_high()]
    roll = Roll(tuple(data.draw(st.lists(st.sampled_from(high), min_size=6, max_size=6))
                      + data.draw(st.lists(st.sampled_from(low), min_size=4, max_size=4))))
    d = data.draw(st.integers(0, len(PHYSICAL_DICE) - 1))
    f = data.draw(st.integers(0, len(PHYSICAL_DICE[d].faces) - 1))
    face = Die(PHYSICAL_DICE[d].faces[f].value, data.draw(st.sampled_from(COLOUR_LETTERS)))
    faces = list(PHYSICAL_DICE[d].faces)
    faces[f] = face
    changed = [*PHYSICAL_DICE[:d], PhysicalDie(PHYSICAL_DICE[d].name, tuple(faces)),
               *PHYSICAL_DICE[d + 1:]]
    assert abs(matching_shortfall(roll, changed) - matching_shortfall(roll)) <= 1


@given(st.data())
def test_one_face_of_each_physical_die_is_always_explained(data):
    faces = [data.draw(st.sampled_from(die.faces)) for die in PHYSICAL_DICE]
    order = data.draw(st.permutations(range(FULL_ROLL)))
    roll = Roll(tuple(faces[i] for i in order))
    matching = inventory_matching(roll)
    assert matching is not None
    assert sorted(matching) == list(range(FULL_ROLL))
    for index, name in matching.items():
        physical = next(die for die in PHYSICAL_DICE if die.name == name)
        assert roll.dice[index] in physical.faces

"""Joint decoding against the inventory: low-confidence faces resolved, conflicts flagged."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_budget import examples

from scorer.dice import (
    COLOUR_LETTERS,
    HIGH_DICE,
    HIGH_VALUES,
    LOW_DICE,
    LOW_VALUES,
    PHYSICAL_DICE,
    WILD,
    Die,
    Roll,
)
from vision.read.decode import FACES, decode, face_probabilities
from vision.read.settings import DecodeSettings
from vision.reading import ReadingFlag

FULL = Roll.from_text("8R 8B 8G 10O 5G 7R WR WB 1G 3R")


def probs_for(roll, sure=0.97):
    """Classifier-like outputs that favour each die's true face by `sure`."""
    values, colours = [], []
    for die in roll:
        value = np.full(11, (1 - sure) / 10)
        value[10 if die.value == WILD else die.value - 1] = sure
        colour = np.full(4, (1 - sure) / 3)
        colour[COLOUR_LETTERS.index(die.colour)] = sure
        values.append(value)
        colours.append(colour)
    return np.array(values), np.array(colours)


def faces(decoding):
    return " ".join(str(face.die) for face in decoding.faces)


def test_confident_consistent_roll_reads_as_is():
    decoding = decode(*probs_for(FULL))
    assert faces(decoding) == str(FULL)
    assert decoding.flags == ()
    assert not any(face.unsure for face in decoding.faces)


def test_face_probabilities_shape_and_rows_sum_to_one():
    probs = face_probabilities(*probs_for(FULL))
    assert probs.shape == (10, 44)
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert FACES[int(probs[0].argmax())] == FULL.dice[0]


def test_inventory_resolves_an_ambiguous_colour():
    # 5R is on H1 and H4 only, and they show 9O and 7O (faces no other die has).
    roll = Roll.from_text("5O 9O 6R 7O 8O 10O 1B 2B 3R WR")
    assert roll.is_explained_by_inventory()
    assert not Roll.from_text("5R 9O 6R 7O 8O 10O 1B 2B 3R WR").is_explained_by_inventory()
    values, colours = probs_for(roll)
    # Die 0 is a 5 but the classifier cannot tell orange from red.
    colours[0] = [0.48, 0.47, 0.03, 0.02]
    decoding = decode(values, colours)
    independent = decode(values, colours, use_inventory=False)
    assert str(independent.faces[0].die) == "5R"  # the lone classifier would be wrong
    assert str(decoding.faces[0].die) == "5O"
    assert not decoding.faces[0].unsure and decoding.flags == ()
    assert decoding.faces[0].confidence > independent.faces[0].confidence


@pytest.mark.parametrize(("orange", "settled"), [(0.015, True), (0.011, True), (0.004, False)])
def test_the_table_settles_a_colour_given_a_percent_but_never_one_all_but_ruled_out(
    orange, settled
):
    # The 5 reads red for sure, but no matching of these dice holds a 5R beside the rest.
    roll = Roll.from_text("5O 9O 6R 7O 8O 10O 1B 2B 3R WR")
    values, colours = probs_for(roll, sure=0.99)
    colours[0] = [1 - orange - 0.002, orange, 0.001, 0.001]
    decoding = decode(values, colours)
    if settled:
        assert faces(decoding) == str(roll) and decoding.flags == ()
    else:  # a set laid out otherwise than the table is read as it shows
        assert str(decoding.faces[0].die) == "5R"
        assert decoding.flags == (ReadingFlag.NOT_EXPLAINED,)


def test_the_table_does_not_overturn_a_colour_the_die_alone_is_sure_of_without_a_look():
    # The 5 reads red at 96 %, but no matching of these sure dice holds a 5R beside the
    # rest: the table alone would read it orange, and surely.
    roll = Roll.from_text("5O 9O 6R 7O 8O 10O 1B 2B 3R WR")
    values, colours = probs_for(roll, sure=0.9999)
    colours[0] = [0.96, 0.036, 0.002, 0.002]
    taken = decode(values, colours, settings=DecodeSettings(overturn_sure=None))
    assert faces(taken) == str(roll) and not taken.faces[0].unsure
    decoding = decode(values, colours)
    doubted = decoding.faces[0]
    assert faces(decoding) == str(roll) and decoding.flags == ()  # the table's face shown
    assert doubted.unsure and doubted.likely is None
    assert doubted.confidence <= DecodeSettings().overturned_confidence
    assert doubted.value_confidence == taken.faces[0].value_confidence  # a 5 either way
    assert not any(face.unsure for face in decoding.faces[1:])


def test_a_value_the_table_overturns_is_doubted_too():
    # Die 0 reads 7O at 97.5 %, but the one die with a 7O shows the other 7O: the table
    # makes it the 5O of the only die left that carries one.
    roll = Roll.from_text("5O 9O 6R 7O 8O 10O 1B 2B 3R WR")
    values, colours = probs_for(roll, sure=0.99)
    values[0] = np.full(11, 0.005 / 9)
    values[0][6], values[0][4] = 0.975, 0.02
    decoding = decode(values, colours)
    assert str(decode(values, colours, use_inventory=False).faces[0].die) == "7O"
    assert str(decoding.faces[0].die) == "5O" and decoding.faces[0].unsure
    assert decoding.faces[0].value_confidence <= DecodeSettings().overturned_confidence


def test_a_colour_the_die_alone_doubts_is_still_settled_by_the_table():
    roll = Roll.from_text("5O 9O 6R 7O 8O 10O 1B 2B 3R WR")
    values, colours = probs_for(roll, sure=0.9999)
    colours[0] = [0.9, 0.096, 0.002, 0.002]  # red at 90 %: under `overturn_sure`
    decoding = decode(values, colours)
    assert faces(decoding) == str(roll) and not decoding.faces[0].unsure


def test_low_confidence_die_stays_unsure_when_the_prior_cannot_decide():
    values, colours = probs_for(FULL)
    colours[0] = [0.5, 0.0, 0.0, 0.5]  # 8R or 8B: both are faces of free dice
    decoding = decode(values, colours)
    assert decoding.faces[0].unsure
    assert decoding.faces[0].confidence < DecodeSettings().unsure_below
    alternatives = [str(die) for die, _ in decoding.faces[0].alternatives]
    assert {str(decoding.faces[0].die), *alternatives} >= {"8R", "8B"}


def test_the_likely_faces_are_the_other_faces_over_the_floor_most_likely_first():
    values, colours = probs_for(FULL)
    colours[0] = [0.5, 0.0, 0.0, 0.5]  # 8R or 8B
    torn = decode(values, colours).faces[0]
    other = "8B" if str(torn.die) == "8R" else "8R"
    assert str(torn.likely[0]) == other and torn.die not in torn.likely
    # every runner-up reported is likely, in the same order
    runners = [die for die, _ in torn.alternatives]
    assert [face for face in torn.likely if face in runners] == runners
    assert len(torn.likely) > len(runners)  # faces under the runner-ups' 1 % too
    strict = decode(values, colours, settings=DecodeSettings(likely_floor=0.2)).faces[0]
    assert [str(face) for face in strict.likely] == [other]
    assert decode(values, colours, settings=DecodeSettings(likely_floor=1.0)).faces[0].likely == ()


def test_confident_faces_no_matching_explains_fall_back_and_flag():
    decoding = decode(*probs_for(Roll.from_text("5O 5O"), sure=0.999))
    assert faces(decoding) == "5O 5O"  # never bent to fit the table
    assert ReadingFlag.NOT_EXPLAINED in decoding.flags
    assert not decoding.used_inventory


def test_seven_confident_high_dice_are_flagged():
    dice = Roll.from_text("5R 6R 7R 8R 9R 10R").dice + Roll.from_text("9G").dice
    values, colours = probs_for(dice, sure=0.999)
    decoding = decode(values, colours)
    assert faces(decoding) == "5R 6R 7R 8R 9R 10R 9G"
    assert ReadingFlag.NOT_EXPLAINED in decoding.flags
    assert ReadingFlag.BAD_COMPOSITION in decoding.flags


NOT_IN_THE_TABLE = Roll.from_text("5O 5O 6R 7R 8R 9R 1B 2B 3B 4B")  # two 5O: no matching


def torn(roll, index, other_value, share=0.5):
    """Classifier-like outputs, die `index` torn between its value and `other_value`."""
    values, colours = probs_for(roll, sure=0.99)
    die = roll.dice[index]
    values[index] = 0.001
    values[index, 10 if die.value == WILD else die.value - 1] = share
    values[index, 10 if other_value == WILD else other_value - 1] = 1 - share
    return values, colours


@pytest.mark.parametrize("share", [0.5, 0.3])
def test_a_die_torn_between_high_and_low_reads_as_the_four_low_dice_allow(share):
    # The 9R is read as a 2 as much as a 9, or more; the four low dice are plain.
    assert not NOT_IN_THE_TABLE.is_explained_by_inventory()
    values, colours = torn(NOT_IN_THE_TABLE, 5, 2, share)
    for decoding in (decode(values, colours), decode(values, colours, use_inventory=False)):
        assert faces(decoding) == str(NOT_IN_THE_TABLE)
        assert not any(face.unsure for face in decoding.faces)
        assert decoding.faces[5].confidence > 0.9
        assert not decoding.used_inventory
    assert decode(values, colours).flags == (ReadingFlag.NOT_EXPLAINED,)
    assert decode(values, colours, use_inventory=False).flags == ()


def test_the_composition_settles_a_die_read_low_for_all_but_sure():
    # The 9R is read a 2 at 99.5 %: beside four plain low dice it can only be high.
    values, colours = torn(NOT_IN_THE_TABLE, 5, 2, share=0.005)
    decoding = decode(values, colours)
    assert faces(decoding) == str(NOT_IN_THE_TABLE)
    assert decoding.flags == (ReadingFlag.NOT_EXPLAINED,)  # no BAD_COMPOSITION: it holds


def test_a_torn_die_stays_unsure_while_the_composition_allows_either():
    # Five dice read: one more low die is possible, so a 9-or-2 stays in doubt.
    roll = Roll.from_text("5O 5O 9R 1B 2B")
    values, colours = torn(roll, 2, 2)
    decoding = decode(values, colours)
    assert decoding.faces[2].unsure
    assert {str(decoding.faces[2].die), *(str(d) for d, _ in decoding.faces[2].alternatives)} >= {
        "9R", "2R"}
    assert all(not face.unsure for i, face in enumerate(decoding.faces) if i != 2)


@st.composite
def composition_rolls(draw):
    """Any roll of up to ten dice the composition allows, in any colours: a set whose
    layout is not the table's."""
    high = draw(st.integers(0, HIGH_DICE))
    low = draw(st.integers(0 if high else 1, LOW_DICE))
    values = [draw(st.sampled_from(HIGH_VALUES)) for _ in range(high)]
    values += [draw(st.sampled_from(LOW_VALUES)) for _ in range(low)]
    order = draw(st.permutations(range(len(values))))
    return Roll(tuple(Die(values[i], draw(st.sampled_from(COLOUR_LETTERS))) for i in order))


@settings(max_examples=examples(60), deadline=None)
@given(composition_rolls(), st.integers(0, 9), st.floats(0.5, 0.7), st.integers(0, 10))
def test_any_sets_roll_is_recovered_or_doubted_when_one_die_is_blurred(roll, blurred, sure, decoy):
    index = blurred % len(roll)
    values, colours = torn(roll, index, WILD if decoy == 10 else decoy + 1, sure)
    # Without the table (as when the profile has learnt that these dice differ).
    decoding = decode(values, colours, use_inventory=False)
    # The truth, or an alternative marked unsure: never a silent guess.
    assert faces(decoding) == str(roll) or decoding.faces[index].unsure
    assert all(not face.unsure for i, face in enumerate(decoding.faces) if i != index)


def test_more_than_ten_dice_decode_alone_and_flag():
    values, colours = probs_for(FULL)
    decoding = decode(np.vstack([values, values[:1]]), np.vstack([colours, colours[:1]]))
    assert len(decoding.faces) == 11
    assert ReadingFlag.TOO_MANY in decoding.flags


def test_empty_and_bad_shapes():
    assert decode(np.zeros((0, 11)), np.zeros((0, 4))).faces == ()
    with pytest.raises(ValueError, match="value_probs"):
        decode(np.zeros((2, 10)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match="colour_probs"):
        decode(np.full((2, 11), 0.1), np.full((3, 4), 0.25))


@st.composite
def inventory_rolls(draw):
    """A real roll: one face of each of some physical dice."""
    chosen = draw(st.lists(st.sampled_from(PHYSICAL_DICE), min_size=1, max_size=10, unique=True))
    return Roll(tuple(draw(st.sampled_from(physical.faces)) for physical in chosen))


@settings(max_examples=examples(60), deadline=None)
@given(inventory_rolls(), st.integers(0, 9), st.floats(0.5, 0.7), st.randoms())
def test_true_roll_is_recovered_when_one_die_is_blurred(roll, blurred, sure, random):
    values, colours = probs_for(roll, sure=0.99)
    index = blurred % len(roll)
    # The blurred die's value head spreads its mass over the truth and one decoy.
    decoy = random.randrange(11)
    truth = 10 if roll.dice[index].value == WILD else roll.dice[index].value - 1
    values[index] = 0.001
    values[index, decoy] += 1 - sure
    values[index, truth] += sure
    decoding = decode(values, colours)
    got = faces(decoding)
    # The truth, or an alternative marked unsure: never a silent guess. Or the decoy for
    # sure, where the table itself holds it likelier than the classifier holds the truth
    # (more of the free dice carry it): the same die torn evenly reads the decoy by more.
    if got != str(roll) and not decoding.faces[index].unsure:
        from vision.read.decode import _posterior

        even = values.copy()
        even[index] = 0.001
        even[index, [decoy, truth]] += 0.5
        posterior = _posterior(face_probabilities(even, colours))[index]
        misread = Die(WILD if decoy == 10 else decoy + 1, roll.dice[index].colour)
        odds = posterior[FACES.index(misread)] / posterior[FACES.index(roll.dice[index])]
        assert got == str(Roll(tuple(misread if i == index else d for i, d in enumerate(roll))))
        assert odds > sure / (1 - sure)
    assert all(not face.unsure for i, face in enumerate(decoding.faces) if i != index)


def _assignments(count):
    """Every way `count` read dice can be distinct physical dice."""
    return itertools.permutations(range(len(PHYSICAL_DICE)), count)


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 3), spread=st.sampled_from([0.05, 1.0]))
def test_matching_and_posterior_agree_with_every_assignment_of_the_dice(seed, count, spread):
    # The subset programmes against the definition: enumerate every assignment of the
    # read dice to distinct physical dice.
    from vision.read.decode import FACE_OF_DIE, _best_matching, _posterior

    rng = np.random.default_rng(seed)
    values = rng.dirichlet(np.full(11, spread), size=count)
    probs = face_probabilities(values, rng.dirichlet(np.full(4, spread), size=count))
    carried = np.where(FACE_OF_DIE[None], probs[:, None, :], 0.0)  # (N, K, 44)
    weight = carried.sum(axis=2)
    best = max(
        sum(np.log(carried[i, j].max()) for i, j in enumerate(dice)) for dice in _assignments(count)
    )
    chosen = _best_matching(probs)
    assert np.isclose(sum(np.log(probs[i, f]) for i, f in enumerate(chosen)), best)
    posterior = np.zeros_like(probs)
    for dice in _assignments(count):
        ways = np.prod([weight[i, j] for i, j in enumerate(dice)])
        for i, j in enumerate(dice):
            posterior[i] += ways / weight[i, j] * carried[i, j]
    posterior /= posterior.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(_posterior(probs), posterior, rtol=1e-9, atol=1e-12)


def test_each_dice_set_decodes_against_its_own_faces():
    """Two sets in one process (issue 47): a roll with two green fives is whole for a set
    whose H1 carries 5G, and not for the printed set, where only H2 does."""
    from scorer.dice_set import PRINTED_DICE, DiceSet
    from scorer.inventory import DEFAULT_LAYOUT

    green_five = DiceSet.from_layout(tuple(
        (name, faces.replace("5R", "5G") if name == "H1" else faces)
        for name, faces in DEFAULT_LAYOUT))
    roll = Roll.from_text("5G 5G 7R 8B 9R 10O 1B 2B 3R 4R")
    on_green = decode(*probs_for(roll), dice_set=green_five)
    assert faces(on_green) == str(roll) and on_green.flags == () and on_green.used_inventory
    on_printed = decode(*probs_for(roll), dice_set=PRINTED_DICE)
    assert ReadingFlag.NOT_EXPLAINED in on_printed.flags

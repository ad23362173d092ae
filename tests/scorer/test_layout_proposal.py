"""Proposing a dice layout that fits the confirmed rolls (scorer.layout_proposal)."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st
from property_budget import examples

from scorer.dice import COLOUR_LETTERS, PHYSICAL_DICE, Die, PhysicalDie, inventory_matching
from scorer.layout_check import check_layout
from scorer.layout_proposal import propose_layout
from tests.scorer.test_layout_check import thrown, with_face


def recoloured(seed: int, changes: int) -> tuple[PhysicalDie, ...]:
    """The table with `changes` faces printed in another colour, chosen by `seed`."""
    rng = random.Random(seed)
    faces = [list(die.faces) for die in PHYSICAL_DICE]
    for _ in range(changes):
        row = faces[rng.randrange(len(faces))]
        at = rng.randrange(len(row))
        row[at] = Die(row[at].value, rng.choice([c for c in COLOUR_LETTERS if c != row[at].colour]))
    return tuple(PhysicalDie(die.name, tuple(row)) for die, row in zip(PHYSICAL_DICE, faces,
                                                                        strict=True))


# Derandomized: the move search is bounded (single moves, pairs of them where no single
# one helps, at most MAX_MOVES steps), so a rare draw may still leave a roll unexplained
# and a random draw must not decide whether CI passes; the pinned examples, the fixed draw
# and the cases below still check it.
@settings(max_examples=examples(30), deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(1, 3), st.sampled_from([30, 60]))
@example(22659, 3, 30)  # a narrower beam mended H5's 10G -> 10O on H4's 10B
def test_a_proposal_throws_every_confirmed_roll(seed, changes, count):
    _assert_proposal_throws_every_roll(seed, changes, count)


def test_three_changes_no_single_move_improves_on_are_all_found():
    """L1 3O->3R, H2 10R->10O and H3 10O->10G: once H2 is mended, two rolls of 30 each
    need both L1's 3R and H3's 10G, so no single move explained another roll and they
    stayed unexplained; the two moves made together throw them."""
    _assert_proposal_throws_every_roll(778, 3, 30)


def _assert_proposal_throws_every_roll(seed: int, changes: int, count: int) -> None:
    truth = recoloured(seed, changes)
    rolls = thrown(truth, count, seed)
    proposal = propose_layout(rolls)
    if all(inventory_matching(roll) is not None for roll in rolls) and proposal is None:
        return  # rolls the printed table throws too (the changed faces never showed)
    assert proposal is not None
    assert proposal.explained == proposal.rolls == count
    assert all(inventory_matching(roll, proposal.dice) is not None for roll in rolls)
    for die, before in zip(proposal.dice, PHYSICAL_DICE, strict=True):
        assert die.name == before.name  # the same dice, each with its own values
        assert [face.value for face in die.faces] == [face.value for face in before.faces]
    changed = {(c.die, str(c.before), str(c.after)) for c in proposal.changes}
    assert len(changed) == sum(a != b for die, before in zip(proposal.dice, PHYSICAL_DICE,
                                                              strict=True)
                               for a, b in zip(die.faces, before.faces, strict=True))


def test_a_recount_sent_the_wrong_way_by_chance_is_not_kept():
    """H5's 8O is printed green, but in these 30 rolls the blue 8s showed only 3 times
    (10 expected): the colour recount took a blue and an orange 8 for a green and a red
    one, and no single move could mend two faces, so one roll stayed unexplained. The
    moves alone from the table find the one true change."""
    truth = with_face(PHYSICAL_DICE, "H5", "8O", "8G")
    proposal = propose_layout(thrown(truth, 30, 30257))
    assert proposal is not None
    assert proposal.explained == proposal.rolls == 30
    assert [(c.die, str(c.before), str(c.after)) for c in proposal.changes] == [
        ("H5", "8O", "8G")]


def test_two_faces_of_one_value_are_found_where_the_first_best_move_leads_nowhere():
    """Three faces recoloured, two of them 8s: the one move that explained the most rolls
    (H1's and H5's 8s swapped) left two rolls that no further single move explained;
    keeping the second-best layout too leads on to all of them."""
    truth = with_face(with_face(with_face(PHYSICAL_DICE, "L1", "1B", "1G"), "H1", "8G", "8O"),
                      "H6", "8R", "8G")
    proposal = propose_layout(thrown(truth, 30, 951490))
    assert proposal is not None
    assert proposal.explained == proposal.rolls == 30
    assert proposal.dice == truth


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 80))
def test_rolls_the_table_throws_get_no_proposal(seed, count):
    """Rolls the table threw are all explained by it, so only colours counted far from
    it by chance (the check's G-test, at most 0.1 % of checks) can bring a proposal,
    and then one that still throws every roll."""
    rolls = thrown(PHYSICAL_DICE, count, seed)
    proposal = propose_layout(rolls)
    if not check_layout(rolls).disagrees:
        assert proposal is None
    elif proposal is not None:
        assert proposal.explained == proposal.rolls == count


def test_the_tables_own_rolls_bring_no_proposal_by_chance():
    """600 sets of rolls the table threw itself. Tested one value at a time at 0.1 %,
    the colour counts of 7 (20 shown in 14 rolls: 11 red, no orange, 2 green, 7 blue)
    once brought a proposal to recolour the table."""
    assert propose_layout(thrown(PHYSICAL_DICE, 14, 130)) is None
    proposed = [(count, seed) for count in (14, 30, 60) for seed in range(200)
                if propose_layout(thrown(PHYSICAL_DICE, count, seed)) is not None]
    assert proposed == []


def test_one_recoloured_face_is_found():
    truth = with_face(PHYSICAL_DICE, "H1", "5R", "5G")
    proposal = propose_layout(thrown(truth, 60, 7))
    assert proposal is not None
    assert [(c.die, str(c.before), str(c.after)) for c in proposal.changes] == [
        ("H1", "5R", "5G")]
    assert proposal.dice == truth
    assert proposal.layout()[4] == ("H1", "5G 6O 7B 8G 9O 10G")
    assert proposal.to_dict()["changes"] == [{"die": "H1", "before": "5R", "after": "5G"}]


def test_two_colours_swapped_between_dice_are_found():
    truth = with_face(with_face(PHYSICAL_DICE, "H1", "5R", "5B"), "H6", "5B", "5R")
    proposal = propose_layout(thrown(truth, 60, 60))
    assert proposal is not None and proposal.dice == truth

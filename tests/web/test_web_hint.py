"""The hint's plain words for the colour phase and the run phases."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import Roll, advise, evaluate, get_phase
from scorer.dice import PHYSICAL_DICE
from scorer.odds_spare import spare_dice
from web.hint import plain_hint


def hint(notation: str, phase: int, rolls_left: int) -> str:
    roll = Roll.from_text(notation)
    advice = advise(roll, phase, rolls_left)
    verdict = evaluate(roll, get_phase(phase))
    used = [d for g in verdict.groups for d in g.dice] if verdict.is_made() else None
    return plain_hint(advice, used)


def test_the_colour_phase_names_the_colour():
    assert hint("WR 4O 2R 1G 9O 8O 10O 7O 6B 5G", 8, 1).startswith(
        "Keep the five orange dice for 7 of all one colour, and re-roll the other 5 dice:")


def test_a_run_is_named_by_its_ends():
    assert hint("4G 1R 2R WG 7B 5G 10O 6G 8O 9B", 4, 2).startswith(
        "Keep the 4 to 10 for 1 run of 7, and re-roll the other 3 dice:")


def test_no_rolls_left_and_not_made():
    assert hint("5R 5G 7B 7G 9O 9R 1B 1R 3O 3G", 7, 0) == \
        "No re-rolls left: this roll does not make Phase 7 (2 sets of 4)."


def test_dice_the_phase_does_not_use_get_no_reason_of_points():
    """Issue 46, point 1: the 1 and the 3 score nothing; the hint no longer keeps them."""
    text = hint("8R 8B 8G 10O 5G 7R WR WB 1G 3R", 1, 2)
    assert text.startswith("Keep the three 8s, the 10 and the two Wilds for 2 sets of 3, "
                           "and re-roll the other 4 dice:")
    assert "points)" not in text


throws = st.tuples(*(st.sampled_from(die.faces) for die in PHYSICAL_DICE)).map(Roll)


@settings(deadline=None)
@given(throws, st.integers(1, 10), st.sampled_from([1, 2]))
def test_the_hint_gives_no_die_a_reason_it_does_not_have(roll, phase, rolls_left):
    """Property: never "for their points"; a die kept beyond the phase's is kept only
    when it matters, and the dice named to re-roll are all those not kept."""
    text = hint(str(roll), phase, rolls_left)
    assert "for their points" not in text
    advice = advise(roll, phase, rolls_left)
    spare = spare_dice(advice)
    if advice.reroll:
        rerolled = len(advice.reroll) + len(spare)
        other = "die" if rerolled == 1 else f"{rerolled} dice"
        assert f"re-roll the other {other}:" in text or f"Re-roll all {rerolled} dice" in text
    if "to try for more points" in text:
        assert advice.made_now.made and len(advice.keep) - len(spare) > 0

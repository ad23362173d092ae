"""Kept dice that make no difference (issue 46, point 1): the advice without them is as good."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import Roll, advise
from scorer.dice import PHYSICAL_DICE
from scorer.odds_cache import odds_table
from scorer.odds_spare import _counts, spare_dice
from scorer.odds_tables import TOLERANCE

#: A throw of the ten dice: one face of each.
throws = st.tuples(*(st.sampled_from(die.faces) for die in PHYSICAL_DICE)).map(Roll)
set_and_run_phases = st.sampled_from([1, 2, 3, 4, 5, 6, 7, 9, 10])


def test_the_issues_roll_keeps_the_1_and_the_3_for_nothing():
    advice = advise(Roll.from_text("8R 8B 8G 10O 5G 7R WR WB 1G 3R"), 1, 2)
    assert sorted(str(die) for die in spare_dice(advice)) == ["1G", "3R"]


@settings(deadline=None)
@given(throws, set_and_run_phases, st.sampled_from([1, 2]))
def test_re_rolling_the_spare_dice_too_keeps_the_chance_and_the_expected_score(
        roll, phase, rolls_left):
    advice = advise(roll, phase, rolls_left)
    spare = spare_dice(advice)
    keep = list(advice.keep)
    for die in spare:
        keep.remove(die)  # every spare die is a kept die
    chance, score = odds_table(advice.phase).keep_value(rolls_left, *_counts(keep))
    assert abs(chance - advice.probability) <= TOLERANCE
    assert abs(score - advice.expected_score) <= 1e-9
    # and, when the advice re-rolls, every die still kept matters: without it the
    # chance or the score drops (a stop keeps all ten and names no spare die)
    for die in set(keep) if advice.reroll else ():
        fewer = list(keep)
        fewer.remove(die)
        c, s = odds_table(advice.phase).keep_value(rolls_left, *_counts(fewer))
        assert c < advice.probability - TOLERANCE or s < advice.expected_score - 1e-9

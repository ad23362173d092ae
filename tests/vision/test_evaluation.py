"""Scoring a reading against the true dice (`vision.evaluation`): what counts as right."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorer.dice import Die
from vision.evaluation import PipelineScore, score_reading, share_upper_bound
from vision.reading import ReadDie, Reading


@dataclass(frozen=True)
class TrueDie:
    die: Die
    centre: tuple[float, float]
    corners: np.ndarray


def true_die(notation: str, x: float) -> TrueDie:
    corners = np.array([[x - 20, 80], [x + 20, 80], [x + 20, 120], [x - 20, 120]], float)
    return TrueDie(Die.from_text(notation), (x, 100.0), corners)


def read_die(notation: str, x: float, unsure: bool) -> ReadDie:
    return ReadDie(Die.from_text(notation), 0.6 if unsure else 0.99, (x + 3, 101.0), (), unsure)


TRUTH = (true_die("8R", 100), true_die("5O", 200), true_die("WG", 300), true_die("3B", 400))
READING = Reading(
    (
        read_die("8R", 100, unsure=False),  # right and sure
        read_die("5O", 200, unsure=True),  # right, but the players are asked
        read_die("WR", 300, unsure=True),  # wrong, and the players are asked
        read_die("3G", 400, unsure=False),  # wrong for sure
    ),
    (640, 480),
)


def test_an_unsure_die_counts_as_not_right_but_as_read_right_when_its_face_is():
    score = score_reading(1, TRUTH, READING, 0.0)
    assert (score.dice, score.missed, score.extra) == (4, 0, 0)
    assert score.right == 1 and score.read_right == 2 and score.unsure == 2
    assert not score.all_right() and not score.all_read_right()


def test_a_scene_read_right_but_unsure_is_right_only_by_its_first_readings():
    reading = Reading(tuple(read_die(str(t.die), t.centre[0], unsure=i == 1)
                            for i, t in enumerate(TRUTH)), (640, 480))
    score = score_reading(2, TRUTH, reading, 0.0)
    assert score.all_read_right() and not score.all_right()
    pooled = PipelineScore((score, score_reading(1, TRUTH, READING, 0.0)))
    assert pooled.die_accuracy == pytest.approx(4 / 8)
    assert pooled.first_reading_accuracy == pytest.approx(6 / 8)
    assert pooled.first_reading_all_right_rate == pytest.approx(1 / 2)
    assert pooled.all_right_rate == 0.0
    figures = pooled.to_dict()
    assert figures["per_die_first_reading"] == 0.75 and figures["all_first_readings_right"] == 0.5


def test_a_die_read_far_from_any_true_die_is_missed_and_extra():
    far = Reading((read_die("8R", 600, unsure=False),), (640, 480))
    score = score_reading(3, TRUTH[:1], far, 0.0)
    assert (score.missed, score.extra, score.read_right) == (1, 1, 0)


def test_the_values_alone_are_scored_apart_from_the_colours():
    """3G read for a 3B is a silent error of its face but not of its value; a die marked for
    its colour alone leaves the values sure, and a value read wrong under it is counted."""
    from dataclasses import replace

    score = score_reading(1, TRUTH, READING, 0.0)
    assert score.values_read_right == 4  # WR read for WG is a W, 3G for 3B a 3
    assert score.value_silent == 0 and score.silent == 1

    ten = [true_die(f"{v}R", 60 * v) for v in range(1, 5)] + [
        true_die(f"{v}B", 60 * v) for v in range(5, 11)]
    colour_doubt = [read_die(str(t.die), t.centre[0], unsure=False) for t in ten]
    colour_doubt[0] = replace(colour_doubt[0], die=Die.from_text("1O"), unsure=True,
                              value_unsure=False)
    colour_doubt = [d if i == 0 else replace(d, value_unsure=False)
                    for i, d in enumerate(colour_doubt)]
    doubted = score_reading(4, ten, Reading(tuple(colour_doubt), (640, 480)), 0.0)
    assert not doubted.shown_sure and doubted.values_shown_sure
    assert not doubted.values_sure_but_wrong() and doubted.marked_wrong == 1
    wrong_value = list(colour_doubt)
    wrong_value[3] = replace(wrong_value[3], die=Die.from_text("2R"))  # a 4 read as a 2
    missed = score_reading(5, ten, Reading(tuple(wrong_value), (640, 480)), 0.0)
    assert missed.values_shown_sure and missed.values_sure_but_wrong()
    assert missed.value_silent == 1
    trust = PipelineScore((doubted, missed)).trust
    assert trust["rolls_values_shown_sure"] == 1.0 and trust["rolls_shown_sure"] == 0.0
    assert trust["rolls_values_sure_but_wrong"] == 0.5
    assert trust["dice_value_wrong_unmarked"] == pytest.approx(1 / 20)
    assert trust["rolls_sure_but_wrong_at_most"] == share_upper_bound(0, 2)


def test_the_rolls_are_scored_as_the_scorepad_takes_them():
    """A doubt needs no check where no face the die could show changes the phase's score
    (`scorer.dice_to_check`); a roll with nothing to check whose verdict or points are
    wrong is counted as taken wrong. Phase 8 counts colour, the others do not. The roll
    and its misreadings are rolls the printed table's dice can show (a face they cannot
    show with the others is asked for in every phase: the next test)."""
    from dataclasses import replace

    faces = "5R 6R 7R 9R 9R 8R 1R WG 2O 3O".split()  # seven reds: 45 points in phase 8
    ten = [true_die(face, 60 * (i + 1)) for i, face in enumerate(faces)]

    def reading(doubted: int | None, read_as: dict[int, str] | None = None,
                value: bool = False, likely: str | None = None) -> Reading:
        dice = [replace(read_die((read_as or {}).get(i, face), 60 * (i + 1), i == doubted),
                        value_unsure=value and i == doubted,
                        likely=None if likely is None or i != doubted
                        else (Die.from_text(likely),))
                for i, face in enumerate(faces)]
        return Reading(tuple(dice), (640, 480))

    wild_doubted = score_reading(1, ten, reading(7), 0.0)  # whatever its colour, 45
    assert not wild_doubted.shown_sure and wild_doubted.pad_sure[7]
    assert not wild_doubted.pad_sure_but_wrong(8)
    red_doubted = score_reading(2, ten, reading(6), 0.0)  # the 1R as orange: no phase 8
    assert not red_doubted.pad_sure[7] and all(red_doubted.pad_sure[:7])
    wild_wrong = score_reading(3, ten, reading(7, {7: "WB"}), 0.0)  # its colour never counts
    assert wild_wrong.pad_sure[7] and wild_wrong.pad_right[7]
    two_wrong = score_reading(4, ten, reading(None, {8: "2R"}), 0.0)  # 46 points read, not 45
    assert two_wrong.pad_sure[7] and two_wrong.pad_sure_but_wrong(8)
    assert not two_wrong.pad_sure_but_wrong(4)  # a run of 7 from 1 to 7 either way
    # The 5R's number in doubt: a run of 7 (phase 4) scores 5 less with it a Wild.
    five_doubted = score_reading(5, ten, reading(0, value=True), 0.0)
    assert not five_doubted.pad_sure[3] and five_doubted.pad_sure[0]  # no sets of 3 either way
    # Told it is a 5 of some colour, the run of 7 stands (colour does not count there);
    # told it may be a 6, the run is broken: checked.
    a_five = score_reading(6, ten, reading(0, value=True, likely="5O"), 0.0)
    assert a_five.pad_sure[3]
    five_or_six = score_reading(7, ten, reading(0, value=True, likely="6R"), 0.0)
    assert not five_or_six.pad_sure[3]
    trust = PipelineScore((wild_doubted, red_doubted, wild_wrong, two_wrong)).trust
    assert trust["pad_phase_8_no_check"] == 0.75
    assert trust["pad_phase_8_taken_wrong"] == 0.25
    assert trust["pad_other_phases_no_check"] == 1.0
    assert trust["pad_other_phases_taken_wrong"] == 0.0
    assert trust["rolls_shown_sure"] == 0.25


def test_a_roll_the_dice_cannot_show_is_asked_for_in_every_phase():
    """The scorepad asks the players to confirm faces the ten dice cannot show together
    (`web.service`), so no phase takes such a roll without a check, even read surely: here
    two dice read 5O, which only one printed die carries. A household's own layout that
    carries 5O twice takes the same roll as read."""
    from scorer.dice_set import PRINTED_DICE, DiceSet
    from scorer.inventory import DEFAULT_LAYOUT
    from vision.evaluation import pad_readings

    faces = "1B 2B 3R 4R 5O 6R 5O 8B 9R 10O".split()
    reading = Reading(tuple(read_die(face, 60 * (i + 1), False) for i, face in enumerate(faces)),
                      (640, 480))
    truth = reading.roll()
    assert truth is not None and PRINTED_DICE.impossible(truth) == (4, 6)
    sure, right = pad_readings(reading, truth)
    assert not any(sure) and all(right)
    household = DiceSet.from_layout([(name, layout.replace("5R", "5O") if name == "H1" else layout)
                                     for name, layout in DEFAULT_LAYOUT])
    assert all(pad_readings(reading, truth, dice_set=household)[0])


def test_no_wrong_roll_in_600_still_allows_under_half_a_percent_but_five_do_not():
    """With nothing wrong the bound is z^2 / (n + z^2); five sure but wrong rolls in 600
    (0.83 %) cannot be read as meeting a 0.5 % target, and two (0.33 %) cannot show it
    either: 600 scenes tell such shares apart only roughly."""
    assert share_upper_bound(0, 600) == pytest.approx(1.6449**2 / (600 + 1.6449**2))
    assert share_upper_bound(5, 600) > 0.015
    assert 0.005 < share_upper_bound(2, 600) < share_upper_bound(5, 600)
    assert share_upper_bound(0, 0) == 1.0
    with pytest.raises(ValueError, match="part <= whole"):
        share_upper_bound(7, 6)


@given(st.integers(1, 5000), st.data())
def test_the_bound_lies_above_the_share_and_narrows_with_more_rolls(whole, data):
    part = data.draw(st.integers(0, whole))
    bound = share_upper_bound(part, whole)
    assert part / whole <= bound <= 1.0
    if part < whole:
        assert share_upper_bound(part + 1, whole) > bound
        assert share_upper_bound(part * 10, whole * 10) < bound

"""Calibrated probabilities and the dice marked for a tap (`vision.read.trust`)."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.read.trust import (
    Calibration,
    DieEvidence,
    MonotoneMap,
    TrustSettings,
    ValueTrust,
    fit_weights,
    raw_score,
)

IDENTITY_ROLL = MonotoneMap((math.log(1e-6), 0.0), (1e-6, 1.0))
"""The roll's probability as the product of its dice's (log-product to probability)."""


def _calibration(roll_sure: float = 0.99, die_sure: float = 0.8) -> Calibration:
    """Die probability equal to the raw posterior; roll probability the exact product."""
    knots = tuple(np.linspace(-14, 14, 57))
    die = MonotoneMap(knots, tuple(1 / (1 + math.exp(-k)) for k in knots))
    # The roll map takes the log of the product: exp of it, sampled finely.
    logs = tuple(np.linspace(-14, 0, 400))
    roll = MonotoneMap(logs, tuple(math.exp(v) for v in logs))
    return Calibration(die, roll, TrustSettings(roll_sure, die_sure))


def test_a_monotone_fit_of_one_score_read_right_and_wrong_keeps_its_knots_in_order():
    """Groups that all hold the top score (the logit's clip) and differ in their rates:
    their means, summed and divided back, once came out an ulp out of order and the fit
    failed ("knots must not decrease") on 14,400 calibration scenes."""
    top = 13.815510557964274
    right = [True] * 82
    right[41] = False
    fitted = MonotoneMap.fit([top] * 82, right, 3)
    assert all(b >= a for a, b in zip(fitted.knots, fitted.knots[1:], strict=False))
    assert fitted(top) < 1.0


def test_a_monotone_fit_never_decreases_and_never_says_certain():
    rng = np.random.default_rng(1)
    scores = rng.normal(0, 3, 5000)
    right = rng.random(5000) < 1 / (1 + np.exp(-scores))
    fitted = MonotoneMap.fit(scores, right, 30)
    assert all(b >= a for a, b in zip(fitted.values, fitted.values[1:], strict=False))
    all_right = MonotoneMap.fit(rng.normal(5, 1, 500), np.ones(500, bool), 5)
    assert max(all_right.values) < 1.0
    # Fitted to logistic data, it reads back close to the truth where data is dense.
    assert fitted(0.0) == pytest.approx(0.5, abs=0.08)
    assert fitted(3.0) == pytest.approx(1 / (1 + math.exp(-3)), abs=0.06)


def _few_doubtful(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A reader's dice: 9,800 read surely and right, 200 doubtful (scores -4 to 4) right
    as often as their odds say; the doubtful ones fill less than one of 40 equal groups."""
    sure = rng.uniform(8, 14, 9800)
    doubtful = rng.uniform(-4, 4, 200)
    scores = np.concatenate([sure, doubtful])
    right = np.concatenate([np.ones(9800, bool), rng.random(200) < 1 / (1 + np.exp(-doubtful))])
    return scores, right


def test_a_fit_cut_by_score_keeps_the_slope_of_the_few_doubtful_dice():
    scores, right = _few_doubtful(np.random.default_rng(4))
    equal_counts = MonotoneMap.fit(scores, right, 40)
    cut = MonotoneMap.fit(scores, right, 40, max_span=1.0, min_count=20)
    # Equal counts give every doubtful die one probability: a die at long odds against
    # (right one time in twenty) is said to be right more often than not.
    assert equal_counts(-3.0) == equal_counts(0.0) > 0.5
    # Cut by score, a die at long odds against is far less probable than one at 3.
    assert cut(-3.0) < 0.25
    assert cut(3.0) > 0.8
    assert cut(0.0) == pytest.approx(0.5, abs=0.15)
    # The sure dice stay sure.
    assert cut(12.0) > 0.999


def test_a_cut_group_holds_at_least_the_fewest_readings_asked():
    scores, right = _few_doubtful(np.random.default_rng(5))
    cut = MonotoneMap.fit(scores, right, 40, max_span=0.2, min_count=30)
    few = MonotoneMap.fit(scores, right, 40, max_span=0.2, min_count=5)
    # 200 doubtful dice over 8 units of score, cut at every 0.2: groups of 30 or more
    # leave at most 250 / 30 knots in the lowest equal group (200 doubtful, 50 sure),
    # groups of 5 more (pooling violators joins some either way).
    tail = sum(1 for knot in cut.knots if knot < 8.0)
    assert 3 <= tail <= 250 // 30
    assert sum(1 for knot in few.knots if knot < 8.0) > tail


def test_a_map_with_decreasing_values_is_refused():
    with pytest.raises(ValueError, match="must not decrease"):
        MonotoneMap((0.0, 1.0), (0.9, 0.5))


def test_a_roll_under_the_threshold_has_its_least_probable_die_marked():
    calibration = _calibration(roll_sure=0.99)
    probs = [0.9999] * 9 + [0.985]
    assert calibration.roll_probability(probs) < 0.99
    marks = calibration.marked(probs)
    assert marks == (False,) * 9 + (True,)


def test_a_sure_roll_has_no_die_marked_and_a_doubtful_die_is_marked_anyway():
    calibration = _calibration(roll_sure=0.99, die_sure=0.8)
    assert calibration.marked([0.9999] * 10) == (False,) * 10
    assert calibration.marked([0.9999] * 9 + [0.7]) == (False,) * 9 + (True,)


@given(st.lists(st.floats(0.5, 1.0), min_size=1, max_size=10), st.floats(0.9, 0.999))
def test_as_few_dice_are_marked_as_needed_the_least_probable_first(probs, roll_sure):
    calibration = _calibration(roll_sure=roll_sure, die_sure=0.0)
    marks = calibration.marked(probs)
    unmarked = [p for p, m in zip(probs, marks, strict=True) if not m]
    assert calibration.roll_probability(unmarked) >= roll_sure or not unmarked
    if any(marks):  # the marked are the least probable, and one fewer would not do
        assert max(p for p, m in zip(probs, marks, strict=True) if m) <= min(unmarked, default=1)
        weakest_marked = max((p, i) for i, (p, m) in enumerate(zip(probs, marks, strict=True))
                             if m)[1]
        fewer = [p for i, (p, m) in enumerate(zip(probs, marks, strict=True))
                 if not m or i == weakest_marked]
        assert calibration.roll_probability(fewer) < roll_sure


def test_raw_score_grows_with_the_posterior_and_with_the_face_belief():
    assert raw_score(0.99, 1.0) > raw_score(0.9, 1.0) > raw_score(0.9, 0.6)


def test_looks_that_disagree_on_the_value_lower_a_die_s_probability():
    calibration = _calibration()
    agreed = calibration.die_probability(DieEvidence(0.999, 1.0, agreement=0.999))
    doubted = calibration.die_probability(DieEvidence(0.999, 1.0, agreement=0.4))
    assert agreed > 0.99 > doubted
    assert calibration.marked([doubted] + [0.9999] * 9)[0]


def test_a_die_whose_box_is_too_large_for_its_place_is_marked_and_leaves_the_roll():
    """A sure die whose box is far larger than the dice around it (a top seen with its side
    face) is marked whatever its probability; the other dice are judged without it."""
    plain = _calibration(roll_sure=0.99)
    calibration = Calibration(plain.die, plain.roll, TrustSettings(0.99, 0.8, max_size_ratio=1.3))
    probs = [0.99999] * 9 + [0.985]
    assert calibration.settings.oversized(1.5) and not calibration.settings.oversized(1.2)
    assert calibration.marked(probs, [True] + [False] * 9) == (True,) + (False,) * 8 + (True,)
    sure = [0.99999] * 10
    assert calibration.marked(sure) == (False,) * 10
    assert calibration.marked(sure, [False] * 4 + [True] + [False] * 5) == (
        (False,) * 4 + (True,) + (False,) * 5)
    assert not TrustSettings().oversized(5.0)  # no limit unless a calibration sets one


def test_a_die_whose_box_the_locator_doubts_is_marked_whatever_its_face():
    """A die read surely on a box the locator scored low (a die leaning on the tray's wall,
    its side face boxed) is marked with `min_locator_score` set, and leaves the roll; the
    same box is never doubted without that setting, nor a box scored at the limit."""
    plain = _calibration(roll_sure=0.99)
    settings = TrustSettings(0.99, 0.8, max_size_ratio=1.3, min_locator_score=0.85)
    calibration = Calibration(plain.die, plain.roll, settings)
    assert settings.box_doubted(1.0, 0.8) and not settings.box_doubted(1.0, 0.85)
    assert settings.box_doubted(1.5, 0.99)  # too large for its place, however scored
    assert not TrustSettings().box_doubted(1.5, 0.1)  # no limit unless a calibration sets one
    sure = [0.99999] * 10
    scores = [0.99] * 3 + [0.8] + [0.99] * 6
    doubted = [settings.box_doubted(1.0, score) for score in scores]
    assert calibration.marked(sure, doubted) == (False,) * 3 + (True,) + (False,) * 6
    assert calibration.marked(sure) == (False,) * 10


def test_a_long_box_larger_than_its_place_is_taken_for_two_faces_of_one_die():
    """`merged_aspect`: a box both long (shortest side under 0.8 of its longest) and larger
    than 1.2 times its place's side is a leaning die's top and side face boxed as one, and
    its die is marked; a long box of a die's size (a steep view foreshortens every top) or
    a square one a little large is not."""
    settings = TrustSettings(0.99, 0.8, max_size_ratio=1.3, merged_aspect=0.8,
                             merged_size_ratio=1.2)
    assert settings.merged(1.25, 0.7) and settings.box_doubted(1.25, 1.0, 0.7)
    assert not settings.box_doubted(1.0, 1.0, 0.6)  # foreshortened, a die's size
    assert not settings.box_doubted(1.25, 1.0, 0.95)  # square, a little large
    assert settings.box_doubted(1.4, 1.0, 0.95)  # too large for its place, whatever shape
    assert not TrustSettings(max_size_ratio=1.3).box_doubted(1.25, 1.0, 0.7)  # unless set


def test_a_calibration_round_trips_through_its_file(tmp_path):
    calibration = _calibration()
    settings = TrustSettings(0.99, 0.8, second_look_below=0.999, max_size_ratio=1.3,
                             min_locator_score=0.85, merged_aspect=0.8, merged_size_ratio=1.25)
    calibration = Calibration(calibration.die, calibration.roll, settings, "abc")
    calibration.save(tmp_path / "c.json")
    loaded = Calibration.load(tmp_path / "c.json", "abc")
    assert loaded is not None and loaded.settings == settings
    assert loaded.die_probability(DieEvidence(0.97, 1.0)) == pytest.approx(0.97, abs=1e-3)
    assert Calibration.load(tmp_path / "c.json", "another network") is None
    older = calibration.to_dict()  # a file from before the long boxes were marked
    del older["merged_aspect"], older["merged_size_ratio"]
    (tmp_path / "old.json").write_text(json.dumps(older))
    old = Calibration.load(tmp_path / "old.json", "abc")
    assert old is not None and old.settings.merged_aspect is None
    assert not old.settings.box_doubted(1.25, 1.0, 0.7)
    assert Calibration.load(tmp_path / "missing.json") is None


def test_fitted_weights_find_the_feature_that_tells_right_from_wrong():
    """Dice right or wrong by their network belief alone: the fit weighs it, not noise."""
    rng = np.random.default_rng(4)
    network = rng.uniform(0.3, 0.999, 4000)
    right = rng.random(4000) < network
    features = np.stack([DieEvidence(float(rng.uniform(0.9, 1)), 1.0, float(n)).features()
                         for n in network])
    weights = fit_weights(features, right)
    assert weights[2] > 0.5 and abs(weights[0]) < 0.5 * weights[2]


def test_a_die_the_classifier_did_not_favour_is_judged_by_its_own_map():
    """A face the frame's inks or the dice table chose over the classifier's own reading is
    right less often than its posterior says: with `overruled_below` set, such a die reads
    its probability from the `overruled` map; a die the classifier favoured, and every die
    of a calibration without that setting, from the plain map."""
    plain = _calibration()
    doubtful = MonotoneMap((-14.0, 0.0), (0.5, 0.85))  # flat from the posterior 0.5 on
    settings = TrustSettings(0.99, 0.8, overruled_below=0.2)
    calibration = Calibration(plain.die, plain.roll, settings, overruled=doubtful)
    favoured = DieEvidence(0.9999, 1.0, network_prob=0.97)
    chosen_over_it = DieEvidence(0.9999, 1.0, network_prob=0.05)
    assert calibration.is_overruled(chosen_over_it) and not calibration.is_overruled(favoured)
    assert calibration.die_probability(favoured) == pytest.approx(0.9999, abs=1e-4)
    assert calibration.die_probability(chosen_over_it) == pytest.approx(0.85)
    probs = [calibration.die_probability(favoured)] * 9 + [
        calibration.die_probability(chosen_over_it)]
    assert calibration.marked(probs) == (False,) * 9 + (True,)
    one_map = Calibration(plain.die, plain.roll, TrustSettings(0.99, 0.8), overruled=doubtful)
    assert not one_map.is_overruled(chosen_over_it)
    assert one_map.die_probability(chosen_over_it) == pytest.approx(0.9999, abs=1e-4)


def test_the_overruled_map_round_trips_through_the_file_and_older_files_load(tmp_path):
    plain = _calibration()
    settings = TrustSettings(0.99, 0.8, overruled_below=0.2)
    calibration = Calibration(plain.die, plain.roll, settings, "abc",
                              overruled=MonotoneMap((0.0, 5.0), (0.6, 0.9)))
    calibration.save(tmp_path / "c.json")
    loaded = Calibration.load(tmp_path / "c.json", "abc")
    assert loaded is not None and loaded.settings == settings
    assert loaded.overruled == calibration.overruled
    chosen_over_it = DieEvidence(0.97, 1.0, network_prob=0.1)
    assert loaded.die_probability(chosen_over_it) == calibration.die_probability(chosen_over_it)
    older = calibration.to_dict()
    del older["overruled"], older["overruled_below"]
    (tmp_path / "old.json").write_text(json.dumps(older))
    old = Calibration.load(tmp_path / "old.json", "abc")
    assert old is not None and old.overruled is None and old.settings.overruled_below is None


def _with_values(calibration: Calibration, roll_sure: float = 0.99) -> Calibration:
    """`calibration` with value maps like its face maps and a value threshold of its own."""
    return replace(calibration, value=ValueTrust(calibration.die, calibration.roll, roll_sure))


def test_a_die_doubted_for_its_colour_alone_keeps_a_sure_value():
    """Red against orange: the face's posterior is split between two colours of one value,
    so the face is marked, but the value's posterior (their sum) is sure."""
    calibration = _with_values(_calibration(roll_sure=0.99))
    evidence = [DieEvidence(0.9999, 1.0, value_confidence=0.9999)] * 9 + [
        DieEvidence(0.55, 1.0, value_confidence=0.9999)]
    faces = [calibration.die_probability(e) for e in evidence]
    values = [calibration.value.die_probability(e) for e in evidence]
    assert calibration.marked(faces) == (False,) * 9 + (True,)
    assert calibration.value_marked(values) == (False,) * 10
    assert calibration.value.roll_probability(values) > 0.99 > calibration.roll_probability(faces)


def test_a_roll_whose_values_are_under_the_threshold_has_its_least_sure_value_marked():
    calibration = _with_values(_calibration(roll_sure=0.9), roll_sure=0.99)
    values = [0.9999] * 8 + [0.995, 0.97]
    assert calibration.value.roll_probability(values) < 0.99
    assert calibration.value_marked(values) == (False,) * 9 + (True,)
    # A die under die_sure, or doubted for its box, is marked for its value too.
    assert calibration.value_marked([0.9999] * 9 + [0.7]) == (False,) * 9 + (True,)
    assert calibration.value_marked([0.9999] * 10, [True] + [False] * 9)[0]


def test_without_value_maps_no_value_is_judged_apart():
    calibration = _calibration()
    assert calibration.value is None
    assert calibration.value_marked([0.9999] * 10) is None
    # Older evidence with no value posterior reads the face's.
    assert DieEvidence(0.9, 1.0).value_score() == raw_score(0.9, 1.0)


def test_the_value_maps_round_trip_through_the_file_and_older_files_load(tmp_path):
    calibration = _with_values(_calibration(), roll_sure=0.97)
    calibration.save(tmp_path / "c.json")
    loaded = Calibration.load(tmp_path / "c.json")
    assert loaded is not None and loaded.value is not None
    assert loaded.value.roll_sure == 0.97
    assert loaded.value.die_probability(DieEvidence(0.5, 1.0, value_confidence=0.97)) == (
        pytest.approx(0.97, abs=1e-3))
    assert loaded.value.min_phase10_odds is None and not loaded.value.kind_doubted(-50.0)
    probed = _with_values(_calibration())
    probed = replace(probed, value=replace(probed.value, min_phase10_odds=-0.5))
    probed.save(tmp_path / "p.json")
    again = Calibration.load(tmp_path / "p.json")
    assert again is not None and again.value is not None
    assert again.value.kind_doubted(-0.6) and not again.value.kind_doubted(-0.4)
    assert not again.value.kind_doubted(None)  # no probe, no such doubt
    older = json.loads((tmp_path / "c.json").read_text())
    del older["value"]
    (tmp_path / "old.json").write_text(json.dumps(older))
    old = Calibration.load(tmp_path / "old.json")
    assert old is not None and old.value is None


#: Rolls of readings with a flag: half of them wrong once their dice's product falls
#: 0.00015 short of certainty, where a plain roll is right 99.985 % of the time.
FLAGGED_ROLL = MonotoneMap((-1.5e-4, -1e-4, 0.0), (0.5, 0.99, 0.999))


def test_a_flagged_reading_is_judged_by_the_flagged_rolls_map():
    """The dice table does not explain the roll, or the picture was soft: such rolls were
    wrong far more often than their dice's probabilities say, so the same sure dice leave
    the roll in doubt, and its least probable die is marked."""
    plain = _with_values(_calibration(roll_sure=0.99), roll_sure=0.99)
    calibration = replace(plain, flagged_roll=FLAGGED_ROLL,
                          value=replace(plain.value, flagged_roll=FLAGGED_ROLL))
    probs = [0.99999] * 9 + [0.9999]
    assert calibration.roll_probability(probs) > 0.99
    assert calibration.roll_probability(probs, flagged=True) == pytest.approx(0.5)
    assert calibration.marked(probs) == (False,) * 10
    assert calibration.marked(probs, flagged=True) == (False,) * 9 + (True,)
    assert calibration.value_marked(probs) == (False,) * 10
    assert calibration.value_marked(probs, flagged=True) == (False,) * 9 + (True,)
    assert calibration.value.roll_probability(probs, flagged=True) == pytest.approx(0.5)
    # Without a map of their own, flagged readings are judged as the others.
    assert plain.marked(probs, flagged=True) == (False,) * 10
    assert plain.roll_probability(probs, flagged=True) == plain.roll_probability(probs)


def test_the_flagged_rolls_maps_round_trip_through_the_file_and_older_files_load(tmp_path):
    plain = _with_values(_calibration(), roll_sure=0.97)
    calibration = replace(plain, flagged_roll=FLAGGED_ROLL,
                          value=replace(plain.value, flagged_roll=MonotoneMap((-1.0, 0.0),
                                                                              (0.2, 0.9))))
    calibration.save(tmp_path / "c.json")
    loaded = Calibration.load(tmp_path / "c.json")
    assert loaded is not None and loaded.value is not None
    assert loaded.flagged_roll == calibration.flagged_roll
    assert loaded.value.flagged_roll == calibration.value.flagged_roll
    older = calibration.to_dict()  # a file from before flagged rolls had maps of their own
    del older["flagged_roll"], older["value"]["flagged_roll"]
    (tmp_path / "old.json").write_text(json.dumps(older))
    old = Calibration.load(tmp_path / "old.json")
    assert old is not None and old.value is not None
    assert old.flagged_roll is None and old.value.flagged_roll is None
    assert old.roll_probability([0.999] * 10, flagged=True) == old.roll_probability([0.999] * 10)

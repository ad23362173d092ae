"""`benchmarks/calibrate.py --fit`: the roll threshold holds every slice within the target."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest
from benchmark_modules import load_benchmark
from hypothesis import given, settings
from hypothesis import strategies as st
from property_budget import examples

from scorer import get_phase
from vision.evaluation import share_upper_bound

calibrate = load_benchmark("calibrate")


def _records(rng: np.random.Generator, slices: dict[str, float], scenes: int):
    """Scenes of ten dice per slice; in each, a die is wrong with the slice's rate, and a
    wrong die's posterior is as high as a right one's half the time (a sure error)."""
    scene, confidence, right, names = [], [], [], []
    for key, wrong_rate in slices.items():
        for _ in range(scenes):
            index = len(names)
            names.append(key)
            wrong = rng.random() < wrong_rate
            for die in range(10):
                bad = wrong and die == 0
                sure = not bad or rng.random() < 0.5
                scene.append(index)
                confidence.append(rng.uniform(0.995, 0.9999) if sure else rng.uniform(0.6, 0.95))
                right.append(not bad)
    count = len(scene)
    return calibrate.Records(np.array(scene), np.array(confidence), np.ones(count),
                             np.array(right, bool), np.ones(len(names), bool), np.array(names))


def test_a_slice_that_goes_wrong_more_often_sets_the_threshold():
    rng = np.random.default_rng(3)
    records = _records(rng, {"held-out-light-upright": 0.004, "held-out-light-steep": 0.03}, 250)
    calibration = calibrate.fit(records, 0.004, 0.8, "")
    for key in ("held-out-light-upright", "held-out-light-steep"):
        scenes = np.flatnonzero(records.slices == key)
        figures = calibrate.simulate(calibrate.part(records, scenes), calibration)
        assert figures["rolls_sure_but_wrong"] <= 0.004, key
    pooled_only = calibrate.simulate(records, calibration)
    assert pooled_only["rolls_shown_sure"] > 0.0  # not every roll marked to get there


def test_a_part_of_the_records_keeps_its_scenes_dice_in_order():
    rng = np.random.default_rng(4)
    records = _records(rng, {"a": 0.1, "b": 0.1}, 5)
    second = calibrate.part(records, np.flatnonzero(records.slices == "b"))
    assert len(second.complete) == 5 and set(second.slices) == {"b"}
    assert np.array_equal(second.confidence, records.confidence[records.scene >= 5])
    assert second.scene.min() == 0 and second.scene.max() == 4


def test_records_read_apart_are_joined_scene_by_scene():
    rng = np.random.default_rng(5)
    first, second = _records(rng, {"a": 0.1}, 3), _records(rng, {"b": 0.1}, 4)
    both = calibrate.joined([first, second])
    assert len(both.complete) == 7 and list(both.slices) == ["a"] * 3 + ["b"] * 4
    again = calibrate.part(both, np.arange(3, 7))
    assert np.array_equal(again.scene, second.scene)
    assert np.array_equal(again.confidence, second.confidence)


def test_a_full_roll_with_a_box_off_its_die_is_shown_complete_and_counts_as_wrong():
    """A box on a die's side face instead of its top still shows the players ten dice: the
    records count the roll as shown complete (it can be shown as sure), with that die wrong,
    as the pipeline evaluation does; a roll with a die lost is not shown complete."""
    from dataclasses import replace

    from vision.read.pipeline import DiceReader
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    scene = render_scene(HELD_OUT_SEED_BASE + 1)
    reading = DiceReader().read(scene.image)
    right, all_found, _ = calibrate.die_outcomes(scene.dice, reading)
    assert calibrate.shown_complete(reading) and all_found and all(right)
    first = reading.dice[0]
    off = replace(first, centre=(first.centre[0] + 400, first.centre[1]),
                  corners=tuple((x + 400, y) for x, y in first.corners))
    moved = replace(reading, dice=(off, *reading.dice[1:]))
    right, all_found, faces = calibrate.die_outcomes(scene.dice, moved)
    assert calibrate.shown_complete(moved) and not all_found
    assert right.count(False) == 1 and faces.count("") == 1
    lost = replace(reading, dice=reading.dice[1:])
    assert not calibrate.shown_complete(lost)


def test_dice_the_classifier_did_not_favour_get_a_map_that_says_how_often_they_are_right():
    """Dice whose face the classifier believed little (chosen by the table or the inks) are
    right 70 % of the time at the same posterior as dice it favoured, right 99.9 %: fitted
    apart, each kind's probability matches its share right, and the roll threshold no
    longer has to carry the overruled dice's errors."""
    rng = np.random.default_rng(7)
    records = _records(rng, {"held-out-light-upright": 0.0, "held-out-light-steep": 0.0}, 300)
    count = len(records.confidence)
    records.confidence[:] = rng.uniform(0.995, 0.9999, count)
    overruled = rng.random(count) < 0.03
    records.right[:] = np.where(overruled, rng.random(count) < 0.7, rng.random(count) < 0.999)
    records.network_prob = np.where(overruled, 0.05, 0.98)
    apart = calibrate.fit(records, 0.004, 0.8, "", overruled_below=0.2)
    assert apart.overruled is not None and apart.settings.overruled_below == 0.2
    probs = calibrate.die_probabilities(records, apart)
    assert abs(probs[overruled].mean() - records.right[overruled].mean()) < 0.05
    assert abs(probs[~overruled].mean() - records.right[~overruled].mean()) < 0.005
    together = calibrate.fit(records, 0.004, 0.8, "")
    assert together.overruled is None
    assert calibrate.die_probabilities(records, together)[overruled].mean() > 0.95  # too sure
    assert (calibrate.simulate(records, apart)["rolls_shown_sure"]
            > calibrate.simulate(records, together)["rolls_shown_sure"])


def test_the_fit_s_quick_count_of_sure_rolls_is_the_marking_s_at_every_threshold():
    """`sure_at` tells, per scene, what `simulate` finds by marking the dice: a roll is shown
    as sure at a threshold exactly when it could be and its probability reaches it."""
    from vision.read.trust import Calibration, MonotoneMap, TrustSettings

    rng = np.random.default_rng(11)
    records = _records(rng, {"held-out-light-upright": 0.05, "held-out-dark-steep": 0.05}, 80)
    records.complete[rng.random(len(records.complete)) < 0.05] = False
    records.size_ratio = np.where(rng.random(len(records.scene)) < 0.01, 1.5, 1.0)
    records.locator_score = np.where(rng.random(len(records.scene)) < 0.01, 0.7, 0.99)
    die = MonotoneMap((0.0, 5.0, 10.0), (0.7, 0.99, 0.9999))
    roll = MonotoneMap((-1.0, -0.1, 0.0), (0.3, 0.9, 1.0))
    for threshold in (0.6, 0.9, 0.95, 0.99):
        settings = TrustSettings(threshold, 0.8, max_size_ratio=1.3, min_locator_score=0.85)
        calibration = Calibration(die, roll, settings)
        probs = calibrate.die_probabilities(records, calibration)
        eligible, roll_probability, all_right = calibrate.sure_at(records, calibration, probs)
        sure = eligible & (roll_probability >= threshold)
        figures = calibrate.simulate(records, calibration, probs)
        scenes = len(records.complete)
        assert sure.sum() == round(figures["rolls_shown_sure"] * scenes)
        assert (sure & ~all_right).sum() == round(figures["rolls_sure_but_wrong"] * scenes)
        assert figures["rolls_sure_but_wrong_at_most"] == pytest.approx(
            share_upper_bound(int((sure & ~all_right).sum()), scenes), abs=1e-5)


def test_scenes_with_their_dice_printed_otherwise_are_held_to_the_target_apart():
    """The same view read with every die of a colour printed alike (`--ink-spread 0`) is a
    view of its own: its sure-but-wrong rolls may not hide behind the renderer's draw."""
    rng = np.random.default_rng(6)
    drawn = _records(rng, {"held-out-light-steep": 0.004}, 250)
    alike = _records(rng, {"held-out-light-steep": 0.03}, 250)
    drawn.ink_spread = np.full(250, np.nan)
    alike.ink_spread = np.zeros(250)
    both = calibrate.joined([drawn, alike])
    assert set(calibrate.scene_views(both)) == {"steep", "steep printed 0"}
    calibration = calibrate.fit(both, 0.004, 0.8, "")
    again = calibrate.part(both, np.arange(250, 500))
    assert calibrate.simulate(again, calibration)["rolls_sure_but_wrong"] <= 0.004
    unlabelled = calibrate.joined([drawn, alike])
    unlabelled.ink_spread = None  # as records read before the print was kept
    pooled = calibrate.fit(unlabelled, 0.004, 0.8, "")
    assert pooled.settings.roll_sure < calibration.settings.roll_sure
    assert calibrate.simulate(again, pooled)["rolls_sure_but_wrong"] > 0.004
    report = calibrate.report(both, calibration)
    assert {"steep", "steep printed 0", "held-out-light-steep printed 0"} <= set(
        report["by_slice"])


def test_marking_the_boxes_the_locator_doubts_lets_more_rolls_be_sure():
    """Sure errors on boxes the locator scored low (a die leaning on the tray's wall): a fit
    that marks those dice (`min_locator_score`) need not raise the roll threshold to keep
    them out, so more rolls are shown as sure, each view still within the target."""
    rng = np.random.default_rng(12)
    records = _records(rng, {"held-out-dark-steep": 0.03}, 400)
    leaning = ~records.right & (records.confidence > 0.99)
    records.locator_score = np.where(leaning | (rng.random(len(records.scene)) < 0.005),
                                     0.7, 0.99)
    marking = calibrate.fit(records, 0.004, 0.8, "", min_locator_score=0.85)
    plain = calibrate.fit(records, 0.004, 0.8, "")
    assert marking.settings.min_locator_score == 0.85 and plain.settings.min_locator_score is None
    with_marks, without = (calibrate.simulate(records, c) for c in (marking, plain))
    assert with_marks["rolls_sure_but_wrong"] <= 0.004
    assert with_marks["rolls_shown_sure"] > without["rolls_shown_sure"] + 0.05


def _colour_torn_records(rng: np.random.Generator, scenes: int):
    """Steep and upright scenes of ten dice; in a tenth of them one die's colour is torn
    between two inks (its posterior low, the value's sure), and read wrong half the time;
    in a hundredth a die's value is read wrong, and doubted."""
    scene, confidence, value_confidence, read_as, truth, names = ([] for _ in range(6))
    for key in ("held-out-light-upright", "held-out-light-steep"):
        for _ in range(scenes):
            index = len(names)
            names.append(key)
            torn, misread = rng.random() < 0.1, rng.random() < 0.01
            for die in range(10):
                scene.append(index)
                true = "7R"
                read, posterior, value = "7R", rng.uniform(0.995, 0.9999), 0.9999
                if die == 0 and torn:
                    posterior = rng.uniform(0.5, 0.7)
                    read = "7O" if rng.random() < 0.5 else "7R"
                if die == 1 and misread:
                    read, posterior = "1R", rng.uniform(0.5, 0.7)
                    value = posterior
                confidence.append(posterior)
                value_confidence.append(value)
                read_as.append(read)
                truth.append(true)
    return _read_records(scene, confidence, value_confidence, read_as, truth, names)


def test_the_values_are_fitted_apart_and_a_colour_torn_roll_keeps_sure_values():
    rng = np.random.default_rng(11)
    records = _colour_torn_records(rng, 600)
    assert calibrate.value_right(records).sum() > records.right.sum()  # 7O for 7R: value right
    faces = calibrate.fit(records, 0.004, 0.8, "")
    values = calibrate.fit_values(records, faces, 0.004)
    both = replace(faces, value=values)
    face_figures = calibrate.simulate(records, faces)
    marking = calibrate.value_marking(records, both, values)
    value_figures = calibrate.simulate_values(records, both, marking, values.roll_sure)
    # The torn colours hold a tenth of the rolls back from sure, but not their values.
    assert face_figures["rolls_shown_sure"] < 0.92 < value_figures["rolls_shown_sure"]
    assert value_figures["rolls_sure_but_wrong"] <= 0.004
    saved = calibrate.Calibration.from_dict(both.to_dict())
    assert saved.value is not None and saved.value.roll_sure == values.roll_sure
    assert saved.value.die.values == pytest.approx(values.die.values, abs=1e-6)


def test_sure_but_wrong_rolls_with_a_die_on_no_true_die_are_counted_apart():
    """A roll shown as sure and wrong because a box lies where no true die is (a leaning
    die's side face) is the locator's error: the figures count it apart from the rolls
    whose faces were misread, for the faces and for the values alike."""
    rng = np.random.default_rng(14)
    records = _colour_torn_records(rng, 300)
    faces = calibrate.fit(records, 0.004, 0.8, "")
    values = calibrate.fit_values(records, faces, 0.004)
    both = replace(faces, value=values)
    # Three rolls read sure: the first die of each now lies on no true die.
    sure_scenes = [s for s, dice in enumerate(calibrate.dice_of_scenes(records))
                   if records.confidence[dice].min() > 0.995][:3]
    truth, right = records.truth.copy(), records.right.copy()
    for scene in sure_scenes:
        first = np.flatnonzero(records.scene == scene)[0]
        truth[first], right[first] = "", False
    off = replace(records, truth=truth, right=right)
    scenes = len(records.complete)
    before = calibrate.simulate(records, faces)
    after = calibrate.simulate(off, faces)
    assert after["rolls_sure_off_box"] - before["rolls_sure_off_box"] == pytest.approx(3 / scenes)
    assert (after["rolls_sure_but_wrong"] - before["rolls_sure_but_wrong"]
            == pytest.approx(3 / scenes))
    value_figures = calibrate.simulate_values(off, both, calibrate.value_marking(off, both,
                                                                                values),
                                              values.roll_sure)
    assert value_figures["rolls_sure_off_box"] == pytest.approx(3 / scenes)
    assert "rolls_sure_off_box" not in calibrate.simulate(replace(records, truth=None), faces)


def test_a_colour_doubt_the_probe_finds_unlike_a_phase_10_face_is_checked():
    rng = np.random.default_rng(13)
    records = _colour_torn_records(rng, 300)
    faces = calibrate.fit(records, 0.004, 0.8, "")
    values = calibrate.fit_values(records, faces, 0.004)
    both = replace(faces, value=values)
    plain = calibrate.simulate_values(records, both, calibrate.value_marking(records, both,
                                                                            values),
                                      values.roll_sure)
    # The probe finds every die a Phase 10 face but the torn ones, which it doubts.
    torn = records.confidence < 0.8
    odds = replace(records, phase10_odds=np.where(torn, -2.0, 5.0))
    strict = replace(values, min_phase10_odds=0.0)
    checked = calibrate.simulate_values(odds, replace(faces, value=strict),
                                        calibrate.value_marking(odds, faces, strict),
                                        values.roll_sure)
    # Every roll with a torn die is now checked (a few were already, for a misread too).
    lost = plain["rolls_shown_sure"] - checked["rolls_shown_sure"]
    share_torn = len(set(records.scene[torn])) / len(records.complete)
    assert 0.9 * share_torn <= lost <= share_torn
    assert checked["rolls_sure_but_wrong"] <= plain["rolls_sure_but_wrong"]


def test_records_without_faces_or_value_posteriors_are_refused_for_values():
    rng = np.random.default_rng(12)
    plain = _records(rng, {"a": 0.1}, 3)
    with pytest.raises(ValueError, match="read them again"):
        calibrate.as_values(plain)


def test_die_maps_cut_by_score_give_a_doubtful_die_the_odds_it_is_right_at():
    """A few doubtful dice spread over a wide range of posteriors: with `die_span` the die map
    follows their slope (a die at even odds is right about half the time), with equal counts
    alone they all share one probability."""
    rng = np.random.default_rng(11)
    records = _records(rng, {"held-out-light-upright": 0.0, "held-out-light-steep": 0.0}, 300)
    count = len(records.confidence)
    doubtful = rng.random(count) < 0.02
    posterior = np.where(doubtful, rng.uniform(0.05, 0.98, count), records.confidence)
    records.confidence[:] = posterior
    records.right[:] = np.where(doubtful, rng.random(count) < posterior, True)
    even = (doubtful & (posterior > 0.35) & (posterior < 0.65))
    confident = doubtful & (posterior > 0.9)
    equal_counts = calibrate.die_probabilities(records, calibrate.fit_maps(records))
    cut = calibrate.die_probabilities(records, calibrate.fit_maps(records, die_span=1.0))
    assert np.ptp(equal_counts[doubtful & (posterior < 0.65)]) == 0.0  # one knot for all
    assert abs(cut[even].mean() - records.right[even].mean()) < 0.1
    assert cut[confident].mean() - cut[even].mean() > 0.25


def test_a_fit_marks_the_long_large_boxes_it_is_told_to():
    """`--merged-aspect`: the fitted calibration carries the rule, and the benchmark marks
    exactly the dice whose box is both long and larger than its place (as the reader does)."""
    rng = np.random.default_rng(13)
    records = _records(rng, {"held-out-light-upright": 0.0, "held-out-light-steep": 0.0}, 40)
    count = len(records.confidence)
    records.aspect = np.full(count, 0.95)
    records.size_ratio = np.ones(count)
    records.aspect[[3, 17, 250]] = [0.7, 0.7, 0.95]
    records.size_ratio[[3, 17, 250]] = [1.25, 1.0, 1.25]  # long and large; long; large
    fitted = calibrate.fit(records, 0.004, 0.8, "", max_size_ratio=1.3, merged_aspect=0.8)
    assert fitted.settings.merged_aspect == 0.8
    assert fitted.settings.merged_size_ratio == calibrate.MERGED_SIZE_RATIO
    doubted = calibrate.doubted_boxes(records, fitted)
    assert np.flatnonzero(doubted).tolist() == [3]
    plain = calibrate.fit(records, 0.004, 0.8, "", max_size_ratio=1.3)
    assert not calibrate.doubted_boxes(records, plain).any()


def test_rolls_read_with_a_flag_get_a_roll_map_that_says_how_often_they_are_right():
    """Readings with a flag (the dice table does not explain the roll, a soft picture) are
    wrong one time in five at the same dice probabilities as unflagged ones, wrong one time
    in 250: fitted apart, each kind's roll probability matches its share right, and the
    fit's quick count of sure rolls still agrees with the marking."""
    rng = np.random.default_rng(12)
    records = _records(rng, {"held-out-light-upright": 0.0, "held-out-light-steep": 0.0}, 600)
    scenes = len(records.complete)
    records.flagged = rng.random(scenes) < 0.25
    records.confidence[:] = rng.uniform(0.995, 0.9999, len(records.confidence))
    wrong_scene = rng.random(scenes) < np.where(records.flagged, 0.2, 0.004)
    first_die = np.r_[True, records.scene[1:] != records.scene[:-1]]
    records.right[:] = ~(wrong_scene[records.scene] & first_die)
    apart = calibrate.fit(records, 0.004, 0.8, "")
    together = calibrate.fit(records, 0.004, 0.8, "", flagged_apart=False)
    assert apart.flagged_roll is not None and together.flagged_roll is None
    for calibration, flagged_too_sure in ((apart, False), (together, True)):
        probs = calibrate.die_probabilities(records, calibration)
        eligible, roll, all_right = calibrate.sure_at(records, calibration, probs)
        flagged = records.flagged
        gap = roll[flagged].mean() - all_right[flagged].mean()
        assert (gap > 0.1) == flagged_too_sure
        assert abs(roll[~flagged].mean() - all_right[~flagged].mean()) < 0.01 or flagged_too_sure
        sure = eligible & (roll >= calibration.settings.roll_sure)
        figures = calibrate.simulate(records, calibration, probs)
        assert sure.sum() == round(figures["rolls_shown_sure"] * scenes)
    assert abs(calibrate.die_probabilities(records, apart).mean()
               - calibrate.die_probabilities(records, together).mean()) < 1e-9  # dice alike
    assert (calibrate.simulate(records, apart)["rolls_shown_sure"]
            > calibrate.simulate(records, together)["rolls_shown_sure"])


def _rolls_with_a_torn_red(rng: np.random.Generator, faces: str, scenes: int):
    """Scenes of the roll `faces` (its first die red), light and upright: in a tenth of them
    the first die is torn between red and orange (its posterior low, its value sure) and
    read orange half the time."""
    true_faces = faces.split()
    scene, confidence, value_confidence, read_as, truth = ([] for _ in range(5))
    for index in range(scenes):
        torn = rng.random() < 0.1
        for die, true in enumerate(true_faces):
            read, posterior = true, rng.uniform(0.995, 0.9999)
            if die == 0 and torn:
                posterior = rng.uniform(0.5, 0.7)
                read = true[:-1] + "O" if rng.random() < 0.5 else true
            scene.append(index)
            confidence.append(posterior)
            value_confidence.append(0.9999)
            read_as.append(read)
            truth.append(true)
    return _read_records(scene, confidence, value_confidence, read_as, truth,
                         ["held-out-light-upright"] * scenes)


def _read_records(scene, confidence, value_confidence, read_as, truth, slices):
    """Records of the dice read as listed (each right where read as its true face), every
    scene of `slices` shown complete."""
    read_as, truth = np.array(read_as), np.array(truth)
    return calibrate.Records(
        np.array(scene), np.array(confidence), np.ones(len(scene)), read_as == truth,
        np.ones(len(slices), bool), np.array(slices), read_as=read_as, truth=truth,
        value_confidence=np.array(value_confidence))


@pytest.mark.parametrize(("faces", "checked"), [
    ("5R 6G 7R 8O 9G 10G 1B 2B 3R 4R", False),  # four reds, one orange: never seven
    ("5R 6R 7R 8R 9R 10G 1R 2G 3R 3B", True),  # seven reds: the first as orange, six
])
def test_phase_8_checks_a_colour_doubt_only_where_a_colour_changes_its_score(faces, checked):
    rng = np.random.default_rng(17)
    records = _rolls_with_a_torn_red(rng, faces, 400)
    calibration = calibrate.fit(records, 0.004, 0.8, "")
    both = replace(calibration, value=calibrate.fit_values(records, calibration, 0.004))
    assert both.value is not None
    marking = calibrate.value_marking(records, both, both.value)
    as_faces = calibrate.simulate(records, both)
    colour_phase = calibrate.simulate_pad(records, both, marking, both.value.roll_sure,
                                          get_phase(8))
    torn = len(set(records.scene[records.confidence < 0.8])) / len(records.complete)
    assert as_faces["rolls_shown_sure"] <= 1 - torn  # every torn roll marked, and a few more
    if checked:  # every die's colour could change the score: the face's marks stand
        assert colour_phase == {"rolls_shown_sure": as_faces["rolls_shown_sure"],
                                "rolls_sure_but_wrong": as_faces["rolls_sure_but_wrong"],
                                "dice_right_not_asked": as_faces["dice_right_unmarked"]}
    else:  # shown as sure, and right: red or orange, the roll misses phase 8 alike
        assert colour_phase == {"rolls_shown_sure": 1.0, "rolls_sure_but_wrong": 0.0,
                                "dice_right_not_asked": records.right.mean()}


def test_phase_8_tries_only_the_likely_colours_of_a_colour_doubt_where_the_reader_tells():
    """Seven blues and a 2 torn between red and orange: as either, 46 points; as blue it
    would score 47, so untold the torn die is checked, told (the other of red and
    orange) it is not; dice told to show any face ("*") are checked as untold."""
    rng = np.random.default_rng(23)
    records = _rolls_with_a_torn_red(rng, "2R 5B 6B 7B 8B 9B 10B 1B 3G WG", 200)
    torn = records.confidence < 0.8
    other = np.array([face[:-1] + ("O" if face.endswith("R") else "R")
                      for face in records.read_as])
    told = replace(records, likely=np.where(torn, other, ""))
    calibration = calibrate.fit(told, 0.004, 0.8, "")
    both = replace(calibration, value=calibrate.fit_values(told, calibration, 0.004))
    assert both.value is not None
    marking = calibrate.value_marking(told, both, both.value)
    phase_8 = get_phase(8)
    as_told = calibrate.simulate_pad(told, both, marking, both.value.roll_sure, phase_8)
    assert (as_told["rolls_shown_sure"], as_told["rolls_sure_but_wrong"]) == (1.0, 0.0)
    untold = calibrate.simulate_pad(told, both, marking, both.value.roll_sure, phase_8,
                                    narrow=False)
    torn_rolls = len(set(records.scene[torn])) / len(records.complete)
    assert untold["rolls_shown_sure"] <= 1 - torn_rolls
    any_face = replace(told, likely=np.full(len(torn), calibrate.ANY_FACE))
    assert calibrate.simulate_pad(any_face, both, marking, both.value.roll_sure,
                                  phase_8) == untold


def test_a_roll_with_a_box_off_its_die_is_judged_by_its_true_roll_when_kept():
    """A box on a leaning die's side face matches no true die: without the scene's true roll
    the roll counts as taken wrong; with it, as right when its score is the true one's."""
    rng = np.random.default_rng(19)
    faces = "5R 6G 7R 8O 9G 10G 1B 2B 3R 4R"
    records = _rolls_with_a_torn_red(rng, faces, 100)
    calibration = calibrate.fit(records, 0.004, 0.8, "")
    both = replace(calibration, value=calibrate.fit_values(records, calibration, 0.004))
    assert both.value is not None
    marking = calibrate.value_marking(records, both, both.value)
    run_of_7 = get_phase(4)  # 4 to 10: made for 49 points whatever the torn red's colour
    sure = calibrate.simulate_pad(records, both, marking, both.value.roll_sure, run_of_7)
    assert (sure["rolls_shown_sure"], sure["rolls_sure_but_wrong"]) == (1.0, 0.0)
    truth = records.truth.copy()
    truth[np.arange(10) * 10] = ""  # the first die of the first ten scenes: off its box
    off = replace(records, truth=truth)
    judged_apart = calibrate.simulate_pad(off, both, marking, both.value.roll_sure, run_of_7)
    assert (judged_apart["rolls_shown_sure"], judged_apart["rolls_sure_but_wrong"]) == (1.0, 0.1)
    kept = calibrate.simulate_pad(replace(off, true_roll=np.array([faces] * 100)), both,
                                  marking, both.value.roll_sure, run_of_7)
    assert (kept["rolls_shown_sure"], kept["rolls_sure_but_wrong"]) == (1.0, 0.0)


def test_the_records_keep_each_scenes_true_roll_and_each_dies_likely_faces(
        tmp_path):
    from vision.read.pipeline import DiceReader
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    scenes = [render_scene(HELD_OUT_SEED_BASE + n) for n in (1, 2)]
    reader = DiceReader()
    records = calibrate.read_records(reader, [("held-out-light-upright", s) for s in scenes])
    expected = [" ".join(str(die.die) for die in scene.dice) for scene in scenes]
    assert list(records.true_roll) == expected
    likely = [calibrate.ANY_FACE if die.likely is None
              else " ".join(str(face) for face in die.likely)
              for scene in scenes for die in reader.read(scene.image).dice]
    assert list(records.likely) == likely
    records.save(tmp_path / "r.npz")
    again = calibrate.Records.load(tmp_path / "r.npz")
    assert list(calibrate.part(again, np.array([1])).true_roll) == expected[1:]


def test_the_views_asked_are_drawn_in_turn_each_in_both_groups(monkeypatch):
    """`--views aside`: only the phone held at the tray's side, light then dark, the seeds
    in turn from the first; the default draws every view, upright and steep first, so
    their seeds are those they always had."""
    from vision.evaluation import ASIDE_VIEW, STEEP_VIEW

    drawn = []
    monkeypatch.setattr(calibrate, "evaluation_scene",
                        lambda seed, look, steep, ink_spread: drawn.append((seed, steep)))
    slices = [key for key, _ in calibrate.drawn_scenes(100, 2, views=["aside"])]
    assert slices == ["held-out-light-aside"] * 2 + ["held-out-dark-aside"] * 2
    assert drawn == [(100, ASIDE_VIEW), (101, ASIDE_VIEW), (102, ASIDE_VIEW),
                     (103, ASIDE_VIEW)]
    drawn.clear()
    slices = [key for key, _ in calibrate.drawn_scenes(100, 1)]
    assert slices == ["held-out-light-upright", "held-out-dark-upright",
                      "held-out-light-steep", "held-out-dark-steep",
                      "held-out-light-aside", "held-out-dark-aside"]
    assert [steep for _, steep in drawn] == [None, None, STEEP_VIEW, STEEP_VIEW,
                                             ASIDE_VIEW, ASIDE_VIEW]
    assert calibrate.view_of("held-out-dark-aside") == "aside"


def test_the_scorepad_asks_for_faces_the_dice_cannot_show_in_every_phase():
    """A roll read with faces the printed dice cannot show together (two 5O, which one die
    carries) is never taken without a check, as the scorepad asks for it (`web.service`):
    here no die is marked for doubt, and only those rolls are asked for, in a phase where
    the misread colour changes nothing (1) as in the colour phase (8)."""
    possible = "1B 2B 3R 4R 5R 6R 7R 8B 9R 10O".split()
    misread = "1B 2B 3R 4R 5O 6R 5O 8B 9R 10O".split()  # H1's 5R read as H3's 5O
    rng = np.random.default_rng(6)
    scenes = 300
    rolls = [misread if rng.random() < 0.1 else possible for _ in range(scenes)]
    records = _read_records(
        np.repeat(np.arange(scenes), 10), rng.uniform(0.995, 0.9999, scenes * 10),
        np.full(scenes * 10, 0.9999), [face for roll in rolls for face in roll],
        possible * scenes, ["held-out-light-upright"] * scenes)
    plain = calibrate.fit(records, 0.004, 0.8, "")
    lenient = replace(plain, settings=replace(plain.settings, roll_sure=0.5))
    both = replace(lenient, value=calibrate.fit_values(records, lenient, 0.004))
    assert both.value is not None
    marking = calibrate.value_marking(records, both, both.value)
    assert not any(marks.any() for marks in marking.face_marks)
    share_misread = sum(roll is misread for roll in rolls) / scenes
    assert 0.05 < share_misread < 0.15
    for phase in (get_phase(1), get_phase(8)):
        figures = calibrate.simulate_pad(records, both, marking, 0.5, phase)
        assert figures["rolls_sure_but_wrong"] == 0.0
        assert figures["rolls_shown_sure"] == pytest.approx(1 - share_misread)


def test_rolls_read_right_but_held_back_are_counted_by_what_their_marked_dice_doubt():
    """A roll read all right with a die torn between red and orange, one with a die torn
    between two values, one with a die doubted as a face at all, and one shown as sure: the
    first three are held back, each under its doubt; a roll read wrong is not counted."""
    faces = "5R 6G 7R 8O 9G 10G 1B 2B 3R 4R".split()
    doubts = {  # scene -> (die, posterior, face belief, runner-up)
        0: (0, 0.6, 1.0, "5O"),
        1: (3, 0.6, 1.0, "3O"),
        2: (5, 0.9999, 0.5, "10B"),
        4: (0, 0.6, 1.0, "5R"),  # this scene reads its die 5O, wrong (below)
    }
    scene, confidence, face_prob, read_as, truth, runner_up = ([] for _ in range(6))
    for index in range(5):
        for die, true in enumerate(faces):
            doubt = doubts.get(index)
            posterior, belief, rival = 0.9999, 1.0, ""
            if doubt is not None and doubt[0] == die:
                posterior, belief, rival = doubt[1:]
            scene.append(index)
            confidence.append(posterior)
            face_prob.append(belief)
            read_as.append("5O" if index == 4 and die == 0 else true)
            truth.append(true)
            runner_up.append(rival)
    read_as, truth = np.array(read_as), np.array(truth)
    records = calibrate.Records(
        np.array(scene), np.array(confidence), np.array(face_prob), read_as == truth,
        np.ones(5, bool), np.array(["held-out-light-upright"] * 5), read_as=read_as,
        truth=truth, runner_up=np.array(runner_up))
    calibration = calibrate.fit(records, 0.5, 0.8, "")
    held = calibrate.held_back(records, calibration)
    assert held == {calibrate.FACE_BELIEF: 0.2, "orange or red": 0.2,
                    calibrate.VALUE_DOUBT: 0.2}


def _mapped_calibration(roll_sure: float):
    from vision.read.trust import Calibration, MonotoneMap, TrustSettings

    die = MonotoneMap((0.0, 5.0, 10.0), (0.7, 0.99, 0.9999))
    roll = MonotoneMap((-1.0, -0.1, 0.0), (0.3, 0.9, 1.0))
    return Calibration(die, roll, TrustSettings(roll_sure, 0.8))


def test_read_again_at_its_own_threshold_the_marking_is_the_report_s():
    """`--at-roll-sure`: at the calibration's own threshold the row is the report's marking,
    and the slice it names is the one whose rolls are most often sure but wrong."""
    rng = np.random.default_rng(21)
    records = _records(rng, {"held-out-light-upright": 0.02, "held-out-dark-steep": 0.08}, 120)
    calibration = _mapped_calibration(0.9)
    (row,) = calibrate.at_roll_thresholds(records, calibration, [0.9])
    reported = calibrate.report(records, calibration)
    for key, share in reported["marking"].items():
        assert row[key] == share, key
    slices = {key: figures["rolls_sure_but_wrong"] for key, figures in reported["by_slice"].items()
              if key in ("held-out-light-upright", "held-out-dark-steep")}
    assert row["worst_slice"] == max(slices, key=slices.get)
    assert row["worst_slice_sure_but_wrong"] == max(slices.values())
    assert slices["held-out-dark-steep"] > slices["held-out-light-upright"]


@given(thresholds=st.lists(st.floats(0.5, 1.0), min_size=2, max_size=5, unique=True),
       seed=st.integers(0, 1000))
@settings(max_examples=examples(15), deadline=None)
def test_a_higher_roll_threshold_never_shows_more_rolls_as_sure_nor_more_wrong(thresholds, seed):
    rng = np.random.default_rng(seed)
    records = _records(rng, {"held-out-light-upright": 0.05, "held-out-light-steep": 0.1}, 40)
    rows = calibrate.at_roll_thresholds(records, _mapped_calibration(0.9), sorted(thresholds))
    for lower, higher in itertools.pairwise(rows):
        assert higher["rolls_shown_sure"] <= lower["rolls_shown_sure"]
        assert higher["rolls_sure_but_wrong"] <= lower["rolls_sure_but_wrong"]
        assert higher["dice_right_unmarked"] <= lower["dice_right_unmarked"]


@pytest.mark.parametrize("threshold", ["0", "1.5", "-0.2"])
def test_a_threshold_that_is_no_probability_is_refused(threshold, capsys):
    with pytest.raises(SystemExit):
        calibrate.main(["--records", "none.npz", "--at-roll-sure", "0.9", threshold])
    assert "--at-roll-sure" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["kept.json", "kept", "kept.npz.bak"])
def test_a_records_file_not_named_npz_is_refused_before_anything_is_read(name, tmp_path, capsys):
    # numpy would save it as NAME.npz, and the next run, given NAME, would read it all again.
    with pytest.raises(SystemExit) as stopped:
        calibrate.main(["--records", str(tmp_path / name), "--scenes", "1"])
    assert stopped.value.code == 2
    assert "name the file with .npz" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []

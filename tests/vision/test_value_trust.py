"""The values judged apart from the colours: a die doubted for its colour alone keeps a
sure value, which a phase that does not count colour needs no check of."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.read.decode import decode
from vision.read.trust import Calibration, MonotoneMap, TrustSettings, ValueTrust

pytestmark = pytest.mark.slow

ALWAYS = MonotoneMap((0.0,), (0.999999,))
"""A map that finds every die (or roll) all but certain."""
NEVER = MonotoneMap((0.0,), (0.5,))
"""A map that finds every die (or roll) a coin toss."""


def _reading(face: MonotoneMap, value: MonotoneMap, min_phase10_odds: float | None = None):
    from vision.read.pipeline import DiceReader
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    calibration = Calibration(face, face, TrustSettings(roll_sure=0.99, die_sure=0.8),
                              value=ValueTrust(value, value, 0.99, min_phase10_odds))
    scene = render_scene(HELD_OUT_SEED_BASE + 4)
    probe = min_phase10_odds is not None  # the probe's odds only where they are asked for
    return DiceReader(calibration=calibration, face_probe=probe).read(scene.image)


def test_faces_in_doubt_with_sure_values_leave_the_values_sure():
    reading = _reading(face=NEVER, value=ALWAYS)
    assert len(reading.dice) == 10
    assert all(die.unsure for die in reading.dice) and not reading.is_complete()
    assert not any(die.value_unsure for die in reading.dice)
    assert reading.value_unsure_indices() == () and reading.values_complete()
    assert reading.value_probability == pytest.approx(0.999999)
    assert reading.to_dict()["value_probability"] == 1.0


def test_values_are_checked_only_on_dice_whose_face_is_in_doubt():
    """A value read wrong is a face read wrong: where the face's marks leave every die
    sure, no value needs a check; where every face and every value is doubted, all do."""
    reading = _reading(face=ALWAYS, value=NEVER)
    assert not any(die.unsure or die.value_unsure for die in reading.dice)
    assert reading.is_complete() and reading.values_complete()
    doubted = _reading(face=NEVER, value=NEVER)
    assert all(die.unsure and die.value_unsure for die in doubted.dice)
    assert doubted.value_unsure_indices() == tuple(range(10))
    assert not doubted.values_complete()


def test_a_colour_doubt_needs_the_probe_to_find_a_phase_10_face():
    """Another die's numeral with a doubtful ink is checked in every phase: a die marked
    for its face is doubted for its colour alone only at the probe's odds asked or more."""
    trusted = _reading(face=NEVER, value=ALWAYS, min_phase10_odds=-1e6)
    assert all(die.phase10_odds is not None for die in trusted.dice)
    assert trusted.value_unsure_indices() == () and trusted.values_complete()
    doubted = _reading(face=NEVER, value=ALWAYS, min_phase10_odds=1e6)
    assert doubted.value_unsure_indices() == tuple(range(10))
    odds = sorted(die.phase10_odds for die in trusted.dice)
    middle = _reading(face=NEVER, value=ALWAYS, min_phase10_odds=odds[4] + 1e-6)
    assert len(middle.value_unsure_indices()) == 5  # the five the probe finds least alike


def test_without_value_maps_every_doubt_is_a_value_s():
    from vision.read.pipeline import DiceReader
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    calibration = Calibration(NEVER, NEVER, TrustSettings(roll_sure=0.99, die_sure=0.8))
    scene = render_scene(HELD_OUT_SEED_BASE + 4)
    reading = DiceReader(calibration=calibration, face_probe=False).read(scene.image)
    assert all(die.unsure and die.value_unsure is None for die in reading.dice)
    assert reading.value_unsure_indices() == tuple(range(10))
    assert reading.value_probability is None


def test_a_value_s_posterior_sums_its_colours_and_is_never_under_the_face_s():
    rng = np.random.default_rng(7)
    values = rng.dirichlet(np.full(11, 0.3), size=10).astype(np.float32)
    colours = rng.dirichlet(np.full(4, 0.3), size=10).astype(np.float32)
    for face in decode(values, colours, use_inventory=False).faces:
        assert face.value_confidence is not None
        assert face.confidence - 1e-6 <= face.value_confidence <= 1.0
    # One value, two colours near even: the face is doubtful, the value is not.
    split = np.zeros((1, 11), np.float32)
    split[0, 6] = 1.0  # a 7
    torn = np.array([[0.5, 0.5, 0.0, 0.0]], np.float32)  # red or orange
    face = decode(split, torn, use_inventory=False).faces[0]
    assert face.die.value == 7 and face.confidence < 0.6
    assert face.value_confidence == pytest.approx(1.0, abs=1e-3)


def test_a_flagged_reading_is_judged_by_the_flagged_rolls_maps():
    """The same tray out of focus reads flagged: its roll is judged by the flagged rolls'
    maps (here a coin toss, so every die is checked, face and value), the sharp one by the
    plain maps (every die sure)."""
    from pathlib import Path

    import cv2

    from vision.read.pipeline import DiceReader
    from vision.reading import ReadingFlag

    calibration = Calibration(ALWAYS, ALWAYS, TrustSettings(roll_sure=0.99, die_sure=0.8),
                              value=ValueTrust(ALWAYS, ALWAYS, 0.99, flagged_roll=NEVER),
                              flagged_roll=NEVER)
    reader = DiceReader(calibration=calibration, face_probe=False)
    # A tray of the second renderer's, kept as a picture for the focus tests.
    image = cv2.imread(str(Path(__file__).parents[1] / "data" / "focus" / "soft_focus_tray.jpg"))
    sharp = reader.read(image)
    assert not sharp.flags and len(sharp.dice) == 10
    assert sharp.is_complete() and sharp.values_complete()
    assert sharp.roll_probability == pytest.approx(0.999999)
    soft = reader.read(cv2.GaussianBlur(image, (0, 0), 2.2))
    assert soft.has_flag(ReadingFlag.SOFT_FOCUS) and len(soft.dice) == 10
    assert all(die.unsure and die.value_unsure for die in soft.dice)
    assert soft.roll_probability == pytest.approx(0.5)
    assert soft.value_probability == pytest.approx(0.5)


def test_a_doubted_die_keeps_its_likely_faces_only_where_its_posterior_tells_them():
    """The faces a die may show are told by its posterior only where the posterior itself
    doubts what is in doubt: the value for a value doubt, the face for a colour doubt; a
    die doubted for its box, its kind or a faint face may show any face."""
    from scorer.dice import Die
    from vision.read.pipeline import likely_told
    from vision.read.settings import DecodeSettings
    from vision.reading import ReadDie

    settings = DecodeSettings(likely_below=0.999)
    three = (Die.from_text("3R"),)
    torn = ReadDie(Die.from_text("5R"), 0.6, (0.0, 0.0), (), True, likely=three,
                   value_confidence=0.6, value_unsure=True)
    assert likely_told(torn, False, settings).likely == three
    assert likely_told(torn, True, settings).likely is None  # its box or kind doubted
    # read as surely as dice read wrong: the posterior cannot tell
    sure_value = ReadDie(Die.from_text("5R"), 0.9995, (0.0, 0.0), (), True, likely=three,
                         value_confidence=0.9999, value_unsure=True)
    assert likely_told(sure_value, False, settings).likely is None
    # a colour doubt is told by the face's posterior, the value's being sure
    red_or_orange = ReadDie(Die.from_text("5R"), 0.7, (0.0, 0.0), (), True,
                            likely=(Die.from_text("5O"),), value_confidence=0.99995,
                            value_unsure=False)
    assert likely_told(red_or_orange, False, settings).likely == (Die.from_text("5O"),)
    assert likely_told(replace(red_or_orange, value_unsure=True), False, settings).likely is None

"""The classifier's heads fitted to a profile: they move where the network is wrong on the
user's dice, and stay put where it is right."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from scorer import Die
from vision.profile.profile import DiceProfile, ProfileMatcher
from vision.profile.profile_heads import (
    HeadCorrection,
    ProfileHeads,
    fit_correction,
    fit_profile_heads,
)
from vision.profile.settings import HeadsSettings
from vision.profile.teach import use_profile
from vision.read.decode import FACES
from vision.read.labels import colour_index, value_index
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.read.pipeline import DiceReader
from vision.read.vectors import unit_rows
from vision.synth.seeds import HELD_OUT_SEED_BASE
from vision.synth.training import render_face_crops


def _clusters(seed: int = 0, per: int = 40, dimensions: int = 16):
    """Two tight clusters of unit features, A around one direction and B another."""
    rng = np.random.default_rng(seed)
    centres = np.eye(dimensions)[:2]
    features = np.concatenate([c + 0.05 * rng.normal(size=(per, dimensions)) for c in centres])
    return unit_rows(features).astype(np.float64), per


def _log_probs(rows: np.ndarray) -> np.ndarray:
    return np.log(rows / rows.sum(axis=1, keepdims=True))


def test_the_heads_settings_passed_in_are_the_ones_fitted_by():
    features, per = _clusters()
    base = _log_probs(np.tile([0.8, 0.15, 0.05], (2 * per, 1)))
    labels = np.array([0] * per + [1] * per)
    assert not fit_correction(features, base, labels, HeadsSettings(steps=0)).weights.any()
    short = fit_correction(features, base, labels, HeadsSettings(steps=30)).weights
    assert 0 < np.abs(short).max() < np.abs(fit_correction(features, base, labels).weights).max()


def test_a_correction_moves_the_faces_the_network_misreads_and_only_those():
    """The network reads cluster B as class 0 (the set's 3 looks like its 5); the user's
    examples say class 1. After fitting, B reads 1 and A still reads 0."""
    features, per = _clusters()
    base = _log_probs(np.tile([0.8, 0.15, 0.05], (2 * per, 1)))
    labels = np.array([0] * per + [1] * per)
    correction = fit_correction(features, base, labels)
    corrected = base + correction.logits(features)
    assert (corrected[:per].argmax(axis=1) == 0).all()
    assert (corrected[per:].argmax(axis=1) == 1).all()
    probs = np.exp(corrected - corrected.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    assert (probs[:per, 0] >= 0.8).all()  # A was read right: no less sure than before


def test_where_the_network_is_right_the_correction_stays_small():
    """Examples the network already reads right (at 0.98) only firm it up a little."""
    features, per = _clusters(seed=1)
    labels = np.array([0] * per + [1] * per)
    sure = _log_probs(np.where(np.eye(3)[labels] > 0, 0.98, 0.01))
    correction = fit_correction(features, sure, labels).logits(features)
    assert ((sure + correction).argmax(axis=1) == labels).all()
    assert np.abs(correction).max() < 1.0


def test_a_value_correction_applies_to_every_colour_and_a_colour_one_to_every_value():
    dimensions, values, colours = 6, len(VALUE_LABELS), len(COLOUR_LABELS)
    value = HeadCorrection(np.zeros((dimensions, values)), np.zeros(values))
    colour = HeadCorrection(np.zeros((dimensions, colours)), np.zeros(colours))
    value.bias[value_index(Die(3, "R"))] = 2.0
    colour.bias[colour_index(Die(3, "O"))] = 1.0
    evidence = ProfileHeads(value, colour).evidence(np.ones((1, dimensions)) / dimensions**0.5)
    by_face = dict(zip(FACES, evidence[0], strict=True))
    assert by_face[Die(3, "R")] == by_face[Die(3, "B")] == 2.0
    assert by_face[Die(3, "O")] == 3.0
    assert by_face[Die(8, "O")] == 1.0 and by_face[Die(8, "G")] == 0.0


def test_a_class_no_example_shows_keeps_no_correction():
    """Examples of classes 0 and 1 say nothing of class 2: its column stays zero, so a die
    of that class is read as the network reads it."""
    features, per = _clusters(seed=2)
    base = _log_probs(np.tile([0.8, 0.15, 0.05], (2 * per, 1)))
    labels = np.array([0] * per + [1] * per)
    correction = fit_correction(features, base, labels)
    assert np.abs(correction.weights[:, :2]).max() > 0.1  # it did fit the shown classes
    assert not correction.weights[:, 2].any() and correction.bias[2] == 0.0


def test_examples_of_one_class_give_no_correction():
    """Three corrected orange dice, and nothing else: no class has been told from another,
    so every die reads as before rather than more orange."""
    features, _ = _clusters(seed=3, per=3)
    base = _log_probs(np.tile([0.5, 0.3, 0.2], (len(features), 1)))
    correction = fit_correction(features, base, np.full(len(features), 1))
    assert not correction.weights.any() and not correction.bias.any()
    assert not fit_correction(np.zeros((0, 4)), np.zeros((0, 3)), np.zeros(0, int)).bias.any()


def test_labels_outside_the_classes_are_refused():
    with pytest.raises(ValueError, match="labels must be classes 0 to 2"):
        fit_correction(np.zeros((2, 4)), np.zeros((2, 3)), np.array([0, 3]))


def test_mismatched_inputs_are_refused():
    with pytest.raises(ValueError, match="3 features, 2 base rows and 2 labels"):
        fit_correction(np.zeros((3, 4)), np.zeros((2, 5)), np.zeros(2, int))


def _taught(classifier, crops: np.ndarray, values: np.ndarray, colours: np.ndarray):
    """A profile of `crops` confirmed as the faces of `values` and `colours` (class indices)."""
    dice = [Die(VALUE_LABELS[v], COLOUR_LABELS[c]) for v, c in zip(values, colours, strict=True)]
    return DiceProfile.empty().add(crops, dice, classifier.describe(crops, 1), classifier.sha256)


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(threads=1)


def _hue_turned(crop: np.ndarray, turn: int) -> np.ndarray:
    """`crop` with every hue turned by `turn` OpenCV hue steps (2 degrees each)."""
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).astype(np.int64)
    hsv[..., 0] = (hsv[..., 0] + turn) % 180
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


def test_a_household_whose_ink_the_network_misreads_is_read_its_way_once_taught(reader):
    """A set printed in a teal green (the held-out crops' greens turned 60 degrees towards
    blue), which the network reads blue: taught four of its greens among 30 faces (blues
    among them), the heads read most of the next greens green (few before), the blues
    still blue and every other face as before."""
    crops, values, colours, faces = render_face_crops(HELD_OUT_SEED_BASE + 8_800, 160)
    crops, values, colours = crops[faces], values[faces], colours[faces]
    green, blue = COLOUR_LABELS.index("G"), COLOUR_LABELS.index("B")
    greens, others = np.flatnonzero(colours == green), np.flatnonzero(colours != green)
    assert len(greens) >= 20, "the seed's crops hold too few greens for the test"
    crops[greens] = np.stack([_hue_turned(crop, 30) for crop in crops[greens]])
    taught = np.concatenate([greens[:4], others[:26]])
    assert (colours[taught] == blue).sum() >= 3, "the taught faces need blues beside the greens"
    classifier = reader.classifier
    heads = fit_profile_heads(_taught(classifier, crops[taught], values[taught],
                                      colours[taught]), classifier)
    assert heads is not None
    unseen = np.concatenate([greens[4:], others[26:]])
    read = classifier.predict(crops[unseen])
    before = read.colour_probs.argmax(axis=1)
    after = (np.log(read.colour_probs) + heads.colour.logits(unit_rows(read.embeddings))).argmax(1)
    new_greens = colours[unseen] == green
    assert (before[new_greens] == green).mean() <= 0.2
    assert (after[new_greens] == green).mean() >= 0.5
    assert (after[colours[unseen] == blue] == blue).mean() >= 0.9
    assert (after[~new_greens] == before[~new_greens]).mean() >= 0.95


def test_a_colour_no_taught_die_shows_is_read_as_before(reader):
    """One taught roll without a green die says nothing of the household's green: every
    green face is read exactly as the network reads it (the colour correction gives green
    no evidence, for or against)."""
    crops, values, colours, faces = render_face_crops(HELD_OUT_SEED_BASE + 8_802, 120)
    crops, values, colours = crops[faces], values[faces], colours[faces]
    green = COLOUR_LABELS.index("G")
    taught = np.flatnonzero(colours != green)[:10]
    classifier = reader.classifier
    heads = fit_profile_heads(_taught(classifier, crops[taught], values[taught],
                                      colours[taught]), classifier)
    assert heads is not None
    greens = np.flatnonzero(colours == green)
    read = classifier.predict(crops[greens])
    correction = heads.colour.logits(unit_rows(read.embeddings))
    assert not correction[:, green].any()
    after = np.log(read.colour_probs) + correction
    assert (after.argmax(axis=1) == read.colour_probs.argmax(axis=1)).all()


def test_the_reader_uses_the_heads_and_an_empty_profile_has_none(reader):
    crops, values, colours, faces = render_face_crops(HELD_OUT_SEED_BASE + 8_801, 12)
    crops, values, colours = crops[faces], values[faces], colours[faces]
    classifier = reader.classifier
    profile = _taught(classifier, crops, values, colours)
    try:
        use_profile(reader, profile)
        assert isinstance(reader.profile, ProfileMatcher)
        assert isinstance(reader.profile.heads, ProfileHeads)
    finally:
        reader.profile = None
    assert fit_profile_heads(DiceProfile.empty(), classifier) is None


class _Counting:
    """A classifier that counts the crops it is asked to read."""

    def __init__(self, classifier) -> None:
        self._classifier = classifier
        self.sha256 = classifier.sha256
        self.has_embedding = classifier.has_embedding
        self.crops_read = 0

    def predict(self, crops):
        self.crops_read += len(crops)
        return self._classifier.predict(crops)


def test_fitting_again_after_a_lesson_reads_only_the_new_examples(reader):
    crops, values, colours, faces = render_face_crops(HELD_OUT_SEED_BASE + 8_802, 30)
    crops, values, colours = crops[faces], values[faces], colours[faces]
    dice = [Die(VALUE_LABELS[v], COLOUR_LABELS[c]) for v, c in zip(values, colours, strict=True)]
    counting = _Counting(reader.classifier)
    counting.sha256 = "a model of this test only"  # its own outputs, not another test's
    first = DiceProfile.empty().add(crops[:10], dice[:10], np.zeros((10, 4)), counting.sha256)
    heads = fit_profile_heads(first, counting)
    assert counting.crops_read == 10 * 4  # every example at its four quarter turns
    grown = first.add(crops[10:13], dice[10:13], np.zeros((3, 4)), counting.sha256)
    fit_profile_heads(grown, counting)
    assert counting.crops_read == 13 * 4
    again = fit_profile_heads(first, counting)
    assert counting.crops_read == 13 * 4
    np.testing.assert_allclose(again.value.weights, heads.value.weights)

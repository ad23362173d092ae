"""The classifier's heads fitted to a profile: they move where the network is wrong on the
user's dice, and stay put where it is right."""

from __future__ import annotations

import numpy as np
import pytest

from scorer import Die
from vision.decode import FACES
from vision.labels import colour_index, value_index
from vision.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.pipeline import DiceReader
from vision.profile import DiceProfile, ProfileMatcher, unit_rows
from vision.profile_heads import (
    HeadCorrection,
    ProfileHeads,
    fit_correction,
    fit_profile_heads,
)
from vision.synth.seeds import HELD_OUT_SEED_BASE
from vision.synth.training import render_face_crops
from vision.teach import use_profile


def _clusters(seed: int = 0, per: int = 40, dimensions: int = 16):
    """Two tight clusters of unit features, A around one direction and B another."""
    rng = np.random.default_rng(seed)
    centres = np.eye(dimensions)[:2]
    features = np.concatenate([c + 0.05 * rng.normal(size=(per, dimensions)) for c in centres])
    return unit_rows(features).astype(np.float64), per


def _log_probs(rows: np.ndarray) -> np.ndarray:
    return np.log(rows / rows.sum(axis=1, keepdims=True))


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


def test_mismatched_inputs_are_refused():
    with pytest.raises(ValueError, match="3 features, 2 base rows and 2 labels"):
        fit_correction(np.zeros((3, 4)), np.zeros((2, 5)), np.zeros(2, int))


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader(threads=1)


def test_a_household_whose_dice_the_network_misreads_is_read_its_way_once_taught(reader):
    """A set whose printed 5 stands for what the network calls 3 (a made-up font whose
    numerals look like others'): taught four of those faces among 34, the heads read many
    of the next ones as the household confirms them (none before), and the other faces as
    before."""
    crops, values, colours, faces = render_face_crops(HELD_OUT_SEED_BASE + 8_800, 160)
    crops, values, colours = crops[faces], values[faces], colours[faces]
    five, three = VALUE_LABELS.index(5), VALUE_LABELS.index(3)
    confirmed = np.where(values == five, three, values)
    fives = np.flatnonzero(values == five)
    assert len(fives) >= 6, "the seed's crops hold too few fives for the test"
    taught = np.concatenate([fives[:4], np.flatnonzero(values != five)[:30]])
    unseen = np.concatenate([fives[4:], np.flatnonzero(values != five)[30:]])
    dice = [Die(VALUE_LABELS[v], COLOUR_LABELS[c]) for v, c in
            zip(confirmed[taught], colours[taught], strict=True)]
    classifier = reader.classifier
    profile = DiceProfile.empty().add(crops[taught], dice, classifier.describe(crops[taught], 1),
                                      classifier.sha256)
    heads = fit_profile_heads(profile, classifier)
    assert heads is not None
    read = classifier.predict(crops[unseen])
    descriptors = unit_rows(read.embeddings)
    value_logits = np.log(read.value_probs) + heads.value.logits(descriptors)
    before = read.value_probs.argmax(axis=1)
    after = value_logits.argmax(axis=1)
    new_fives = values[unseen] == five
    assert (before[new_fives] == three).mean() <= 0.1
    # 5 of the 10 here from 4 taught (the previous network's features, 7): a 5 the network
    # reads for sure takes more than four examples to overturn by heads alone
    assert (after[new_fives] == three).mean() >= 0.4
    assert (after[~new_fives] == before[~new_fives]).mean() >= 0.95


def test_the_reader_uses_the_heads_and_an_empty_profile_has_none(reader):
    crops, values, colours, faces = render_face_crops(HELD_OUT_SEED_BASE + 8_801, 12)
    crops, values, colours = crops[faces], values[faces], colours[faces]
    dice = [Die(VALUE_LABELS[v], COLOUR_LABELS[c]) for v, c in zip(values, colours, strict=True)]
    classifier = reader.classifier
    profile = DiceProfile.empty().add(crops, dice, classifier.describe(crops, 1),
                                      classifier.sha256)
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

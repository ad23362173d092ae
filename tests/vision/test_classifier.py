"""The shipped face classifier: hash-checked loading, clear errors, and accuracy on fresh crops."""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from models.evaluate import render_eval_set
from scorer.dice import COLOUR_LETTERS
from vision.read.classifier import (
    COLOUR_LABELS,
    MODEL_NAME,
    VALUE_LABELS,
    FaceClassifier,
    FacePredictions,
    ModelFileError,
)
from vision.read.crops import CROP_SIZE
from vision.synth.seeds import EVAL_SEED_BASE

SHIPPED = Path(str(resources.files("models").joinpath(MODEL_NAME)))


@pytest.fixture(scope="module")
def classifier() -> FaceClassifier:
    return FaceClassifier.load()


@pytest.fixture(scope="module")
def held_out() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    # 300 face crops plus their negatives; seeds from EVAL_SEED_BASE up are never trained on.
    data = render_eval_set(300, EVAL_SEED_BASE + 777)
    return data.crops, data.values, data.colours, data.faces


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / MODEL_NAME
    shutil.copy(SHIPPED, target)
    shutil.copy(SHIPPED.with_suffix(".sha256"), target.with_suffix(".sha256"))
    return target


def test_label_tables_come_from_the_scorer():
    assert VALUE_LABELS == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0)
    assert COLOUR_LABELS == COLOUR_LETTERS


def test_shipped_model_is_small_and_matches_its_hash():
    data = SHIPPED.read_bytes()
    assert len(data) <= 3 * 1024 * 1024  # a Pi loads it in a blink
    stored = SHIPPED.with_suffix(".sha256").read_text().split()[0]
    assert hashlib.sha256(data).hexdigest() == stored


def test_predictions_are_probabilities(classifier, held_out):
    crops = held_out[0][:10]
    result = classifier.predict(crops)
    assert isinstance(result, FacePredictions) and len(result) == 10
    assert result.value_probs.shape == (10, len(VALUE_LABELS))
    assert result.colour_probs.shape == (10, len(COLOUR_LABELS))
    assert result.face_prob.shape == (10,)
    np.testing.assert_allclose(result.value_probs.sum(axis=1), 1.0, atol=1e-4)
    np.testing.assert_allclose(result.colour_probs.sum(axis=1), 1.0, atol=1e-4)
    assert ((result.face_prob >= 0) & (result.face_prob <= 1)).all()
    empty = classifier.predict(np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8))
    assert len(empty) == 0 and empty.value_probs.shape == (0, len(VALUE_LABELS))


def test_accuracy_on_held_out_rendered_crops(classifier, held_out):
    crops, values, colours, faces = held_out
    result = classifier.predict(crops)
    read = result.value_probs.argmax(axis=1)
    colour = result.colour_probs.argmax(axis=1)
    assert faces.sum() == 300 and (~faces).sum() > 30
    assert (read[faces] == values[faces]).mean() >= 0.98
    assert (colour[faces] == colours[faces]).mean() >= 0.98
    assert (result.face_prob[faces] >= 0.5).mean() >= 0.97
    assert (result.face_prob[~faces] < 0.5).mean() >= 0.85


def test_best_dice_names_the_faces(classifier, held_out):
    crops, values, colours, faces = held_out
    index = int(np.flatnonzero(faces)[0])
    (die,) = classifier.predict(crops[index : index + 1]).best_dice()
    assert die.value == VALUE_LABELS[values[index]]
    assert die.colour == COLOUR_LABELS[colours[index]]


def test_wrong_crop_shape_is_refused(classifier):
    with pytest.raises(ValueError, match=r"\(N, 40, 40, 3\)|got shape"):
        classifier.predict(np.zeros((2, 32, 32, 3), np.uint8))


def test_missing_file_names_the_path(tmp_path):
    missing = tmp_path / "nowhere.onnx"
    with pytest.raises(ModelFileError, match="file not found") as info:
        FaceClassifier.load(missing)
    assert str(missing) in str(info.value)


def test_missing_hash_file_is_an_error(tmp_path):
    model = _copy(tmp_path)
    model.with_suffix(".sha256").unlink()
    with pytest.raises(ModelFileError, match="hash file"):
        FaceClassifier.load(model)


def test_corrupt_file_fails_the_hash_check(tmp_path):
    model = _copy(tmp_path)
    data = bytearray(model.read_bytes())
    data[len(data) // 2] ^= 0xFF
    model.write_bytes(bytes(data))
    with pytest.raises(ModelFileError, match="SHA-256 is .* expected") as info:
        FaceClassifier.load(model)
    assert str(model) in str(info.value)


def test_file_that_is_not_onnx_is_an_error_even_with_a_matching_hash(tmp_path):
    model = tmp_path / "garbage.onnx"
    model.write_bytes(b"not an onnx model at all")
    digest = hashlib.sha256(model.read_bytes()).hexdigest()
    model.with_suffix(".sha256").write_text(f"{digest}  garbage.onnx\n")
    with pytest.raises(ModelFileError, match="not a loadable ONNX model"):
        FaceClassifier.load(model)


def test_copy_with_its_hash_loads_and_threads_are_checked(tmp_path):
    model = _copy(tmp_path)
    loaded = FaceClassifier.load(model, threads=2)
    assert loaded.name == str(model)
    with pytest.raises(ValueError, match="threads"):
        FaceClassifier.load(model, threads=0)


DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
GOLDEN_FONTS = tuple(
    DEJAVU / name for name in ("DejaVuSans.ttf", "DejaVuSerif.ttf", "DejaVuSansMono.ttf")
)


def _dejavu() -> tuple[str, ...]:
    pytest.importorskip("PIL", reason="Pillow (the dev extra) draws outline fonts")
    missing = [str(path) for path in GOLDEN_FONTS if not path.is_file()]
    if missing:
        pytest.skip(f"not installed (Debian's fonts-dejavu-core): {', '.join(missing)}")
    return tuple(str(path) for path in GOLDEN_FONTS)


def _true_corner_crops(fonts, white_balance, seeds, dark=None):
    """Crops cut at the true corners of dice drawn in `fonts` under a given room light."""
    from vision.read.crops import crop_face
    from vision.synth import random_conditions, render_scene
    from vision.synth.looks import random_look
    from vision.synth.placement import random_placements, random_roll

    crops, dice = [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        conditions = random_look(rng, random_conditions(rng, (640, 480)), fonts, dark=dark)
        conditions = dataclasses.replace(conditions, white_balance=white_balance, scale=70.0)
        placements = random_placements(rng, list(random_roll(rng)), conditions, (640, 480))
        scene = render_scene(seed, placements=placements, conditions=conditions, size=(640, 480))
        for die in scene.dice:
            if not die.tilted:
                crops.append(crop_face(scene.image, die.corners))
                dice.append(die.die)
    return np.stack(crops), dice


@pytest.mark.slow
def test_every_value_reads_in_several_outline_fonts(classifier):
    """The golden check of the reader: each face value, in three real fonts, light bodies."""
    from vision.synth.looks import LookMix

    data = render_eval_set(330, EVAL_SEED_BASE + 4242, LookMix(_dejavu(), 1.0, False))
    result = classifier.predict(data.crops)
    faces = data.faces
    read = result.value_probs.argmax(axis=1)
    assert set(data.values[faces]) == set(range(len(VALUE_LABELS)))
    for value in range(len(VALUE_LABELS)):
        picked = faces & (data.values == value)
        assert (read[picked] == value).mean() >= 0.9, VALUE_LABELS[value]
    assert (read[faces] == data.values[faces]).mean() >= 0.97


@pytest.mark.parametrize("temperature", [-0.25, -0.12, 0.12, 0.25])
def test_colour_holds_under_a_shifted_white_balance(classifier, temperature):
    white_balance = (1.0 + temperature, 1.0, 1.0 - temperature)
    crops, dice = _true_corner_crops(
        _dejavu(), white_balance, range(EVAL_SEED_BASE + 90, EVAL_SEED_BASE + 110)
    )
    read = classifier.predict(crops).best_dice()
    right = np.mean([r.colour == d.colour for r, d in zip(read, dice, strict=True)])
    assert len(dice) >= 150 and right >= 0.95

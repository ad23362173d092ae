"""A soft picture's dice, sharpened before they are read (`vision.read.focus`)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.dice import Die
from vision.read.crops import CROP_SIZE, crop_face
from vision.read.focus import FocusSettings, is_soft, sharpened, sharpness
from vision.reading import ReadingFlag
from vision.synth import render_scene
from vision.synth.scene import RenderedDie
from vision.synth.seeds import HELD_OUT_SEED_BASE

FOCUS = Path(__file__).parents[1] / "data" / "focus"


def _crops(image: np.ndarray, dice) -> np.ndarray:
    return np.stack([crop_face(image, np.asarray(die.corners)) for die in dice])


@pytest.fixture(scope="module")
def scene():
    return render_scene(HELD_OUT_SEED_BASE + 2)  # drawn without blur


def test_a_sharp_tray_is_not_soft_and_the_same_tray_out_of_focus_is(scene):
    sharp = _crops(scene.image, scene.dice)
    blurred = _crops(cv2.GaussianBlur(scene.image, (0, 0), 2.2), scene.dice)
    assert not is_soft(sharp)
    assert is_soft(blurred)
    assert np.median([sharpness(c) for c in blurred]) < FocusSettings().soft_below
    assert not is_soft(np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8))


@settings(max_examples=25, deadline=None)
@given(sigma=st.floats(0.6, 3.0), index=st.integers(0, 9))
def test_blur_lowers_a_crops_sharpness_and_the_mask_raises_it(scene, sigma, index):
    die = scene.dice[index]
    crop = crop_face(scene.image, np.asarray(die.corners))
    blurred = crop_face(cv2.GaussianBlur(scene.image, (0, 0), sigma), np.asarray(die.corners))
    assert sharpness(blurred) < sharpness(crop)
    assert sharpness(sharpened(blurred[None])[0]) > sharpness(blurred)


def test_sharpness_does_not_depend_on_the_prints_contrast(scene):
    """A pale print and a bold one of the same face measure alike."""
    crop = crop_face(scene.image, np.asarray(scene.dice[0].corners)).astype(np.float32)
    grey = crop.mean()
    pale = np.clip(grey + 0.4 * (crop - grey), 0, 255).astype(np.uint8)
    assert sharpness(pale) == pytest.approx(sharpness(crop.astype(np.uint8)), rel=0.15)


def test_sharpening_keeps_the_crops_shape_and_type_and_a_flat_crop_flat():
    flat = np.full((3, CROP_SIZE, CROP_SIZE, 3), 140, np.uint8)
    out = sharpened(flat)
    assert out.shape == flat.shape and out.dtype == np.uint8
    assert np.array_equal(out, flat)


def test_a_crop_too_small_to_have_a_middle_is_refused():
    with pytest.raises(ValueError, match="no middle"):
        sharpness(np.zeros((10, 10, 3), np.uint8))


def _soft_focus_tray() -> tuple[np.ndarray, list[RenderedDie]]:
    """The second renderer's tray 7,600,032, kept as a picture (tests/data/focus)."""
    image = cv2.imread(str(FOCUS / "soft_focus_tray.jpg"), cv2.IMREAD_COLOR)
    truth = json.loads((FOCUS / "soft_focus_tray.json").read_text())
    dice = [
        RenderedDie(
            Die.from_text(die["notation"]),
            tuple(die["centre"]),
            np.asarray(die["corners"], np.float32),
            False,
        )
        for die in truth["dice"]
    ]
    return image, dice


def test_a_tray_out_of_focus_is_read_sharpened_flagged_and_never_silently_wrong(monkeypatch):
    """A tray blurred by 3.5 pixels (a camera out of focus): read as it is, a die is read
    wrong without a mark; with its crops sharpened none is wrong unmarked, as many are
    right, and the reading says the picture is soft."""
    import vision.read.pipeline
    from vision.evaluation import score_reading
    from vision.read.pipeline import DiceReader

    image, dice = _soft_focus_tray()
    frame = cv2.GaussianBlur(image, (0, 0), 3.5)
    # sharpening alone: no marks from trust, nor from the face probe
    reader = DiceReader(threads=1, calibration=None, face_probe=False)
    reading = reader.read(frame)
    assert reading.has_flag(ReadingFlag.SOFT_FOCUS)
    assert not reader.read(image).has_flag(ReadingFlag.SOFT_FOCUS)
    sharp = score_reading(0, dice, reading, 0.0)
    monkeypatch.setattr(vision.read.pipeline, "is_soft", lambda crops, settings: False)
    plain = score_reading(0, dice, reader.read(frame), 0.0)
    assert plain.silent >= 1
    assert sharp.silent == 0 and sharp.right >= plain.right

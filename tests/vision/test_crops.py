"""Face crops: corner order, margins, shrinking big faces, model input, and labelled crop sets."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.crops import (
    CROP_SIZE,
    channel_medians,
    crop_face,
    crops_to_tensor,
    order_corners,
    scaled_box,
)
from vision.read.labels import NO_LABEL
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.synth import render_scene
from vision.synth.training import render_face_crops

#: BGR of the four quadrants of the test card, clockwise from top-left.
QUADRANTS = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))


def _card(side: int = 200, offset: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """A grey frame with a square split into four coloured quadrants, and its corners."""
    image = np.full((side + 2 * offset, side + 2 * offset, 3), 128, np.uint8)
    half = side // 2
    o = offset
    image[o : o + half, o : o + half] = QUADRANTS[0]
    image[o : o + half, o + half : o + side] = QUADRANTS[1]
    image[o + half : o + side, o + half : o + side] = QUADRANTS[2]
    image[o + half : o + side, o : o + half] = QUADRANTS[3]
    corners = np.array([[o, o], [o + side, o], [o + side, o + side], [o, o + side]], np.float32)
    return image, corners


def _quadrant_colours(crop: np.ndarray) -> list[tuple[int, ...]]:
    q = crop.shape[0] // 4
    points = [(q, q), (q, 3 * q), (3 * q, 3 * q), (3 * q, q)]  # (row, col) clockwise
    return [tuple(int(v) for v in crop[r, c]) for r, c in points]


def test_crop_follows_the_first_corner_and_keeps_a_grey_margin():
    image, corners = _card()
    crop = crop_face(image, corners)
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and crop.dtype == np.uint8
    assert _quadrant_colours(crop) == list(QUADRANTS)
    assert tuple(crop[0, 0]) == (128, 128, 128)  # the margin shows what is around the face


def test_any_corner_order_gives_a_quarter_turn_of_the_same_crop():
    image, corners = _card()
    upright = crop_face(image, corners)
    for start in range(4):
        rolled = np.roll(corners, -start, axis=0)
        turned = crop_face(image, rolled).astype(int)
        assert np.abs(turned - np.rot90(upright, start)).mean() < 1.0
    for order in itertools.permutations(range(4)):
        crop = crop_face(image, corners[list(order)]).astype(int)
        assert min(np.abs(crop - np.rot90(upright, k)).mean() for k in range(4)) < 1.0


@given(st.floats(0.5, 1.5), st.floats(-200, 200), st.floats(-200, 200), st.floats(0, 6.3),
       st.floats(5, 80))
def test_a_scaled_box_keeps_its_centre_corner_order_and_shape(scale, x, y, angle, side):
    """`ClassifySettings.box_scale`: the box shrinks or grows about its centre, each
    corner along its own ray, so the crop keeps the die's middle and its turn."""
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    box = (np.array([[-1, -1], [1, -1], [1.2, 0.9], [-1, 1]]) * side / 2 @ turn.T
           + (x, y)).astype(np.float32)
    scaled = scaled_box(box, scale)
    assert scaled.dtype == np.float32 and scaled.shape == (4, 2)
    centre = box.mean(axis=0)
    np.testing.assert_allclose(scaled.mean(axis=0), centre, atol=1e-3)
    np.testing.assert_allclose(scaled - centre, (box - centre) * scale, atol=1e-3)


def test_a_box_scaled_below_one_crops_closer_in():
    """The card's quadrants fill more of a crop cut from its box scaled by 0.8: the grey
    margin the full box leaves is gone at the crop's corner."""
    image, corners = _card()
    assert tuple(crop_face(image, corners)[0, 0]) == (128, 128, 128)
    closer = crop_face(image, scaled_box(corners, 0.8))
    assert tuple(closer[0, 0]) == QUADRANTS[0]
    assert _quadrant_colours(closer) == list(QUADRANTS)
    assert (scaled_box(corners, 1.0) == corners).all()


def test_order_corners_is_clockwise_from_the_first():
    square = np.array([[0, 0], [10, 10], [10, 0], [0, 10]], np.float32)
    ordered = order_corners(square)
    np.testing.assert_array_equal(ordered, [[0, 0], [10, 0], [10, 10], [0, 10]])


def test_big_faces_are_shrunk_smoothly_not_aliased():
    rng = np.random.default_rng(0)
    stripes = np.zeros((600, 600, 3), np.uint8)
    stripes[:, ::2] = 255  # one-pixel stripes: aliasing would keep the contrast
    crop = crop_face(stripes, np.array([[50, 50], [550, 50], [550, 550], [50, 550]], np.float32))
    assert crop.std() < 20
    noise = rng.integers(0, 256, (100, 100, 3), dtype=np.uint8)
    small = crop_face(noise, np.array([[10, 10], [30, 10], [30, 30], [10, 30]], np.float32))
    assert small.shape == (CROP_SIZE, CROP_SIZE, 3)


def test_bad_input_is_refused_with_the_reason():
    image, corners = _card()
    with pytest.raises(ValueError, match="outside"):
        crop_face(image, corners + 5000)
    with pytest.raises(ValueError, match=r"\(H, W, 3\)"):
        crop_face(image[..., 0], corners)
    with pytest.raises(ValueError, match="non-finite"):
        crop_face(image, np.full((4, 2), np.nan, np.float32))
    with pytest.raises(ValueError, match="uint8"):
        crops_to_tensor(np.zeros((2, CROP_SIZE, CROP_SIZE, 3), np.float32))


def test_tensor_is_nchw_float32_normalised():
    crops = np.zeros((3, CROP_SIZE, CROP_SIZE, 3), np.uint8)
    crops[1] = 255
    crops[2, :, :, 2] = 255  # red in BGR stays in channel 2
    tensor = crops_to_tensor(crops)
    assert tensor.shape == (3, 3, CROP_SIZE, CROP_SIZE) and tensor.dtype == np.float32
    assert tensor[0].max() == pytest.approx(-2.0) and tensor[1].min() == pytest.approx(2.0)
    assert tensor[2, 2].min() == pytest.approx(2.0) and tensor[2, 0].max() == pytest.approx(-2.0)


def test_ground_truth_crop_centres_the_face():
    for seed in (21, 23):  # a dark body on a light mat, then a light body on a dark one
        scene = render_scene(seed, size=(640, 480))
        assert scene.conditions.body_dark == (seed == 21)
        sign = -1 if scene.conditions.body_dark else 1
        for rendered in scene.dice:
            crop = crop_face(scene.image, rendered.corners).mean(axis=2)
            inner = np.median(crop[10:-10, 10:-10])
            border = np.median(np.concatenate([crop[:2].ravel(), crop[-2:].ravel()]))
            assert sign * (inner - border) > 30, (seed, rendered.die)


@pytest.mark.slow
def test_face_crops_are_labelled_reproducible_and_mixed():
    crops, values, colours, faces = render_face_crops(7, 120)
    assert crops.shape == (120, CROP_SIZE, CROP_SIZE, 3) and crops.dtype == np.uint8
    assert values.shape == colours.shape == faces.shape == (120,)
    assert np.all(values[~faces] == NO_LABEL) and np.all(colours[~faces] == NO_LABEL)
    assert values[faces].min() >= 0 and values[faces].max() < len(VALUE_LABELS)
    assert colours[faces].min() >= 0 and colours[faces].max() < len(COLOUR_LABELS)
    assert 0.05 < (~faces).mean() < 0.45
    again = render_face_crops(7, 120)
    np.testing.assert_array_equal(crops, again[0])
    np.testing.assert_array_equal(values, again[1])
    assert not np.array_equal(crops, render_face_crops(8, 120)[0])


@settings(max_examples=60, deadline=None)
@given(
    images=st.integers(0, 4),
    side=st.integers(1, 9),
    channels=st.sampled_from([1, 3]),
    levels=st.lists(st.integers(0, 255), min_size=1, max_size=4),
    seed=st.integers(0, 2**32 - 1),
)
def test_channel_medians_are_numpys_medians(images, side, channels, levels, seed):
    # Few levels, so many pixels share the middle ones, and odd and even counts alike.
    rng = np.random.default_rng(seed)
    crops = rng.choice(np.array(levels, np.uint8), size=(images, side, side, channels))
    flat = crops.reshape(images, side * side, channels).astype(np.float64)
    expected = np.median(flat, axis=1) if images else np.zeros((0, channels))
    np.testing.assert_array_equal(channel_medians(crops), expected)
    np.testing.assert_array_equal(channel_medians(crops.astype(np.float32)), expected)

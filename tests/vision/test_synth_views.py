"""Steep views of rendered scenes (`vision.synth.views`) and the face crops training
draws from pip dice and tipped cameras (`vision.synth.training`)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.synth import render_scene
from vision.synth.looks import LookMix
from vision.synth.training import render_face_crops
from vision.synth.views import steep_scene, tilt_homography


def _side(corners: np.ndarray) -> float:
    return float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))


@pytest.fixture(scope="module")
def scene():
    return render_scene(5)


def test_an_upright_camera_changes_nothing(scene):
    homography = tilt_homography((1280, 960), 0.0, 1.0)
    np.testing.assert_allclose(homography, np.eye(3), atol=1e-9)
    same = steep_scene(scene, 0.0, 0.3)
    assert np.array_equal(same.image, scene.image)


@settings(max_examples=20, deadline=None)
@given(degrees=st.floats(5.0, 35.0), azimuth=st.floats(0.0, 2 * math.pi))
def test_a_tipped_camera_keeps_the_whole_frame_in_view(degrees, azimuth):
    homography = tilt_homography((1280, 960), degrees, azimuth)
    frame = np.array([[0, 0], [1280, 0], [1280, 960], [0, 960]], np.float64).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(frame, homography).reshape(4, 2)
    assert (moved >= -1e-6).all() and (moved[:, 0] <= 1280 + 1e-6).all()
    assert (moved[:, 1] <= 960 + 1e-6).all()


def test_dice_far_from_a_steep_camera_look_smaller_than_near_ones(scene):
    """Tipped towards the picture's top: dice near the top are farther, so smaller."""
    steep = steep_scene(scene, 35.0, math.pi / 2)
    ratios = [_side(after.corners) / _side(before.corners)
              for before, after in zip(scene.dice, steep.dice, strict=True)]
    heights = [after.centre[1] for after in steep.dice]
    top, bottom = int(np.argmin(heights)), int(np.argmax(heights))
    assert ratios[top] < ratios[bottom]


def test_a_steep_scenes_dice_are_where_their_pixels_went(scene):
    """The moved corners frame the same face: the crop of a die from the tipped picture
    matches the crop from the upright one far better than a crop of the wrong die."""
    from vision.read.crops import crop_face

    steep = steep_scene(scene, 30.0, 0.7)
    before = [crop_face(scene.image, d.corners).astype(np.float32) for d in scene.dice]
    after = [crop_face(steep.image, d.corners).astype(np.float32) for d in steep.dice]
    same = np.mean([np.abs(b - a).mean() for b, a in zip(before, after, strict=True)])
    other = np.mean([np.abs(b - a).mean() for b, a in zip(before, after[1:] + after[:1],
                                                          strict=True)])
    assert same < 0.5 * other


def test_pip_dice_crops_are_never_faces():
    """A scene of pip dice teaches only "no face": no crop carries a value or a colour."""
    crops, values, colours, faces = render_face_crops(11, 60, look=LookMix(pip_share=1.0))
    assert len(crops) == 60 and not faces.any()
    assert (values == -1).all() and (colours == -1).all()


def test_steep_share_tips_some_scenes_and_leaves_the_rest_as_they_were():
    plain = render_face_crops(12, 40, look=LookMix())
    again = render_face_crops(12, 40, look=LookMix())
    steep = render_face_crops(12, 40, look=LookMix(steep_share=1.0))
    assert np.array_equal(plain[0], again[0])
    assert not np.array_equal(plain[0], steep[0])
    assert steep[3].sum() > 0  # faces are still drawn, seen from the side


@pytest.mark.slow
@pytest.mark.parametrize("seed", [3, 4, 5])
def test_a_steep_views_dice_measure_its_size_at_the_pictures_middle(seed):
    """`steep_conditions` draws the dice so that, tipped, a die at the picture's middle
    measures what the view asks (further dice smaller, nearer ones larger)."""
    from vision.synth.conditions import random_conditions
    from vision.synth.views import SteepView, centre_zoom, steep_conditions

    view = SteepView(die_px=(50.0, 50.0))
    rng = np.random.default_rng(seed)
    size = (1280, 960)
    conditions, degrees, azimuth = steep_conditions(rng, random_conditions(rng, size), size,
                                                    view)
    assert 0 <= degrees <= view.max_tilt_degrees
    assert conditions.scale * centre_zoom(tilt_homography(size, degrees, azimuth), size) == (
        pytest.approx(50.0))
    tipped = steep_scene(render_scene(seed, conditions=conditions, size=size), degrees, azimuth)
    middle = np.array(size, np.float64) / 2
    nearest = min(tipped.dice, key=lambda d: float(np.linalg.norm(d.corners.mean(0) - middle)))
    distance = float(np.linalg.norm(nearest.corners.mean(0) - middle)) / size[0]
    # A die's top is a little smaller than its edge; off the middle its size drifts.
    assert 50.0 * (0.75 - distance) <= _side(nearest.corners) <= 50.0 * (1.05 + distance)


@settings(max_examples=25, deadline=None)
@given(degrees=st.floats(3.0, 35.0), azimuth=st.floats(0.0, 2 * math.pi),
       height=st.floats(8.0, 28.0))
def test_a_camera_aside_stands_where_its_tilt_aims_it_at_the_middle(degrees, azimuth, height):
    """`SteepView(camera_aside=True)`: the camera stands its height times the tilt's
    tangent from the middle, on the side the tipped picture magnifies (nearer the lens)."""
    import dataclasses

    from vision.synth.conditions import random_conditions
    from vision.synth.views import aside_shift, zoom_at

    size = (1280, 960)
    conditions = dataclasses.replace(random_conditions(np.random.default_rng(1), size),
                                     camera_height=height)
    dx, dy = aside_shift(conditions, size, degrees, azimuth)
    away = np.array([dx * size[0], dy * size[1]])
    assert np.linalg.norm(away) == pytest.approx(
        height * conditions.scale * math.tan(math.radians(degrees)), rel=1e-9)
    homography = tilt_homography(size, degrees, azimuth)
    middle = np.array(size, np.float64) / 2
    toward = middle + 200 * away / np.linalg.norm(away)
    opposite = middle - 200 * away / np.linalg.norm(away)
    assert zoom_at(homography, toward) > zoom_at(homography, opposite)


def test_a_camera_above_the_middle_keeps_the_scenes_own_camera():
    import dataclasses

    from vision.synth.conditions import random_conditions
    from vision.synth.views import FOCAL_WIDTHS, SteepView, steep_conditions

    size = (1280, 960)
    conditions = random_conditions(np.random.default_rng(2), size)
    above, _, _ = steep_conditions(np.random.default_rng(3), conditions, size, SteepView())
    aside, degrees, _ = steep_conditions(np.random.default_rng(3), conditions, size,
                                         SteepView(camera_aside=True))
    assert above.camera_shift == conditions.camera_shift
    assert degrees > 1 and aside.camera_shift != conditions.camera_shift
    # as high as the lens that tips the picture makes the dice measure (edges)
    assert aside.camera_height == pytest.approx(FOCAL_WIDTHS * size[0] / aside.scale)
    assert dataclasses.replace(above, camera_shift=aside.camera_shift,
                               camera_height=aside.camera_height) == aside

"""The synthetic dice renderer: golden ground truth, determinism, geometry and realism rules."""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from regenerate_synth_golden import CASES, scene_truth

from scorer.dice import PHYSICAL_DICE, Die, Roll, inventory_matching
from vision.synth import (
    Placement,
    random_conditions,
    random_placements,
    random_roll,
    render_scene,
)
from vision.synth.conditions import MIN_BODY_MAT_CONTRAST, luminance
from vision.synth.placement import top_in_frame

DATA = Path(__file__).resolve().parents[1] / "data"


def _quiet(conditions, **changes):
    """The same table without the camera's randomness, for measuring pixels."""
    return dataclasses.replace(
        conditions,
        blur_sigma=0.0,
        noise_sigma=0.0,
        jpeg_quality=0,
        glare=0.0,
        light_gradient=0.0,
        vignette=0.0,
        **changes,
    )


def test_golden_ground_truth_matches_the_stored_file():
    golden = json.loads((DATA / "synth_golden.json").read_text())
    assert [case["seed"] for case in golden] == [seed for seed, _ in CASES]
    for expected, (seed, options) in zip(golden, CASES, strict=True):
        actual = json.loads(json.dumps(scene_truth(seed, options)))
        assert actual["conditions"].keys() == expected["conditions"].keys()
        for key, want in expected["conditions"].items():
            got = actual["conditions"][key]
            assert got == (pytest.approx(want) if not isinstance(want, str) else want), key
        assert [d["die"] for d in actual["dice"]] == [d["die"] for d in expected["dice"]]
        for got, want in zip(actual["dice"], expected["dice"], strict=True):
            assert got["tilted"] == want["tilted"]
            np.testing.assert_allclose(got["centre"], want["centre"], atol=2e-3)
            np.testing.assert_allclose(got["corners"], want["corners"], atol=2e-3)


def test_same_seed_same_image_and_different_seeds_differ():
    first = render_scene(5, size=(480, 360))
    again = render_scene(5, size=(480, 360))
    other = render_scene(6, size=(480, 360))
    assert np.array_equal(first.image, again.image)
    assert first.image.shape == (360, 480, 3) and first.image.dtype == np.uint8
    assert not np.array_equal(first.image, other.image)
    assert [d.die for d in first.dice] != [d.die for d in other.dice] or (
        first.conditions != other.conditions
    )


def test_random_roll_is_one_face_of_each_physical_die():
    for seed in range(20):
        roll = random_roll(np.random.default_rng(seed))
        assert isinstance(roll, Roll) and roll.is_full()
        assert inventory_matching(roll) is not None
    orders = {str(random_roll(np.random.default_rng(seed))) for seed in range(20)}
    assert len(orders) == 20


def test_default_scene_holds_the_ten_dice_with_their_ground_truth():
    scene = render_scene(11)
    assert len(scene.dice) == 10
    assert Roll(tuple(d.die for d in scene.dice)).is_full()
    height, width = scene.image.shape[:2]
    for rendered in scene.dice:
        assert rendered.corners.shape == (4, 2) and rendered.corners.dtype == np.float32
        assert np.allclose(rendered.corners.mean(axis=0), rendered.centre, atol=1.0)
        assert 0 <= rendered.centre[0] < width and 0 <= rendered.centre[1] < height


def test_top_faces_never_overlap_and_clusters_and_tilts_occur():
    touching = tilted = 0
    for seed in range(12):
        scene = render_scene(seed, size=(640, 480))
        edge = scene.conditions.scale
        for a, b in itertools.combinations(scene.dice, 2):
            area, _ = cv2.intersectConvexConvex(a.corners, b.corners)
            assert area < 0.03 * edge * edge, (seed, a.die, b.die)
            gap = np.hypot(*np.subtract(a.centre, b.centre))
            touching += gap < 1.15 * edge
        tilted += sum(d.tilted for d in scene.dice)
    assert touching > 0 and tilted > 0


def test_a_training_may_ask_for_more_dice_leaning_on_the_wall_or_none():
    """`tilt_share` (the locator's `--lean-share`): the share of scenes that lean dice on
    the tray wall, the renderer's (0.35) unless asked."""
    leaning = {None: 0, 1.0: 0}
    for seed in range(40):
        for share in leaning:
            rng = np.random.default_rng([seed, 3])
            conditions = random_conditions(rng, (640, 480))
            placed = random_placements(rng, list(random_roll(rng)), conditions, (640, 480),
                                       tilt_share=share)
            leaning[share] += sum(p.tilt > 0 for p in placed)
    assert leaning[1.0] > 1.5 * leaning[None] > 0
    for seed in range(10):
        rng = np.random.default_rng([seed, 3])
        conditions = random_conditions(rng, (640, 480))
        flat = random_placements(rng, list(random_roll(rng)), conditions, (640, 480),
                                 tilt_share=0.0)
        assert not any(p.tilt for p in flat)


@pytest.mark.slow
def test_every_top_face_lies_inside_the_picture():
    # A tray at the frame's edge, seen from low down: a die leaning on the wall there
    # shows its top pushed outside the picture, so such spots are never chosen.
    size = (640, 480)
    conditions = dataclasses.replace(
        random_conditions(np.random.default_rng(5), size),
        tray_inset=0.0, wall_width=0.25, camera_height=9.0, scale=50.0,
    )
    leaning = Placement(Die(8, "G"), (40.0, 240.0), angle=0.0, tilt=30.0)
    assert not top_in_frame(leaning, conditions, size)
    assert top_in_frame(dataclasses.replace(leaning, centre=(320.0, 240.0)), conditions, size)
    for seed in range(30):
        rng = np.random.default_rng(seed)
        dice = list(random_roll(rng))
        placements = random_placements(rng, dice, conditions, size)
        assert len(placements) == 10
        scene = render_scene(seed, placements=placements, conditions=conditions, size=size)
        for die in scene.dice:
            assert die.corners.min() >= 0
            assert die.corners[:, 0].max() < size[0] and die.corners[:, 1].max() < size[1]


def test_fixed_table_and_placements_give_fixed_ground_truth_across_seeds():
    rng = np.random.default_rng(3)
    size = (640, 480)
    conditions = random_conditions(rng, size)
    dice = [Die.from_text(t) for t in ("8R", "WB", "1G")]
    placements = random_placements(rng, dice, conditions, size)
    a = render_scene(1, placements=placements, conditions=conditions, size=size)
    b = render_scene(2, placements=placements, conditions=conditions, size=size)
    assert a.conditions == b.conditions == conditions
    for x, y in zip(a.dice, b.dice, strict=True):
        assert x.die == y.die
        np.testing.assert_array_equal(x.corners, y.corners)
    assert not np.array_equal(a.image, b.image)  # noise and glare still vary per frame


def test_body_and_mat_always_contrast():
    for seed in range(200):
        conditions = random_conditions(np.random.default_rng(seed))
        gap = abs(luminance(conditions.body_bgr) - luminance(conditions.mat_bgr))
        assert gap >= MIN_BODY_MAT_CONTRAST
        if conditions.body_dark:
            assert luminance(conditions.mat_bgr) > luminance(conditions.body_bgr)


@pytest.mark.parametrize("ambient, strength", [(0.25, 0.45), (0.4, 0.6)])
def test_mat_is_lit_like_a_flat_die_top(ambient, strength):
    # Ivory body on a light grey mat: only 74 luma apart, so an unlit mat under dim
    # light once came out brighter than the dice on it.
    size = (640, 480)
    conditions = _quiet(
        random_conditions(np.random.default_rng(0), size),
        body_bgr=(236.0, 249.0, 253.0),
        mat_bgr=(190.0, 175.0, 167.0),
        mat_texture="plain",
        mat_texture_strength=0.0,
        shadow_strength=0.0,
        ambient=ambient,
        light_strength=strength,
        light_elevation=64.0,
        exposure=1.0,
        white_balance=(1.0, 1.0, 1.0),
        scale=60.0,
    )
    placement = Placement(Die(8, "G"), (320.0, 240.0), angle=0.0)
    scene = render_scene(0, placements=[placement], conditions=conditions, size=size)
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    shade = ambient + strength * np.sin(np.radians(64.0))
    top = np.median(_die_pixels(conditions, placement, size)[0])
    mat = np.median(grey[200:280, 40:120])
    assert mat == pytest.approx(luminance(conditions.mat_bgr) * shade, abs=3)
    assert top - mat == pytest.approx(
        (luminance(conditions.body_bgr) - luminance(conditions.mat_bgr)) * shade, abs=6
    )


def test_dark_bodies_appear_sometimes():
    dark = sum(random_conditions(np.random.default_rng(s)).body_dark for s in range(200))
    assert 10 < dark < 100


def _die_pixels(conditions, placement, size):
    """Luminance of the top face and of the rest of the die's silhouette, without shadows."""
    table = _quiet(conditions, shadow_strength=0.0, mat_texture="plain")
    with_die = render_scene(0, placements=[placement], conditions=table, size=size)
    without = render_scene(0, placements=[], conditions=table, size=size)
    grey = cv2.cvtColor(with_die.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    changed = np.abs(with_die.image.astype(int) - without.image.astype(int)).max(axis=2) > 25
    top = np.zeros(grey.shape, np.uint8)
    cv2.fillConvexPoly(top, with_die.dice[0].corners.round().astype(np.int32), 1)
    inner = cv2.erode(top, np.ones((5, 5), np.uint8)).astype(bool)
    side = changed & ~cv2.dilate(top, np.ones((5, 5), np.uint8)).astype(bool)
    return grey[inner], grey[side]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_side_faces_are_darker_than_the_top_face(seed):
    size = (640, 480)
    conditions = dataclasses.replace(
        random_conditions(np.random.default_rng(seed), size), camera_height=5.0, scale=60.0
    )
    placement = Placement(Die(8, "G"), (150.0, 120.0), angle=20.0 * seed)
    top, side = _die_pixels(conditions, placement, size)
    assert side.size > 200  # the side faces facing the camera are visible
    assert np.median(side) < np.median(top)


def test_hand_is_drawn_and_reported():
    plain = render_scene(8, size=(640, 480))
    hand = render_scene(8, size=(640, 480), hand=True)
    assert plain.hand_mask is None
    assert hand.hand_mask is not None and hand.hand_mask.shape == (480, 640)
    covered = hand.hand_mask > 200
    assert covered.mean() > 0.02
    assert not np.array_equal(plain.image[covered], hand.image[covered])


def test_motion_blur_smooths_the_frame():
    sharp = render_scene(4, size=(640, 480))
    blurred = render_scene(4, size=(640, 480), motion_blur=12.0)
    assert (
        cv2.Laplacian(blurred.image, cv2.CV_32F).var()
        < cv2.Laplacian(sharp.image, cv2.CV_32F).var()
    )


def test_every_layout_face_can_be_rendered():
    faces = sorted({face for die in PHYSICAL_DICE for face in die.faces}, key=str)
    rng = np.random.default_rng(0)
    size = (640, 480)
    conditions = random_conditions(rng, size)
    for start in range(0, len(faces), 10):
        dice = faces[start : start + 10]
        scene = render_scene(start, dice=dice, conditions=conditions, size=size)
        assert {d.die for d in scene.dice} <= set(dice)
        assert len(scene.dice) >= len(dice) - 1


def test_each_die_ink_strays_from_its_set_by_at_most_the_ink_spread():
    from vision.synth.scene import _ink_bgr

    table = random_conditions(np.random.default_rng(11), (640, 480))
    base = np.array((0, 140, 250), np.float32)  # an orange, BGR
    inked = dataclasses.replace(table, inks=((30, 30, 220), tuple(base), (60, 170, 40),
                                             (200, 90, 20)))
    orange = Die(6, "O")
    rng = np.random.default_rng(5)
    spread = [_ink_bgr(orange, inked, rng) for _ in range(200)]
    expected = np.clip(base * inked.ink_gain, 0, 255)
    offsets = np.array(spread) - expected
    assert np.abs(offsets).max() <= inked.ink_spread + 1e-3
    assert np.abs(offsets).max() > inked.ink_spread / 2  # they do stray, die by die
    alike = dataclasses.replace(inked, ink_spread=0.0)
    printed = np.array([_ink_bgr(orange, alike, rng) for _ in range(20)])
    np.testing.assert_allclose(printed, np.broadcast_to(expected, printed.shape), atol=1e-3)

"""Scenes like real photographs for the locator: pip dice, surfaces, clutter, a tipped camera."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import locator_training, random_conditions, render_scene
from vision.synth.clutter import clutter_layer
from vision.synth.locator_training import render_locator_sample, target_maps, tilt_scene
from vision.synth.looks import LookMix, random_world
from vision.synth.pips import PIP_LAYOUTS, PipStyle, pip_count, pip_face_layers
from vision.synth.placement import random_placements, random_roll, tray_interior
from vision.synth.seeds import LOCATOR_SEED_BASE
from vision.synth.texture import SURFACES

pytest.importorskip("skimage", reason="photographic surfaces come from scikit-image's wheel")


def test_pip_faces_show_their_count_of_pips():
    assert [pip_count(v) for v in (1, 6, 7, 10, 0)] == [1, 6, 1, 4, 6]
    for count in PIP_LAYOUTS:
        layers = pip_face_layers(count, PipStyle(engraved=0.0))
        side = int(np.sqrt(len(layers)))
        ink = layers[:, 1].reshape(side, side) > 0.4
        blobs, _ = cv2.connectedComponents(ink.astype(np.uint8))
        assert blobs - 1 == count


def test_clutter_reaches_in_from_the_edge_only():
    rng = np.random.default_rng(3)
    for _ in range(10):
        conditions = dataclasses.replace(random_conditions(rng, (640, 480)), clutter=2)
        _, alpha = clutter_layer((640, 480), conditions, rng)
        cover = alpha[..., 0] > 0.5
        if not cover.any():
            continue
        labels = cv2.connectedComponents(cover.astype(np.uint8))[1]
        for part in np.unique(labels)[1:]:
            ys, xs = np.nonzero(labels == part)
            touches = xs.min() == 0 or ys.min() == 0 or xs.max() == 639 or ys.max() == 479
            assert touches, "clutter must come in from the picture's edge"


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_new_surface_renders(surface):
    rng = np.random.default_rng(11)
    conditions = dataclasses.replace(random_conditions(rng, (320, 240)), mat_texture=surface)
    scene = render_scene(4, conditions=conditions, size=(320, 240))
    assert scene.image.shape == (240, 320, 3) and scene.image.std() > 3


def test_world_tables_without_a_tray_fill_the_frame_with_the_surface():
    rng = np.random.default_rng(0)
    tabletops = 0
    for _ in range(40):
        world = random_world(rng, random_conditions(rng, (1280, 960)))
        assert 0.04 * 960 * 0.99 <= world.scale <= 0.12 * 960 * 1.01
        left, top, right, bottom = tray_interior(world, (1280, 960))
        tabletops += left < 0 and top < 0 and right > 1280 and bottom > 960
    assert 10 <= tabletops <= 30


def test_a_tipped_camera_moves_the_tops_with_the_picture():
    scene = render_scene(21, size=(640, 480))
    tipped = tilt_scene(scene, np.random.default_rng(2), 0.08)
    assert 0 < len(tipped.dice) <= len(scene.dice)
    for die in tipped.dice:
        x, y = (int(round(v)) for v in die.centre)
        original = next(d for d in scene.dice if d.die == die.die and d.tilted == die.tilted)
        ox, oy = (int(round(v)) for v in original.centre)
        # The top's colour at its new centre is the colour it had at the old one.
        diff = np.abs(tipped.image[y, x].astype(int) - scene.image[oy, ox].astype(int)).max()
        assert diff < 60
    maps = target_maps(tipped)
    assert maps[0].max() == 255


@pytest.mark.slow
def test_locator_samples_with_a_look_are_reproducible_and_labelled():
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if not Path(font).is_file():
        pytest.skip(f"{font} is not installed (Debian's fonts-dejavu-core)")
    look = LookMix((font,), 0.8, pip_share=0.2, world=True)
    first = [render_locator_sample(LOCATOR_SEED_BASE + i, look) for i in range(4)]
    again = [render_locator_sample(LOCATOR_SEED_BASE + i, look) for i in range(4)]
    for (image, maps), (image2, maps2) in zip(first, again, strict=True):
        np.testing.assert_array_equal(image, image2)
        np.testing.assert_array_equal(maps, maps2)
        assert image.shape[:2] == (240, 320) and maps.shape == (3, 120, 160)


def test_a_camera_standing_aside_shows_every_die_leaning_away_from_it():
    """Seen from a camera beside the table, each top is pushed away from the camera's foot
    (the visible sides face the camera), wherever the die lies in the picture."""
    rng = np.random.default_rng(8)
    conditions = random_conditions(rng, (640, 480))
    placements = random_placements(rng, list(random_roll(rng)), conditions, (640, 480))
    above = render_scene(12, placements=placements, conditions=conditions, size=(640, 480))
    aside = render_scene(
        12,
        placements=placements,
        conditions=dataclasses.replace(conditions, camera_shift=(0.0, 0.9), camera_height=10.0),
        size=(640, 480),
    )
    assert len(above.dice) == len(aside.dice)
    for straight, oblique in zip(above.dice, aside.dice, strict=True):
        if not straight.tilted:
            assert oblique.centre[1] < straight.centre[1]  # camera below the picture


@pytest.mark.slow
def test_locator_samples_seen_steep_change_only_the_real_world_scenes():
    """`LookMix.steep_share` tips the real-world scenes of the locator's training as a phone
    sees them; the draws are the seed's alone, and a mix without steep views draws as it
    always did (the first renderer's trays come out the same either way)."""
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if not Path(font).is_file():
        pytest.skip(f"{font} is not installed (Debian's fonts-dejavu-core)")
    upright = LookMix((font,), 0.8, world=True)
    steep = LookMix((font,), 0.8, world=True, steep_share=1.0)
    changed = same = 0
    for seed in range(LOCATOR_SEED_BASE + 40, LOCATOR_SEED_BASE + 48):
        image, maps = render_locator_sample(seed, steep)
        image2, maps2 = render_locator_sample(seed, steep)
        np.testing.assert_array_equal(image, image2)
        np.testing.assert_array_equal(maps, maps2)
        assert maps[0].max() > 0 or maps[2].max() > 0 or not maps[1].any()
        plain, _ = render_locator_sample(seed, upright)
        changed += not np.array_equal(image, plain)
        same += np.array_equal(image, plain)
    assert changed >= 3 and same >= 1  # about 70 % are real-world scenes


@pytest.mark.slow
def test_locator_samples_seen_aside_are_the_share_of_steep_ones_asked_for(monkeypatch):
    """`LookMix.aside_share` of the steep scenes are seen with the phone at the tray's side
    (the view the evaluation calls aside); the others as before, from above the middle."""
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if not Path(font).is_file():
        pytest.skip(f"{font} is not installed (Debian's fonts-dejavu-core)")
    views: list[bool] = []
    original = locator_training.steep_conditions

    def recording(rng, conditions, size, view):
        views.append(view.camera_aside)
        return original(rng, conditions, size, view)

    monkeypatch.setattr(locator_training, "steep_conditions", recording)
    seeds = range(LOCATOR_SEED_BASE + 40, LOCATOR_SEED_BASE + 56)
    for share, expected in ((0.0, {False}), (1.0, {True}), (0.5, {False, True})):
        views.clear()
        mix = LookMix((font,), 0.8, world=True, steep_share=1.0, aside_share=share)
        for seed in seeds:
            render_locator_sample(seed, mix)
        assert len(views) >= 8  # the real-world scenes, about 70 %
        assert set(views) == expected

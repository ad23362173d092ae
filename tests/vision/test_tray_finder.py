"""The tray finder: the mat the dice lie on, bounded by its edge, or nothing."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.read.tray_finder import TrayFinderSettings, find_tray
from vision.synth import random_conditions, render_scene
from vision.synth.placement import tray_interior

SIZE = (1280, 960)
INSET = 0.12  # of the shorter side: the table shows all round the tray


def _scene_with_table_around(seed: int):
    conditions = random_conditions(np.random.default_rng(seed), SIZE)
    return render_scene(seed, conditions=dataclasses.replace(conditions, tray_inset=INSET))


def _filled(polygon: np.ndarray) -> np.ndarray:
    mask = np.zeros(SIZE[::-1], np.uint8)
    cv2.fillPoly(mask, [np.round(polygon).astype(np.int32)], 1)
    return mask


@pytest.mark.parametrize("seed", [0, 4, 13, 21, 33])  # felt, wood, plain, speckle mats
def test_the_tray_is_the_mat_within_its_wall(seed):
    scene = _scene_with_table_around(seed)
    tray = find_tray(scene.image, [die.corners for die in scene.dice])
    assert tray is not None
    inside = _filled(tray.points())
    left, top, right, bottom = (int(v) for v in tray_interior(scene.conditions, SIZE))
    assert inside[top:bottom, left:right].mean() > 0.95  # the whole mat ...
    edge = int(INSET * SIZE[1])
    table = inside.copy()
    table[edge:-edge, edge:-edge] = 0
    assert table.sum() == 0  # ... and none of the table beyond the wall
    for die in scene.dice:
        assert inside[int(die.centre[1]), int(die.centre[0])]


def test_a_mat_filling_the_picture_is_no_tray_to_crop_to():
    scene = render_scene(3)  # tray wall at the picture's edge
    conditions = dataclasses.replace(scene.conditions, tray_inset=0.0, wall_width=0.0)
    scene = render_scene(3, conditions=conditions)
    assert find_tray(scene.image, [die.corners for die in scene.dice]) is None


def test_an_even_picture_and_no_dice_give_no_tray():
    felt = np.full((960, 1280, 3), (60, 110, 35), np.uint8)
    box = np.array([[600, 400], [660, 400], [660, 460], [600, 460]], np.float32)
    assert find_tray(felt, [box]) is None
    scene = _scene_with_table_around(0)
    assert find_tray(scene.image, []) is None


def test_a_die_beside_the_tray_is_left_out_but_three_make_it_no_tray():
    scene = _scene_with_table_around(4)
    boxes = [die.corners for die in scene.dice]
    corner = np.array([[10, 10], [70, 10], [70, 70], [10, 70]], np.float32)
    tray = find_tray(scene.image, [*boxes, corner])
    assert tray is not None
    assert cv2.pointPolygonTest(tray.points(), (40.0, 40.0), False) < 0
    off = [corner + (offset, 0) for offset in (0, 200, 400)]
    assert find_tray(scene.image, [*boxes[:7], *off]) is None
    assert find_tray(scene.image, [*boxes, corner], TrayFinderSettings(max_dice_off=0)) is None


def test_the_outline_grows_by_the_margin_and_moves_into_a_crop():
    scene = _scene_with_table_around(0)
    tray = find_tray(scene.image, [die.corners for die in scene.dice])
    assert tray is not None
    grown = _filled(tray.points(margin=40)).sum()
    assert grown > _filled(tray.points()).sum()
    left, top, right, bottom = tray.crop_box(40, SIZE)
    assert 0 <= left < tray.box[0] and 0 <= top < tray.box[1]
    assert tray.box[2] < right <= SIZE[0] and tray.box[3] < bottom <= SIZE[1]
    np.testing.assert_allclose(tray.points(origin=(left, top)),
                               tray.points() - np.float32((left, top)))

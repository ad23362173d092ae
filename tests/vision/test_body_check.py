"""A box whose body colour is unlike the rest of the set's is no die (vision.read.body_check)."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from property_budget import examples

from vision.read.body_check import BodyCheck, body_colours, never_odd, odd_bodies
from vision.read.pipeline import Readout, set_dice
from vision.read.tops import Located

IVORY = np.array([235.0, 130.0, 140.0])  # Lab, OpenCV's 8-bit scale
KEY = np.array([70.0, 128.0, 128.0])  # a laptop key's dark grey
SHIPPED = BodyCheck()
MIN_BOXES, SET_EXTENT, ODD_BODY = SHIPPED.min_boxes, SHIPPED.set_extent, SHIPPED.odd_body
SURE_VALUE, CERTAIN_BOX = SHIPPED.sure_value, SHIPPED.certain_box


def a_set(count: int, rng: np.random.Generator, spread: float = 3.0) -> np.ndarray:
    return IVORY + rng.normal(0, spread, (count, 3))


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(2, 9), st.integers(0, 10**6))
def test_one_thing_unlike_a_set_is_odd_and_the_set_is_not(dice, seed):
    rng = np.random.default_rng(seed)
    bodies = np.vstack([a_set(dice, rng, spread=1.5), KEY])
    odd = odd_bodies(bodies, np.zeros(len(bodies), bool))
    assert odd.tolist() == [False] * dice + [True]
    assert not odd_bodies(bodies, np.array([False] * dice + [True])).any()  # read for sure


@settings(max_examples=examples(50), deadline=None)
@given(st.integers(0, 10), st.integers(0, 10**6))
def test_nothing_is_judged_among_mixed_dice_or_too_few(count, seed):
    rng = np.random.default_rng(seed)
    mixed = rng.uniform(0, 255, (count, 3))
    odd = odd_bodies(mixed, np.zeros(count, bool))
    assert count >= MIN_BOXES or not odd.any()
    for index in range(count if count >= MIN_BOXES else 0):  # others not a set: not odd
        others = np.delete(mixed, index, axis=0)
        extent = np.linalg.norm(others - np.median(others, axis=0), axis=1).max(initial=0)
        if extent >= SET_EXTENT:
            assert not odd[index]
    few = np.vstack([a_set(MIN_BOXES - 2, rng), KEY])
    assert not odd_bodies(few, np.zeros(len(few), bool)).any()


def test_a_die_a_little_off_the_set_is_kept_and_a_set_under_uneven_light_is_not_judged():
    rng = np.random.default_rng(1)
    shaded = IVORY - [ODD_BODY * 0.8, 0, 0]  # in the shadow of the tray's wall
    bodies = np.vstack([a_set(6, rng), shaded])
    assert not odd_bodies(bodies, np.zeros(7, bool)).any()
    gradient = IVORY - np.outer(np.linspace(0, 40, 9), [1, 0, 0])  # a lamp at one side
    assert not odd_bodies(np.vstack([gradient, KEY]), np.zeros(10, bool)).any()


def test_a_crops_body_is_its_median_colour_whatever_its_ink():
    crops = np.full((2, 40, 40, 3), (200, 220, 240), np.uint8)
    crops[0, 15:25, 10:30] = (20, 20, 200)  # a numeral's ink on a quarter of the face
    bodies = body_colours(crops)
    np.testing.assert_allclose(bodies[0], bodies[1])
    assert body_colours(np.zeros((0, 40, 40, 3), np.uint8)).shape == (0, 3)


def _keycap(image: np.ndarray, centre: tuple[int, int], side: int) -> None:
    """A laptop key: a dark grey square with a light letter on it."""
    x, y = centre
    half = side // 2
    cv2.rectangle(image, (x - half, y - half), (x + half, y + half), (60, 58, 55), -1)
    cv2.rectangle(image, (x - half, y - half), (x + half, y + half), (90, 88, 85), 3)
    cv2.putText(image, "K", (x - half // 2, y + half // 2), cv2.FONT_HERSHEY_SIMPLEX,
                side / 40, (235, 235, 235), max(2, side // 20))


def test_a_key_beside_a_set_of_light_dice_is_located_but_is_no_die():
    from vision.read.pipeline import DiceReader
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    scene = render_scene(HELD_OUT_SEED_BASE + 4)
    assert not scene.conditions.body_dark
    image = scene.image.copy()
    centres = np.array([die.centre for die in scene.dice])
    free = max(((x, y) for y in range(150, 810, 40) for x in range(150, 1130, 40)),
               key=lambda p: np.min(np.hypot(*(centres - p).T)))  # farthest from the dice
    _keycap(image, free, int(scene.conditions.scale))
    reader = DiceReader()
    assert len(reader.locate(image).boxes) == 11  # the locator takes the key for a die
    reading = reader.read(image)
    assert reading.found_count() == 10
    assert all(np.hypot(*(np.asarray(centre) - free)) > scene.conditions.scale
               for centre in reading.centres())


def test_a_certain_box_whose_value_is_sure_is_never_judged_by_its_body():
    sure_face = np.array([True, False, False, False, False])
    value = np.full((5, 11), 0.01)
    value[:, 10] = [0.5, SURE_VALUE, SURE_VALUE, 0.5, SURE_VALUE - 0.01]
    scores = np.array([0.5, CERTAIN_BOX, CERTAIN_BOX - 0.01, 1.0, 1.0])
    assert never_odd(sure_face, value, scores).tolist() == [True, True, False, False, False]


def _glare_readout(glare_box_score: float) -> Readout:
    """Nine ivory dice read for sure and a tenth whose body a lamp's glare turned grey:
    read "W" for sure, red or orange in doubt (0.41 / 0.59)."""
    boxes = tuple(
        np.array([[x, 100], [x + 60, 100], [x + 60, 160], [x, 160]], np.float32)
        for x in range(0, 1000, 100)
    )
    scores = (0.999,) * 9 + (glare_box_score,)
    crops = np.full((10, 40, 40, 3), (205, 230, 240), np.uint8)  # ivory, BGR
    crops[9] = (150, 150, 150)  # grey: far from the set's body
    value = np.full((10, 11), 0.001)
    value[:, 10] = 0.99
    colour = np.tile([0.97, 0.01, 0.01, 0.01], (10, 1))
    colour[9] = [0.41, 0.59, 0.0, 0.0]
    return Readout(Located(boxes, die_side=60.0, scores=scores), crops, value, colour,
                   np.ones(10), None)


def test_a_die_under_a_glare_is_kept_when_the_locator_is_certain_of_it():
    bodies = body_colours(_glare_readout(1.0).crops)
    assert odd_bodies(bodies, np.zeros(10, bool))[9]  # its body alone would drop it
    kept, _ = set_dice(_glare_readout(0.997))
    assert 9 in kept.tolist() and len(kept) == 10
    doubted, _ = set_dice(_glare_readout(0.95))  # a box the locator doubts: judged
    assert doubted.tolist() == list(range(9))

"""Faces of dice that are not Phase 10 dice (`vision.synth.other_dice`), and the benchmark
that counts how many of them the reader shows as a sure face (`eval_other_dice.py`)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import cv2
import numpy as np
import pytest
from benchmark_modules import load_benchmark

from scorer.dice import Die
from vision.reading import ReadDie, Reading
from vision.synth.other_dice import SHAPES, other_dice_scene, steep_other_dice
from vision.synth.seeds import OTHER_DICE_SEED_BASE, PROFILE_SEED_BASE, PROFILE_SET_SPAN

eval_other_dice = load_benchmark("eval_other_dice")


def test_a_tray_of_other_dice_is_drawn_the_same_from_its_seed_and_apart(held_out_fonts):
    scene = other_dice_scene(OTHER_DICE_SEED_BASE, held_out_fonts)
    again = other_dice_scene(OTHER_DICE_SEED_BASE, held_out_fonts)
    assert np.array_equal(scene.image, again.image)
    assert [(d.shape, d.text, d.centre) for d in scene.dice] == [
        (d.shape, d.text, d.centre) for d in again.dice]
    assert 3 <= len(scene.dice) <= 10
    height, width = scene.image.shape[:2]
    for die in scene.dice:
        assert die.shape in SHAPES and 1 <= int(die.text) <= 20
        assert np.all((die.outline >= 0) & (die.outline < (width, height)))
        inside = cv2.pointPolygonTest(die.outline, die.centre, False)
        assert inside > 0
    for a in scene.dice:
        for b in scene.dice:
            if a is not b:
                assert np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) > (
                    a.radius + b.radius)
    other = other_dice_scene(OTHER_DICE_SEED_BASE + 1, held_out_fonts)
    assert not np.array_equal(scene.image, other.image)


def test_the_faces_are_drawn_on_the_tray_with_their_numerals(held_out_fonts):
    scene = other_dice_scene(OTHER_DICE_SEED_BASE + 2, held_out_fonts)
    from vision.synth import render_scene

    tray = render_scene(OTHER_DICE_SEED_BASE + 2, dice=[]).image
    changed = np.any(scene.image != tray, axis=2)
    for die in scene.dice:
        mask = np.zeros(changed.shape, np.uint8)
        cv2.fillPoly(mask, [np.int32(np.round(die.outline))], 1)
        assert changed[mask > 0].mean() > 0.5  # the face is drawn where it lies
        inner = np.asarray(scene.image[mask > 0], np.float64)
        assert inner.std(axis=0).max() > 10  # a numeral on it, not a plain patch
    assert changed.mean() < 0.2  # the rest is the tray


def test_a_tray_seen_steep_moves_every_face_with_the_picture(held_out_fonts):
    """Tipped as a phone held over it sees it: each face's outline, centre and radius
    move with the picture, so a face is still drawn where the tray says it lies."""
    seed = OTHER_DICE_SEED_BASE + 3
    upright = other_dice_scene(seed, held_out_fonts)
    steep = steep_other_dice(upright, seed)
    assert np.array_equal(steep.image, steep_other_dice(upright, seed).image)
    assert not np.array_equal(steep.image, upright.image)
    assert [d.text for d in steep.dice] == [d.text for d in upright.dice]
    moved = [np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
             for a, b in zip(steep.dice, upright.dice, strict=True)]
    assert max(moved) > 5  # tipped, not the same picture
    for die in steep.dice:
        assert cv2.pointPolygonTest(die.outline, die.centre, False) > 0
        mask = np.zeros(steep.image.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.int32(np.round(die.outline))], 1)
        assert np.asarray(steep.image[mask > 0], np.float64).std(axis=0).max() > 10
    flat = steep_other_dice(upright, seed, max_degrees=0.0)
    assert np.allclose([d.centre for d in flat.dice], [d.centre for d in upright.dice],
                       atol=1.0)


def test_no_numeral_without_a_font():
    with pytest.raises(ValueError, match="no font"):
        other_dice_scene(OTHER_DICE_SEED_BASE, [])


def test_the_trays_seeds_lie_above_the_profile_evaluation_s_first_100000_sets():
    assert OTHER_DICE_SEED_BASE >= PROFILE_SEED_BASE + 100_000 * PROFILE_SET_SPAN


def test_a_face_counts_as_found_and_as_sure_only_where_a_die_is_read_on_it():
    outline = np.array([(90, 90), (110, 90), (110, 110), (90, 110)], np.float32)
    face = SimpleNamespace(shape="square", centre=(100.0, 100.0), radius=20.0, outline=outline,
                           text="7")
    elsewhere = SimpleNamespace(shape="kite", centre=(300.0, 300.0), radius=20.0,
                                outline=outline + 200, text="12")
    scene = SimpleNamespace(dice=(face, elsewhere))

    def read(unsure: bool) -> ReadDie:
        return ReadDie(Die(7, "B"), 0.99, (105.0, 98.0), tuple(map(tuple, outline)), unsure)

    for unsure, sure_count in ((False, 1), (True, 0)):
        drawn, found, sure = (eval_other_dice.Counter() for _ in range(3))
        eval_other_dice.tally(scene, Reading(dice=(read(unsure),)), drawn, found, sure)
        assert drawn == {"square": 1, "kite": 1}
        assert found == {"square": 1, "kite": 0}
        assert sure["square"] == sure_count and sure["kite"] == 0


def test_the_benchmark_reads_a_tray_and_reports_each_shape(held_out_fonts, capsys):
    assert eval_other_dice.main(["--scenes", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["scenes"] == 1 and figures["faces"] >= 3
    assert set(figures["by_shape"]) == set(SHAPES)
    assert 0.0 <= figures["sure_face_share"] <= 1.0 and 0.0 <= figures["found_share"] <= 1.0
    assert eval_other_dice.main(["--scenes", "1", "--view", "steep", "--json"]) == 0
    steep = json.loads(capsys.readouterr().out)
    assert steep["faces"] == figures["faces"]  # the same tray, tipped
    with pytest.raises(SystemExit):
        eval_other_dice.main(["--scenes", "0"])
    assert "need --scenes >= 1" in capsys.readouterr().err

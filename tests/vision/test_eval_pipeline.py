"""`benchmarks/eval_pipeline.py`'s scenes at another frame size or dice size: the same
draw, drawn otherwise (`vision.evaluation.evaluation_scene`)."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from vision.evaluation import evaluation_scene
from vision.synth.seeds import HELD_OUT_SEED_BASE

eval_pipeline = load_benchmark("eval_pipeline")
SEED = HELD_OUT_SEED_BASE + 31


def _sides(scene) -> np.ndarray:
    return np.array(sorted(np.linalg.norm(d.corners[0] - d.corners[1]) for d in scene.dice))


def test_the_default_scene_is_the_one_the_figures_were_measured_on():
    from vision.synth import render_scene

    np.testing.assert_array_equal(evaluation_scene(SEED).image, render_scene(SEED).image)


def test_smaller_dice_are_the_same_dice_drawn_smaller():
    plain, smaller = evaluation_scene(SEED, die_scale=1.0), evaluation_scene(SEED, die_scale=0.6)
    assert [d.die for d in smaller.dice] == [d.die for d in plain.dice]
    ratio = np.median(_sides(smaller)) / np.median(_sides(plain))
    assert 0.5 < ratio < 0.7
    with pytest.raises(ValueError, match="die_scale"):
        evaluation_scene(SEED, die_scale=0)


def test_another_frame_size_draws_the_scene_at_that_size():
    scene = evaluation_scene(SEED, size=(640, 480))
    assert scene.image.shape == (480, 640, 3) and len(scene.dice) == 10


def test_the_size_option_takes_width_x_height_and_refuses_anything_else(capsys):
    assert eval_pipeline.frame_size("1920x1080") == (1920, 1080)
    for bad in ("1920", "1920by1080", "10x10", "x480"):
        with pytest.raises(SystemExit):
            eval_pipeline.main(["--size", bad])
        assert "WIDTHxHEIGHT" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        eval_pipeline.main(["--die-scale", "0"])
    assert "--die-scale must be above 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        eval_pipeline.main(["--ink-spread", "-1"])
    assert "--ink-spread must be 0 or more" in capsys.readouterr().err
    for bad in ("3", "0.1", "wide"):
        with pytest.raises(SystemExit):
            eval_pipeline.main(["--box-scale", bad])
        assert "--box-scale" in capsys.readouterr().err
    assert eval_pipeline.box_scale("0.9") == 0.9


def test_dice_printed_alike_are_the_same_scene_with_only_the_inks_changed():
    shown = evaluation_scene(SEED, die_scale=1.0)
    assert np.array_equal(evaluation_scene(SEED, die_scale=1.0, ink_spread=12.0).image,
                          shown.image)  # the renderer's own spread
    alike = evaluation_scene(SEED, die_scale=1.0, ink_spread=0.0)
    assert [d.die for d in alike.dice] == [d.die for d in shown.dice]
    np.testing.assert_allclose([d.corners for d in alike.dice], [d.corners for d in shown.dice])
    changed = np.any(alike.image != shown.image, axis=2)
    assert 0 < changed.mean() < 0.2  # the numerals, not the tray
    with pytest.raises(ValueError, match="ink_spread"):
        evaluation_scene(SEED, ink_spread=-1.0)

"""`benchmarks/eval_pipeline.py`'s scenes at another frame size or dice size: the same
draw, drawn otherwise (`vision.evaluation.evaluation_scene`)."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from vision.evaluation import PipelineScore, SceneScore, evaluation_scene
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


def _scene(seed: int, *, right: int, shown_sure: bool) -> SceneScore:
    """A scene of ten dice found, `right` of them read right (and sure); the rest read right
    but marked, or, in a roll shown as sure, read wrong without a mark."""
    silent = 0 if not shown_sure else 10 - right
    return SceneScore(seed=seed, dice=10, missed=0, extra=0, right=right,
                      unsure=10 - right - silent, seconds=0.01,
                      read_right=10 - silent, silent=silent, shown_sure=shown_sure)


def test_the_report_names_every_roll_sure_but_wrong_and_a_few_of_the_merely_marked(capsys):
    """Hands' scenes mostly hold a marked die: the text names the first failed seeds and
    counts the rest, and always names the rolls shown as sure but wrong, the ones to look at;
    the JSON keeps both lists whole."""
    marked = [_scene(seed, right=9, shown_sure=False) for seed in range(100, 130)]
    silent = [_scene(seed, right=9, shown_sure=True) for seed in (7, 8)]
    score = PipelineScore((*silent, _scene(9, right=10, shown_sure=True), *marked))
    eval_pipeline.print_score("hands", score)
    out = capsys.readouterr().out.splitlines()
    lines = {line.split(":")[0]: line.split(":", 1)[1] for line in out if ":" in line}
    assert lines["sure but wrong, seeds"].split() == ["7", "8"]
    assert lines["rolls sure but wrong"].split(";")[0].split() == ["2", "of", "33"]
    failed = lines["failed seeds"].split(" and ")
    shown = eval_pipeline.SHOWN_FAILED_SEEDS
    assert failed[0].split() == [str(s) for s in (7, 8, *range(100, 100 + shown - 2))]
    assert failed[1] == f"{32 - shown} more (--json lists them all)"
    record = score.to_dict()
    assert record["sure_but_wrong_seeds"] == [7, 8]
    assert record["failed_seeds"] == [7, 8, *range(100, 130)]


def test_a_short_list_of_failed_seeds_is_named_whole(capsys):
    score = PipelineScore((_scene(5, right=9, shown_sure=False),
                           _scene(6, right=10, shown_sure=True)))
    eval_pipeline.print_score("prints", score)
    out = capsys.readouterr().out
    assert "failed seeds:              5\n" in out and "more" not in out
    assert "sure but wrong, seeds" not in out

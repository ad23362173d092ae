"""benchmarks/eval_real.py: skips without the photos, matches one to one, reads a folder."""

import json

import cv2
import numpy as np
from benchmark_modules import load_benchmark

from vision.synth import render_scene
from vision.synth.seeds import HELD_OUT_SEED_BASE

eval_real = load_benchmark("eval_real")


def test_an_absent_folder_is_skipped_with_a_reason(tmp_path, capsys):
    assert eval_real.main(["--root", str(tmp_path / "nowhere")]) == 0
    assert "skipped" in capsys.readouterr().out


def test_a_found_die_counts_once_within_half_a_top_of_one_labelled_die():
    dice = np.array([[100, 100, 60], [150, 100, 60]], float)  # (cx, cy, top side)
    assert eval_real.match([(100, 100), (102, 101)], dice) == 1  # two found, one die
    assert eval_real.match([(125, 100)], dice) == 1  # near both: one of them
    assert eval_real.match([(100, 131)], dice) == 0  # more than half a top away
    assert eval_real.match([(300, 300)], dice) == 0
    assert eval_real.match([(100, 100), (150, 100)], dice) == 2


def test_a_labelled_folder_is_read(tmp_path, capsys):
    scene = render_scene(HELD_OUT_SEED_BASE + 3, size=(640, 480))
    folder = tmp_path / eval_real.SET_NAME
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    cv2.imwrite(str(folder / "images" / "scene.jpg"), scene.image)
    lines = []
    for die in scene.dice:  # a six's label: its pips, 0.83 of the top (LABEL_SPAN)
        (x0, y0), (x1, y1) = die.corners.min(axis=0), die.corners.max(axis=0)
        w, h = 0.83 * (x1 - x0), 0.83 * (y1 - y0)
        lines.append(f"5 {(x0 + x1) / 1280} {(y0 + y1) / 960} {w / 640} {h / 480}")
    (folder / "labels" / "scene.txt").write_text("\n".join(lines) + "\n")
    side = float(np.median([np.ptp(die.corners, axis=0).max() for die in scene.dice]))
    assert eval_real.main(["--root", str(tmp_path), "--json", "--die-px", str(side)]) == 0
    report = json.loads(capsys.readouterr().out)
    for step in ("locate", "read"):
        assert report[step]["photos"] == 1 and report[step]["labelled_dice"] == 10
        assert report[step]["located_share"] == 1.0 and report[step]["false_per_photo"] == 0
        assert report[step]["hand_flagged_share"] == 0
    assert "photo" not in report
    assert eval_real.main(["--root", str(tmp_path), "--json", "--as-photos"]) == 0
    photo = json.loads(capsys.readouterr().out)["photo"]  # at its own size, as read does
    assert photo["labelled_dice"] == 10 and photo["located_share"] == 1.0
    assert photo["false_per_photo"] == 0 and photo["hand_flagged_share"] == 0

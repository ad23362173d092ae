"""`benchmarks/doubt_cues.py`: the two cues measured for dice read wrong for sure."""

from __future__ import annotations

import json

import numpy as np
import pytest
from benchmark_modules import load_benchmark

doubt_cues = load_benchmark("doubt_cues")


def _unit(*rows: list[float]) -> np.ndarray:
    array = np.array(rows, np.float64)
    return array / np.linalg.norm(array, axis=1, keepdims=True)


def test_a_die_described_like_a_die_read_otherwise_is_in_conflict_with_it():
    descriptors = _unit([1, 0, 0], [0.99, 0.1, 0], [0, 0, 1])
    conflict = doubt_cues.conflicts(descriptors, ["3", "5", "3"])
    cosine = float(descriptors[0] @ descriptors[1])
    assert conflict[0] == pytest.approx(cosine) and conflict[1] == pytest.approx(cosine)
    assert conflict[2] == pytest.approx(0.0, abs=1e-9)  # the 5 lies at right angles to it


def test_a_frame_read_all_one_value_has_no_conflict():
    assert np.isnan(doubt_cues.conflicts(_unit([1, 0], [0, 1]), ["7", "7"])).all()


def test_the_wall_is_measured_from_the_nearest_corner_in_die_sides():
    tray = np.array([[0, 0], [100, 0], [100, 100], [0, 100]], np.float64)
    inside = np.array([[10, 30], [20, 30], [20, 40], [10, 40]], np.float64)
    across = np.array([[95, 50], [105, 50], [105, 60], [95, 60]], np.float64)
    walls = doubt_cues.wall_distances(tray, [inside, across])
    assert walls == pytest.approx([1.0, -0.5])
    assert np.isnan(doubt_cues.wall_distances(None, [inside])).all()


@pytest.mark.slow
def test_kept_records_give_the_same_figures(tmp_path, capsys, held_out_fonts):
    records = tmp_path / "cues.npz"
    assert doubt_cues.main(["--scenes", "1", "--json", "--records", str(records)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert records.exists()
    assert doubt_cues.main(["--json", "--records", str(records)]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["dice"] >= 30  # four scenes of ten dice, most found
    for trades in (first["conflict"], first["wall"]):
        for counts in trades.values():
            assert counts["off_die_caught"] <= counts["wrong_caught"] <= first["value_wrong"]
            assert counts["right_marked"] <= first["dice"] - first["value_wrong"]


def test_no_scenes_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        doubt_cues.main(["--scenes", "0"])
    assert stopped.value.code == 2
    assert "--scenes must be at least 1" in capsys.readouterr().err


def test_a_records_file_not_named_npz_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        doubt_cues.main(["--records", str(tmp_path / "cues.json"), "--scenes", "1"])
    assert stopped.value.code == 2
    assert "name the file with .npz" in capsys.readouterr().err
    assert not (tmp_path / "cues.json.npz").exists()

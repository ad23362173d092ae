"""benchmarks/eval_profile.py: which dice sets and scenes an evaluation draws."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from benchmark_modules import load_benchmark

from vision.synth.dice_sets import scene_seed

eval_profile = load_benchmark("eval_profile")


def test_a_later_first_set_draws_the_sets_a_longer_run_reaches(monkeypatch):
    drawn = []

    def dice_set_scene(group, dice_set, number):
        drawn.append((group, dice_set, number))
        return SimpleNamespace(image=None, dice=())

    monkeypatch.setattr(eval_profile, "dice_set_scene", dice_set_scene)
    groups = ["held-out-light", "held-out-dark"]
    later = eval_profile.rendered_scenes(groups, first_set=40)
    longer = eval_profile.rendered_scenes(groups)
    assert later(1, 2)[0] == longer(41, 2)[0] == scene_seed(41, 2)
    assert later(0, 0)[0] == scene_seed(40, 0)
    assert drawn == [("held-out-dark", 41, 2), ("held-out-dark", 41, 2),
                     ("held-out-light", 40, 0)]


@pytest.mark.parametrize("argv", [["--first-set", "-1"], ["--sets", "0"],
                                  ["--teach", "10", "--scenes", "10"]])
def test_impossible_draws_are_refused_before_anything_is_read(argv, capsys):
    with pytest.raises(SystemExit):
        eval_profile.main(argv)
    assert "need --sets >= 1, --first-set >= 0" in capsys.readouterr().err

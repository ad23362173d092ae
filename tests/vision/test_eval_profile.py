"""benchmarks/eval_profile.py: which dice sets and scenes an evaluation draws."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from benchmark_modules import load_benchmark

from vision.synth.dice_sets import dice_set_scene, scene_seed
from vision.synth.font_library import MissingFontError

eval_profile = load_benchmark("eval_profile")


def test_a_later_first_set_draws_the_sets_a_longer_run_reaches(monkeypatch):
    drawn = []

    def dice_set_scene(group, dice_set, number, ink_spread=None):
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


def test_a_household_s_dice_printed_alike_are_the_same_scenes_with_only_the_inks_changed():
    """`--ink-spread 0`: the household's dice as real dice are, each colour from one ink,
    in the same scenes (dice, places, mat and lamp) as the renderer's draw."""
    try:
        drawn = dice_set_scene("held-out-light", 3, 4)
    except MissingFontError as error:  # `bash models/install_fonts.sh --held-out` installs them
        pytest.skip(f"the held-out fonts are not installed: {error}")
    alike = dice_set_scene("held-out-light", 3, 4, ink_spread=0.0)
    again = eval_profile.rendered_scenes(["held-out-light"], 3, ink_spread=0.0)(0, 4)
    assert np.array_equal(again[1], alike.image)
    assert [d.die for d in alike.dice] == [d.die for d in drawn.dice]
    np.testing.assert_allclose([d.corners for d in alike.dice], [d.corners for d in drawn.dice])
    changed = np.any(alike.image != drawn.image, axis=2)
    assert 0 < changed.mean() < 0.2  # the numerals, not the tray
    with pytest.raises(ValueError, match="ink_spread"):
        dice_set_scene("held-out-light", 3, 4, ink_spread=-1.0)


@pytest.mark.parametrize(("argv", "message"), [
    (["--ink-spread", "-1"], "--ink-spread must be 0 or more"),
    (["--ink-spread", "0", "--renderer", "foreign"], "not with --renderer foreign"),
])
def test_an_impossible_print_is_refused_before_anything_is_read(argv, message, capsys):
    with pytest.raises(SystemExit):
        eval_profile.main(argv)
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--first-set", "-1"], ["--sets", "0"],
                                  ["--teach", "10", "--scenes", "10"],
                                  ["--teach", "3", "--read-from", "2"]])
def test_impossible_draws_are_refused_before_anything_is_read(argv, capsys):
    with pytest.raises(SystemExit):
        eval_profile.main(argv)
    assert "need --sets >= 1, --first-set >= 0 and 0 <= --teach <= --read-from" in (
        capsys.readouterr().err)


def test_read_from_reads_the_same_scenes_whatever_was_taught(monkeypatch):
    """Teaching one roll or three, `--read-from 5` reads scenes 5 to 11 of each set, and
    renders no scene it neither teaches nor reads."""
    monkeypatch.setattr(eval_profile, "teach", lambda reader, image, roll, profile:
                        SimpleNamespace(profile=profile))
    monkeypatch.setattr(eval_profile, "use_profile", lambda reader, profile: None)
    monkeypatch.setattr(eval_profile, "timed_score", lambda reader, seed, image, dice:
                        (SimpleNamespace(seed=seed), None))
    for taught in (1, 3):
        drawn = []

        def scene_of(index, number, drawn=drawn):
            drawn.append(number)
            return index * 100 + number, None, ()

        scores = eval_profile.evaluate(SimpleNamespace(profile=None), scene_of, 2, 12, taught,
                                       read_from=5)
        read = [*range(5, 12), *range(105, 112)]
        assert [score.seed for score in scores["after"].scenes] == read
        assert [score.seed for score in scores["before"].scenes] == read
        assert drawn == [*range(taught), *range(5, 12)] * 2


@pytest.fixture(scope="module")
def reader():
    from vision.read.pipeline import DiceReader

    return DiceReader(threads=1)


def test_a_die_read_wrong_joins_the_profile_with_its_true_face(reader):
    """As a correction on the scorepad does: the die's crop as the reader cut it, with
    the face the table truly shows; the dice read right add nothing."""
    from dataclasses import replace

    from scorer import Die
    from vision.evaluation import score_reading
    from vision.profile.profile import DiceProfile
    from vision.synth import render_scene

    scene = render_scene(11)
    reading = reader.read(scene.image)
    assert len(reading.dice) == len(scene.dice)
    assert score_reading(11, scene.dice, reading, 0).read_right == len(scene.dice), (
        "the test wants a scene the reader reads right")
    empty = DiceProfile.empty()
    assert not len(eval_profile.corrected(reader, empty, scene.image, reading, scene.dice))
    first = reading.dice[0]
    nearest = min(range(len(scene.dice)), key=lambda i: sum(
        (a - b) ** 2 for a, b in zip(scene.dice[i].centre, first.centre, strict=True)))
    other = Die(1, "G") if first.die != Die(1, "G") else Die(2, "B")
    truth = list(scene.dice)
    truth[nearest] = replace(truth[nearest], die=other)
    learnt = eval_profile.corrected(reader, empty, scene.image, reading, truth)
    assert learnt.dice == [other]
    assert (learnt.crops[0] == reader.crop(scene.image, np.asarray(first.corners,
                                                                   np.float32))).all()


@pytest.mark.parametrize(("option", "typed"), [("mistyped", "5O"), ("mistyped_value", "9R")])
def test_a_slip_is_typed_in_each_sets_first_taught_roll_only(monkeypatch, option, typed):
    """`--mistyped` types the first die's colour wrong (5R as 5O), `--mistyped-value` its
    value (6R as 9R), in the first taught roll of each set and no other."""
    from scorer import Die

    taught = []
    monkeypatch.setattr(eval_profile, "teach", lambda reader, image, roll, profile:
                        taught.append(sorted(map(str, roll))) or SimpleNamespace(profile=profile))
    monkeypatch.setattr(eval_profile, "use_profile", lambda reader, profile: None)
    monkeypatch.setattr(eval_profile, "timed_score", lambda reader, seed, image, dice:
                        (SimpleNamespace(seed=seed), None))
    first = Die(5, "R") if option == "mistyped" else Die(6, "R")
    dice = [SimpleNamespace(die=first), SimpleNamespace(die=Die(2, "G"))]
    eval_profile.evaluate(SimpleNamespace(profile=None), lambda index, number: (
        index * 100 + number, None, dice), 2, 4, 2, **{option: True})
    assert taught == [["2G", typed], sorted(["2G", str(first)])] * 2


def test_a_scored_roll_is_learnt_as_the_players_score_it(reader):
    """`--scored-rolls`: every die read joins the profile, a marked one with the face the
    table truly shows (the players checked it), any other as read, even when read wrong
    (no one looked at it), unless it is too doubtful to learn unchecked; a die on no true
    die is left out."""
    from dataclasses import replace

    from scorer import Die
    from vision.synth import render_scene

    scene = render_scene(11)
    reading = reader.read(scene.image)
    assert len(reading.dice) == len(scene.dice)
    crops, faces = eval_profile.scored_dice(reader, scene.image, reading, scene.dice)
    assert faces == [read.die for read in reading.dice]
    assert all((crop == reader.crop(scene.image, np.asarray(read.corners, np.float32))).all()
               for crop, read in zip(crops, reading.dice, strict=True))
    other = Die(1, "G") if reading.dice[0].die != Die(1, "G") else Die(2, "B")
    marked = replace(reading.dice[0], die=other, unsure=True)  # read wrong, marked
    silent = replace(reading.dice[1], die=other)  # read wrong, not marked
    away = replace(reading.dice[2], centre=(-500.0, -500.0))  # on no die of the table
    doubtful = replace(reading.dice[3], probability=0.95)  # not marked, not sure enough
    altered = replace(reading, dice=(marked, silent, away, doubtful, *reading.dice[4:]))
    _, faces = eval_profile.scored_dice(reader, scene.image, altered, scene.dice)
    assert faces == [reading.dice[0].die, other, *[read.die for read in reading.dice[4:]]]


def test_scored_rolls_and_corrections_are_two_households(capsys):
    with pytest.raises(SystemExit):
        eval_profile.main(["--scored-rolls", "--corrections"])
    assert "pick one" in capsys.readouterr().err

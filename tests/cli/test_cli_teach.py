"""`phase10 teach --profile DIR IMAGE ROLL` and `phase10 read --profile DIR` on golden photos."""

import json
from pathlib import Path

from cli.main import main
from vision.profile.profile import PROFILE_FILE, DiceProfile

GOLDEN = Path(__file__).parents[1] / "data" / "golden"


def _roll(name: str) -> list[str]:
    truth = json.loads((GOLDEN / f"{name}.json").read_text())
    return sorted(die["notation"] for die in truth["dice"])  # any order, as a user types it


def test_teaching_two_photos_grows_the_profile_and_read_uses_it(capsys, tmp_path):
    profile = tmp_path / "profile"
    light, dark = str(GOLDEN / "full_light.jpg"), str(GOLDEN / "full_dark.jpg")
    assert main(["teach", "--profile", str(profile), light, " ".join(_roll("full_light"))]) == 0
    assert "taught 10 dice" in capsys.readouterr().out
    assert main(["teach", "--profile", str(profile), "--json", dark, *_roll("full_dark")]) == 0
    taught = json.loads(capsys.readouterr().out)
    assert sorted(d["notation"] for d in taught["taught"]) == _roll("full_dark")
    assert taught["examples"] == 20 == len(DiceProfile.load(profile))
    assert main(["read", "--profile", str(profile), "--json", light]) == 0
    reading = json.loads(capsys.readouterr().out)
    assert sorted(d["notation"] for d in reading["dice"]) == _roll("full_light")


def test_a_roll_that_does_not_fit_is_refused_and_the_profile_left_alone(capsys, tmp_path):
    light = str(GOLDEN / "full_light.jpg")
    assert main(["teach", "--profile", str(tmp_path), light, *_roll("full_light")[:9]]) == 2
    assert "10 dice found in the picture, but the roll has 9" in capsys.readouterr().err
    assert not (tmp_path / PROFILE_FILE).exists()
    assert main(["teach", "--profile", str(tmp_path), light, "1R 2Q"]) == 2
    assert "is not a die" in capsys.readouterr().err
    empty = str(GOLDEN / "empty_tray.jpg")
    assert main(["teach", "--profile", str(tmp_path), empty, *_roll("full_light")]) == 2
    assert "no dice found" in capsys.readouterr().err


def test_a_corrupt_profile_is_named_and_nothing_is_overwritten(capsys, tmp_path):
    (tmp_path / PROFILE_FILE).write_bytes(b"garbage")
    light = str(GOLDEN / "full_light.jpg")
    assert main(["teach", "--profile", str(tmp_path), light, *_roll("full_light")]) == 2
    assert f"dice profile {tmp_path / PROFILE_FILE}" in capsys.readouterr().err
    assert (tmp_path / PROFILE_FILE).read_bytes() == b"garbage"
    assert main(["read", "--profile", str(tmp_path), light]) == 2
    assert "not a readable dice profile" in capsys.readouterr().err


def test_a_face_typed_wrong_is_named_after_teaching(capsys, tmp_path):
    """Three rolls taught, one red die of the first typed orange: the reader leaves it
    out, and `teach` says which it is."""
    import cv2
    from profile_helpers import SLIP_SCENES

    from vision.synth import render_scene

    profile = tmp_path / "profile"
    for number, seed in enumerate(SLIP_SCENES):
        scene = render_scene(seed)
        image = tmp_path / f"roll{number}.png"
        cv2.imwrite(str(image), scene.image)
        roll = [str(truth.die) for truth in scene.dice]
        if number == 0:
            index = next(i for i, face in enumerate(roll) if face.endswith("R"))
            slip, roll[index] = roll[index], roll[index][:-1] + "O"
        assert main(["teach", "--profile", str(profile), "--json", str(image), *roll]) == 0
        taught = json.loads(capsys.readouterr().out)
    assert taught["left_out"] == [{"confirmed": slip[:-1] + "O", "looks_like": slip}]
    assert len(DiceProfile.load(profile)) == 30  # kept in the profile, left out of reading
    assert main(["teach", "--profile", str(profile), str(image), *roll]) == 0
    assert f"left out of the reading, the face confirmed unlike how it looks ({slip[:-1]}O " \
        f"looks like {slip})" in capsys.readouterr().out

"""`phase10 read IMAGE... [--json] [--overlay DIR]` on the golden photos."""

import json
from pathlib import Path

import cv2
import numpy as np
from fakes import CannotReadFirst

from cli.main import main

GOLDEN = Path(__file__).parents[1] / "data" / "golden"


def test_json_lines_one_per_image_with_the_dice(capsys):
    images = [str(GOLDEN / "full_light.jpg"), str(GOLDEN / "few_dice.jpg")]
    assert main(["read", *images, "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["image"] for line in lines] == images
    truth = json.loads((GOLDEN / "few_dice.json").read_text())
    assert sorted(d["notation"] for d in lines[1]["dice"]) == sorted(
        d["notation"] for d in truth["dice"]
    )
    die = lines[0]["dice"][0]
    assert set(die) >= {"value", "colour", "notation", "centre", "confidence", "unsure",
                        "unreadable", "box"}
    assert die["unreadable"] is False and len(die["box"]) == 4
    assert len(lines[0]["dice"]) == 10 and lines[0]["complete"] is True


def test_a_bad_image_is_reported_the_others_still_read_and_the_exit_is_nonzero(
    capsys, tmp_path
):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 not really a jpeg")
    images = [str(tmp_path / "missing.png"), str(broken), str(GOLDEN / "cluster.jpg")]
    assert main(["read", *images, "--json"]) == 1
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert lines[0] == {"image": images[0], "error": "no such file"}
    assert lines[1] == {"image": images[1], "error": "not a readable image"}
    assert len(lines[2]["dice"]) == 10
    assert "missing.png: no such file" in captured.err


def test_plain_output_and_overlays(capsys, tmp_path):
    image = GOLDEN / "tilted.jpg"
    assert main(["read", str(image), "--overlay", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    truth = json.loads((GOLDEN / "tilted.json").read_text())
    assert out.startswith(f"{image}: ")
    assert sorted(out.split(": ", 1)[1].split()) == sorted(d["notation"] for d in truth["dice"])
    overlay = cv2.imread(str(tmp_path / "out" / "tilted.overlay.jpg"))
    assert overlay is not None and overlay.shape == cv2.imread(str(image)).shape


def test_a_missing_model_is_a_clear_error(capsys, tmp_path):
    assert main(["read", str(GOLDEN / "cluster.jpg"), "--model", str(tmp_path / "x.onnx")]) == 2
    assert "cannot load the face classifier" in capsys.readouterr().err


def test_a_corrupt_locator_is_a_clear_error(capsys, tmp_path):
    locator = tmp_path / "tops.onnx"
    locator.write_bytes(b"not a network")
    (tmp_path / "tops.sha256").write_text("0" * 64 + "  tops.onnx\n")
    assert main(["read", str(GOLDEN / "cluster.jpg"), "--locator", str(locator)]) == 2
    err = capsys.readouterr().err
    assert "cannot load the top-face locator" in err and "SHA-256" in err


def test_a_die_that_cannot_be_read_is_listed_with_no_value(capsys, monkeypatch):
    from vision.read.classifier import FaceClassifier

    real_load = FaceClassifier.load
    monkeypatch.setattr(
        FaceClassifier, "load", classmethod(lambda cls, *a, **k: CannotReadFirst(real_load()))
    )
    image = str(GOLDEN / "full_light.jpg")
    assert main(["read", image, "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert len(line["dice"]) == 10 and line["complete"] is False
    assert "unreadable-dice" in line["flags"]
    unreadable = [die for die in line["dice"] if die["unreadable"]]
    assert len(unreadable) == 1
    die = unreadable[0]
    assert die["value"] is None and die["colour"] is None and die["notation"] is None
    assert len(die["centre"]) == 2 and len(die["box"]) == 4
    truth = json.loads((GOLDEN / "full_light.json").read_text())
    topmost = min(truth["dice"], key=lambda d: d["centre"][1])
    assert np.hypot(*np.subtract(die["centre"], topmost["centre"])) < 0.35 * topmost["side"]
    assert main(["read", image]) == 0
    assert capsys.readouterr().out.rstrip().endswith("??  [unreadable-dice]")


def test_a_large_phone_photo_stored_sideways_is_read_in_its_own_upright_pixels(
    capsys, tmp_path
):
    from photo_helpers import STORE, encode

    from vision.synth import render_scene
    from vision.synth.locator_training import tilt_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    seed = HELD_OUT_SEED_BASE + 9103
    scene = tilt_scene(render_scene(seed, size=(1600, 1200)), np.random.default_rng(seed), 0.06)
    upright = cv2.resize(scene.image, (3200, 2400), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "IMG_0001.jpg"
    path.write_bytes(encode(STORE[6](upright), 6))  # a phone held upright: stored sideways
    assert main(["read", str(path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["frame_size"] == [3200, 2400]  # the photo as it is shown
    assert sorted(d["notation"] for d in line["dice"]) == sorted(
        str(die.die) for die in scene.dice)
    for die in scene.dice:  # each die found where it lies in the upright photo
        centre = 2 * np.asarray(die.centre)
        nearest = min(np.hypot(*np.subtract(d["centre"], centre)) for d in line["dice"])
        assert nearest < 0.25 * 2 * np.linalg.norm(die.corners[0] - die.corners[1])
    # Asked for an overlay too (the photo then decoded in full to draw on): the same
    # reading, drawn on the upright photo.
    assert main(["read", str(path), "--json", "--overlay", str(tmp_path / "out")]) == 0
    assert json.loads(capsys.readouterr().out) == line
    overlay = cv2.imread(str(tmp_path / "out" / "IMG_0001.overlay.jpg"))
    assert overlay is not None and overlay.shape[:2] == (2400, 3200)

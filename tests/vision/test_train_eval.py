"""Training (only where torch is installed), the eval-model command and their options."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cli.main import main
from models.options import (
    LocatorConfig,
    TrainConfig,
    add_arguments,
    add_locator_arguments,
    config_from_args,
    locator_config_from_args,
)
from vision.synth.seeds import EVAL_SEED_BASE


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


def test_train_options_are_checked_without_torch():
    config = config_from_args(_parse("--seed", "3", "--epochs", "2", "--threads", "1"))
    assert config == TrainConfig(seed=3, epochs=2, threads=1)
    with pytest.raises(ValueError, match="--epochs must be at least 1"):
        config_from_args(_parse("--epochs", "0"))
    with pytest.raises(ValueError, match="--seed must be in 0..9999"):
        config_from_args(_parse("--seed", "10000"))


def test_cli_refuses_bad_train_options_before_importing_torch(capsys):
    assert main(["train", "--train-crops", "0"]) == 2
    assert "--train-crops must be at least 1" in capsys.readouterr().err


def test_eval_model_reports_a_missing_model(tmp_path, capsys):
    assert main(["eval-model", "--model", str(tmp_path / "none.onnx")]) == 2
    err = capsys.readouterr().err
    assert "none.onnx" in err and "file not found" in err


@pytest.mark.slow
def test_eval_model_json_report(capsys):
    assert main(["eval-model", "--faces", "60", "--json", "--group", "hershey"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["first_seed"] == EVAL_SEED_BASE and list(result["groups"]) == ["hershey"]
    report = result["groups"]["hershey"]
    assert report["face_crops"] == 60
    assert set(report["colour_accuracy_by_colour"]) == {"R", "O", "G", "B"}
    assert len(report["value_confusion"]) == 11 and len(report["colour_confusion"]) == 4
    assert sum(map(sum, report["value_confusion"])) == 60
    assert set(report["six_nine"]) == {"6_as_9", "9_as_6"}
    assert set(report["one_seven"]) == {"1_as_7", "7_as_1"}
    assert 0.0 <= report["negative_rejection_rate"] <= 1.0


@pytest.mark.slow
def test_eval_model_text_report(capsys):
    assert main(["eval-model", "--faces", "30", "--group", "hershey"]) == 0
    out = capsys.readouterr().out
    assert "value accuracy" in out and "6 vs 9" in out and "not-a-die rejection" in out


@pytest.mark.slow
def test_eval_model_skips_groups_whose_fonts_are_missing_and_names_the_package(no_fonts, capsys):
    assert main(["eval-model", "--faces", "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result["groups"]) == ["hershey"]
    assert set(result["skipped"]) == {
        "held-out-light",
        "held-out-dark",
        "train-light",
        "train-dark",
        "handwritten-light",
        "handwritten-dark",
    }
    assert "fonts-sil-charis" in result["skipped"]["held-out-light"]
    assert "fonts-kaushanscript" in result["skipped"]["handwritten-dark"]


def test_eval_model_refuses_a_named_group_whose_fonts_are_missing(no_fonts, capsys):
    assert main(["eval-model", "--faces", "20", "--group", "held-out-dark"]) == 2
    err = capsys.readouterr().err
    assert "not installed" in err and "fonts-hack" in err and "install_fonts.sh" in err


def test_eval_model_refuses_an_unknown_group(capsys):
    assert main(["eval-model", "--faces", "20", "--group", "nope"]) == 2
    assert "unknown evaluation group 'nope'" in capsys.readouterr().err


@pytest.mark.slow
def test_training_seeds_stay_below_the_evaluation_seeds():
    pytest.importorskip("torch")
    from models.train import chunk_seeds

    seeds = chunk_seeds(9999, 60_000)
    assert max(seeds) < EVAL_SEED_BASE and len(set(seeds)) == 60
    assert not set(chunk_seeds(1, 5000)) & set(chunk_seeds(2, 5000))


@pytest.mark.slow
def test_tiny_training_run_exports_a_loadable_reproducible_model(tmp_path, training_fonts):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.train import train
    from vision.read.classifier import FaceClassifier

    def run(name: str) -> dict:
        config = TrainConfig(
            seed=1,
            train_crops=256,
            val_crops=64,
            epochs=1,
            batch_size=64,
            threads=1,
            workers=1,
            output=tmp_path / name,
        )
        return train(config)

    first = run("a.onnx")
    second = run("b.onnx")
    assert first["onnx_max_abs_diff"] < 1e-4
    assert first["sha256"] == second["sha256"]  # same seed, same weights, same file
    assert (tmp_path / "a.sha256").read_text().split()[0] == first["sha256"]
    classifier = FaceClassifier.load(tmp_path / "a.onnx")
    result = classifier.predict(np.zeros((3, 40, 40, 3), np.uint8))
    assert result.value_probs.shape == (3, 11)


def _parse_locator(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_locator_arguments(parser)
    return parser.parse_args(list(argv))


def test_locator_options_are_checked_without_torch():
    config = locator_config_from_args(_parse_locator("--seed", "2", "--crop", "96x64"))
    assert config == LocatorConfig(seed=2, crop=(96, 64))
    with pytest.raises(ValueError, match="--scenes must be at least 1"):
        locator_config_from_args(_parse_locator("--scenes", "0"))
    with pytest.raises(ValueError, match="--seed must be in 0..399"):
        locator_config_from_args(_parse_locator("--seed", "400"))
    with pytest.raises(SystemExit):
        _parse_locator("--crop", "100x60")  # not on the network's 8-pixel grid
    assert locator_config_from_args(_parse_locator("--steep-share", "0.5")).steep_share == 0.5
    with pytest.raises(ValueError, match="--steep-share must be between 0 and 1"):
        locator_config_from_args(_parse_locator("--steep-share", "1.5"))
    assert locator_config_from_args(_parse_locator()).lean_share is None  # the renderer's
    assert locator_config_from_args(_parse_locator("--lean-share", "0.8")).lean_share == 0.8
    with pytest.raises(ValueError, match="--lean-share must be between 0 and 1"):
        locator_config_from_args(_parse_locator("--lean-share", "-0.1"))
    both = _parse_locator("--steep-share", "0.5", "--aside-share", "0.5")
    assert locator_config_from_args(both).aside_share == 0.5
    assert locator_config_from_args(_parse_locator()).aside_share == 0.0
    with pytest.raises(ValueError, match="--aside-share must be between 0 and 1"):
        locator_config_from_args(_parse_locator("--steep-share", "0.5", "--aside-share", "2"))
    with pytest.raises(ValueError, match="--aside-share needs --steep-share"):
        locator_config_from_args(_parse_locator("--aside-share", "0.5"))
    kept = _parse_locator("--init", "models/dice_tops.onnx", "--keep-weight", "1")
    assert locator_config_from_args(kept).keep_weight == 1.0
    with pytest.raises(ValueError, match="--keep-weight needs --init"):
        locator_config_from_args(_parse_locator("--keep-weight", "1"))
    with pytest.raises(ValueError, match="--keep-weight must be 0 or more"):
        locator_config_from_args(_parse_locator("--init", "x.onnx", "--keep-weight", "-1"))


def test_cli_refuses_bad_locator_options_before_importing_torch(capsys):
    assert main(["train-locator", "--epochs", "0"]) == 2
    assert "--epochs must be at least 1" in capsys.readouterr().err


def test_locator_training_seeds_stay_apart_from_held_out_scenes():
    pytest.importorskip("torch")
    from models.train_locator import scene_seeds
    from vision.synth.seeds import HELD_OUT_SEED_BASE, LOCATOR_SEED_BASE

    train = scene_seeds(399, 8000)
    validation = scene_seeds(399, 300, validation=True)
    assert LOCATOR_SEED_BASE <= min(train) and max(validation) + 100 < HELD_OUT_SEED_BASE
    assert not set(scene_seeds(1, 8000)) & set(scene_seeds(2, 8000))
    assert max(train) + 100 <= min(validation)


@pytest.mark.slow
def test_tiny_locator_training_run_exports_a_loadable_network(tmp_path, training_fonts):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.options import LocatorConfig as Config
    from models.train_locator import train
    from vision.read.tops import TopFinder

    config = Config(
        scenes=32,
        val_scenes=8,
        epochs=1,
        batch_size=8,
        crop=(96, 64),
        threads=1,
        workers=1,
        output=tmp_path / "tops.onnx",
    )
    scores = train(config)
    assert 0.0 <= scores["iou_top"] <= 1.0
    finder = TopFinder.load(tmp_path / "tops.onnx")
    assert finder.maps(np.zeros((480, 640, 3), np.uint8)).shape == (3, 120, 160)


@pytest.mark.slow
def test_a_locator_run_cut_short_resumes_to_the_same_network(tmp_path, training_fonts, monkeypatch):
    """Cut short in its second epoch, `--resume` goes on from the first epoch's checkpoint
    and exports the network an uninterrupted run exports."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import models.train_locator as train_locator
    from models.checkpoint import checkpoint_path
    from models.options import LocatorConfig as Config
    from vision.read.tops import TopFinder

    config = Config(
        scenes=16, val_scenes=8, epochs=2, batch_size=8, crop=(96, 64), threads=1, workers=1,
        cache=tmp_path / "cache", output=tmp_path / "whole.onnx",
    )
    train_locator.train(config)
    cut = replace(config, output=tmp_path / "cut.onnx")
    exported = train_locator.export_locator

    def export_then_stop(net, path, sample):
        exported(net, path, sample)
        if checkpoint_path(cut.output).exists():
            raise KeyboardInterrupt  # the machine went away during the second epoch's export

    monkeypatch.setattr(train_locator, "export_locator", export_then_stop)
    with pytest.raises(KeyboardInterrupt):
        train_locator.train(cut)
    monkeypatch.setattr(train_locator, "export_locator", exported)
    assert checkpoint_path(cut.output).exists()
    evaluated = []
    evaluate = train_locator.evaluate
    monkeypatch.setattr(
        train_locator, "evaluate", lambda net, scenes: evaluated.append(1) or evaluate(net, scenes)
    )
    train_locator.train(replace(cut, resume=True))
    assert len(evaluated) == 1  # the second epoch alone was trained again
    assert not checkpoint_path(cut.output).exists()  # a finished run leaves none behind
    frame = np.random.default_rng(0).integers(0, 256, (480, 640, 3), np.uint8)
    np.testing.assert_allclose(
        TopFinder.load(cut.output).maps(frame), TopFinder.load(config.output).maps(frame),
        atol=1e-6,
    )


@pytest.mark.slow
def test_a_fine_tuned_locator_starts_exactly_where_the_shipped_one_is():
    """--init loads the exported network (batch norms folded in) back into PyTorch."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import onnxruntime as ort
    import torch

    from models.locator_net import TopNet, TopNetProbabilities
    from models.onnx_init import freeze_norms, load_onnx_weights
    from models.options import DEFAULT_LOCATOR_PATH

    net = TopNet()
    load_onnx_weights(net, DEFAULT_LOCATOR_PATH)
    net.train()
    freeze_norms(net)  # training mode, but the folded norms stay as loaded
    x = np.random.default_rng(0).random((1, 5, 128, 160)).astype(np.float32)
    session = ort.InferenceSession(str(DEFAULT_LOCATOR_PATH))
    want = session.run(None, {session.get_inputs()[0].name: x})[0]
    with torch.no_grad():
        got = TopNetProbabilities(net)(torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(got, want, atol=1e-5)


def test_the_kept_loss_is_least_where_the_maps_are_the_init_networks():
    """--keep-weight pulls a fine-tune towards the network it started from: its loss is
    lowest for that network's own maps and grows as the maps move away."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import torch

    from models.locator_net import TopNet
    from models.onnx_init import load_onnx_weights
    from models.options import DEFAULT_LOCATOR_PATH
    from models.train_locator import _kept_loss

    teacher = TopNet()
    load_onnx_weights(teacher, DEFAULT_LOCATOR_PATH)
    teacher.eval()
    x = torch.from_numpy(np.random.default_rng(1).random((2, 5, 128, 160)).astype(np.float32))
    with torch.no_grad():
        own = teacher(x)
        losses = [float(_kept_loss(own + shift, teacher, x)) for shift in (0.0, 0.5, 2.0)]
    assert losses[0] < losses[1] < losses[2]


def test_a_locator_of_another_shape_is_refused(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.locator_net import TopNet
    from models.onnx_init import load_onnx_weights
    from models.options import DEFAULT_LOCATOR_PATH

    with pytest.raises(ValueError, match="is \\(16, 5, 3, 3\\), not"):
        load_onnx_weights(TopNet(widths=(8, 32, 64, 96)), DEFAULT_LOCATOR_PATH)


def test_a_fine_tuned_classifier_starts_exactly_where_the_shipped_one_is():
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import torch

    from models.net import FaceNetProbabilities, build_net
    from models.onnx_init import load_onnx_weights
    from models.options import DEFAULT_MODEL_PATH
    from vision.read.classifier import FaceClassifier
    from vision.read.crops import crops_to_tensor

    net = build_net()  # the shipped size
    load_onnx_weights(net, DEFAULT_MODEL_PATH)
    net.eval()
    crops = np.random.default_rng(1).integers(0, 256, (6, 40, 40, 3), dtype=np.uint8)
    want = FaceClassifier.load(DEFAULT_MODEL_PATH).predict(crops)
    with torch.no_grad():
        value, colour, face, _ = FaceNetProbabilities(net)(torch.from_numpy(crops_to_tensor(crops)))
    np.testing.assert_allclose(value.numpy(), want.value_probs, atol=1e-5)
    np.testing.assert_allclose(colour.numpy(), want.colour_probs, atol=1e-5)
    np.testing.assert_allclose(face.numpy(), want.face_prob, atol=1e-5)


def test_a_cached_chunk_is_rendered_once_and_named_by_its_look(tmp_path):
    from models.chunk_cache import cached_chunk, look_key
    from vision.synth.looks import LookMix

    calls = []

    def render():
        calls.append(1)
        return np.arange(6).reshape(2, 3), np.ones(2, bool)

    path = tmp_path / "chunk.npz"
    first = cached_chunk(path, ("a", "b"), render)
    again = cached_chunk(path, ("a", "b"), render)
    assert len(calls) == 1 and not list(tmp_path.glob("*.partial.npz"))
    for got, want in zip(again, first, strict=True):
        np.testing.assert_array_equal(got, want)
    assert cached_chunk(None, ("a", "b"), render) and len(calls) == 2
    assert look_key(LookMix(("x.ttf",))) != look_key(LookMix(("x.ttf",), world=True))
    assert look_key(None) == look_key(None)


def test_a_streaming_run_trains_side_by_side_and_exports_each_network(
    tmp_path, training_fonts, held_out_fonts
):
    """`models.train_stream` on the CPU: workers render while two sizes train on the same
    batches; each is exported, loads in the app, and its state lets a run go on."""
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.train_stream import StreamConfig, run
    from vision.read.classifier import FaceClassifier

    def config(output, init=None) -> StreamConfig:
        return StreamConfig(
            seed=1,
            minutes=0.05,
            architectures=("small", "wide"),
            output_dir=output,
            max_crops=2000,
            val_crops=1000,
            batch_size=64,
            workers=1,
            device="cpu",
            init=init,
        )

    summary = run(config(tmp_path / "first"))
    assert summary["steps"] > 0 and summary["crops_rendered"] == 2000
    for name in ("small", "wide"):
        assert (tmp_path / "first" / f"{name}.pt").exists()
        classifier = FaceClassifier.load(tmp_path / "first" / f"{name}.onnx")
        assert classifier.sha256 == summary["final"][name]["sha256"]
    written = json.loads((tmp_path / "first" / "summary.json").read_text())
    assert written["steps"] == summary["steps"]
    again = run(config(tmp_path / "second", init=tmp_path / "first"))
    assert again["steps"] > 0


def test_a_streaming_run_can_start_from_the_shipped_export():
    """`--init models/dice_faces.onnx`: the network reads as the shipped file does, and its
    folded batch norms stay frozen through an evaluation (which switches to training mode)."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from torch import nn

    from models.train_stream import _load_export, scores
    from vision.read.classifier import FaceClassifier
    from vision.read.crops import crops_to_tensor

    shipped_file = Path(__file__).resolve().parents[2] / "models" / "dice_faces.onnx"
    net = _load_export("wide", shipped_file, "cpu")
    crops = np.random.default_rng(3).integers(0, 256, (6, 40, 40, 3), dtype=np.uint8)
    with torch.no_grad():
        value_logits = net.eval()(torch.from_numpy(crops_to_tensor(crops)))[0]
    shipped = FaceClassifier.load().predict(crops).value_probs
    np.testing.assert_allclose(value_logits.softmax(1).numpy(), shipped, atol=1e-4)
    labels = torch.zeros(6, dtype=torch.long)
    scores(net.train(), (torch.from_numpy(crops), labels, labels, torch.ones(6, dtype=bool)))
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    assert net.training and norms and not any(m.training for m in norms)
    with pytest.raises(ValueError, match="dice_faces.onnx is not a 'small' network"):
        _load_export("small", shipped_file, "cpu")


def test_the_hardest_crops_are_the_ones_the_network_reads_worst():
    """`--hardest-share`: the crops a step learns from are those of highest loss, and the
    per-crop losses average to the loss the trainers learn from."""
    torch = pytest.importorskip("torch")
    from models.net import build_net
    from models.train import supervised_loss
    from models.train_stream import crop_losses, hardest

    torch.manual_seed(0)
    net = build_net("small").eval()
    x = torch.randn(16, 3, 40, 40)
    values = torch.randint(0, 11, (16,))
    colours = torch.randint(0, 4, (16,))
    faces = torch.arange(16) % 4 != 0  # every fourth crop no face (no value, no colour)
    values[~faces] = -1
    colours[~faces] = -1
    with torch.no_grad():
        logits = net(x)
        per_crop = crop_losses(logits, values, colours, faces)
        faces_part = supervised_loss(logits, values, colours, faces)
    face_bce = torch.nn.functional.binary_cross_entropy_with_logits(logits[2], faces.float())
    value_and_colour = per_crop[faces].sum() - torch.nn.functional.binary_cross_entropy_with_logits(
        logits[2][faces], faces[faces].float(), reduction="sum")
    # supervised_loss: the face loss over all crops, the value and colour over the faces.
    assert float(face_bce + value_and_colour / int(faces.sum())) == pytest.approx(
        float(faces_part), rel=1e-5)
    picked = hardest(net, x, (values, colours, faces), 0.25)
    assert len(picked) == 4
    assert set(picked.tolist()) == set(per_crop.argsort(descending=True)[:4].tolist())
    # Judging a batch mid-training leaves the network training, its norms' statistics as
    # they were.
    norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
    assert norms
    before = [m.running_mean.clone() for m in norms]
    net.train()
    hardest(net, x, (values, colours, faces), 0.25)
    assert net.training
    assert all(torch.equal(a, m.running_mean) for a, m in zip(before, norms, strict=True))


def test_a_teacher_taught_where_right_teaches_only_the_crops_it_reads_right():
    """`--taught-where-right`: the teacher's beliefs pull on the crops it reads right; a
    crop it misreads learns from its label alone, so a fine-tune is not pulled back towards
    the teacher's mistakes. Without the option every crop is taught, as before."""
    torch = pytest.importorskip("torch")
    from models.net import build_net
    from models.train import supervised_loss
    from models.train_stream import losses, teacher_right

    torch.manual_seed(0)
    student = build_net("small").eval()
    teacher = build_net("small").eval()
    x = torch.randn(12, 3, 40, 40)
    with torch.no_grad():
        taught = teacher(x)
    values = taught[0].argmax(1).clone()
    colours = taught[1].argmax(1).clone()
    # Every crop is a face, so where the teacher says "no face" it errs.
    faces = torch.ones(12, dtype=torch.bool)
    values[:4] = (values[:4] + 1) % 11  # the teacher names the wrong value of four crops
    right = teacher_right(taught, values, colours, faces)
    assert not right[:4].any()
    assert bool(right[4:].eq(taught[2][4:] > 0).all())

    def loss(where_right: bool, mask: slice | torch.Tensor) -> float:
        with torch.no_grad():
            return float(losses(student, x[mask], values[mask], colours[mask], faces[mask],
                                taught=tuple(t[mask] for t in taught), teacher_weight=0.5,
                                taught_where_right=where_right))

    # Crops the teacher misreads are taught by their labels alone, at half weight.
    wrong = slice(0, 4)
    with torch.no_grad():
        labels_only = float(supervised_loss(student(x[wrong]), values[wrong], colours[wrong],
                                            faces[wrong]))
    assert loss(True, wrong) == pytest.approx(0.5 * labels_only, rel=1e-5)
    assert loss(False, wrong) > loss(True, wrong)  # without the option the teacher pulls too
    # Where the teacher reads every crop right, both ways teach alike.
    assert int(right.sum()) >= 2
    assert loss(True, right) == pytest.approx(loss(False, right), rel=1e-5)


@pytest.mark.parametrize(("option", "share", "message"), [
    ("--wide-ink-share", "-0.1", "--wide-ink-share must lie between 0 and 1"),
    ("--wide-ink-share", "1.5", "--wide-ink-share must lie between 0 and 1"),
    ("--hardest-share", "0", "--hardest-share must lie in (0, 1]"),
    ("--hardest-share", "1.5", "--hardest-share must lie in (0, 1]"),
], ids=["wide-ink-below", "wide-ink-above", "hardest-zero", "hardest-above"])
def test_a_streaming_run_refuses_a_share_outside_its_range(tmp_path, capsys, option, share,
                                                           message):
    pytest.importorskip("torch")
    from models.train_stream import main as stream_main

    argv = ["--seed", "1", "--minutes", "0.1", "--arch", "wide", "--output-dir",
            str(tmp_path), option, share]
    with pytest.raises(SystemExit) as stopped:
        stream_main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir())  # refused before anything was rendered or written


def test_font_roots_named_in_the_environment_are_searched_first(tmp_path):
    """A training machine whose fonts are not installed system-wide names their folder."""
    import subprocess
    import sys

    font = tmp_path / "truetype" / "noto" / "NotoSans-Regular.ttf"
    font.parent.mkdir(parents=True)
    font.write_bytes(b"not read here")
    code = (
        "from vision.synth.font_library import FAMILIES, FONT_ROOTS, _family_files\n"
        "print(FONT_ROOTS[0])\n"
        "for path in _family_files(FAMILIES[0]): print(path)"
    )
    env = {**os.environ, "PHASE10_FONT_ROOTS": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == str(tmp_path)
    regular = [path for path in out[1:] if path.endswith("/NotoSans-Regular.ttf")]
    assert regular == [str(font)]  # found under both roots: the named root's file wins


def test_locator_training_windows_keep_image_targets_and_positions_together():
    """A training window cuts the same place from the frame, its position channels and
    its target maps (cut on the device the network trains on)."""
    torch = pytest.importorskip("torch")
    from models.train_locator import _Scenes
    from vision.read.tops_input import NET_STRIDE, to_tensor

    rng = np.random.default_rng(3)
    images = rng.integers(0, 256, (4, 96, 128, 3), np.uint8)
    targets = np.ascontiguousarray(images[:, ::NET_STRIDE, ::NET_STRIDE].transpose(0, 3, 1, 2))
    scenes = _Scenes(images, targets, torch.device("cpu"))
    whole = to_tensor(images)
    x, y = scenes.batch(np.array([0, 2, 3]), np.random.default_rng(5), (64, 48))
    assert x.shape == (3, 5, 48, 64) and y.shape == (3, 3, 24, 32)
    flips = ((), (1,), (2,), (1, 2))  # the batch may be mirrored either way
    for row, maps, scene in zip(x.numpy(), y.numpy(), (0, 2, 3), strict=True):
        found = [
            (top, left, flip)
            for top in range(0, 96 - 48 + 1, 16)
            for left in range(0, 128 - 64 + 1, 16)
            for flip in flips
            if np.array_equal(np.flip(whole[scene, :3, top : top + 48, left : left + 64], flip),
                              row[:3])
        ]
        assert len(found) == 1  # one place in its frame, on the network's grid
        top, left, flip = found[0]
        position = np.flip(whole[scene, 3:, top : top + 48, left : left + 64], flip)
        signs = np.array([-1.0 if axis in flip else 1.0 for axis in (2, 1)])[:, None, None]
        np.testing.assert_allclose(row[3:], position * signs)  # mirrored positions go along
        s = NET_STRIDE
        cut = targets[scene, :, top // s : (top + 48) // s, left // s : (left + 64) // s]
        np.testing.assert_allclose(maps, np.flip(cut, flip) / 255.0, atol=1e-6)  # its maps


def test_training_the_locator_on_a_missing_gpu_is_refused_clearly():
    torch = pytest.importorskip("torch")
    from models.train_locator import training_device

    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA device")
    with pytest.raises(RuntimeError, match="--device cuda: no CUDA device"):
        training_device("cuda")
    assert training_device("cpu").type == "cpu"


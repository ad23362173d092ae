"""Training (only where torch is installed), the eval-model command and their options."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from models.options import TrainConfig, add_arguments, config_from_args
from vision.synth.training import EVAL_SEED_BASE
from web.cli import main


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


def test_eval_model_json_report(capsys):
    assert main(["eval-model", "--faces", "60", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["face_crops"] == 60 and report["first_seed"] == EVAL_SEED_BASE
    assert len(report["value_confusion"]) == 11 and len(report["colour_confusion"]) == 4
    assert sum(map(sum, report["value_confusion"])) == 60
    assert set(report["six_nine"]) == {"6_as_9", "9_as_6"}
    assert set(report["one_seven"]) == {"1_as_7", "7_as_1"}
    assert 0.0 <= report["negative_rejection_rate"] <= 1.0


def test_eval_model_text_report(capsys):
    assert main(["eval-model", "--faces", "30"]) == 0
    out = capsys.readouterr().out
    assert "value accuracy" in out and "6 vs 9" in out and "not-a-die rejection" in out


def test_training_seeds_stay_below_the_evaluation_seeds():
    pytest.importorskip("torch")
    from models.train import chunk_seeds

    seeds = chunk_seeds(9999, 60_000)
    assert max(seeds) < EVAL_SEED_BASE and len(set(seeds)) == 60
    assert not set(chunk_seeds(1, 5000)) & set(chunk_seeds(2, 5000))


@pytest.mark.slow
def test_tiny_training_run_exports_a_loadable_reproducible_model(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from models.train import train
    from vision.classifier import FaceClassifier

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

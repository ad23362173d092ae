"""How fast the face classifier reads a roll, and how fast the renderer makes training data.

Targets: a batch of 10 crops (one roll) in at most 5 ms median on one thread;
the renderer at thousands of scenes per minute (60 ms a scene is 1,000 a
minute on one core).

    .venv/bin/python -m pytest benchmarks/bench_classifier.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.read.classifier import FaceClassifier
from vision.read.crops import crop_face
from vision.synth import render_scene
from vision.synth.seeds import EVAL_SEED_BASE
from vision.synth.training import render_face_crops


@pytest.fixture(scope="module")
def classifier() -> FaceClassifier:
    return FaceClassifier.load(threads=1)


@pytest.fixture(scope="module")
def roll_crops() -> np.ndarray:
    return render_face_crops(EVAL_SEED_BASE + 5, 10, negative_share=0.0)[0]


def test_classify_ten_crops_one_thread(benchmark, classifier, roll_crops):
    result = benchmark(classifier.predict, roll_crops)
    assert len(result) == 10


def test_crop_ten_dice_from_a_frame(benchmark):
    scene = render_scene(3)
    corners = [d.corners for d in scene.dice]
    crops = benchmark(lambda: [crop_face(scene.image, c) for c in corners])
    assert len(crops) == 10


def test_render_scene_1280x960(benchmark):
    seeds = iter(range(10**6))
    scene = benchmark(lambda: render_scene(next(seeds)))
    assert scene.image.shape == (960, 1280, 3)


def test_render_scene_640x480(benchmark):
    seeds = iter(range(10**6))
    scene = benchmark(lambda: render_scene(next(seeds), size=(640, 480)))
    assert scene.image.shape == (480, 640, 3)


def test_render_100_training_crops(benchmark):
    seeds = iter(range(10**6))
    crops = benchmark.pedantic(
        lambda: render_face_crops(next(seeds), 100)[0], rounds=5, iterations=1
    )
    assert crops.shape[0] == 100

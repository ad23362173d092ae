"""Fixtures shared by the benchmarks."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import numpy as np
import pytest

from vision.read.pipeline import DiceReader
from vision.synth import render_scene
from vision.synth.seeds import HELD_OUT_SEED_BASE


@pytest.fixture(scope="module")
def one_opencv_thread() -> Iterator[None]:
    """OpenCV on one thread while a module's benchmarks run: the figures are per core."""
    previous = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(previous)


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    """20 held-out 1280x960 scenes of ten dice (light and dark, clusters, tilted dice)."""
    return [render_scene(HELD_OUT_SEED_BASE + 9000 + i).image for i in range(20)]


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    """The shipped reader on one thread."""
    return DiceReader(threads=1)

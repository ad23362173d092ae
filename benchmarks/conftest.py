"""Fixtures shared by the benchmarks."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import pytest


@pytest.fixture(scope="module")
def one_opencv_thread() -> Iterator[None]:
    """OpenCV on one thread while a module's benchmarks run: the figures are per core."""
    previous = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(previous)

"""How fast a frame is read: locate the dice, crop and classify them, decode the roll.

Target: a 1280x960 frame with ten dice in at most 30 ms median, OpenCV and the
classifier each on one thread. The frames cycle through 20 held-out scenes
(light and dark dice, clusters, tilted dice), so the median is over typical
tables, not one lucky picture.

    .venv/bin/python -m pytest benchmarks/bench_pipeline.py -o python_files='bench_*.py' \
        --benchmark-only
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.camera.settle import SettleWatcher
from vision.read.decode import decode
from vision.read.frame_colours import crop_lightness
from vision.read.frame_inks import frame_ink_evidence, ink_chroma
from vision.read.pipeline import read_dice

pytestmark = pytest.mark.usefixtures("one_opencv_thread")


def test_read_frame_1280x960_one_thread(benchmark, frames, reader):
    cycle = itertools.cycle(frames)
    reading = benchmark.pedantic(lambda: reader.read(next(cycle)), rounds=60, iterations=1)
    assert len(reading.dice) <= 11


def test_locate_only_1280x960(benchmark, frames, reader):
    cycle = itertools.cycle(frames)
    located = benchmark.pedantic(lambda: reader.locate(next(cycle)), rounds=60, iterations=1)
    assert located.boxes


def test_joint_decode_ten_dice(benchmark):
    rng = np.random.default_rng(0)
    values = rng.dirichlet(np.full(11, 0.3), size=10)
    colours = rng.dirichlet(np.full(4, 0.3), size=10)
    decoding = benchmark(decode, values, colours)
    assert len(decoding.faces) == 10


def _frame_colour_inputs(frames, reader):
    """Ink chroma, colour probabilities and body lightness of the first frame's dice."""
    readout = reader.readout(frames[0])
    keep, _ = read_dice(readout)
    crops = readout.crops[keep]
    return ink_chroma(crops), readout.colour_probs[keep], crop_lightness(crops)


def test_frame_inks_by_distance(benchmark, frames, reader):
    """The frame inks alone (`vision.read.frame_inks`): the frame network's baseline."""
    chroma, probs, _ = _frame_colour_inputs(frames, reader)
    evidence = benchmark(frame_ink_evidence, chroma, probs)
    assert evidence.shape == probs.shape


def test_frame_colours_network(benchmark, frames, reader):
    """The frame inks with red against orange settled by the frame network, as a read
    frame uses them (`vision.read.frame_colours`)."""
    chroma, probs, lightness = _frame_colour_inputs(frames, reader)
    evidence = benchmark(reader.ink_evidence, chroma, probs, lightness)
    assert evidence.shape == probs.shape


def test_settle_watcher_on_moving_frames(benchmark, frames, reader):
    """A frame while dice move costs only the motion check (no reading)."""
    watcher = SettleWatcher(reader)
    cycle = itertools.cycle(frames)
    benchmark(lambda: watcher.feed(next(cycle)))
    assert watcher.moving

"""How fast a frame is read, measured steadily on a machine whose timings jump.

    .venv/bin/python benchmarks/steady_speed.py                 # 20 frames, 15 reads each
    .venv/bin/python benchmarks/steady_speed.py --repeats 30

`bench_pipeline.py` reports the median of 60 reads, which on a shared machine moves by
several milliseconds from run to run with the other work on it. Here every frame of
the same 20 held-out scenes is read (and located) `--repeats` times in turns, each
frame's fastest time is kept, and the median over the frames is reported: what the
code costs when nothing interrupts it. Compare two versions of the code by running
each in turn, with PYTHONPATH set to its tree. One thread, as the budget is stated.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SteadyTimes:
    """Medians over the frames of each frame's fastest time, in milliseconds."""

    read_ms: float
    locate_ms: float


def steady_times(
    reader,
    frames: Sequence[np.ndarray],
    repeats: int,
    clock: Callable[[], float] = time.perf_counter,
) -> SteadyTimes:
    """Read and locate every frame `repeats` times, in turns over the frames; keep each
    frame's fastest read and fastest locate; their medians over the frames."""
    if repeats < 1 or not frames:
        raise ValueError(f"need frames and at least one repeat, got {len(frames)} and {repeats}")
    fastest_read = [float("inf")] * len(frames)
    fastest_locate = [float("inf")] * len(frames)
    for _ in range(repeats):
        for index, frame in enumerate(frames):
            start = clock()
            reader.read(frame)
            read = clock()
            reader.locate(frame)
            located = clock()
            fastest_read[index] = min(fastest_read[index], read - start)
            fastest_locate[index] = min(fastest_locate[index], located - read)
    return SteadyTimes(
        1000 * statistics.median(fastest_read), 1000 * statistics.median(fastest_locate)
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15, help="reads of each frame (15)")
    parser.add_argument("--frames", type=int, default=20, help="held-out scenes (20)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.frames < 1:
        parser.error("--repeats and --frames must be at least 1")
    import cv2

    from vision.read.pipeline import DiceReader
    from vision.synth import render_scene
    from vision.synth.seeds import HELD_OUT_SEED_BASE

    cv2.setNumThreads(1)
    # The frames of bench_pipeline.py's `frames` fixture.
    frames = [render_scene(HELD_OUT_SEED_BASE + 9000 + i).image for i in range(args.frames)]
    reader = DiceReader(threads=1)
    times = steady_times(reader, frames, args.repeats)
    print(f"read {times.read_ms:.2f} ms, locate {times.locate_ms:.2f} ms "
          f"(median over {len(frames)} frames of each one's fastest of {args.repeats})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

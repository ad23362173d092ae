"""benchmarks/steady_speed.py: each frame's fastest time, then the median over frames."""

import pytest
from benchmark_modules import load_benchmark

steady_speed = load_benchmark("steady_speed")


class ScriptedReader:
    """A reader whose reads and locates advance a fake clock by scripted seconds."""

    def __init__(self, costs):
        self.now = 0.0
        self.costs = iter(costs)

    def clock(self):
        return self.now

    def read(self, frame):
        self.now += next(self.costs)

    def locate(self, frame):
        self.now += next(self.costs)


def test_each_frames_fastest_read_and_locate_then_their_median():
    # Two passes over three frames: (read, locate) costs in the order they happen.
    costs = [
        0.030, 0.015, 0.050, 0.020, 0.040, 0.016,  # first pass: frames 0, 1, 2
        0.028, 0.019, 0.090, 0.014, 0.035, 0.018,  # second pass: a jump on frame 1
    ]
    reader = ScriptedReader(costs)
    times = steady_speed.steady_times(reader, ["a", "b", "c"], 2, clock=reader.clock)
    # Fastest reads 28, 50, 35 ms -> median 35; fastest locates 15, 14, 16 -> 15.
    assert times.read_ms == pytest.approx(35.0)
    assert times.locate_ms == pytest.approx(15.0)


def test_nothing_to_time_is_refused():
    with pytest.raises(ValueError, match="at least one repeat"):
        steady_speed.steady_times(ScriptedReader([]), ["a"], 0)
    with pytest.raises(ValueError, match="need frames"):
        steady_speed.steady_times(ScriptedReader([]), [], 3)


def test_the_command_line_refuses_no_repeats(capsys):
    with pytest.raises(SystemExit):
        steady_speed.main(["--repeats", "0"])
    assert "--repeats and --frames must be at least 1" in capsys.readouterr().err

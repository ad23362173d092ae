"""Rolls and settings shared by the scorepad tests (a module, so tests can import it by name)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask

from scorer import parse_roll
from vision.reading import ReadDie, Reading
from web.app import create_app
from web.config import Config

if TYPE_CHECKING:
    from vision.camera.demo import DemoSource

#: Rolls that make a phase, with the score the solver gives them (checked in the tests).
MAKES: dict[int, tuple[str, int]] = {
    1: ("8R 8B 8G 10O 5G 7R WR WB 1G 3R", 34),
    2: ("WO WB 1O 4R 10G 9B 8B 10B 10G 10O", 57),
    3: ("WO WO WG 4R 10G 9B 10O 10B 10G 10O", 59),
    4: ("4G 1R 2R WG 7B 5G 10O 6G 8O 9G", 49),
    5: ("WR 4O 3R 2O 8G 10R 5O 6G 7R 9G", 52),
    6: ("WR 4O 3R 2O 8G 10R 5O 6G 7R 9G", 54),
    7: ("1B WB 1O WR 10G 10R 10O 10B 10G 10O", 60),
    8: ("WR 4O 2R 1G 9O 8O 10O 7O 8O 10O", 56),
    9: ("1B WB 1O WR 10G 10R 10O 10B 10G 10O", 60),
    10: ("4G 4O WB 4R 10G 5G 10O 10B 10G 10O", 62),
}
#: Makes no phase at all.
NEVER = "5R 5G 7B 7G 9O 9R 1B 1R 3O 3G"


def make_config(tmp_path: Path, **changes: object) -> Config:
    return Config(data_dir=tmp_path / "data", camera="none", heartbeat_s=0.2).replace(**changes)


def open_camera_app(tmp_path: Path, watcher: object, **changes: object) -> Flask:
    """The scorepad with `watcher` (a fake) in place of vision's table watcher, camera ready."""
    app = create_app(make_config(tmp_path, camera="demo", **changes),
                     watcher_factory=lambda: watcher)
    assert app.extensions["phase10"].camera.wait_ready(5)
    return app


#: Frame size of the demo table in the tests (small: rendering is the cost).
DEMO_SIZE = (320, 240)
#: Frames the old timed demo took for a whole turn of three rolls (4 fps, 1.2 s + 5 s each).
OLD_TURN_FRAMES = 3 * (5 + 20)


class TruthReader:
    """Reads the faces the demo table really shows (the watcher reads the frame just shown),
    so tests of the demo camera depend on neither network. It reads the whole frame
    whatever `tray` the watcher sets."""

    def __init__(self, source: DemoSource) -> None:
        self.source = source
        self.tray = None

    def read(self, frame: object) -> Reading:
        shown = self.source.latest
        dice = () if shown is None else tuple(
            ReadDie(die, 0.99, (20.0 * i, 10.0), (), False) for i, die in enumerate(shown.roll)
        )
        return Reading(dice, DEMO_SIZE)


def open_demo_app(tmp_path: Path, seed: int = 7) -> tuple[Flask, DemoSource]:
    """The scorepad with the real demo table and table watcher (not paced, small frames)."""
    from vision.camera.demo import DemoSource
    from vision.camera.live import TableWatcher

    source = DemoSource(seed, size=DEMO_SIZE, realtime=False, on_request=True)
    app = create_app(
        make_config(tmp_path, camera="demo"),
        watcher_factory=lambda: TableWatcher("demo", reader=TruthReader(source), source=source),
    )
    assert app.extensions["phase10"].camera.wait_ready(10)
    return app, source


def wait_until(predicate: Callable[[], object], what: str, timeout: float = 30.0) -> object:
    """Poll until `predicate` holds; the timeout only keeps a broken test from hanging."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError(f"never happened: {what}")


def run_demo_frames(source: DemoSource, count: int) -> None:
    """Let the demo camera show `count` more frames (the table runs in its own thread)."""
    target = source.frames_shown + count
    wait_until(lambda: source.frames_shown >= target, f"{count} more demo frames")


def reading_of(notation: str, unsure: tuple[int, ...] = (),
               colour_doubt: tuple[int, ...] = (),
               value_doubt: tuple[int, ...] | None = None,
               likely: dict[int, str] | None = None) -> Reading:
    """A reading of `notation`: dice `unsure` marked (their value not judged apart, unless
    `value_doubt` is given: then those are the dice whose value is doubtful), and dice
    `colour_doubt` marked for their colour alone (their value judged sure); `likely` the
    other faces the camera found some of them may show (index: notation), the rest any."""
    told = {} if likely is None else {i: tuple(parse_roll(faces).dice)
                                      for i, faces in likely.items()}

    def value_unsure(i: int) -> bool | None:
        if value_doubt is not None:
            return i in value_doubt
        return False if i in colour_doubt else None

    dice = tuple(
        ReadDie(die, 0.6 if i in unsure or i in colour_doubt else 0.99, (10.0 * i, 5.0), (),
                i in unsure or i in colour_doubt, value_unsure=value_unsure(i),
                likely=told.get(i))
        for i, die in enumerate(parse_roll(notation).dice)
    )
    return Reading(dice, (640, 480))

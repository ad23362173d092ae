"""Fakes shared by the test folders: each stands in for one thing, once.

- `FakeWatcher`: vision's `TableCamera` (the whole protocol), fed scripted rolls.
- `CannotReadFirst`: the face classifier, unable to read the topmost die found.
- `WithOneMoreBox` / `ReadsLastAsFace`: the locator finding one more box (something on
  the table) and the classifier reading it as a face.
- `mark_offsets`: how far a bright mark lies from each crop's middle, for stand-in
  classifiers that read a face the more surely the better a box is centred on its die.
- `FakePicamera2`: picamera2's `Picamera2` as far as vision's `PiCameraSource` uses it.
- `serve_http`: a local HTTP server that answers given paths (a scorepad stand-in for
  `phase10 doctor` and the installer's health check).
- `serve_app`: no fake, the real scorepad over HTTP, for what probes it from outside.
"""

from __future__ import annotations

import dataclasses
import http.server
import queue
import socketserver
import sys
import threading
import time
import types
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pytest

from vision.camera.camera_contract import DiceThrower, ExposureControl, RollEvent, TrayFractions
from vision.reading import Reading

if TYPE_CHECKING:
    from web.config import Config

#: What the fake watcher shows as its annotated picture (not a decodable image).
JPEG = b"\xff\xd8\xff\xe0fake-jpeg\xff\xd9"


class FakeWatcher:
    """vision's TableCamera, scripted: `push` plays a settled roll, `trays` records each
    tray it is given, a test reading answers `now` with `picture`, and its latest frame
    is `frame` (None until a test sets one). It has the exposure control and dice
    thrower it is given (none by default, like a webcam)."""

    def __init__(
        self,
        now: Reading | None = None,
        *,
        picture: bytes = JPEG,
        exposure: ExposureControl | None = None,
        thrower: DiceThrower | None = None,
    ) -> None:
        self.queue: queue.Queue[RollEvent | None] = queue.Queue()
        self.new_turns = 0
        self.closed = False
        self.latest: Reading | None = None
        self.trays: list[list[list[float]] | None] = []
        self.now = now
        self.picture = picture
        self.exposure = exposure
        self.thrower = thrower
        self.frame: np.ndarray | None = None  # what `latest_frame` shows (a test sets it)

    def __enter__(self) -> FakeWatcher:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def push(self, event: RollEvent) -> None:
        self.queue.put(event)

    def events(self) -> Iterator[RollEvent]:
        while True:
            event = self.queue.get()
            if event is None:
                return
            self.latest = event.reading
            yield event

    def latest_overlay_jpeg(self) -> bytes | None:
        return JPEG if self.latest is not None else None

    def latest_reading(self) -> Reading | None:
        return self.latest

    def latest_frame(self) -> np.ndarray | None:
        return self.frame

    def new_turn(self) -> None:
        self.new_turns += 1

    def set_tray_fractions(self, fractions: TrayFractions | None) -> None:
        """Recorded as the JSON the API shows: a list of [x, y] lists, or None."""
        self.trays.append(None if fractions is None else [list(point) for point in fractions])

    def read_now(self) -> tuple[Reading, bytes] | None:
        return None if self.now is None else (self.now, self.picture)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put(None)


class CannotReadFirst:
    """A face classifier that cannot read the first crop of each call (the topmost die
    found): the real one's predictions, with crop 0's face probability forced down and
    its value and colour spread evenly; with `legible`, its value and colour kept (the
    crop doubted as a face, its numeral read all the same)."""

    def __init__(self, classifier: Any, *, legible: bool = False) -> None:
        self.classifier, self.legible = classifier, legible

    def __getattr__(self, name: str) -> Any:  # the rest (a second look) as the classifier has it
        return getattr(self.classifier, name)

    def predict_turns(self, crops: np.ndarray, turns: int = 4) -> Any:
        predictions = self.classifier.predict_turns(crops, turns)
        face = np.array(predictions.face_prob, copy=True)
        face[0] = 0.02
        if self.legible:
            return dataclasses.replace(predictions, face_prob=face)
        values = np.array(predictions.value_probs, copy=True)
        colours = np.array(predictions.colour_probs, copy=True)
        values[0], colours[0] = 1 / values.shape[1], 1 / colours.shape[1]
        return dataclasses.replace(
            predictions, face_prob=face, value_probs=values, colour_probs=colours
        )


class WithOneMoreBox:
    """The top-face locator, with one more box (what else lies on the table) at the end."""

    def __init__(self, finder: Any, box: Any, score: float) -> None:
        self.finder, self.box, self.score = finder, np.asarray(box, np.float32), score

    def locate(self, frame: np.ndarray, tray: Any = None) -> Any:
        located = self.finder.locate(frame, tray)
        return dataclasses.replace(located, boxes=(*located.boxes, self.box),
                                   scores=(*located.scores, self.score))


class ReadsLastAsFace:
    """The face classifier, reading the last crop as a blue 5 with `certainty`."""

    def __init__(self, classifier: Any, certainty: float) -> None:
        self.classifier, self.certainty = classifier, certainty

    def __getattr__(self, name: str) -> Any:  # the rest as the classifier has it
        return getattr(self.classifier, name)

    def predict_turns(self, crops: np.ndarray, turns: int = 4) -> Any:
        read = self.classifier.predict_turns(crops, turns)
        values = np.array(read.value_probs, copy=True)
        values[-1] = (1 - self.certainty) / (values.shape[1] - 1)
        values[-1, 4] = self.certainty
        colours = np.array(read.colour_probs, copy=True)
        colours[-1] = (0.0, 0.0, 0.0, 1.0)
        face = np.array(read.face_prob, copy=True)
        face[-1] = 0.95
        return dataclasses.replace(read, value_probs=values, colour_probs=colours,
                                   face_prob=face)


def mark_offsets(crops: np.ndarray) -> np.ndarray:
    """(N,) how far the bright mark (over 200) of each crop lies from its middle, as a
    share of half the crop's side; NaN where a crop shows none."""
    bright = np.asarray(crops).max(axis=3) > 200
    rows, cols = np.mgrid[0:bright.shape[1], 0:bright.shape[2]]
    middle = (bright.shape[1] - 1) / 2
    return np.array([np.hypot(cols[mask].mean() - middle, rows[mask].mean() - middle) / middle
                     if mask.any() else np.nan for mask in bright])


class FakePicamera2:
    """picamera2's Picamera2 as far as vision's PiCameraSource uses it: it records the
    configuration and every `set_controls`, its auto exposure "moves" with `metadata`
    (the warm-up lock reads it as the camera opens), and it gives small frames at about
    50 a second. Every camera made is in `made` (reset by `install_fake_picamera2`)."""

    made: ClassVar[list[FakePicamera2]] = []

    def __init__(self) -> None:
        self.controls: list[dict[str, Any]] = []
        self.metadata: dict[str, Any] = {
            "ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.6, 1.9), "Lux": 310.0,
        }
        self.config: dict[str, Any] | None = None
        self.started = self.closed = False
        FakePicamera2.made.append(self)

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_metadata(self) -> dict[str, Any]:
        return dict(self.metadata)

    def set_controls(self, controls: Mapping[str, Any]) -> None:
        self.controls.append(dict(controls))

    def capture_array(self, stream: str) -> np.ndarray:
        """A 64x48 grey frame with a red square, as "RGB888" (BGR in memory)."""
        assert stream == "main"
        time.sleep(0.02)
        image = np.full((48, 64, 3), 90, np.uint8)
        image[10:20, 10:20] = (0, 0, 255)
        return image

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def install_fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> list[FakePicamera2]:
    """Make `from picamera2 import Picamera2` give FakePicamera2; returns the cameras made."""
    FakePicamera2.made = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    return FakePicamera2.made


class _Answers(http.server.BaseHTTPRequestHandler):
    """Answers GET with the (status, JSON body) its `paths` give, 404 elsewhere."""

    paths: ClassVar[Mapping[str, tuple[int, bytes]]] = {}

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        status, body = self.paths.get(self.path, (404, b"{}"))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def _serving(server: socketserver.BaseServer) -> Iterator[int]:
    """Serve in a thread until the block ends; yields the port."""
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def serve_http(paths: Mapping[str, tuple[int, bytes]]) -> Iterator[int]:
    """A local HTTP server answering `paths` (path -> status, body); yields its port."""
    handler = type("Handler", (_Answers,), {"paths": dict(paths)})
    with _serving(http.server.HTTPServer(("127.0.0.1", 0), handler)) as port:
        yield port


@contextmanager
def serve_app(config: Config) -> Iterator[int]:
    """The real scorepad made from `config`, served on 127.0.0.1 in a thread; yields its
    port, and closes the app after the server."""
    from werkzeug.serving import make_server

    from web.app import close_app, create_app

    app = create_app(config)
    try:
        with _serving(make_server("127.0.0.1", 0, app, threaded=True)) as port:
            yield port
    finally:
        close_app(app)

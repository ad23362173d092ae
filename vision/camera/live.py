"""The table as the web app sees it: a frame source, the reader and the settle watcher.

`TableWatcher` is vision's `TableCamera` (vision.camera.camera_contract). The web app runs
`events()` in a background thread and asks, from its request threads, for the
latest reading and the latest annotated picture. Nothing here knows about the web:
it only hands out readings, roll events and JPEG bytes.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from types import TracebackType
from typing import Protocol

import numpy as np

from vision.camera.camera_contract import DiceThrower, ExposureControl, RollEvent, TrayFractions
from vision.camera.frame_source import FrameSource
from vision.camera.settle import Reader, SettleWatcher
from vision.camera.sources import open_source
from vision.read.overlay import draw_overlay, draw_tray, encode_jpeg
from vision.reading import Reading

logger = logging.getLogger(__name__)


class TrayReader(Reader, Protocol):
    """A Reader that reads only inside `tray`, a polygon of pixel points (None: the whole
    frame): the DiceReader, or a test double. The watcher sets `tray` per frame size."""

    tray: np.ndarray | None


class TableWatcher:
    """A context manager over a camera that yields one RollEvent per settled roll."""

    def __init__(
        self,
        source_spec: str,
        *,
        tray: Sequence[Sequence[float]] | np.ndarray | None = None,
        threads: int = 1,
        reader: TrayReader | None = None,
        source: FrameSource | None = None,
    ) -> None:
        """`reader` and `source` replace the DiceReader and `open_source(source_spec)`."""
        self.source_spec = source_spec
        self.tray = tray
        self.threads = threads
        self._source = source if source is not None else open_source(source_spec)
        self._reader = reader
        self._watcher: SettleWatcher | None = None
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._running = False
        self._frame: np.ndarray | None = None
        self._frame_reading: Reading | None = None
        self._frame_status = ""
        self._frame_number = 0
        self._jpeg: tuple[int, bytes] | None = None
        self._tray_fractions: np.ndarray | None = None
        self._tray_set = False  # until set_tray_fractions, the constructor's pixel tray holds
        self._tray_fitted: tuple[int, int, int] | None = None

    def __enter__(self) -> TableWatcher:
        self.open()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def open(self) -> None:
        """Load the two networks and open the camera (may take a second or two)."""
        if self._reader is None:
            from vision.read.pipeline import DiceReader

            self._reader = DiceReader(tray=self.tray, threads=self.threads)
        self._watcher = SettleWatcher(self._reader)
        self._source.open()
        logger.info("watching the table through %s", self.source_spec)

    def events(self) -> Iterator[RollEvent]:
        """Roll events as they settle; blocks on the camera, ends when closed."""
        if self._watcher is None:
            raise RuntimeError("TableWatcher.events() needs the watcher opened (use `with`)")
        watcher = self._watcher
        self._running = True
        try:
            for frame in self._source:
                if self._closed.is_set():
                    break
                self._fit_tray(frame)
                event = watcher.feed(frame)
                with self._lock:
                    self._frame = frame
                    self._frame_number += 1
                    self._frame_reading = None if watcher.moving else watcher.latest_reading
                    self._frame_status = "dice moving" if watcher.moving else ""
                if event is not None:
                    yield event
                if self._closed.is_set():
                    break
        finally:
            self._running = False
            if self._closed.is_set():
                self._source.close()

    def latest_reading(self) -> Reading | None:
        """The reading of the last frame at rest (None before the first one)."""
        return self._watcher.latest_reading if self._watcher is not None else None

    def latest_frame(self) -> np.ndarray | None:
        """The latest frame as the camera gave it (BGR; None before the first). While
        `events()` hands out a RollEvent, this is the frame that settled it."""
        with self._lock:
            return self._frame

    def latest_overlay_jpeg(self) -> bytes | None:
        """The latest frame, annotated, as JPEG; encoded on demand and cached per frame."""
        with self._lock:
            frame, number = self._frame, self._frame_number
            reading, status = self._frame_reading, self._frame_status
            cached = self._jpeg
        if frame is None:
            return None
        if cached is not None and cached[0] == number:
            return cached[1]
        data = encode_jpeg(draw_overlay(frame, reading, status=status))
        with self._lock:
            self._jpeg = (number, data)
        return data

    @property
    def exposure(self) -> ExposureControl | None:
        """The camera's exposure control (the Pi camera's), or None."""
        return self._source.exposure

    @property
    def thrower(self) -> DiceThrower | None:
        """The demo table's dice thrower when it throws on request, or None."""
        return self._source.thrower

    def set_tray_fractions(self, fractions: TrayFractions | np.ndarray | None) -> None:
        """The tray as (x / width, y / height) points, or None for the whole frame.

        Fractions survive a change of camera resolution; the reader gets them in
        pixels of each frame's size from the next frame on, while watching runs.
        """
        points = None if fractions is None else np.asarray(fractions, np.float64).reshape(-1, 2)
        with self._lock:
            self._tray_fractions = points
            self._tray_set = True
            self._tray_fitted = None
            frame = self._frame
        if frame is not None:
            self._fit_tray(frame)

    def _fit_tray(self, frame: np.ndarray) -> None:
        """Hand the reader the tray in this frame's pixels when the tray or the size changed."""
        if not self._tray_set or self._reader is None:
            return
        height, width = frame.shape[:2]
        fractions = self._tray_fractions
        key = (id(fractions), width, height)
        if key == self._tray_fitted:
            return
        pixels = None if fractions is None else (fractions * (width, height)).astype(np.float32)
        self._reader.tray = pixels
        self._tray_fitted = key

    def read_now(self) -> tuple[Reading, bytes] | None:
        """Read the latest frame now, dice moving or not (the set-up page's test reading).

        Returns the reading and its annotated JPEG with the tray outlined, or None
        before the first frame.
        """
        with self._lock:
            frame = self._frame
        if frame is None or self._reader is None:
            return None
        self._fit_tray(frame)
        reading = self._reader.read(frame)
        image = draw_overlay(frame, reading, status="test reading")
        if self._reader.tray is not None:
            draw_tray(image, self._reader.tray)
        return reading, encode_jpeg(image)

    def new_turn(self) -> None:
        """The next roll is roll 1 of a new turn."""
        if self._watcher is not None:
            self._watcher.new_turn()

    def close(self) -> None:
        """Stop `events()` and release the camera; safe from any thread, safe twice."""
        self._closed.set()
        if not self._running:
            self._source.close()

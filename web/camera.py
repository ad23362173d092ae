"""The optional camera: a background thread that turns the table watcher's readings into rolls.

The scorepad runs without it (camera "none": hand entry only). Vision is
imported only when a camera is configured, so the app never loads OpenCV or
the model otherwise. The watcher is anything with the `vision.live.TableWatcher`
methods (`events()`, `latest_overlay_jpeg()`, `latest_reading()`, `new_turn()`,
`close()`), which lets tests drive this with a fake.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from web.service import GameService
from web.verdict import ROLLS_PER_TURN

log = logging.getLogger(__name__)


class Watcher(Protocol):
    """What the scorepad needs of a table watcher."""

    def events(self) -> Any: ...
    def latest_overlay_jpeg(self) -> bytes | None: ...
    def latest_reading(self) -> Any: ...
    def new_turn(self) -> None: ...
    def close(self) -> None: ...


WatcherFactory = Callable[[], AbstractContextManager[Watcher]]


def picamera_present() -> bool:
    """Whether picamera2 is importable and reports at least one camera."""
    if importlib.util.find_spec("picamera2") is None:
        return False
    try:
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        return bool(Picamera2.global_camera_info())
    except Exception:  # noqa: BLE001 - any failure means no usable camera
        log.exception("picamera2 is installed but cannot list cameras")
        return False


def resolve_source(spec: str, *, probe: Callable[[], bool] = picamera_present) -> str:
    """The configured camera with "auto" made concrete: the Pi camera when present, else demo."""
    if spec != "auto":
        return spec
    return "picamera" if probe() else "demo"


def vision_factory(source: str, threads: int) -> WatcherFactory:
    """A factory of real table watchers (imports vision only when called)."""

    def make() -> AbstractContextManager[Watcher]:
        from vision.live import TableWatcher

        return TableWatcher(source, threads=threads)

    return make


class CameraFeed:
    """Runs a watcher in a thread and puts each settled roll on the table's current game."""

    def __init__(self, source: str, factory: WatcherFactory, service: GameService) -> None:
        self.source = source
        self._factory = factory
        self._service = service
        self._watcher: Watcher | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self.error: str | None = None
        self.readings = 0
        self.last_event: dict[str, Any] | None = None
        service.on_turn_end(self._turn_ended)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="camera-feed", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float) -> bool:
        """Block until the watcher is open (or failed); True when it is open."""
        self._ready.wait(timeout)
        return self._watcher is not None

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        watcher = self._watcher
        if watcher is not None:
            try:
                watcher.close()
            except Exception:  # noqa: BLE001 - closing is best effort at shutdown
                log.exception("closing the camera failed")
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._watcher is not None and self._thread is not None and self._thread.is_alive()

    def overlay_jpeg(self) -> bytes | None:
        watcher = self._watcher
        return None if watcher is None else watcher.latest_overlay_jpeg()

    def status(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "running": self.running,
            "error": self.error,
            "readings": self.readings,
            "last": self.last_event,
        }

    def _run(self) -> None:
        try:
            with self._factory() as watcher:
                self._watcher = watcher
                self._ready.set()
                log.info("camera %s open", self.source)
                for event in watcher.events():
                    if self._stopping.is_set():
                        break
                    self._handle(event)
        except Exception as error:  # noqa: BLE001 - a camera failure must not stop the scorepad
            self.error = f"{type(error).__name__}: {error}"
            log.exception("camera %s stopped", self.source)
        finally:
            self._watcher = None
            self._ready.set()

    def _handle(self, event: Any) -> None:
        """One settled reading: the roll goes to the table's game, unsure dice marked."""
        reading = event.reading
        self.readings += 1
        self.last_event = {"roll_number": event.roll_number, "reading": reading.to_dict()}
        roll = reading.roll()
        game_id = self._service.table_game()
        if roll is None or not roll.dice or game_id is None:
            log.debug("reading not put on a game (roll %s, game %s)", roll, game_id)
            return
        unsure = tuple(i for i, read in enumerate(reading.dice) if read.unsure)
        try:
            self._service.set_roll(
                game_id, roll,
                roll_number=max(1, min(int(event.roll_number), ROLLS_PER_TURN)),
                source="camera", unsure=unsure, flags=tuple(reading.flags),
            )
        except ValueError:
            log.exception("camera roll refused for game %s", game_id)

    def _turn_ended(self, game_id: int) -> None:
        watcher = self._watcher
        if watcher is not None:
            watcher.new_turn()

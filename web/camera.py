"""The optional camera: a background thread that turns the table watcher's readings into rolls.

The scorepad runs without it (camera "none": hand entry only). The watcher is
a `vision.camera.camera_contract.TableCamera`: vision's `TableWatcher`, or a test's
fake. Its optional capabilities are explicit: `exposure` (None: no exposure
controls, only the Pi camera has them) and `thrower` (None: dice are rolled by
hand, only the demo table throws). The camera and the networks are opened only
when a camera is configured (the factory is called); the modules are imported with
the app.

Readings go only to the game chosen for the camera (none until one is), and
the demo table throws only when asked (`demo_roll`): a camera that guessed the
game, or dice that rolled by themselves, would replace the rolls typed by hand.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorer import ROLLS_PER_TURN
from vision.camera.camera_contract import (
    DemoBusyError,
    ExposureControl,
    ExposureLockError,
    RollEvent,
    TableCamera,
)
from vision.reading import Reading
from web.camera_settings import CameraSettings, ExposureMode
from web.camera_status import CameraStatus, ExposureStatus, LastReading
from web.demo_dice import DemoPlan, plan_throw
from web.profile_service import TableProfile
from web.reader import ReaderHook
from web.service import GameService
from web.table_roll import RollSource

log = logging.getLogger(__name__)


#: Makes the table camera when the camera thread starts (vision's, or a test's fake).
WatcherFactory = Callable[[], TableCamera]


class CameraControlError(RuntimeError):
    """A set-up action the camera cannot do now (not running, no exposure controls)."""


#: How long a requested demo throw may take to settle before another may be asked for.
DEMO_SETTLE_S = 15.0


@dataclass(frozen=True)
class PendingThrow:
    """A demo throw asked for a game and not read yet: its reading is that roll of the turn."""

    game_id: int
    roll_number: int
    since: float


def picamera_present() -> bool:
    """Whether picamera2 is importable and reports at least one camera."""
    if importlib.util.find_spec("picamera2") is None:
        return False
    try:
        from picamera2 import Picamera2

        return bool(Picamera2.global_camera_info())
    except Exception:  # noqa: BLE001 - any failure means no usable camera
        log.exception("picamera2 is installed but cannot list cameras")
        return False


def resolve_source(spec: str, *, probe: Callable[[], bool] = picamera_present) -> str:
    """The configured camera with "auto" made concrete: the Pi camera when present, else demo."""
    if spec != "auto":
        return spec
    return "picamera" if probe() else "demo"


def vision_factory(source: str, threads: int,
                   on_reader: ReaderHook | None = None) -> WatcherFactory:
    """A factory of real table watchers (the camera opened only when called); `on_reader` is
    given the watcher's DiceReader (the table's dice profile attaches to it)."""

    def make() -> TableCamera:
        from vision.camera.live import (
            TableWatcher,  # loaded on use: the app without a camera loads no OpenCV or model
        )
        from vision.read.pipeline import DiceReader

        reader = DiceReader(threads=threads)
        if on_reader is not None:
            on_reader(reader)
        return TableWatcher(source, threads=threads, reader=reader)

    return make


class CameraFeed:
    """Runs a watcher in a thread and puts each settled roll on the table's current game."""

    def __init__(self, source: str, factory: WatcherFactory, service: GameService,
                 profile: TableProfile | None = None) -> None:
        """`profile`: the table's dice profile, given the crops of each roll put on a game."""
        self.source = source
        self._profile = profile
        self._factory = factory
        self._service = service
        self._watcher: TableCamera | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._ready = threading.Event()
        self.error: str | None = None
        self.readings = 0
        self.last_event: LastReading | None = None
        self.settings = CameraSettings()
        self._pending: PendingThrow | None = None
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

    def _open_watcher(self) -> TableCamera:
        """The open camera, or a CameraControlError saying it is not running (and why)."""
        watcher = self._watcher
        if watcher is None:
            raise CameraControlError(f"the camera ({self.source}) is not running"
                                     + (f": {self.error}" if self.error else ""))
        return watcher

    @property
    def running(self) -> bool:
        return self._watcher is not None and self._thread is not None and self._thread.is_alive()

    def overlay_jpeg(self) -> bytes | None:
        watcher = self._watcher
        return None if watcher is None else watcher.latest_overlay_jpeg()

    def status(self) -> CameraStatus:
        return CameraStatus(source=self.source, running=self.running, error=self.error,
                            readings=self.readings, last=self.last_event,
                            game=self._service.camera_game(), demo_dice=self.rolls_on_request)

    # --- which game, and the demo's dice --------------------------------------------

    def use_for(self, game_id: int | None) -> None:
        """Feed this game from now on (None: no game); the camera counts rolls anew."""
        self._service.use_camera(game_id)
        self._pending = None
        watcher = self._watcher
        if watcher is not None:
            watcher.new_turn()

    @property
    def rolls_on_request(self) -> bool:
        """Whether this camera is the demo table, whose dice roll when asked."""
        if self._watcher is not None:
            return self._watcher.thrower is not None
        return self.source == "demo"

    def demo_roll(self, game_id: int) -> DemoPlan:
        """Throw the demo dice once for this game: the turn's next roll (refused: why)."""
        watcher = self._open_watcher()
        thrower = watcher.thrower
        if thrower is None:
            raise CameraControlError(f"the {self.source} camera reads real dice: roll them "
                                     "in the tray")
        if self._service.camera_game() != game_id:
            raise CameraControlError(f"the camera is not used for game {game_id}: choose "
                                     "\"Use the camera for this game\" first")
        pending = self._pending
        if pending is not None and time.monotonic() - pending.since < DEMO_SETTLE_S:
            raise CameraControlError("the demo dice are still rolling")
        plan = plan_throw(self._service.view(game_id))
        try:
            thrower.throw(plan.roll_number, plan.keep)
        except DemoBusyError as error:
            raise CameraControlError(str(error)) from error
        self._pending = PendingThrow(game_id, plan.roll_number, time.monotonic())
        log.info("demo dice thrown for game %d: roll %d", game_id, plan.roll_number)
        return plan

    def _run(self) -> None:
        try:
            with self._factory() as watcher:
                self._watcher = watcher
                self._apply_saved(watcher)
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

    def _handle(self, event: RollEvent) -> None:
        """One settled reading: the roll goes to the camera's game, unsure dice marked.

        A reading of a demo throw is the roll of the turn the throw was asked as.
        """
        reading = event.reading
        self.readings += 1
        self.last_event = LastReading(event.roll_number, reading)
        pending, self._pending = self._pending, None
        roll = reading.roll()
        game_id = self._service.camera_game()
        unreadable = len(reading.unreadable)  # found, not read: the players say what they show
        if roll is None or not (roll.dice or unreadable) or game_id is None:
            log.debug("reading not put on a game (roll %s, game %s)", roll, game_id)
            return
        roll_number = int(event.roll_number)
        if pending is not None and pending.game_id == game_id:
            roll_number = pending.roll_number
        try:
            state = self._service.set_roll(
                game_id, roll,
                roll_number=max(1, min(roll_number, ROLLS_PER_TURN)),
                source=RollSource.CAMERA, unsure=reading.unsure_indices(),
                flags=tuple(reading.flags), unreadable=unreadable,
                value_unsure=reading.value_unsure_indices(), likely=reading.likely_faces(),
            )
        except ValueError:
            log.exception("camera roll refused for game %s", game_id)
            return
        watcher = self._watcher
        if self._profile is not None and watcher is not None:
            # The frame that settled this roll: a die corrected later teaches the profile.
            self._profile.remember_read_roll(state.roll_id, reading,
                                             watcher.latest_frame())

    def _turn_ended(self, game_id: int) -> None:
        watcher = self._watcher
        if watcher is not None and game_id == self._service.camera_game():
            watcher.new_turn()

    # The set-up page's controls: the tray goes to every camera; the exposure lock only
    # to one with exposure controls.

    def apply_settings(self, settings: CameraSettings) -> None:
        """Use these settings from now on: the tray at once, the exposure lock when given."""
        self.settings = settings
        watcher = self._watcher
        if watcher is not None:
            watcher.set_tray_fractions(settings.tray)

    def _apply_saved(self, watcher: TableCamera) -> None:
        """The saved tray and exposure lock, applied as the camera opens."""
        watcher.set_tray_fractions(self.settings.tray)
        exposure = watcher.exposure
        mode, lock = self.settings.exposure_mode, self.settings.exposure
        if exposure is None or mode is ExposureMode.DEFAULT:
            return
        try:
            if mode is ExposureMode.LOCKED and lock is not None:
                exposure.lock_exposure(lock.to_controls())
            elif mode is ExposureMode.AUTO:
                exposure.unlock_exposure()
        except Exception:  # noqa: BLE001 - a stale lock must not keep the camera from reading
            log.exception("could not apply the saved exposure setting (%s)", mode)

    def _controls(self) -> ExposureControl:
        """The open camera's exposure control, or a CameraControlError saying why there is none."""
        watcher = self._open_watcher()
        exposure = watcher.exposure
        if exposure is None:
            raise CameraControlError(
                f"the {self.source} camera has no exposure controls: locking exposure and "
                "white balance is not supported (only the Pi camera has them)"
            )
        return exposure

    def can_lock_exposure(self) -> bool:
        try:
            self._controls()
        except CameraControlError:
            return False
        return True

    def lock_exposure(self, controls: dict[str, Any] | None = None) -> dict[str, Any]:
        """Freeze exposure and white balance (at `controls`, or the current auto values)."""
        exposure = self._controls()
        try:
            return dict(exposure.lock_exposure(controls))
        except ExposureLockError as error:
            raise CameraControlError(str(error)) from error

    def unlock_exposure(self) -> None:
        exposure = self._controls()
        try:
            exposure.unlock_exposure()
        except ExposureLockError as error:
            raise CameraControlError(str(error)) from error

    def exposure_status(self) -> ExposureStatus:
        """Whether locking works here, and the controls in force (None while automatic)."""
        supported = self.can_lock_exposure()
        controls = self._controls().exposure_controls() if supported else None
        return ExposureStatus(supported, controls)

    def latest_frame(self) -> np.ndarray:
        """The camera's latest frame (BGR numpy image), or CameraControlError: none yet."""
        frame = self._open_watcher().latest_frame()
        if frame is None:
            raise CameraControlError("no camera frame yet: try again in a moment")
        return frame

    def test_reading(self) -> tuple[Reading, bytes]:
        """Read the latest frame now: (Reading, annotated JPEG)."""
        watcher = self._open_watcher()
        result = watcher.read_now()
        if result is None:
            raise CameraControlError("no camera frame yet: try again in a moment")
        return result

"""The camera set-up chosen on /setup: the tray region and the exposure lock, kept on disk.

The tray is four corners as fractions of the frame (x / width, y / height), so it
survives a change of camera resolution. The exposure lock is the picamera2
control values frozen by "lock now". Both live in `data_dir/camera.json`,
written to a temporary file and moved into place with `os.replace`, so a power
cut leaves either the old or the new settings, never half a file.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

from scorer.atomic_file import write_atomically

log = logging.getLogger(__name__)

#: The smallest tray region accepted, as a share of the frame (a slip of the finger is smaller).
MIN_TRAY_AREA: Final[float] = 0.01
FILE_VERSION: Final[int] = 1

Point = tuple[float, float]
Tray = tuple[Point, Point, Point, Point]


class ExposureMode(StrEnum):
    """How the exposure is set; the value is the word saved in camera.json."""

    DEFAULT = "default"  # the camera's own (the Pi camera locks itself after warming up)
    AUTO = "auto"  # automatic: unlocked by the players
    LOCKED = "locked"  # locked at the saved values


class InvalidSetupError(ValueError):
    """A tray region or exposure value that cannot be used; the message names what is wrong."""


class SettingsSaveError(OSError):
    """The camera settings could not be written; the previous ones are still in place."""


@dataclass(frozen=True)
class ExposureLock:
    """Frozen exposure and white balance, in picamera2's units."""

    exposure_time: int  # microseconds
    analogue_gain: float
    colour_gains: tuple[float, float]  # red, blue

    @classmethod
    def from_controls(cls, controls: object) -> ExposureLock:
        """From picamera2-named values (ExposureTime, AnalogueGain, ColourGains); all positive."""
        if not isinstance(controls, Mapping):
            raise InvalidSetupError(
                "exposure controls must be an object with ExposureTime, AnalogueGain "
                f"and ColourGains, got {_short(controls)}"
            )
        gains = controls.get("ColourGains")
        if not isinstance(gains, list | tuple) or len(gains) != 2:
            raise InvalidSetupError(f"ColourGains must be two numbers (red, blue), got "
                                    f"{_short(gains)}")
        return cls(
            exposure_time=round(_positive(controls.get("ExposureTime"), "ExposureTime")),
            analogue_gain=_positive(controls.get("AnalogueGain"), "AnalogueGain"),
            colour_gains=(_positive(gains[0], "ColourGains[0]"),
                          _positive(gains[1], "ColourGains[1]")),
        )

    def to_controls(self) -> dict[str, Any]:
        return {
            "ExposureTime": self.exposure_time,
            "AnalogueGain": self.analogue_gain,
            "ColourGains": list(self.colour_gains),
        }


@dataclass(frozen=True)
class CameraSettings:
    """What the players set up; the defaults read the whole frame with the camera's own exposure."""

    tray: Tray | None = None
    exposure_mode: ExposureMode = ExposureMode.DEFAULT
    exposure: ExposureLock | None = None

    def __post_init__(self) -> None:
        # The mode may be given by its word ("locked"); it is kept as the enum.
        object.__setattr__(self, "exposure_mode", ExposureMode(self.exposure_mode))

    def replace(self, **changes: Any) -> CameraSettings:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": FILE_VERSION,
            "tray": None if self.tray is None else [list(point) for point in self.tray],
            "exposure": {
                "mode": self.exposure_mode.value,
                "controls": None if self.exposure is None else self.exposure.to_controls(),
            },
        }

    @classmethod
    def from_dict(cls, data: object) -> CameraSettings:
        """Settings from their saved form, validated like the API's input."""
        if not isinstance(data, Mapping):
            raise InvalidSetupError("camera settings must be a JSON object")
        tray = None if data.get("tray") is None else parse_tray(data["tray"])
        exposure = data.get("exposure") or {}
        if not isinstance(exposure, Mapping):
            raise InvalidSetupError("'exposure' must be an object")
        word = exposure.get("mode", ExposureMode.DEFAULT.value)
        if word not in list(ExposureMode):
            raise InvalidSetupError(f"exposure mode {word!r} is not one of "
                                    f"{', '.join(ExposureMode)}")
        mode = ExposureMode(word)
        controls = exposure.get("controls")
        lock = None if controls is None else ExposureLock.from_controls(controls)
        if mode is ExposureMode.LOCKED and lock is None:
            raise InvalidSetupError("a locked exposure needs its controls")
        return cls(tray, mode, lock)


def _short(value: object, limit: int = 60) -> str:
    text = json.dumps(value) if _jsonable(value) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _positive(value: object, name: str) -> float:
    number = _number(value)
    if number is None or number <= 0:
        raise InvalidSetupError(f"{name} must be a positive number, got {_short(value)}")
    return number


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def polygon_area(points: tuple[Point, ...]) -> float:
    """The shoelace area (always positive) of a polygon given in order."""
    total = sum(
        x0 * y1 - x1 * y0
        for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1], strict=True)
    )
    return abs(total) / 2


def parse_tray(value: object) -> Tray:
    """Four [x, y] corners in order around the tray, each inside 0..1, convex, not tiny."""
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise InvalidSetupError(
            f"the tray must be a list of four [x, y] corners, got {_short(value)}"
        )
    points: list[Point] = []
    for index, point in enumerate(value, start=1):
        if not isinstance(point, list | tuple) or len(point) != 2:
            raise InvalidSetupError(f"corner {index} must be [x, y], got {_short(point)}")
        x, y = _number(point[0]), _number(point[1])
        if x is None or y is None:
            raise InvalidSetupError(f"corner {index} must be two numbers, got {_short(point)}")
        if not (0 <= x <= 1 and 0 <= y <= 1):
            raise InvalidSetupError(
                f"corner {index} {_short(point)} is outside the frame: x and y are fractions "
                "of the frame's width and height, from 0 to 1"
            )
        points.append((x, y))
    tray: Tray = (points[0], points[1], points[2], points[3])
    turns = [_cross(tray[i], tray[(i + 1) % 4], tray[(i + 2) % 4]) for i in range(4)]
    if not (all(turn > 0 for turn in turns) or all(turn < 0 for turn in turns)):
        raise InvalidSetupError(
            "the four corners do not make a convex quadrilateral: give them in order "
            "around the tray, with no corner folded in or edges crossing"
        )
    area = polygon_area(tray)
    if area < MIN_TRAY_AREA:
        raise InvalidSetupError(
            f"the tray region covers {area:.1%} of the frame; mark at least {MIN_TRAY_AREA:.0%}"
        )
    return tray


class SettingsFile:
    """The saved camera settings: loaded once at start-up, replaced atomically on each change."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._lock = threading.Lock()
        self._current = self._load()

    @property
    def current(self) -> CameraSettings:
        return self._current

    def update(self, **changes: Any) -> CameraSettings:
        """Change some settings and save them; on a write failure nothing changes."""
        with self._lock:
            settings = self._current.replace(**changes)
            self._write(settings)
            self._current = settings
            return settings

    def _load(self) -> CameraSettings:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return CameraSettings()
        except OSError as error:
            log.error("cannot read camera settings %s (%s): using defaults", self.path, error)
            return CameraSettings()
        try:
            settings = CameraSettings.from_dict(json.loads(text))
        except (ValueError, InvalidSetupError) as error:
            # Left in place for a person to look at; the next save replaces it.
            log.error("camera settings %s are not usable (%s): using defaults", self.path, error)
            return CameraSettings()
        log.info("camera settings loaded from %s", self.path)
        return settings

    def _write(self, settings: CameraSettings) -> None:
        try:
            text = json.dumps(settings.to_dict(), indent=2) + "\n"
            write_atomically(self.path, text.encode("utf-8"))
        except OSError as error:
            raise SettingsSaveError(
                f"the camera settings could not be saved, nothing changed: {error}"
            ) from error

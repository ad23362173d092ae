"""The camera contract: how a camera is named, what it can do, and what the scorepad drives.

One home for what crosses from vision to the web app's camera thread:

- `parse_source_spec` is the one grammar of camera specs, so the config refuses a
  bad spec at load, with the message the camera would give later:

  | spec          | source                                                  |
  |---------------|---------------------------------------------------------|
  | `demo`        | a rendered table whose dice roll when asked (`throw()`) |
  | `picamera`    | the Raspberry Pi camera (picamera2), exposure locked    |
  | `device:N`    | an OpenCV capture device, e.g. a USB webcam             |
  | `video:PATH`  | a video file, frame by frame                            |
  | `images:DIR`  | the images of a folder, in name order                   |

- `TableCamera` is what the camera thread drives (`vision.camera.live.TableWatcher`, or a
  test's fake). Its optional capabilities are explicit: `exposure` is an
  `ExposureControl` or None (only the Pi camera has one), `thrower` a `DiceThrower`
  or None (only the demo table opened to throw on request).

Pure Python (no OpenCV, no numpy), so the config and the web app can use it
without loading vision's heavy parts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import Any, Final, Protocol

from scorer.dice import Die
from vision.reading import Reading


class SourceError(ValueError):
    """A frame source that cannot be named or opened; the message says which and why."""


class ExposureLockError(SourceError):
    """Exposure and white balance cannot be locked or unlocked now (the camera is closed,
    or the controls given are incomplete)."""


class DemoBusyError(RuntimeError):
    """A throw asked of the demo table while it cannot throw (one still under way, or closed)."""


class SourceKind(StrEnum):
    """The kinds of frame source a spec can name (the text before the colon)."""

    DEMO = "demo"
    PICAMERA = "picamera"
    DEVICE = "device"
    VIDEO = "video"
    IMAGES = "images"


#: Kinds named alone; the others need an argument after the colon.
_NO_ARGUMENT: Final[frozenset[SourceKind]] = frozenset({SourceKind.DEMO, SourceKind.PICAMERA})
_EXAMPLES: Final[dict[SourceKind, str]] = {
    SourceKind.DEVICE: "device:0",
    SourceKind.VIDEO: "video:roll.mp4",
    SourceKind.IMAGES: "images:frames/",
}
_WHAT: Final[dict[SourceKind, str]] = {
    SourceKind.VIDEO: "a file",
    SourceKind.IMAGES: "a folder",
}


@dataclass(frozen=True)
class SourceSpec:
    """A parsed camera spec: its kind and the text after the colon ("" for none)."""

    kind: SourceKind
    argument: str = ""

    @property
    def device(self) -> int:
        """The OpenCV device number of a `device:N` spec."""
        return int(self.argument)


def parse_source_spec(spec: str) -> SourceSpec:
    """The source a spec names, checked as far as text can be (not whether it opens)."""
    text = spec.strip()
    name, colon, argument = text.partition(":")
    try:
        kind: SourceKind | None = SourceKind(name)
    except ValueError:
        kind = None
    if kind is None or (kind in _NO_ARGUMENT and colon):
        raise SourceError(
            f"{spec!r} is not a frame source: expected demo, picamera, device:N, "
            f"video:PATH or images:DIR"
        )
    if kind in _NO_ARGUMENT:
        return SourceSpec(kind)
    if not colon:
        raise SourceError(f"{spec!r}: {kind} needs an argument, e.g. {_EXAMPLES[kind]}")
    if kind is SourceKind.DEVICE:
        try:
            int(argument)
        except ValueError:
            raise SourceError(
                f"device:{argument}: expected a device number, e.g. device:0"
            ) from None
    elif not argument:
        raise SourceError(f"{kind}: needs {_WHAT[kind]}, e.g. {_EXAMPLES[kind]}")
    return SourceSpec(kind, argument)


@dataclass(frozen=True)
class RollEvent:
    """A settled roll: what was read, and which roll of the turn it was (1..3)."""

    reading: Reading
    roll_number: int


#: The tray region as (x / width, y / height) corners in order around it.
TrayFractions = Sequence[tuple[float, float]]


class ExposureControl(Protocol):
    """A camera whose exposure and white balance can be frozen (the Pi camera's)."""

    def lock_exposure(self, controls: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Freeze them at `controls` (None: where auto control is now); returns what was set.

        ExposureLockError when the camera is closed or `controls` lack a value."""
        ...

    def unlock_exposure(self) -> None:
        """Hand them back to the camera's automatic control."""
        ...

    def exposure_controls(self) -> dict[str, Any] | None:
        """The locked controls in force, or None while exposure is automatic."""
        ...


class DiceThrower(Protocol):
    """A table whose dice roll when asked (the demo table's)."""

    def throw(self, roll_number: int, keep: Sequence[Die] = ()) -> None:
        """Throw once: roll `roll_number` of the turn, leaving `keep` lying.

        DemoBusyError while a throw is still under way."""
        ...


class TableCamera(Protocol):
    """What the scorepad's camera thread drives: a context manager over a camera that
    yields one RollEvent per settled roll and serves the set-up page."""

    def __enter__(self) -> TableCamera: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...

    @property
    def exposure(self) -> ExposureControl | None:
        """The camera's exposure control, or None when it has none."""
        ...

    @property
    def thrower(self) -> DiceThrower | None:
        """The table's dice thrower, or None when dice are rolled by hand."""
        ...

    def events(self) -> Iterator[RollEvent]:
        """Roll events as they settle; blocks on the camera, ends when closed."""
        ...

    def latest_overlay_jpeg(self) -> bytes | None:
        """The latest frame, annotated, as JPEG (None before the first frame)."""
        ...

    def latest_reading(self) -> Reading | None:
        """The reading of the last frame at rest (None before the first one)."""
        ...

    def latest_frame(self) -> Any | None:
        """The latest frame (a BGR numpy image; None before the first). While `events()`
        hands out a RollEvent, the frame that settled it: the web app cuts the read dice
        out of it, so that a die the players correct can teach the dice profile."""
        ...

    def new_turn(self) -> None:
        """The next roll is roll 1 of a new turn."""
        ...

    def set_tray_fractions(self, fractions: TrayFractions | None) -> None:
        """Read only inside this tray region from now on (None: the whole frame)."""
        ...

    def read_now(self) -> tuple[Reading, bytes] | None:
        """Read the latest frame now: the reading and its annotated JPEG (None: no frame)."""
        ...

    def close(self) -> None:
        """Stop `events()` and release the camera; safe from any thread, safe twice."""
        ...

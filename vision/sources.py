"""Frame sources behind one small interface: open with `with`, iterate for BGR frames.

`open_source(spec)` picks one from a short text spec, so the config and the command
line name a camera the same way:

| spec          | source                                                  |
|---------------|---------------------------------------------------------|
| `demo`        | a rendered table whose dice roll when asked (`throw()`) |
| `picamera`    | the Raspberry Pi camera (picamera2), exposure locked    |
| `device:N`    | an OpenCV capture device, e.g. a USB webcam             |
| `video:PATH`  | a video file, frame by frame                            |
| `images:DIR`  | the images of a folder, in name order                   |

Heavy or optional back-ends (picamera2, the renderer) are imported only when
their source is opened.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import cv2
import numpy as np

logger = logging.getLogger(__name__)

IMAGE_SUFFIXES: Final[frozenset[str]] = frozenset(
    {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
)


class SourceError(ValueError):
    """A frame source that cannot be named or opened; the message says which and why."""


class ExposureLockError(SourceError):
    """Exposure and white balance cannot be locked or unlocked on this source (or not now)."""


#: The picamera2 controls that a lock freezes, besides turning auto exposure and AWB off.
LOCK_CONTROLS: Final[tuple[str, ...]] = ("ExposureTime", "AnalogueGain", "ColourGains")


class FrameSource(ABC):
    """A context manager over a camera or files; iterating it yields BGR uint8 frames."""

    spec: str = ""

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def open(self) -> None:  # noqa: B027 - sources without set-up keep the default
        """Acquire the camera or files (called by `with`)."""

    def close(self) -> None:  # noqa: B027
        """Release them; safe to call twice."""

    @abstractmethod
    def frames(self) -> Iterator[np.ndarray]:
        """BGR frames until the source runs out (files) or is closed (cameras)."""

    def __iter__(self) -> Iterator[np.ndarray]:
        return self.frames()

    def lock_exposure(self, controls: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Freeze exposure and white balance at `controls` (None: where auto control is now).

        Returns the controls set. Sources without camera controls (files, the demo,
        OpenCV devices) refuse with ExposureLockError rather than pretend.
        """
        raise ExposureLockError(
            f"{self.spec or type(self).__name__}: this source has no exposure controls, "
            "locking exposure and white balance is not supported"
        )

    def unlock_exposure(self) -> None:
        """Hand exposure and white balance back to the camera's automatic control."""
        raise ExposureLockError(
            f"{self.spec or type(self).__name__}: this source has no exposure controls, "
            "unlocking is not supported"
        )

    def exposure_controls(self) -> dict[str, Any] | None:
        """The locked controls in force, or None while exposure is automatic (or unsupported)."""
        return None

    @property
    def can_lock_exposure(self) -> bool:
        """Whether `lock_exposure` can work on this kind of source."""
        return type(self).lock_exposure is not FrameSource.lock_exposure


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """Grey or BGRA frames as three-channel BGR, the one format the pipeline reads."""
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


class ImageFolderSource(FrameSource):
    """The images of a folder in name order; unreadable files are logged and skipped."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.spec = f"images:{folder}"
        self.paths: list[Path] = []

    def open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"images:{self.folder}: not a folder")
        self.paths = sorted(
            path for path in self.folder.iterdir() if path.suffix.lower() in IMAGE_SUFFIXES
        )
        if not self.paths:
            raise SourceError(f"images:{self.folder}: no images ({', '.join(IMAGE_SUFFIXES)})")

    def frames(self) -> Iterator[np.ndarray]:
        for path in self.paths:
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is None:
                logger.warning("skipping %s: not a readable image", path)
                continue
            yield frame


class OpenCVSource(FrameSource):
    """An OpenCV capture: a device index (webcam) or a video file."""

    def __init__(self, target: int | str, *, size: tuple[int, int] | None = None) -> None:
        self.target = target
        self.size = size
        self.spec = f"device:{target}" if isinstance(target, int) else f"video:{target}"
        self._capture: Any = None

    def open(self) -> None:
        if isinstance(self.target, str) and not Path(self.target).is_file():
            raise SourceError(f"{self.spec}: no such video file")
        capture = cv2.VideoCapture(self.target)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"{self.spec}: OpenCV could not open it")
        if self.size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._capture = capture

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def frames(self) -> Iterator[np.ndarray]:
        while self._capture is not None:
            ok, frame = self._capture.read()
            if not ok or frame is None:
                return
            yield as_bgr(frame)


class PiCameraSource(FrameSource):
    """The Pi camera through picamera2: one video configuration, kept running.

    Auto exposure and white balance run for `warmup` seconds, then are locked at
    the values they reached, so a face's colour does not drift as dice and hands
    come and go under the camera.
    """

    def __init__(self, *, size: tuple[int, int] = (1280, 960), warmup: float = 1.5) -> None:
        self.size = size
        self.warmup = warmup
        self.spec = "picamera"
        self._camera: Any = None
        self.locked_controls: dict[str, Any] = {}

    def open(self) -> None:
        try:
            from picamera2 import Picamera2  # only here: it exists on the Pi alone
        except ImportError as error:
            raise SourceError(f"picamera: picamera2 is not installed ({error})") from error
        camera = Picamera2()
        # "RGB888" in libcamera's naming is B, G, R bytes in memory: OpenCV's BGR.
        config = camera.create_video_configuration(main={"size": self.size, "format": "RGB888"})
        camera.configure(config)
        camera.start()
        self._camera = camera
        time.sleep(self.warmup)
        metadata = camera.capture_metadata()
        self.locked_controls = {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": metadata["ExposureTime"],
            "AnalogueGain": metadata["AnalogueGain"],
            "ColourGains": metadata["ColourGains"],
        }
        camera.set_controls(self.locked_controls)
        logger.info("picamera: exposure and white balance locked at %s", self.locked_controls)

    def close(self) -> None:
        if self._camera is not None:
            camera, self._camera = self._camera, None
            camera.stop()
            camera.close()

    def lock_exposure(self, controls: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """AeEnable/AwbEnable off, with ExposureTime, AnalogueGain and ColourGains from
        `controls` or, when None, from the running camera's current metadata."""
        camera = self._open_camera()
        values = camera.capture_metadata() if controls is None else controls
        missing = [name for name in LOCK_CONTROLS if name not in values]
        if missing:
            raise ExposureLockError(f"picamera: cannot lock without {', '.join(missing)}")
        locked = {
            "AeEnable": False,
            "AwbEnable": False,
            "ExposureTime": int(values["ExposureTime"]),
            "AnalogueGain": float(values["AnalogueGain"]),
            "ColourGains": tuple(float(gain) for gain in values["ColourGains"]),
        }
        camera.set_controls(locked)
        self.locked_controls = locked
        logger.info("picamera: exposure and white balance locked at %s", locked)
        return dict(locked)

    def unlock_exposure(self) -> None:
        camera = self._open_camera()
        camera.set_controls({"AeEnable": True, "AwbEnable": True})
        self.locked_controls = {}
        logger.info("picamera: exposure and white balance back on automatic")

    def exposure_controls(self) -> dict[str, Any] | None:
        return dict(self.locked_controls) or None

    def _open_camera(self) -> Any:
        if self._camera is None:
            raise ExposureLockError("picamera: the camera is not open")
        return self._camera

    def frames(self) -> Iterator[np.ndarray]:
        while self._camera is not None:
            yield as_bgr(np.asarray(self._camera.capture_array("main")))


def _demo(_: str) -> FrameSource:
    from vision.demo import DemoSource  # the renderer is only needed for the demo

    return DemoSource(on_request=True)  # the scorepad's demo rolls when asked, not on a timer


def _device(argument: str) -> FrameSource:
    try:
        return OpenCVSource(int(argument))
    except ValueError:
        raise SourceError(f"device:{argument}: expected a device number, e.g. device:0") from None


def _video(argument: str) -> FrameSource:
    if not argument:
        raise SourceError("video: needs a file, e.g. video:roll.mp4")
    return OpenCVSource(argument)


def _images(argument: str) -> FrameSource:
    if not argument:
        raise SourceError("images: needs a folder, e.g. images:frames/")
    return ImageFolderSource(argument)


#: Spec prefix -> factory taking the text after the colon.
SOURCES: Final[dict[str, Callable[[str], FrameSource]]] = {
    "demo": _demo,
    "picamera": lambda _: PiCameraSource(),
    "device": _device,
    "video": _video,
    "images": _images,
}
_NO_ARGUMENT: Final[frozenset[str]] = frozenset({"demo", "picamera"})
_EXAMPLES: Final[dict[str, str]] = {
    "device": "device:0",
    "video": "video:roll.mp4",
    "images": "images:frames/",
}


def open_source(spec: str) -> FrameSource:
    """The frame source a spec names (not yet opened: use it in a `with`)."""
    kind, colon, argument = spec.strip().partition(":")
    if kind not in SOURCES or (kind in _NO_ARGUMENT and colon):
        raise SourceError(
            f"{spec!r} is not a frame source: expected demo, picamera, device:N, "
            f"video:PATH or images:DIR"
        )
    if kind not in _NO_ARGUMENT and not colon:
        raise SourceError(f"{spec!r}: {kind} needs an argument, e.g. {_EXAMPLES[kind]}")
    return SOURCES[kind](argument)

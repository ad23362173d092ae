"""Frame sources behind one small interface: open with `with`, iterate for BGR frames.

`open_source(spec)` picks one from a short text spec, parsed by
`vision.camera.camera_contract.parse_source_spec` (the table of specs is there), so the
config and the command line name a camera the same way. A source's optional
capabilities are explicit: `exposure` (the Pi camera's ExposureControl, else None)
and `thrower` (the demo table's DiceThrower when it throws on request, else None).

Heavy or optional back-ends (picamera2, the renderer) are imported only when
their source is opened.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import cv2
import numpy as np

from vision.camera.camera_contract import (
    ExposureControl,
    ExposureLockError,
    SourceError,
    SourceKind,
    SourceSpec,
    parse_source_spec,
)
from vision.camera.frame_source import FrameSource

logger = logging.getLogger(__name__)

IMAGE_SUFFIXES: Final[frozenset[str]] = frozenset(
    {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
)


#: The picamera2 controls that a lock freezes, besides turning auto exposure and AWB off.
LOCK_CONTROLS: Final[tuple[str, ...]] = ("ExposureTime", "AnalogueGain", "ColourGains")


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
    come and go under the camera. It is its own ExposureControl.
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

    @property
    def exposure(self) -> ExposureControl:
        return self

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
        """Hand exposure and white balance back to the camera's automatic control."""
        camera = self._open_camera()
        camera.set_controls({"AeEnable": True, "AwbEnable": True})
        self.locked_controls = {}
        logger.info("picamera: exposure and white balance back on automatic")

    def exposure_controls(self) -> dict[str, Any] | None:
        """The locked controls in force, or None while exposure is automatic."""
        return dict(self.locked_controls) or None

    def _open_camera(self) -> Any:
        if self._camera is None:
            raise ExposureLockError("picamera: the camera is not open")
        return self._camera

    def frames(self) -> Iterator[np.ndarray]:
        while self._camera is not None:
            yield as_bgr(np.asarray(self._camera.capture_array("main")))


def _demo(_: SourceSpec) -> FrameSource:
    from vision.camera.demo import DemoSource  # the renderer is only needed for the demo

    return DemoSource(on_request=True)  # the scorepad's demo rolls when asked, not on a timer


#: Source kind -> factory taking the parsed spec.
SOURCES: Final[dict[SourceKind, Callable[[SourceSpec], FrameSource]]] = {
    SourceKind.DEMO: _demo,
    SourceKind.PICAMERA: lambda _: PiCameraSource(),
    SourceKind.DEVICE: lambda spec: OpenCVSource(spec.device),
    SourceKind.VIDEO: lambda spec: OpenCVSource(spec.argument),
    SourceKind.IMAGES: lambda spec: ImageFolderSource(spec.argument),
}


def open_source(spec: str) -> FrameSource:
    """The frame source a spec names (not yet opened: use it in a `with`); SourceError
    when the spec names none."""
    parsed = parse_source_spec(spec)
    return SOURCES[parsed.kind](parsed)

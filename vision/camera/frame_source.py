"""The one interface every camera and file source offers: open with `with`, iterate
for BGR frames, and name its optional capabilities.

Apart from `vision.camera.sources` (the back-ends and `open_source`), so the demo table can be
a source without importing the modules that open it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from types import TracebackType

import numpy as np

from vision.camera.camera_contract import DiceThrower, ExposureControl


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

    @property
    def exposure(self) -> ExposureControl | None:
        """Its exposure and white-balance control; None for sources without one (files,
        the demo, OpenCV devices)."""
        return None

    @property
    def thrower(self) -> DiceThrower | None:
        """Its dice thrower; None for a camera over real dice."""
        return None

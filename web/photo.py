"""The table's photo uploads: the limits of an upload, one photo read at a time, and
the errors the scorepad answers with.

Reading a photo is vision's (`vision.read.photo.read_photo`, the file checked and decoded by
`vision.read.photo_file`); this module holds the upload's pixel limits (more bytes than
`max_photo_bytes` are refused before the body is read, `web.views.photo`), the table's
own reader for photos (never the camera thread's: that one's tray changes under it),
loaded on the first photo, and the lock that keeps two uploads from reading at once.
`web.errors` answers a refused upload 400, 413 or 415 and a busy reader 503.

The networks are loaded only when the first photo is read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TypeVar

from vision.read.photo_file import (
    BadImageError,
    NotAnImageError,
    PhotoError,
    PhotoLimits,
    PhotoTooLargeError,
    open_photo,
)
from web.reader import ReaderFactory, ReaderHook, TableReader

if TYPE_CHECKING:
    from vision.read.photo import PhotoReading

T = TypeVar("T")

__all__ = ["BadImageError", "NotAnImageError", "PhotoBusyError", "PhotoError",
           "PhotoReader", "PhotoTooLargeError", "UPLOAD_LIMITS"]

#: The sizes of photo an upload may be (the smallest the locator reads, and the most
#: pixels a Pi decodes: 50 megapixels, 12 for a PNG decoded whole).
UPLOAD_LIMITS: Final[PhotoLimits] = PhotoLimits()
#: How long an upload waits for another photo being read before it gives up (503).
BUSY_WAIT_S: Final[float] = 30.0


class PhotoBusyError(RuntimeError):
    """Another photo took too long to read: this one was not read (503)."""


def dice_reader_factory(threads: int = 1) -> ReaderFactory:
    """Makes the photos' own DiceReader (its networks loaded only when called)."""

    def make() -> TableReader:
        from vision.read.pipeline import (
            DiceReader,  # loaded on use: the app without a camera loads no OpenCV or model
        )

        return DiceReader(threads=threads)

    return make


class PhotoReader:
    """Reads uploaded photos with its own dice reader, one photo at a time.

    The reader (two networks) is loaded on the first photo. Its lock keeps two
    uploads from reading at once (each would slow the other, and the camera thread,
    on a small machine); the camera thread has its own reader and never waits here.
    """

    def __init__(self, factory: ReaderFactory | None = None, *, threads: int = 1,
                 busy_wait_s: float = BUSY_WAIT_S, on_load: ReaderHook | None = None,
                 limits: PhotoLimits = UPLOAD_LIMITS) -> None:
        self._factory = factory or dice_reader_factory(threads)
        self._reader: TableReader | None = None
        self._lock = threading.Lock()
        self._busy_wait_s = busy_wait_s
        self._on_load = on_load
        self._limits = limits

    def read(self, data: bytes) -> PhotoReading:
        """Check the upload's header, then decode and read it. Raises a PhotoError for
        a bad upload (before waiting for the reader), PhotoBusyError when busy."""
        from vision.read.photo import (
            read_photo,  # loaded on use: the app without a camera loads no OpenCV or model
        )

        photo = open_photo(data, self._limits)
        return self.using(lambda reader: read_photo(photo, reader))

    def using(self, work: Callable[[TableReader], T]) -> T:
        """`work(reader)` with the loaded reader, one caller at a time (the dice profile's
        teaching readings and descriptions take turns with the photos)."""
        if not self._lock.acquire(timeout=self._busy_wait_s):
            raise PhotoBusyError("another photo is being read: try again in a moment")
        try:
            reader = self._reader
            if reader is None:
                reader = self._factory()
                if self._on_load is not None:
                    self._on_load(reader)
                self._reader = reader
            return work(reader)
        finally:
            self._lock.release()

"""Write a file whole or not at all: a crash or a power cut leaves the old file or the new.

The data written beside the games (the dice profile, the teaching progress, the
camera settings, the household's dice layout) is replaced, never edited: the bytes
go to a temporary file in the same folder, are flushed to the disk, and the file is
moved over the old one in one step (`os.replace`). Standard library only, so every
layer can use it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomically(path: Path | str, data: bytes) -> None:
    """Replace the file at `path` with `data` (its folder is made when missing); raises
    OSError and leaves no temporary file behind when the write fails."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise

"""What the scorepad asks of a dice reader: read an image into a Reading.

vision's `DiceReader` is one; a test's stand-in is another. Code that needs more of
the reader (its model, its profile) checks for a `DiceReader` first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

import numpy as np

from scorer.dice_set import DiceSet
from vision.reading import Reading

T = TypeVar("T")


class TableReader(Protocol):
    """A reader the scorepad lends out: the camera's, the photos', a test's. It reads
    with the table's dice set (`web.table_dice` swaps a new one in)."""

    dice_set: DiceSet

    def read(self, frame: np.ndarray) -> Reading: ...


class UseReader(Protocol):
    """Runs `work(reader)` with a loaded reader, one caller at a time (`PhotoReader.using`)."""

    def __call__(self, work: Callable[[TableReader], T], /) -> T: ...


#: Makes a reader (vision's DiceReader, or a test's stand-in).
ReaderFactory = Callable[[], TableReader]
#: Called with a reader once it is made (the table's dice set and profile attach to it).
ReaderHook = Callable[[TableReader], None]

"""The crops of rolls read from a picture (the camera's frame, a phone's photo), kept so
that a die the players correct later has a picture to teach the dice profile with.

In memory only, the latest few rolls, keyed by the roll's id; the crops follow the dice
when a correction moves an unreadable die among those read (`TableRoll.with_die`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np

#: Rolls read from a picture whose crops are kept for a correction (the latest ones).
MAX_READ_ROLLS: Final[int] = 16


class ReadRolls:
    """Each kept roll's crops, in the roll's die order (read, then unreadable), and which
    of its dice read the reader was not sure enough of to learn them unchecked (their
    places never move: a fixed unreadable die joins the dice read after them)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # Per roll id: its crops, and the places of its doubtful dice.
        self._rolls: OrderedDict[int, tuple[tuple[np.ndarray | None, ...], frozenset[int]]] = (
            OrderedDict())

    def remember(self, roll_id: int, crops: Sequence[np.ndarray | None],
                 doubtful: Iterable[int] = ()) -> None:
        with self._lock:
            self._rolls[roll_id] = (tuple(crops), frozenset(doubtful))
            while len(self._rolls) > MAX_READ_ROLLS:
                self._rolls.popitem(last=False)

    def corrected(self, roll_id: int, index: int, read: int, new_id: int | None
                  ) -> np.ndarray | None:
        """Die `index` of roll `roll_id` (of `read` dice read) was corrected: its crop (None:
        none kept). The roll's crops move to `new_id`, the corrected die among those read."""
        with self._lock:
            kept = self._rolls.pop(roll_id, None)
            if kept is None:
                return None
            crops, doubtful = list(kept[0]), kept[1]
            crop = crops[index] if index < len(crops) else None
            if read <= index < len(crops):  # an unreadable die joins the dice read (with_die)
                crops.insert(read, crops.pop(index))
            if new_id is not None:  # the corrected die is checked now: no longer doubtful
                self._rolls[new_id] = (tuple(crops), doubtful - {index})
        return crop

    def taken(self, roll_id: int
              ) -> tuple[tuple[np.ndarray | None, ...], frozenset[int]] | None:
        """The crops of roll `roll_id` and its doubtful dice, no longer kept (None: none
        kept): the roll was scored, and no correction can follow."""
        with self._lock:
            return self._rolls.pop(roll_id, None)

    def __contains__(self, roll_id: object) -> bool:
        """Whether the crops of that roll are kept."""
        with self._lock:
            return roll_id in self._rolls

    def clear(self) -> None:
        with self._lock:
            self._rolls.clear()

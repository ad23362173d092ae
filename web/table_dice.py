"""The dice set the scorepad uses now, swapped in place when the players save a layout.

`cli` builds the household's `DiceSet` when the scorepad starts; everything that
depends on the faces (the impossible-dice marks, the odds' hint, the layout check,
the camera's and the photos' readers) asks this holder for the set at the time of
use, so a layout saved on /setup takes effect at once, without a restart.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Protocol

from scorer.dice_set import DiceSet

log = logging.getLogger(__name__)


class UsesDiceSet(Protocol):
    """A reader that matches its readings to a dice set (vision's DiceReader)."""

    dice_set: DiceSet


class TableDice:
    """The table's current dice set and the readers that follow it."""

    def __init__(self, dice_set: DiceSet) -> None:
        self._current = dice_set
        self._lock = threading.Lock()
        self._readers: weakref.WeakSet[UsesDiceSet] = weakref.WeakSet()
        self._listeners: list[Callable[[DiceSet], None]] = []

    @property
    def current(self) -> DiceSet:
        """The set in use now (a frozen value: a caller keeps it for one request)."""
        return self._current

    def attach(self, reader: UsesDiceSet) -> None:
        """Make `reader` read with the current set, and with every set swapped in later."""
        with self._lock:
            reader.dice_set = self._current
            self._readers.add(reader)

    def on_swap(self, listener: Callable[[DiceSet], None]) -> None:
        """Call `listener(new set)` after each swap (the games re-send their state)."""
        self._listeners.append(listener)

    def swap(self, dice_set: DiceSet) -> None:
        """Use `dice_set` from now on, in this holder and every attached reader (a reading
        under way finishes with the set it started with)."""
        with self._lock:
            if dice_set == self._current:
                return
            self._current = dice_set
            for reader in list(self._readers):
                reader.dice_set = dice_set
        log.info("dice layout swapped in: %s", "; ".join(
            f"{name}: {faces}" for name, faces in dice_set.layout))
        for listener in self._listeners:
            listener(dice_set)

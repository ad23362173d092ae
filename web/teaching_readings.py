"""Teaching readings waiting for the players' word: each die's crop under a token.

/setup reads the dice, shows them, and sends the token back with the faces the players
confirmed; a reading too old, or pushed out by newer ones, is no longer kept.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

import numpy as np

#: Teaching readings kept for confirmation (the oldest are dropped), and for how long.
MAX_READINGS: Final[int] = 8
READING_TTL_S: Final[float] = 30 * 60


@dataclass(frozen=True)
class PendingReading:
    """A teaching reading waiting for confirmation: one crop per die (read, then
    unreadable; None for a die without corners), and when it was read."""

    crops: tuple[np.ndarray | None, ...]
    created: float


class TeachingReadings:
    """The latest few teaching readings, by token (in memory only)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: OrderedDict[str, PendingReading] = OrderedDict()

    def keep(self, crops: list[np.ndarray | None]) -> str:
        """Keep a reading's crops; the token that names it."""
        token = secrets.token_urlsafe(12)
        now = time.monotonic()
        with self._lock:
            for old, pending in list(self._pending.items()):
                if now - pending.created > READING_TTL_S:
                    del self._pending[old]
            self._pending[token] = PendingReading(tuple(crops), now)
            while len(self._pending) > MAX_READINGS:
                self._pending.popitem(last=False)
        return token

    def get(self, token: str) -> PendingReading | None:
        with self._lock:
            return self._pending.get(token)

    def drop(self, token: str) -> None:
        with self._lock:
            self._pending.pop(token, None)

    def clear(self) -> None:
        with self._lock:
            self._pending.clear()

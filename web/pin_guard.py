"""Wrong table PINs, counted per client: a few are free, then each waits longer, then a lock-out.

A 4-digit PIN has 10,000 values; without a limit a script tries them all in
seconds. Each client (its IP address) gets `FREE_TRIES` wrong PINs at once;
every further wrong PIN makes it wait twice as long before the next try (1 s,
2 s, 4 s ...), and after `LOCKOUT_AFTER` wrong PINs in a row it is locked out
for `LOCKOUT_S`, and again after each wrong PIN that follows the lock-out. While
a client waits, every PIN it sends is refused unchecked (429), so a guess made
then tells it nothing. A right PIN clears its count. Only that client waits:
the other phones at the table, and its own reads, are never held up.

At these settings the whole 4-digit range takes over a hundred days from one
client, instead of seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Wrong PINs a client may send in a row before it has to wait.
FREE_TRIES = 5
#: Wrong PINs in a row after which a client is locked out.
LOCKOUT_AFTER = 10
#: How long a lock-out lasts (seconds).
LOCKOUT_S = 15 * 60
#: Clients remembered at most (the oldest are forgotten first).
MAX_CLIENTS = 4096


class PinLockedError(PermissionError):
    """A PIN sent by a client that must wait after too many wrong PINs (429)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(retry_after + 0.999))


@dataclass
class _Client:
    wrong: int = 0
    until: float = 0.0  # no PIN from this client is checked before this time
    seen: float = 0.0


def _duration(seconds: float) -> str:
    seconds = max(1, int(seconds + 0.999))
    if seconds < 120:
        return f"{seconds} s"
    return f"{(seconds + 59) // 60} minutes"


class PinGuard:
    """Counts each client's wrong PINs and says when it must wait (thread-safe)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._clients: dict[str, _Client] = {}
        self._lock = threading.Lock()

    def check_allowed(self, client: str) -> None:
        """Raise PinLockedError when this client must wait before its PIN is checked."""
        with self._lock:
            entry = self._clients.get(client)
            now = self._clock()
            if entry is None or now >= entry.until:
                return
            left = entry.until - now
        locked = entry.wrong >= LOCKOUT_AFTER
        reason = ("locked out" if locked else "slowed down") + " after too many wrong PINs"
        raise PinLockedError(
            f"this phone is {reason}: try again in {_duration(left)} "
            "(other phones at the table are not affected)", left)

    def wrong(self, client: str) -> None:
        """Count a wrong PIN from this client and set how long it must wait."""
        with self._lock:
            now = self._clock()
            entry = self._clients.pop(client, None) or _Client()
            entry.wrong += 1
            entry.seen = now
            if entry.wrong >= LOCKOUT_AFTER:
                entry.until = now + LOCKOUT_S
            elif entry.wrong > FREE_TRIES:
                entry.until = now + 2 ** (entry.wrong - FREE_TRIES - 1)
            self._clients[client] = entry  # re-inserted: the dict is oldest first
            while len(self._clients) > MAX_CLIENTS:
                del self._clients[next(iter(self._clients))]

    def right(self, client: str) -> None:
        """A right PIN: this client's count starts again."""
        with self._lock:
            self._clients.pop(client, None)

    def wrong_count(self, client: str) -> int:
        with self._lock:
            entry = self._clients.get(client)
            return 0 if entry is None else entry.wrong

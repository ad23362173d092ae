"""Wrong table PINs, counted per client and for the whole table: a few are free, then waits,
then lock-outs.

A 4-digit PIN has 10,000 values; without a limit a script tries them all in
seconds. Each client (its IP address) gets `PinLimits.free_tries` wrong PINs at
once; every further wrong PIN makes it wait twice as long before the next try (1 s,
2 s, 4 s ...), and after `lockout_after` wrong PINs in a row it is locked out for
`lockout_s`, and again after each wrong PIN that follows the lock-out. While a client
waits, every PIN it sends is refused unchecked (429), so a guess made then tells it
nothing. A right PIN clears its count. Only that client waits: the other phones at
the table, and its own reads, are never held up.

Addresses are cheap on a network one does not own (an audit found a 4-digit PIN
from 247 addresses in 1.2 s), so the table keeps a budget of its own besides: after
`table_budget` wrong PINs from anyone within `table_window_s`, every PIN from every
address is refused unchecked for `table_lock_s`, twice as long after each further
lock (up to `table_lock_max_s`) until a right PIN is given. Reading the scorepad
never needs the PIN, so a locked table still shows its scores. A locked client is
never forgotten to make room for new ones (`max_clients`), so a flood of addresses
resets nothing.

At these settings the whole 4-digit range takes over a hundred days from one
client, and over a year from any number of them.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PinLimits:
    """How many wrong PINs are let through, and for how long they are refused after."""

    free_tries: int = 5  # wrong PINs a client may send in a row before it has to wait
    lockout_after: int = 10  # wrong PINs in a row after which a client is locked out
    lockout_s: float = 15 * 60
    max_clients: int = 4096  # clients remembered; the oldest not locked out go first
    table_budget: int = 30  # wrong PINs from anyone, within table_window_s, before the lock
    table_window_s: float = 15 * 60
    table_lock_s: float = 15 * 60  # the first table lock; each further one twice as long
    table_lock_max_s: float = 24 * 3600


LIMITS = PinLimits()
#: The module's names for the per-client limits (tests and older callers read these).
FREE_TRIES = LIMITS.free_tries
LOCKOUT_AFTER = LIMITS.lockout_after
LOCKOUT_S = LIMITS.lockout_s
MAX_CLIENTS = LIMITS.max_clients


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


@dataclass
class _Table:
    """The table's own count: when recent wrong PINs came, and its lock."""

    recent: deque[float] = field(default_factory=deque)
    until: float = 0.0  # no PIN from anyone is checked before this time
    locks: int = 0  # locks since the last right PIN (each doubles the next)


def _duration(seconds: float) -> str:
    seconds = max(1, int(seconds + 0.999))
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{(seconds + 59) // 60} minutes"
    return f"{(seconds + 3599) // 3600} hours"


class PinGuard:
    """Counts wrong PINs per client and for the table, and says who must wait (thread-safe)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 limits: PinLimits = LIMITS) -> None:
        self._clock = clock
        self.limits = limits
        self._clients: dict[str, _Client] = {}
        self._table = _Table()
        self._lock = threading.Lock()

    def table_locked_for(self) -> float:
        """Seconds until the table takes PINs again (0 when it takes them now)."""
        with self._lock:
            return max(0.0, self._table.until - self._clock())

    def check_allowed(self, client: str) -> None:
        """Raise PinLockedError when the table, or this client, must wait before a PIN
        is checked."""
        table_left = self.table_locked_for()
        if table_left > 0:
            raise PinLockedError(
                f"the table is locked for {_duration(table_left)} after too many wrong PINs "
                "from the network: no PIN is taken until then, from any phone (scores can "
                "still be read); then enter the PIN once", table_left)
        with self._lock:
            entry = self._clients.get(client)
            now = self._clock()
            if entry is None or now >= entry.until:
                return
            left = entry.until - now
        locked = entry.wrong >= self.limits.lockout_after
        reason = ("locked out" if locked else "slowed down") + " after too many wrong PINs"
        raise PinLockedError(
            f"this phone is {reason}: try again in {_duration(left)} "
            "(other phones at the table are not affected)", left)

    def wrong(self, client: str) -> None:
        """Count a wrong PIN from this client and for the table; set who must wait."""
        limits = self.limits
        with self._lock:
            now = self._clock()
            entry = self._clients.pop(client, None) or _Client()
            entry.wrong += 1
            entry.seen = now
            if entry.wrong >= limits.lockout_after:
                entry.until = now + limits.lockout_s
            elif entry.wrong > limits.free_tries:
                entry.until = now + 2 ** (entry.wrong - limits.free_tries - 1)
            self._clients[client] = entry  # re-inserted: the dict is oldest first
            self._forget_some(now)
            self._count_for_table(now)

    def _forget_some(self, now: float) -> None:
        """Keep at most max_clients, forgetting the oldest that are not made to wait."""
        excess = len(self._clients) - self.limits.max_clients
        if excess <= 0:
            return
        for name in [name for name, entry in self._clients.items() if entry.until <= now]:
            del self._clients[name]
            excess -= 1
            if excess <= 0:
                return
        # every client remembered is waiting: the table's own lock holds them all anyway
        for name in list(self._clients)[:excess]:
            del self._clients[name]

    def _count_for_table(self, now: float) -> None:
        limits, table = self.limits, self._table
        table.recent.append(now)
        while table.recent and table.recent[0] <= now - limits.table_window_s:
            table.recent.popleft()
        if len(table.recent) >= limits.table_budget:
            lock = min(limits.table_lock_s * 2 ** table.locks, limits.table_lock_max_s)
            table.until = now + lock
            table.locks += 1
            table.recent.clear()

    def right(self, client: str) -> None:
        """A right PIN: this client's count starts again, and the table's lock doubling."""
        with self._lock:
            self._clients.pop(client, None)
            self._table.locks = 0

    def wrong_count(self, client: str) -> int:
        with self._lock:
            entry = self._clients.get(client)
            return 0 if entry is None else entry.wrong

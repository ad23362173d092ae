"""Live updates to every phone: a publish/subscribe hub and its server-sent-event stream.

Each client gets its own bounded queue, so one slow phone never holds up the
others (when its queue is full the oldest message is dropped: every message
is a complete state, so only the newest matters). A stream sends a comment
line as a heartbeat when nothing happened for a while, which keeps proxies
and phones from closing an idle connection.

Services publish typed values (a `GameState`, `GamesChanged`, `GameDeleted`); this hub
turns them into the JSON each stream sends (`live_json`) as they are published.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from web.game_view import GameDeleted, GamesChanged, GameState
from web.presenters import game_state_dict

log = logging.getLogger(__name__)

#: Messages a client may fall behind before the oldest is dropped.
QUEUE_SIZE = 16


class TooManyStreamsError(RuntimeError):
    """Every live stream the server has room for is taken (503): each holds a thread."""

    retry_after = 30


@dataclass(frozen=True)
class Message:
    """One server-sent event: its name, data (JSON-encoded when sent) and topic."""

    topic: str
    event: str
    data: Any

    def encode(self) -> str:
        payload = json.dumps(self.data, separators=(",", ":"))
        return f"event: {self.event}\ndata: {payload}\n\n"


def live_json(data: Any) -> Any:
    """A published value as the JSON phones read: a game's state, or the id of a game
    that changed; anything else is sent as it is."""
    if isinstance(data, GameState):
        return game_state_dict(data)
    if isinstance(data, GamesChanged | GameDeleted):
        return {"id": data.game_id}
    return data


class Subscription:
    """A client's queue on one or more topics; iterate `stream()` to serve it."""

    def __init__(self, hub: Hub, topics: frozenset[str]) -> None:
        self.hub = hub
        self.topics = topics
        self.queue: queue.Queue[Message | None] = queue.Queue(maxsize=QUEUE_SIZE)

    def put(self, message: Message | None) -> None:
        while True:
            try:
                self.queue.put_nowait(message)
                return
            except queue.Full:
                try:
                    self.queue.get_nowait()
                except queue.Empty:
                    pass

    def get(self, timeout: float) -> Message | None:
        """The next message, or None after `timeout` seconds (or when the hub closes)."""
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self.hub.unsubscribe(self)


class Hub:
    """Fan-out of messages to every subscription of a topic."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: set[Subscription] = set()
        self._closed = threading.Event()

    def subscribe(self, *topics: str) -> Subscription:
        subscription = Subscription(self, frozenset(topics))
        with self._lock:
            self._subscriptions.add(subscription)
        log.debug("subscribed to %s (%d clients)", topics, len(self._subscriptions))
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscriptions.discard(subscription)

    def publish(self, topic: str, event: str, data: Any) -> int:
        """Queue a message for every subscriber of `topic`; returns how many got it.
        `data`: a typed value (`live_json`) or JSON as it is."""
        message = Message(topic, event, live_json(data))
        with self._lock:
            targets = [s for s in self._subscriptions if topic in s.topics]
        for subscription in targets:
            subscription.put(message)
        return len(targets)

    @property
    def client_count(self) -> int:
        with self._lock:
            return len(self._subscriptions)

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def close(self) -> None:
        """End every stream (at shutdown)."""
        self._closed.set()
        with self._lock:
            targets = list(self._subscriptions)
        for subscription in targets:
            subscription.put(None)


def event_stream(
    subscription: Subscription, first: Message | None, heartbeat_s: float
) -> Iterator[str]:
    """The text/event-stream body: the current state first, then each message, with heartbeats."""
    try:
        yield "retry: 1000\n\n"
        if first is not None:
            yield first.encode()
        while not subscription.hub.closed:
            message = subscription.get(heartbeat_s)
            if message is None:
                if subscription.hub.closed:
                    break
                yield ": heartbeat\n\n"
            else:
                yield message.encode()
    finally:
        subscription.close()

"""The scorepad's production HTTP server: waitress, bounded, with header and idle timeouts.

Werkzeug's development server starts a thread per connection with no cap and no
timeout: an audit's 5,000 connections dropped at once left it at full CPU answering
nothing for minutes. Waitress (pure Python, so it installs on a Raspberry Pi as
is) holds every connection in one event loop and hands only complete requests to
a fixed pool of threads, so idle or half-sent connections cost a few kilobytes each
and no thread. A live stream (`/stream/`, server-sent events) keeps its thread for
as long as the phone follows the table, so the pool is sized for the phones and a
few requests besides, and `Config.live_streams` caps the streams below the pool
(web/views/stream.py) so that requests always find a thread.

Chosen by measurement on loopback (tests/web/test_web_load.py, README "Serving"):
with 100 phones following one game and 5,000 connections opened, held and dropped
at once, a phone is answered within a second and every phone hears each change.
"""

from __future__ import annotations

import logging
import resource
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer

from web.config import Config

log = logging.getLogger(__name__)

WsgiApp = Callable[..., Any]


@dataclass(frozen=True)
class ServerLimits:
    """What the server holds at most, and how long it waits for a slow or idle client."""

    threads: int  # requests served at once, live streams included
    connections: int  # open connections; past this new ones wait in the listen backlog
    header_timeout_s: float  # a request whose head is not all in by then is dropped
    idle_timeout_s: float  # a connection with no request in flight, silent this long, closes
    backlog: int = 4096  # connections the kernel queues before they are accepted (at most
    # net.core.somaxconn): a full queue drops a phone's connection, which it retries 1 s later
    accept_batch: int = 512  # connections accepted per turn of the loop, not one
    max_header_bytes: int = 64 * 1024
    max_body_bytes: int = 101_000_000  # past this waitress answers 413 itself (any route)

    @classmethod
    def of(cls, config: Config) -> ServerLimits:
        return cls(threads=config.server_threads, connections=config.max_connections,
                   header_timeout_s=config.header_timeout_s,
                   idle_timeout_s=config.idle_timeout_s,
                   max_body_bytes=config.max_photo_bytes + 1_000_000)


class _Channel(HTTPChannel):
    """A connection that remembers when the request it is reading began."""

    request_began: float | None = None

    def received(self, data: bytes) -> bool:
        if self.request is None and data:
            self.request_began = time.monotonic()
        result = super().received(data)
        if self.request is None:  # the head (and body) complete: handed to a thread
            self.request_began = None
        return result


class ScorepadServer(TcpWSGIServer):
    """Waitress's TCP server, with a header timeout besides its idle one."""

    channel_class = _Channel

    def __init__(self, app: WsgiApp, listening: socket.socket, limits: ServerLimits) -> None:
        self.limits = limits
        host, port = listening.getsockname()[:2]
        super().__init__(
            app, _sock=listening, bind_socket=False, host=host, port=port,
            threads=limits.threads,
            connection_limit=limits.connections, channel_timeout=limits.idle_timeout_s,
            cleanup_interval=max(1, int(min(limits.header_timeout_s, limits.idle_timeout_s) / 2)),
            backlog=limits.backlog, asyncore_use_poll=True,  # select() stops at 1,024 sockets
            max_request_header_size=limits.max_header_bytes,
            max_request_body_size=limits.max_body_bytes,
            ident="phase10", expose_tracebacks=False,
        )

    def handle_accept(self) -> None:
        """Accept every waiting connection (up to a batch), not one per turn of the loop:
        a flood of them would otherwise fill the kernel's queue and drop a phone's."""
        for _ in range(self.limits.accept_batch):
            before = len(self._map)
            super().handle_accept()
            if len(self._map) == before or len(self._map) >= self.adj.connection_limit:
                return

    def maintenance(self, now: float) -> None:
        super().maintenance(now)
        late = time.monotonic() - self.limits.header_timeout_s
        for channel in list(self.active_channels.values()):
            began = getattr(channel, "request_began", None)
            if began is not None and began < late and not channel.requests:
                channel.will_close = True  # a head sent a byte at a time never completes

    @property
    def port(self) -> int:
        return int(self.effective_port)

    def serve(self) -> None:
        """Serve until `shutdown` is called (from any thread, or a signal handler)."""
        self._stopping = threading.Event()
        while not self._stopping.is_set():
            self.asyncore.loop(timeout=self.adj.asyncore_loop_timeout, map=self._map,
                               use_poll=True, count=1)

    def shutdown(self) -> None:
        """Make `serve` return (its loop wakes at once)."""
        stopping = getattr(self, "_stopping", None)
        if stopping is not None:
            stopping.set()
        self.pull_trigger()


def raise_open_files_limit(wanted: int) -> int:
    """Let this process hold `wanted` sockets and files if the hard limit allows (a
    service's soft limit is often 1,024); returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def make_server(app: WsgiApp, config: Config) -> ScorepadServer:
    """Listen on the configured address with the configured limits (OSError when the port
    is taken); `run()` serves until `close_server`."""
    limits = ServerLimits.of(config)
    raise_open_files_limit(limits.connections + 256)  # the database, models, log files
    family = socket.getaddrinfo(config.host, config.port, type=socket.SOCK_STREAM,
                                flags=socket.AI_PASSIVE)[0][0]
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:  # bound here, so a busy port leaves nothing open behind it
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            listening.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        listening.bind((config.host, config.port))
    except OSError:
        listening.close()
        raise
    return ScorepadServer(app, listening, limits)


def close_server(server: ScorepadServer) -> None:
    """Once `serve` has returned: let the threads finish (at most 5 s), close every
    connection and the listening socket."""
    server.task_dispatcher.shutdown(timeout=5)
    wasyncore.close_all(server._map)

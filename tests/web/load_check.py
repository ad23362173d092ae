"""A bounded load on loopback against a real `phase10 serve`: live phones, a flood of held
connections dropped at once, and how fast a phone is answered and updated meanwhile.

Used by tests/web/test_web_load.py (marked slow), and runnable by hand to measure:

    .venv/bin/python tests/web/load_check.py --phones 100 --held 5000
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rss_mb(pid: int) -> float:
    """The process's resident memory (Linux), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextmanager
def serving(data_dir: Path, *extra: str):
    """`phase10 serve` on 127.0.0.1 in a child process; yields (port, pid)."""
    port = free_port()
    command = [sys.executable, "-m", "cli", "serve", "--host", "127.0.0.1", "--port",
               str(port), "--camera", "none", "--data-dir", str(data_dir), "--no-qr", *extra]
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except OSError:
                if time.monotonic() > deadline or child.poll() is not None:
                    raise RuntimeError("the scorepad did not start") from None
                time.sleep(0.2)
        yield port, child.pid
    finally:
        child.terminate()
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(5)


def call(port: int, method: str, path: str, body: Any = None, timeout: float = 5) -> tuple[
        int, Any, float]:
    """One request on a new connection: status, JSON, seconds taken."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data,
                                     method=method,
                                     headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            status, payload = reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        status, payload = error.code, json.loads(error.read() or b"{}")
    return status, payload, time.perf_counter() - start


@dataclass
class Phones:
    """`count` phones following one game's live stream, read by one thread."""

    port: int
    game_id: int
    count: int
    heard: dict[int, dict[int, float]] = field(default_factory=dict)  # version -> phone -> t
    _stop: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> Phones:
        self.selector = selectors.DefaultSelector()
        self.sockets = []
        for index in range(self.count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(f"GET /stream/games/{self.game_id} HTTP/1.1\r\nHost: table\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ, [index, b""])
            self.sockets.append(sock)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.selector.select(0.05):
                try:
                    chunk = key.fileobj.recv(65536)
                except OSError:
                    chunk = b""
                now = time.perf_counter()
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                key.data[1] += chunk
                *events, key.data[1] = key.data[1].split(b"\n\n")
                for event in events:
                    if b"event: state" in event:
                        start = event.index(b"{", event.index(b"data:"))
                        version = json.loads(event[start:event.rindex(b"}") + 1])["version"]
                        self.heard.setdefault(version, {}).setdefault(key.data[0], now)

    def wait_for(self, version: int, timeout: float = 10) -> dict[int, float]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.heard.get(version, {})) >= self.count:
                break
            time.sleep(0.01)
        return self.heard.get(version, {})

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self.thread.join(5)
        for sock in self.sockets:
            sock.close()
        self.selector.close()


def hold(port: int, count: int) -> list[socket.socket]:
    """Open `count` connections that send nothing (a careless or hostile network)."""
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        held.append(sock)
    return held


def drop(held: list[socket.socket]) -> None:
    """Drop them all at once, reset rather than closed politely."""
    for sock in held:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()


def update_latencies(port: int, phones: Phones, game_id: int, changes: int = 5) -> list[float]:
    """Seconds from each of `changes` changes being sent to each phone hearing it (one
    list for them all: a single change's 100 figures share any hiccup of the machine)."""
    latencies = []
    for _ in range(changes):
        _, state, _ = call(port, "GET", f"/api/games/{game_id}")
        sent = time.perf_counter()
        status, after, _ = call(port, "POST", f"/api/games/{game_id}/fail", {
            "player": state["active_player"], "version": state["version"],
            "roll_id": state["roll_id"]})
        assert status == 200, after
        heard = phones.wait_for(after["version"])
        latencies.extend(at - sent for at in heard.values())
    return latencies


def measure(phones: int, held: int) -> dict[str, Any]:
    """The figures issue 45 asks for: answers and updates before, during and after a flood."""
    figures: dict[str, Any] = {"phones": phones, "held": held}
    with tempfile.TemporaryDirectory() as folder, serving(Path(folder)) as (port, pid):
        status, game, _ = call(port, "POST", "/api/games", {"players": ["Ann", "Bob"]})
        assert status == 201, game
        figures["rss_idle_mb"] = rss_mb(pid)
        with Phones(port, game["id"], phones) as table:
            time.sleep(0.5)
            figures["rss_phones_mb"] = rss_mb(pid)
            before = update_latencies(port, table, game["id"])
            flood = hold(port, held)
            time.sleep(1.0)
            figures["rss_held_mb"] = rss_mb(pid)
            figures["answer_during_s"] = call(port, "GET", f"/api/games/{game['id']}")[2]
            during = update_latencies(port, table, game["id"])
            drop(flood)
            figures["answer_after_drop_s"] = call(port, "GET", f"/api/games/{game['id']}")[2]
            time.sleep(0.5)
            after = update_latencies(port, table, game["id"])
            figures["answer_after_s"] = call(port, "GET", "/api/games")[2]
            figures["rss_after_mb"] = rss_mb(pid)
        for name, latencies in (("before", before), ("during", during), ("after", after)):
            figures[f"heard_{name}"] = len(latencies)
            figures[f"median_ms_{name}"] = (1000 * statistics.median(latencies)
                                            if latencies else float("inf"))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=100)
    parser.add_argument("--held", type=int, default=5000)
    args = parser.parse_args()
    os.environ.setdefault("PYTHONPATH", str(ROOT))
    print(json.dumps(measure(args.phones, args.held), indent=1))


if __name__ == "__main__":
    main()

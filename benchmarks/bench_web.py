"""Live-update delay at a full table: 20 phones follow the stream while turns are taken.

`phase10 serve` runs as its own process on 127.0.0.1 (as on the Pi); 20
threads each hold a streaming HTTP connection to the game's server-sent-event
stream, like 20 phones. Each benchmark round takes one turn (POST) and waits
until every phone has received the new state; the round's time is therefore
the delay until the LAST phone sees the turn. The delay of each phone
(median and max over all turns and phones) is printed and stored in
extra_info. Target: under 0.25 s for every phone.

    .venv/bin/python -m pytest benchmarks/bench_web.py -o python_files='bench_*.py' \
        --benchmark-only -s
"""

from __future__ import annotations

import http.client
import json
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

PHONES = 20
TURNS = 60
MAKES = {
    1: "8R 8B 8G 10O 5G 7R WR WB 1G 3R",
    2: "WO WB 1O 4R 10G 9B 8B 10B 10G 10O",
    3: "WO WO WG 4R 10G 9B 10O 10B 10G 10O",
    4: "4G 1R 2R WG 7B 5G 10O 6G 8O 9G",
    5: "WR 4O 3R 2O 8G 10R 5O 6G 7R 9G",
    6: "WR 4O 3R 2O 8G 10R 5O 6G 7R 9G",
    7: "1B WB 1O WR 10G 10R 10O 10B 10G 10O",
    8: "WR 4O 2R 1G 9O 8O 10O 7O 8O 10O",
    9: "1B WB 1O WR 10G 10R 10O 10B 10G 10O",
}
NEVER = "5R 5G 7B 7G 9O 9R 1B 1R 3O 3G"
_VERSION = re.compile(rb'"version":(\d+)')


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _call(base: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    data_dir = tmp_path_factory.mktemp("bench-web")
    port = _free_port()
    script = Path(sys.executable).with_name("phase10")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "cli"]
    process = subprocess.Popen(
        [*command, "serve", "--camera", "none", "--host", "127.0.0.1", "--port", str(port),
         "--data-dir", str(data_dir), "--no-qr"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            _call(base, "/api/games")
            break
        except OSError:
            time.sleep(0.1)
    yield base
    process.terminate()
    process.wait(10)


class Phone(threading.Thread):
    """One phone: a streaming connection that notes when each game version arrives."""

    def __init__(self, port: int, game_id: int, seen: dict[int, float], ready: threading.Event,
                 changed: threading.Condition) -> None:
        super().__init__(daemon=True)
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.game_id, self.seen, self.ready, self.changed = game_id, seen, ready, changed
        self.socket: socket.socket | None = None

    def hang_up(self) -> None:
        if self.socket is not None:
            self.socket.shutdown(socket.SHUT_RDWR)
        self.connection.close()

    def run(self) -> None:
        self.connection.request("GET", f"/stream/games/{self.game_id}")
        self.socket = self.connection.sock
        response = self.connection.getresponse()
        while True:
            try:
                line = response.readline()
            except (OSError, ValueError):
                return
            if not line:
                return
            match = _VERSION.search(line)
            if match:
                arrived = time.perf_counter()
                with self.changed:
                    self.seen.setdefault(int(match.group(1)), arrived)
                    self.changed.notify_all()
                self.ready.set()


def test_turn_to_every_phone_delay(benchmark, server):
    game = _call(server, "/api/games", {"players": ["Ann", "Bob"]})
    game_id, port = game["id"], int(server.rsplit(":", 1)[1])
    changed = threading.Condition()
    phones, seens = [], []
    for _ in range(PHONES):
        seen: dict[int, float] = {}
        ready = threading.Event()
        phone = Phone(port, game_id, seen, ready, changed)
        phone.start()
        assert ready.wait(10)
        phones.append(phone)
        seens.append(seen)
    state = {"version": game["version"], "active": "Ann", "phase": {"Ann": 1}}
    delays: list[float] = []

    def one_turn() -> None:
        player = state["active"]
        phase = state["phase"].get(player, 1)
        roll = MAKES.get(phase, NEVER) if player == "Ann" else NEVER
        action = "score" if roll != NEVER else "fail"
        version = state["version"] + 1
        sent = time.perf_counter()
        reply = _call(server, f"/api/games/{game_id}/{action}", {"player": player, "roll": roll})
        assert reply["version"] == version
        with changed:
            assert changed.wait_for(lambda: all(version in s for s in seens), timeout=10)
        delays.extend(s[version] - sent for s in seens)
        state["version"] = version
        state["active"] = reply["active_player"]
        state["phase"] = {c["player"]: c["current_phase"] for c in reply["scorepad"]["columns"]}

    benchmark.pedantic(one_turn, rounds=TURNS, iterations=1, warmup_rounds=1)
    for phone in phones:
        phone.hang_up()
    median_ms, max_ms = statistics.median(delays) * 1000, max(delays) * 1000
    benchmark.extra_info.update(phones=PHONES, turns=TURNS + 1, median_delay_ms=median_ms,
                                max_delay_ms=max_ms)
    print(f"\n{PHONES} phones, {TURNS + 1} turns: delay from a turn to a phone seeing it "
          f"median {median_ms:.1f} ms, max {max_ms:.1f} ms")
    assert len(delays) == PHONES * (TURNS + 1)

"""A power cut mid-game: SIGKILL the real `phase10 serve` process, start it again, nothing lost."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from phone_client import GUARDED
from scorepad_helpers import MAKES, NEVER

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(base: str, method: str, path: str, body: dict | None = None) -> dict:
    """One request; a change of a game names what the phone saw, read just before, as a
    phone that has just loaded the game would (`phone_client`)."""
    match = GUARDED.match(path)
    if match and method != "GET" and not (body and "version" in body):
        now = call(base, "GET", f"/api/games/{match.group(1)}")
        body = {**(body or {}), "version": now["version"], "roll_id": now["roll_id"]}
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        return json.loads(reply.read())


def serve(port: int, data_dir: Path, log: Path) -> subprocess.Popen:
    """`phase10 serve` as its own process; returns once it answers."""
    script = Path(sys.executable).with_name("phase10")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "cli"]
    command += ["serve", "--camera", "none", "--port", str(port), "--host", "127.0.0.1",
                "--data-dir", str(data_dir), "--no-qr"]
    with log.open("ab") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"phase10 serve exited: {log.read_text()}")
        try:
            call(f"http://127.0.0.1:{port}", "GET", "/api/games")
            return process
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)
    process.kill()
    raise AssertionError(f"phase10 serve did not answer: {log.read_text()}")


def test_sigkill_mid_game_then_restart_shows_the_identical_scorepad(tmp_path):
    port, data_dir, log = free_port(), tmp_path / "data", tmp_path / "serve.log"
    base = f"http://127.0.0.1:{port}"
    process = serve(port, data_dir, log)
    try:
        game = call(base, "POST", "/api/games", {"players": ["Ann", "Bob", "Cy"]})
        game_id = game["id"]
        for player, roll, action in [("Ann", MAKES[1][0], "score"), ("Bob", NEVER, "fail"),
                                     ("Cy", MAKES[1][0], "score"), ("Ann", MAKES[2][0], "score")]:
            call(base, "POST", f"/api/games/{game_id}/{action}", {"player": player, "roll": roll})
        call(base, "POST", f"/api/games/{game_id}/roll", {"roll": MAKES[1][0]})
        call(base, "POST", f"/api/games/{game_id}/roll", {"roll": NEVER})
        before = call(base, "GET", f"/api/games/{game_id}")
        games_before = call(base, "GET", "/api/games")
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    assert process.returncode == -signal.SIGKILL

    process = serve(port, data_dir, log)
    try:
        after = call(base, "GET", f"/api/games/{game_id}")
        assert after == before
        assert after["scorepad"] == before["scorepad"]
        assert after["current"]["notation"] == NEVER and after["current"]["roll_number"] == 2
        assert call(base, "GET", "/api/games") == games_before
        resumed = call(base, "POST", f"/api/games/{game_id}/fail", {"player": "Bob"})
        assert resumed["active_player"] == "Cy" and resumed["version"] == before["version"] + 1
    finally:
        process.terminate()
        process.wait(10)
    assert process.returncode == 0, log.read_text()

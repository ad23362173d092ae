"""The API's answers to one scripted evening at the table, pinned (issue 14: same behaviour).

The script plays through the Flask test client: a three-player dice game with a
roll-off, typed rolls, the roll on the table corrected (typo and one die), the
advice, rolls read by the camera (unsure, unreadable and demo-thrown dice),
a roll whose faces the dice cannot show together scored once confirmed,
refusals, undo and a corrected turn; a solitaire game played to its end; a
card game; the list of games and a verdict without a game. Every reply (status
and JSON) is compared with `tests/data/golden_api_states.json`. A phone's photo
is left out: its reply carries the overlay as JPEG bytes, which depend on the
OpenCV build; its roll goes on the table by the same call as the camera's.

Nothing is stripped: the store's clock is replaced by one that ticks a second
per reading, and the database is new, so timestamps, game ids and roll ids are
the same on every run. The camera is a fake watcher fed scripted readings.

Regenerate the file only after a deliberate change of the API's answers:

    PHASE10_REGENERATE_GOLDEN=1 .venv/bin/python -m pytest tests/web/test_web_golden_api.py
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fakes import FakeWatcher
from flask import Flask
from flask.testing import FlaskClient
from scorepad_helpers import MAKES, NEVER, open_camera_app, wait_until

import web.store
from scorer import Die, parse_roll
from vision.camera.camera_contract import RollEvent
from vision.reading import ReadDie, Reading, UnreadableDie
from web.app import close_app

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden_api_states.json"
REGENERATE = os.environ.get("PHASE10_REGENERATE_GOLDEN") == "1"
#: The store's first timestamp; each later one is a second on.
START = datetime(2026, 1, 10, 19, 0, tzinfo=UTC)


class DemoDice:
    """The demo table's throwing hand (a DiceThrower): records each throw the scorepad asks for."""

    def __init__(self) -> None:
        self.thrown: list[tuple[int, tuple[Die, ...]]] = []

    def throw(self, roll_number: int, keep: tuple[Die, ...]) -> None:
        self.thrown.append((roll_number, tuple(keep)))


class DemoWatcher(FakeWatcher):
    """A fake watcher whose dice roll on request (the demo camera's), fed by the script."""

    def __init__(self) -> None:
        super().__init__(thrower=DemoDice())


def reading(notation: str, *, unsure: tuple[int, ...] = (), flags: tuple[str, ...] = (),
            unreadable: int = 0) -> Reading:
    """A settled camera reading of these faces (`unreadable` more dice found, not read)."""
    dice = tuple(ReadDie(die, 0.6 if i in unsure else 0.99, (10.0 * i, 5.0), (), i in unsure)
                 for i, die in enumerate(parse_roll(notation).dice))
    lost = tuple(UnreadableDie((300.0 + 10 * i, 200.0), (), 0.9, 0.1)
                 for i in range(unreadable))
    return Reading(dice, (640, 480), flags, lost)


class Script:
    """Sends requests and records each reply: the call, its body, the status and the JSON."""

    def __init__(self, client: FlaskClient, watcher: DemoWatcher) -> None:
        self.client = client
        self.watcher = watcher
        self.steps: list[dict[str, Any]] = []

    def call(self, method: str, path: str, body: Any = None) -> Any:
        reply = self.client.open(path, method=method, json=body)
        self.steps.append({"call": f"{method} {path}", "body": body,
                           "status": reply.status_code, "json": reply.json})
        return reply.json

    def camera(self, game_id: int, event: RollEvent) -> Any:
        """The camera reads a roll; the state is recorded once it is on the table."""
        path = f"/api/games/{game_id}"
        before = self.client.get(path).json["roll_id"]
        self.watcher.push(event)
        wait_until(lambda: self.client.get(path).json["roll_id"] != before,
                   "the camera's roll on the table")
        return self.call("GET", path)


def play_dice_game(script: Script) -> None:
    """Three players, a roll-off, the roll on the table typed, fixed, read and thrown."""
    call = script.call
    call("GET", "/api/config")
    game = call("POST", "/api/games", {"players": ["Ann", "Bob", "Cleo"], "roll_off": True,
                                       "first_finish": "already_on_phase_10"})
    path = f"/api/games/{game['id']}"
    call("POST", f"{path}/roll", {"roll": NEVER})  # a roll lies there during the roll-off
    call("POST", f"{path}/roll-off", {"player": "Ann", "value": 9})
    call("POST", f"{path}/roll-off", {"player": "Bob", "value": 9})
    call("POST", f"{path}/roll-off", {"player": "Cleo", "value": 6})
    call("POST", f"{path}/roll-off", {"player": "Ann", "value": 4})  # refused: 5-10
    call("POST", f"{path}/roll-off", {"player": "Ann", "value": 7})
    state = call("POST", f"{path}/roll-off", {"player": "Bob", "value": 10})
    # Bob starts: a typed roll, a typo fixed in place, one die corrected, the advice.
    call("POST", f"{path}/roll", {"roll": "8r 8b 8g 10o 5g 7r wr wb 1g 3b"})
    call("PUT", f"{path}/roll", {"roll": "8R 8B 6G 10O 5G 7R WR WB 1G 3R"})
    call("GET", f"{path}/advice")
    state = call("POST", f"{path}/roll/dice/2", {"die": "8G"})
    call("GET", f"{path}/advice")
    call("POST", f"{path}/score", {"player": "Bob", "version": state["version"],
                                   "roll_id": state["roll_id"] - 1})  # refused: stale roll
    call("POST", f"{path}/score", {"player": "Ann"})  # refused: not Ann's turn
    state = call("POST", f"{path}/score", {"player": "Bob", "version": state["version"],
                                           "roll_id": state["roll_id"]})
    call("POST", f"{path}/score", {"player": "Ann", "version": state["version"] - 1})  # stale
    # Ann: rolls 1 and 2 typed, with a roll number given; the turn fails.
    call("POST", f"{path}/roll", {"roll": NEVER})
    call("POST", f"{path}/roll", {"roll": NEVER, "roll_number": 3})
    call("POST", f"{path}/roll", {"roll": "5R 5G 7B", "roll_number": 4})  # refused: 1-3
    call("POST", f"{path}/score", {"player": "Ann"})  # refused: no phase made
    call("POST", f"{path}/fail", {"player": "Ann"})
    call("POST", f"{path}/roll", {"roll": "11X"})  # refused: not a die
    call("POST", f"{path}/roll", {"roll": NEVER, "rolls": 2})  # refused: unknown field
    # Cleo: the camera reads her rolls.
    call("PUT", "/api/camera/game", {"game": game["id"]})
    script.camera(game["id"], RollEvent(reading(
        "8R 8B 6G 10O 10G 7R WR 2B 1G 3R", unsure=(2,), flags=("hand-in-frame",)), 1))
    call("GET", f"{path}/advice")
    call("POST", f"{path}/roll/dice/2", {"die": "8G"})
    call("POST", f"{path}/roll/dice/10", {"die": "8G"})  # refused: no die 10
    plan = call("POST", f"{path}/demo-roll", {})
    script.camera(game["id"], RollEvent(reading("8R 8B 8G 10O 10G 5R WR 2B 1G 3R"), 1))
    call("POST", f"{path}/demo-roll", {})
    script.camera(game["id"], RollEvent(reading(
        "8R 8B 8G 10O 10G 5R WR 2B 1G", flags=("unreadable-dice",), unreadable=1), 1))
    call("GET", "/api/camera")
    call("POST", f"{path}/demo-roll", {})  # refused: that was roll 3
    call("POST", f"{path}/score", {"player": "Cleo"})  # refused: a die not read
    call("POST", f"{path}/roll/dice/9", {"die": "3R"})
    call("POST", f"{path}/score", {"player": "Cleo"})  # refused: faces no ten dice show at once
    call("POST", f"{path}/score", {"player": "Cleo", "confirmed": True})
    # Round 2: Bob's roll taken off the table, a turn undone, an earlier turn corrected.
    call("POST", f"{path}/roll", {"roll": MAKES[2][0]})
    call("DELETE", f"{path}/roll")
    call("POST", f"{path}/fail", {"player": "Bob", "roll": MAKES[1][0]})
    call("POST", f"{path}/undo", {})
    call("POST", f"{path}/score", {"player": "Bob", "roll": MAKES[2][0]})
    call("POST", f"{path}/correct", {"turn": 1, "roll": MAKES[1][0], "made": True})
    call("POST", f"{path}/correct", {"turn": 0, "roll": NEVER, "made": True})  # refused
    call("PUT", "/api/camera/game", {"game": None})
    call("GET", path)
    assert plan == {"roll_number": 2, "keep": plan["keep"]}


def play_solitaire(script: Script) -> None:
    """One player, every phase made in turn, one failed turn: to the end of the game."""
    call = script.call
    game = call("POST", "/api/games", {"players": ["Solo"], "solitaire": True})
    path = f"/api/games/{game['id']}"
    call("POST", "/api/games", {"players": ["Solo"], "solitaire": True, "roll_off": True})
    call("POST", f"{path}/fail", {"player": "Solo", "roll": NEVER})
    for phase in range(1, 11):
        call("POST", f"{path}/roll", {"roll": MAKES[phase][0]})
        call("POST", f"{path}/score", {"player": "Solo"})
    call("POST", f"{path}/roll", {"roll": NEVER})  # refused: the game is over
    call("PUT", "/api/camera/game", {"game": game["id"]})  # refused: over
    call("GET", path)


def play_cards(script: Script) -> None:
    """The card game: hands, a hand corrected, undo, and a roll refused by name."""
    call = script.call
    game = call("POST", "/api/games", {"players": ["Ann", "Bob", "Cy"], "game": "cards",
                                       "winner": "lowest_total"})
    path = f"/api/games/{game['id']}"

    def line(player: str, made: bool, points: int) -> dict[str, Any]:
        return {"player": player, "made": made, "points": points}

    call("POST", f"{path}/hand", {"hand": [line("Ann", True, 0), line("Bob", False, 45),
                                           line("Cy", True, 10)], "version": 1})
    call("POST", f"{path}/hand", {"hand": [line("Ann", True, 15), line("Bob", True, 0),
                                           line("Cy", False, 60)]})
    call("PUT", f"{path}/hands/0", {"hand": [line("Ann", True, 0), line("Bob", True, 20),
                                             line("Cy", True, 10)]})
    call("POST", f"{path}/undo", {})
    call("POST", f"{path}/roll", {"roll": NEVER})  # refused: a card game
    call("POST", f"{path}/score", {"player": "Ann"})  # refused: no such action
    call("GET", path)


def play_evening(script: Script) -> None:
    play_dice_game(script)
    play_solitaire(script)
    play_cards(script)
    script.call("GET", "/api/games")
    script.call("GET", "/api/score?roll=WO+WO+WG+4R+10G+9B+10O+10B+10G+10O&phase=3")
    script.call("GET", "/api/games/99")


@pytest.fixture
def evening(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Script]:
    ticks = itertools.count()
    monkeypatch.setattr(web.store, "_now", lambda: (
        START + timedelta(seconds=next(ticks))).isoformat(timespec="seconds"))
    watcher = DemoWatcher()
    app: Flask = open_camera_app(tmp_path, watcher)
    yield Script(app.test_client(), watcher)
    close_app(app)


def test_the_api_answers_a_scripted_evening_as_before(evening: Script) -> None:
    play_evening(evening)
    if REGENERATE:
        GOLDEN.write_text(json.dumps(evening.steps, indent=1, ensure_ascii=False) + "\n")
        pytest.skip(f"wrote {GOLDEN.name}")
    golden = json.loads(GOLDEN.read_text())
    assert len(evening.steps) == len(golden)
    for step, expected in zip(evening.steps, golden, strict=True):
        assert step == expected, step["call"]

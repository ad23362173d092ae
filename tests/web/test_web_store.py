"""The SQLite store: committed event logs, the current roll, and the list of games."""

from __future__ import annotations

import sqlite3

import pytest

from web.store import GameStore, UnknownGameError

CREATED = {"type": "game_created", "players": ["Ann", "Bob"], "solitaire": False, "roll_off": False}


@pytest.fixture
def store(tmp_path):
    with GameStore(tmp_path / "db" / "games.sqlite3") as opened:
        yield opened


def test_database_is_wal_with_full_sync(store):
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_and_current_roll_survive_reopening(tmp_path):
    path = tmp_path / "games.sqlite3"
    with GameStore(path) as store:
        game_id = store.create_game({"players": ["Ann", "Bob"]}, [CREATED], {"round": 1})
        store.append_event(game_id, 1, {"type": "turn_failed", "player": "Ann"},
                           summary={"round": 1}, finished=False, current={"dice": ["8R"]})
        store.set_current(game_id, {"dice": ["8R", "9G"], "roll_number": 2})
    with GameStore(path) as store:
        loaded = store.load(game_id)
    assert loaded.events == (CREATED, {"type": "turn_failed", "player": "Ann"})
    assert loaded.current == {"dice": ["8R", "9G"], "roll_number": 2}
    assert loaded.settings == {"players": ["Ann", "Bob"]} and not loaded.finished


def test_a_taken_position_is_refused_and_nothing_changes(store):
    game_id = store.create_game({}, [CREATED], {})
    with pytest.raises(sqlite3.IntegrityError):
        store.append_event(game_id, 0, {"type": "undone"}, summary={"x": 1}, finished=True)
    loaded = store.load(game_id)
    assert loaded.events == (CREATED,) and loaded.summary == {} and not loaded.finished


def test_scoring_clears_the_current_roll(store):
    game_id = store.create_game({}, [CREATED], {})
    store.set_current(game_id, {"dice": ["8R"]})
    store.append_event(game_id, 1, {"type": "turn_scored"}, summary={}, finished=False)
    assert store.load(game_id).current is None


def test_unknown_game(store):
    with pytest.raises(UnknownGameError, match="no game 7"):
        store.load(7)
    with pytest.raises(UnknownGameError):
        store.set_current(7, None)
    with pytest.raises(UnknownGameError):
        store.append_event(7, 0, {}, summary={}, finished=False)


def test_list_games_and_table_settings(store):
    first = store.create_game({"players": ["A", "B"]}, [CREATED], {"round": 1})
    second = store.create_game({"players": ["C", "D"]}, [CREATED], {"round": 1})
    assert [g.id for g in store.list_games()] == [second, first]
    assert store.setting("camera_game") is None
    store.set_setting("camera_game", first)
    assert store.setting("camera_game") == first
    store.set_setting("camera_game", None)
    assert store.setting("camera_game") is None
    store.append_event(second, 1, {}, summary={"winners": ["C"]}, finished=True)
    listed = {g.id: g.to_dict() for g in store.list_games()}
    assert listed[second]["finished"] and listed[second]["winners"] == ["C"]
    assert listed[first]["players"] == ["A", "B"]


def test_loading_without_the_log(store):
    game_id = store.create_game({"players": ["A", "B"]}, [CREATED], {})
    store.set_current(game_id, {"dice": ["8R"]})
    light = store.load(game_id, events=False)
    assert light.events == () and light.current == {"dice": ["8R"]}
    assert store.load(game_id).events == (CREATED,)

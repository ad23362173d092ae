"""The list of games (issue 11): newest first, playing and finished apart, paging, archive
(hidden, listable, restorable) and delete (that game only, never an id reused)."""

from __future__ import annotations

import itertools
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from scorepad_helpers import MAKES, NEVER, make_config

import web.store
from web.app import close_app, create_app
from web.service import GAMES_TOPIC, game_topic
from web.store import GameStore, UnknownGameError


@pytest.fixture(autouse=True)
def ticking_clock(monkeypatch):
    """The store's clock ticks a second per reading: "most recently played" is never a tie."""
    ticks = itertools.count()
    start = datetime(2026, 1, 10, 19, 0, tzinfo=UTC)
    monkeypatch.setattr(web.store, "_now", lambda: (
        start + timedelta(seconds=next(ticks))).isoformat(timespec="seconds"))


def new_game(client, players=("Ann", "Bob")) -> int:
    reply = client.post("/api/games", json={"players": list(players)})
    assert reply.status_code == 201, reply.json
    return reply.json["id"]


def solitaire_to_the_end(client) -> int:
    """A solitaire game played to its end: a finished game."""
    game_id = client.post("/api/games", json={"players": ["Solo"], "solitaire": True}).json["id"]
    for phase in range(1, 11):
        reply = client.post(f"/api/games/{game_id}/score",
                            json={"player": "Solo", "roll": MAKES[phase][0]})
        assert reply.status_code == 200, reply.json
    assert reply.json["is_over"]
    return game_id


def ids(reply) -> list[int]:
    assert reply.status_code == 200, reply.json
    return [game["id"] for game in reply.json["games"]]


def test_the_list_pages_newest_first_with_playing_and_finished_apart(client):
    playing = [new_game(client, (f"A{i}", f"B{i}")) for i in range(7)]
    finished = [solitaire_to_the_end(client) for _ in range(3)]
    everything = client.get("/api/games").json
    assert everything["total"] == 10 and everything["offset"] == 0
    assert [g["id"] for g in everything["games"]] == finished[::-1] + playing[::-1]

    first = client.get("/api/games?status=playing&limit=3")
    assert ids(first) == playing[::-1][:3] and first.json["total"] == 7
    second = client.get("/api/games?status=playing&limit=3&offset=3")
    assert ids(second) == playing[::-1][3:6]
    last = client.get("/api/games?status=playing&limit=3&offset=6")
    assert ids(last) == playing[:1]
    assert ids(client.get("/api/games?status=playing&offset=7")) == []
    done = client.get("/api/games?status=finished").json
    assert [g["id"] for g in done["games"]] == finished[::-1] and done["total"] == 3
    assert all(g["finished"] and g["archived"] is None for g in done["games"])

    # a game played moves to the top (most recently played first)
    client.post(f"/api/games/{playing[0]}/fail", json={"player": "A0", "roll": NEVER})
    assert ids(client.get("/api/games?status=playing&limit=1")) == [playing[0]]


@pytest.mark.parametrize("query, named", [
    ("limit=0", "limit"), ("limit=201", "limit"), ("limit=x", "limit"), ("offset=-1", "offset"),
    ("offset=%C2%B9", "offset"), ("offset=99999999999999999999999", "offset"),
    ("status=over", "status"), ("archived=yes", "archived"), ("page=2", "page"),
])
def test_bad_list_queries_are_refused_by_name(client, query, named):
    reply = client.get("/api/games?" + query)
    assert reply.status_code == 400 and named in reply.json["error"]


def test_an_archived_game_is_hidden_listable_and_restorable(client):
    kept, archived = new_game(client), new_game(client, ("Cy", "Di"))
    reply = client.post(f"/api/games/{archived}/archive", json={})
    assert reply.status_code == 200
    assert reply.json["game"]["id"] == archived and reply.json["game"]["archived"]
    assert ids(client.get("/api/games")) == [kept]
    listed = client.get("/api/games?archived=1").json
    assert [g["id"] for g in listed["games"]] == [archived] and listed["total"] == 1
    # kept whole: its page and its log are there, and it can still be played
    assert client.get(f"/api/games/{archived}").json["players"] == ["Cy", "Di"]
    assert client.post(f"/api/games/{archived}/score",
                       json={"player": "Cy", "roll": MAKES[1][0]}).status_code == 200
    assert ids(client.get("/api/games")) == [kept]  # playing it does not bring it back

    restored = client.post(f"/api/games/{archived}/restore", json={})
    assert restored.status_code == 200 and restored.json["game"]["archived"] is None
    assert ids(client.get("/api/games")) == [archived, kept]
    assert ids(client.get("/api/games?archived=1")) == []


def test_deleting_a_game_removes_that_game_only(app, client):
    first, doomed, last = new_game(client), new_game(client, ("Cy", "Di")), new_game(client)
    for game_id in (first, doomed, last):
        client.post(f"/api/games/{game_id}/roll", json={"roll": MAKES[1][0]})
        client.post(f"/api/games/{game_id}/score", json={"player": client.get(
            f"/api/games/{game_id}").json["active_player"]})
        client.post(f"/api/games/{game_id}/roll", json={"roll": NEVER})
    before = {game_id: client.get(f"/api/games/{game_id}").json for game_id in (first, last)}
    tab = app.extensions["phase10"]
    heard = tab.hub.subscribe(game_topic(doomed), GAMES_TOPIC)

    reply = client.delete(f"/api/games/{doomed}", json={})
    assert reply.status_code == 200 and reply.json == {"deleted": doomed}
    assert client.get(f"/api/games/{doomed}").status_code == 404
    assert client.post(f"/api/games/{doomed}/roll", json={"roll": NEVER}).status_code == 404
    assert client.delete(f"/api/games/{doomed}").status_code == 404  # gone: twice is 404
    assert ids(client.get("/api/games")) == [last, first]
    for game_id, state in before.items():
        assert client.get(f"/api/games/{game_id}").json == state
    rows = tab.store._db.execute("SELECT COUNT(*) FROM events WHERE game_id = ?",
                                 (doomed,)).fetchone()[0]
    assert rows == 0
    events = [heard.get(1).event for _ in range(2)]
    assert sorted(events) == ["deleted", "games"]
    # a deleted game's id is never given to a new game
    assert new_game(client) == last + 1


def test_deleting_the_newest_game_never_reuses_its_id_after_a_restart(tmp_path):
    config = make_config(tmp_path)
    app = create_app(config)
    client = app.test_client()
    newest = new_game(client)
    assert client.delete(f"/api/games/{newest}").status_code == 200
    close_app(app)
    app = create_app(config)
    try:
        assert new_game(app.test_client()) == newest + 1
    finally:
        close_app(app)


def test_deleting_the_cameras_game_leaves_the_camera_on_no_game(camera_app):
    client = camera_app.test_client()
    game_id, other = new_game(client), new_game(client)
    assert client.put("/api/camera/game", json={"game": game_id}).status_code == 200
    assert client.delete(f"/api/games/{game_id}").status_code == 200
    assert client.get("/api/camera").json["camera"]["game"] is None
    service = camera_app.extensions["phase10"].service
    assert service.store.setting("camera_game") is None
    assert client.put("/api/camera/game", json={"game": other}).status_code == 200


def test_archive_restore_and_delete_need_the_table_pin(tmp_path):
    app = create_app(make_config(tmp_path, pin="2468"))
    client = app.test_client()
    pin = {"X-Table-Pin": "2468"}
    try:
        game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]},
                              headers=pin).json["id"]
        for method, path in (("post", "archive"), ("post", "restore"), ("delete", "")):
            url = f"/api/games/{game_id}/{path}".rstrip("/")
            assert getattr(client, method)(url, json={}).status_code == 401
            assert getattr(client, method)(url, json={},
                                           headers={"X-Table-Pin": "1111"}).status_code == 403
        assert ids(client.get("/api/games")) == [game_id]  # nothing changed
        assert client.post(f"/api/games/{game_id}/archive", json={}, headers=pin).status_code \
            == 200
        assert client.delete(f"/api/games/{game_id}", json={"pin": "2468"}).status_code == 200
    finally:
        close_app(app)


def test_unknown_games_and_fields(client):
    assert client.post("/api/games/99/archive", json={}).status_code == 404
    assert client.post("/api/games/99/restore", json={}).status_code == 404
    assert client.delete("/api/games/99").status_code == 404
    assert client.delete("/api/games/1180591620717411303424").status_code == 404
    game_id = new_game(client)
    reply = client.post(f"/api/games/{game_id}/archive", json={"archived": True})
    assert reply.status_code == 400 and "'archived'" in reply.json["error"]


def test_a_failed_delete_leaves_the_game_whole(tmp_path):
    """The delete is one transaction: a failure after the events went rolls them back."""
    with GameStore(tmp_path / "games.sqlite3") as store:
        game_id = store.create_game({"players": ["A", "B"]}, [{"type": "game_created"}], {})
        store.set_current(game_id, {"dice": ["8R"]})
        store._db.execute("CREATE TRIGGER no_delete BEFORE DELETE ON games "
                          "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
        with pytest.raises(sqlite3.Error, match="disk trouble"):
            store.delete_game(game_id)
        loaded = store.load(game_id)
        assert loaded.events == ({"type": "game_created"},)
        assert loaded.current == {"dice": ["8R"]}
        store._db.execute("DROP TRIGGER no_delete")
        store.delete_game(game_id)
        with pytest.raises(UnknownGameError):
            store.load(game_id)


def test_a_database_from_before_archiving_opens_and_keeps_its_games(tmp_path):
    path = tmp_path / "games.sqlite3"
    old = sqlite3.connect(path)
    old.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY AUTOINCREMENT, created TEXT NOT NULL,
            updated TEXT NOT NULL, settings TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '{}',
            finished INTEGER NOT NULL DEFAULT 0);
        INSERT INTO games (created, updated, settings) VALUES ('2025-01-01', '2025-01-01',
            '{"players": ["Old", "Timer"]}');
    """)
    old.commit()
    old.close()
    with GameStore(path) as store:
        listed = store.list_games()
        assert [game.settings["players"] for game in listed] == [["Old", "Timer"]]
        assert listed[0].archived is None
        store.set_archived(listed[0].id, True)
        assert store.page(archived=True).total == 1

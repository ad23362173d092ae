"""Backups and exports (issue 46): a backup restored into an emptied scorepad answers
every API question byte for byte as before; restore refuses what is not a backup and
changes no game already there; a finished game's export brought back shows the same
scorepad; the CSV lists each turn."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from flask import Flask
from scorepad_helpers import MAKES, NEVER, make_config

from web.app import close_app, create_app


def open_app(data: Path) -> Flask:
    app = create_app(make_config(data.parent, data_dir=data))
    app.testing = True
    return app


def evening(client) -> list[int]:
    """A few games of every kind: finished, playing with a roll on the table, solitaire,
    cards, archived, one corrected and one undone."""
    done = client.post("/api/games", json={"players": ["Ann"], "solitaire": True}).json["id"]
    for phase in range(1, 11):
        client.post(f"/api/games/{done}/score", json={"player": "Ann", "roll": MAKES[phase][0]})
    playing = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    client.post(f"/api/games/{playing}/fail", json={"player": "Ann", "roll": NEVER})
    client.post(f"/api/games/{playing}/score", json={"player": "Bob", "roll": MAKES[1][0]})
    client.post(f"/api/games/{playing}/correct", json={"turn": 0, "roll": MAKES[1][0],
                                                         "made": True})
    client.post(f"/api/games/{playing}/roll", json={"roll": MAKES[2][0]})
    cards = client.post("/api/games", json={"players": ["Cy", "Di"], "game": "cards"}).json["id"]
    client.post(f"/api/games/{cards}/hand", json={"hand": [
        {"player": "Cy", "made": True, "points": 0},
        {"player": "Di", "made": False, "points": 35}]})
    old = client.post("/api/games", json={"players": ["Ed", "Fay"], "roll_off": True}).json["id"]
    client.post(f"/api/games/{old}/roll-off", json={"player": "Ed", "value": 9})
    client.post(f"/api/games/{old}/undo", json={})
    client.post(f"/api/games/{old}/archive", json={})
    return [done, playing, cards, old]


def answers(client, ids: list[int]) -> dict[str, bytes]:
    urls = ["/api/games", "/api/games?archived=1", "/api/games?status=finished"]
    urls += [f"/api/games/{i}" for i in ids] + [f"/api/games/{ids[1]}/advice"]
    urls += [f"/api/games/{i}/export.csv" for i in ids]
    replies = {url: client.get(url) for url in urls}
    assert all(reply.status_code == 200 for reply in replies.values()), replies
    return {url: reply.data for url, reply in replies.items()}


def test_a_backup_brings_back_every_game_turn_and_roll_byte_for_byte(tmp_path):
    data = tmp_path / "data"
    app = open_app(data)
    client = app.test_client()
    ids = evening(client)
    before = answers(client, ids)
    saved = client.get("/api/backup")
    assert saved.status_code == 200 and "attachment" in saved.headers["Content-Disposition"]
    close_app(app)

    shutil.rmtree(data)  # the database is gone
    app = open_app(data)
    client = app.test_client()
    assert client.get("/api/games").json["total"] == 0
    reply = client.post("/api/backup/restore", data={
        "backup": (io.BytesIO(saved.data), "phase10-backup.json")})
    assert reply.status_code == 200, reply.json
    assert reply.json == {"added": ids, "already_here": []}
    assert answers(client, ids) == before
    # restoring the same backup again adds nothing
    again = client.post("/api/backup/restore", data=saved.data,
                        content_type="application/json")
    assert again.json == {"added": [], "already_here": ids}
    # the next roll id is a new one: never one a restored roll already has
    shown = client.get(f"/api/games/{ids[1]}").json["roll_id"]
    client.put(f"/api/games/{ids[1]}/roll", json={"roll": MAKES[3][0]})
    assert client.get(f"/api/games/{ids[1]}").json["roll_id"] > shown
    close_app(app)


@pytest.mark.parametrize(("upload", "words"), [
    (b"Ann 34, Bob 0", "not a scorepad backup"),
    (b'{"games": []}', "not a scorepad backup"),
    (json.dumps({"format": "phase10-scorepad-backup", "version": 9, "games": []}).encode(),
     "update the scorepad"),
    (json.dumps({"format": "phase10-scorepad-backup", "version": 1, "games": [
        {"id": 1, "created": "x", "updated": "x", "settings": {}, "summary": {},
         "finished": False, "events": [{"type": "turn_scored"}]}]}).encode(),
     "does not replay"),
])
def test_restore_refuses_what_is_not_a_backup_and_changes_nothing(app: Flask, upload, words):
    client = app.test_client()
    game_id = client.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    before = client.get(f"/api/games/{game_id}").data
    reply = client.post("/api/backup/restore", data={"backup": (io.BytesIO(upload), "f.json")})
    assert reply.status_code == 400 and words in reply.json["error"]
    assert "choose" in reply.json["error"] or "update" in reply.json["error"]  # what next
    assert client.get("/api/games").json["total"] == 1
    assert client.get(f"/api/games/{game_id}").data == before


def test_restore_keeps_every_game_already_there(tmp_path):
    first = open_app(tmp_path / "one")
    c1 = first.test_client()
    theirs = c1.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    c1.post(f"/api/games/{theirs}/fail", json={"player": "Ann"})
    saved = c1.get("/api/backup").data
    close_app(first)

    second = open_app(tmp_path / "two")
    c2 = second.test_client()
    ours = c2.post("/api/games", json={"players": ["Cy", "Di"]}).json["id"]  # same id 1
    ours_before = c2.get(f"/api/games/{ours}").data
    reply = c2.post("/api/backup/restore", data=saved, content_type="application/json")
    assert reply.status_code == 200 and reply.json["already_here"] == []
    (new_id,) = reply.json["added"]
    assert new_id != ours
    assert c2.get(f"/api/games/{ours}").data == ours_before
    assert c2.get(f"/api/games/{new_id}").json["players"] == ["Ann", "Bob"]
    close_app(second)


def test_a_finished_games_export_brought_back_shows_the_same_scorepad(tmp_path):
    first = open_app(tmp_path / "one")
    c1 = first.test_client()
    game_id = c1.post("/api/games", json={"players": ["Ann", "Bob"]}).json["id"]
    for phase in range(1, 11):
        for player in ("Ann", "Bob"):
            if player == "Bob" and phase == 10:
                c1.post(f"/api/games/{game_id}/fail", json={"player": player, "roll": NEVER})
            else:
                c1.post(f"/api/games/{game_id}/score",
                        json={"player": player, "roll": MAKES[phase][0]})
    state = c1.get(f"/api/games/{game_id}").json
    assert state["is_over"]
    exported = c1.get(f"/api/games/{game_id}/export.json")
    assert exported.headers["Content-Disposition"].endswith('"phase10-game-1.json"')
    text = c1.get(f"/api/games/{game_id}/export.csv").data.decode()
    lines = text.splitlines()
    assert lines[0] == "turn,round,player,phase,made,score,roll"
    assert lines[1] == f"1,1,Ann,1,yes,34,{MAKES[1][0]}"
    assert f"Ann,{state['scorepad']['columns'][0]['grand_total']}" in lines
    close_app(first)

    second = open_app(tmp_path / "two")
    c2 = second.test_client()
    c2.post("/api/games", json={"players": ["Cy", "Di"]})  # id 1 is taken here
    reply = c2.post("/api/games/import", data=exported.data, content_type="application/json")
    (new_id,) = reply.json["added"]
    again = c2.get(f"/api/games/{new_id}").json
    assert again["scorepad"] == state["scorepad"] and again["turns"] == state["turns"]
    assert again["winners"] == state["winners"]
    close_app(second)

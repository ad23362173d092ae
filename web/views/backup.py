"""Export a game (CSV, JSON) and bring one back; back up the whole scorepad and restore it.

GET /api/games/<id>/export.json and .csv, POST /api/games/import (a game's export),
GET /api/backup, POST /api/backup/restore (the backup as a JSON body or a file
field "backup"). Putting back never changes a game already here (`web.backup`).
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue

from web.backup import backup, game_export, parse_file, restore
from web.export_csv import game_csv
from web.service import GAMES_TOPIC
from web.views.common import require_pin, table

bp = Blueprint("backup", __name__, url_prefix="/api")


def _download(text: str, name: str, mimetype: str) -> Response:
    return Response(text, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@bp.get("/games/<int:game_id>/export.json")
def export_json(game_id: int) -> ResponseReturnValue:
    data = game_export(table().service.store, game_id)
    return _download(json.dumps(data, indent=1, sort_keys=True), f"phase10-game-{game_id}.json",
                     "application/json")


@bp.get("/games/<int:game_id>/export.csv")
def export_csv(game_id: int) -> ResponseReturnValue:
    return _download(game_csv(table().service.view(game_id)), f"phase10-game-{game_id}.csv",
                     "text/csv")


@bp.get("/backup")
def download_backup() -> ResponseReturnValue:
    data = backup(table().service.store)
    return _download(json.dumps(data, indent=1, sort_keys=True), "phase10-backup.json",
                     "application/json")


def _put_back() -> ResponseReturnValue:
    tab = table()
    request.max_content_length = tab.config.max_photo_bytes  # a backup may be large
    upload = request.files.get("backup")
    data = parse_file(upload.read() if upload is not None else request.get_data())
    require_pin(data if isinstance(data, dict) else None)
    done = restore(tab.service.store, data)
    if done.added:
        tab.service.hub.publish(GAMES_TOPIC, "games", {"restored": list(done.added)})
    return jsonify(done.to_dict())


@bp.post("/backup/restore")
def restore_backup() -> ResponseReturnValue:
    return _put_back()


@bp.post("/games/import")
def import_game() -> ResponseReturnValue:
    return _put_back()

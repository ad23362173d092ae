"""Each player's statistics across games, by name: GET /api/players/<name>/stats and the
page /players/<name>."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template
from flask.typing import ResponseReturnValue

from scorer import PHASES
from web.player_stats import player_stats
from web.views.common import table

bp = Blueprint("players", __name__)


@bp.get("/api/players/<name>/stats")
def stats(name: str) -> ResponseReturnValue:
    return jsonify(player_stats(table().service.store, name).to_dict())


@bp.get("/players/<name>")
def page(name: str) -> ResponseReturnValue:
    found = player_stats(table().service.store, name).to_dict()
    return render_template("player.html", stats=found, phases=PHASES)

"""The HTML pages: start or pick a game, the scorepad, past games, and the join QR code."""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, abort, render_template, request
from flask.typing import ResponseReturnValue

from scorer import (
    DEFAULT_FIRST_FINISH,
    DEFAULT_WINNER_RULE,
    PHASES,
    WILD,
    CardWinnerRule,
    FirstFinishRule,
)
from scorer.dice import COLOUR_LETTERS, COLOUR_NAMES, HIGH_VALUES, LOW_VALUES
from web.game_view import CardGameView
from web.network import is_loopback, shareable_url
from web.presenters import page_dict, state_dict
from web.views.common import table

bp = Blueprint("pages", __name__)

#: Games the start page lists per group before "Show more".
LIST_PAGE = 10

#: The longest address the join QR code encodes (a QR code of 300 characters still scans).
MAX_QR_TEXT = 300


def _picker() -> dict[str, object]:
    """The tap-to-build dice picker's buttons, from the dice tables (nothing hard-coded)."""
    values = [v for v in (*LOW_VALUES, *HIGH_VALUES) if v != WILD] + ["W"]
    return {
        "faces": values,
        "colours": [(letter, COLOUR_NAMES[letter]) for letter in COLOUR_LETTERS],
        "high_values": list(HIGH_VALUES),
    }


def _join(path: str = "") -> dict[str, object]:
    """The address another phone opens (this page's, at an address the server answers on),
    and whether other phones can reach it at all (not when it listens on loopback only)."""
    listen = table().config.host
    url = shareable_url(request.host_url, request.host, listen) + path
    return {"url": url, "local_only": is_loopback(listen), "listen": listen}


@bp.get("/")
def index() -> ResponseReturnValue:
    tab = table()
    games = {  # the first page of each list; the page asks for more (and the archive) itself
        status: page_dict(tab.service.games_page(status=status, limit=LIST_PAGE))
        for status in ("playing", "finished")
    }
    games["archived_total"] = tab.service.games_page(archived=True, limit=1).total
    return render_template(
        "index.html", games=games, pin_required=tab.config.pin is not None,
        join=_join(),
        first_finish_rules=list(FirstFinishRule), default_first_finish=DEFAULT_FIRST_FINISH,
        winner_rules=list(CardWinnerRule), default_winner=DEFAULT_WINNER_RULE,
    )


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    tab = table()
    view = tab.service.view(game_id)
    state = state_dict(view, tab.dice.current)
    if isinstance(view, CardGameView):  # the card game has a page of its own (issue 17)
        return render_template("cards.html", state=state, join=_join(f"games/{game_id}"))
    return render_template(
        "game.html", state=state, phases=PHASES, picker=_picker(),
        pin_required=tab.config.pin is not None, camera=tab.camera is not None,
        demo_dice=tab.camera is not None and tab.camera.rolls_on_request,
        join=_join(f"games/{game_id}"),
    )


@bp.get("/qr.svg")
def qr() -> ResponseReturnValue:
    """A QR code of ?url= (the pages pass the address they show), else of the start page."""
    url = request.args.get("url") or str(_join()["url"])
    if len(url) > MAX_QR_TEXT:
        abort(400, description=f"url is longer than {MAX_QR_TEXT} characters")
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=4, border=2, dark="#1d2b4f",
                                    xmldecl=False, svgclass="qr")
    return Response(buffer.getvalue(), mimetype="image/svg+xml")

"""Server-sent events: each phone holds one stream and hears every change within moments."""

from __future__ import annotations

from flask import Blueprint, Response, stream_with_context
from flask.typing import ResponseReturnValue

from web.live import Message, TooManyStreamsError, event_stream
from web.presenters import game_state_dict
from web.service import GAMES_TOPIC, game_topic
from web.views.common import table

bp = Blueprint("stream", __name__, url_prefix="/stream")

_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def _respond(topic: str, first: Message | None) -> Response:
    tab = table()
    if tab.hub.client_count >= tab.config.live_streams:
        raise TooManyStreamsError(
            f"{tab.config.live_streams} phones and pages already follow this table, as many "
            "as it has room for: close the scorepad on a phone or tab that is not in use, "
            "then reload this page")
    subscription = tab.hub.subscribe(topic)
    body = event_stream(subscription, first, tab.config.heartbeat_s)
    return Response(
        stream_with_context(body), mimetype="text/event-stream", headers=_HEADERS
    )


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> ResponseReturnValue:
    """The game's full state now, then again after every change."""
    state = table().service.state(game_id)  # unknown game: 404 before streaming
    first = Message(game_topic(game_id), "state", game_state_dict(state))
    return _respond(game_topic(game_id), first)


@bp.get("/games")
def games() -> ResponseReturnValue:
    """A ping whenever a game starts or ends (the list page reloads its list)."""
    return _respond(GAMES_TOPIC, None)

"""Every refused request gets a 4xx JSON reply `{"error": "..."}` that names what was wrong.

The status comes from a table keyed by exception class (the first match along
the exception's class hierarchy wins), so views raise and never build errors.
"""

from __future__ import annotations

import logging
import re
import sqlite3

from flask import Flask, jsonify, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from scorer import (
    GameError,
    InvalidDieError,
    InvalidHandError,
    InvalidPhaseError,
    InvalidPlayersError,
    InvalidRollError,
    UnknownPlayerError,
)
from scorer.layout_file import LayoutError
from web.camera import CameraControlError
from web.camera_settings import InvalidSetupError, SettingsSaveError
from web.commands import BadActionError, MissingGuardError
from web.demo_dice import DemoRollError
from web.layout_service import LayoutRefusedError
from web.live import TooManyStreamsError
from web.photo import BadImageError, NotAnImageError, PhotoBusyError, PhotoTooLargeError
from web.pin_guard import PinLockedError
from web.service import (
    GameOverError,
    StaleVersionError,
    UnconfirmedDiceError,
    UnreadableDiceError,
)
from web.store import UnknownGameError

log = logging.getLogger(__name__)


class PinRequiredError(PermissionError):
    """A change sent without the table PIN."""


class WrongPinError(PermissionError):
    """A change sent with a PIN that is not the table's."""


#: Exception class -> HTTP status. Rule refusals are 409: the request was fine, the game says no.
STATUS: dict[type[Exception], int] = {
    UnknownGameError: 404,
    PinRequiredError: 401,
    WrongPinError: 403,
    PinLockedError: 429,
    MissingGuardError: 428,
    InvalidDieError: 400,
    InvalidRollError: 400,
    InvalidPhaseError: 400,
    BadActionError: 400,
    InvalidPlayersError: 400,
    UnknownPlayerError: 400,
    InvalidHandError: 400,
    StaleVersionError: 409,
    GameOverError: 409,
    UnreadableDiceError: 409,
    UnconfirmedDiceError: 409,
    GameError: 409,
    InvalidSetupError: 400,
    CameraControlError: 409,
    DemoRollError: 409,
    SettingsSaveError: 503,
    TooManyStreamsError: 503,
    NotAnImageError: 415,
    BadImageError: 400,
    PhotoTooLargeError: 413,
    PhotoBusyError: 503,
    LayoutError: 400,
    LayoutRefusedError: 422,
}


#: Addresses answered in JSON, refusals included (the API and the live streams).
JSON_PREFIXES: tuple[str, ...] = ("/api/", "/stream/")


#: A game's address whose number is too long for any game (no route takes it: 404).
_GAME_ADDRESS = re.compile(r"^/(?:api|stream)/games/(\d+)(?:/|$)")


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def status_of(error: BaseException) -> int | None:
    for cls in type(error).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return None


def _json_error(message: str, status: int) -> ResponseReturnValue:
    return jsonify(error=message), status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
        if not request.path.startswith(JSON_PREFIXES):
            return error
        limit = request.max_content_length  # the route's own limit (a photo's is larger)
        messages = {
            413: f"request body too large (limit {limit} bytes)",
            404: (f"there is nothing at {_short(request.path)}: check the address (a game's "
                  "number as shown in the list of games), or start from the list at /"),
        }
        game = _GAME_ADDRESS.match(request.path)
        if error.code == 404 and game:
            messages[404] = (f"no game {_short(game.group(1), 24)} at this table: check the "
                             "game's number in the list of games")
        allowed = getattr(error, "valid_methods", None)
        if error.code == 405 and allowed:
            messages[405] = (f"{request.method} is not taken here: this address takes "
                             f"{', '.join(sorted(allowed))}")
        if error.code == 413 and request.path.endswith("/photo"):
            messages[413] = (f"the photo is too big (this table takes up to "
                             f"{(limit or 0) / 1e6:g} MB): take it again at a smaller "
                             "size, or send a smaller copy")
        return _json_error(messages.get(error.code or 500, error.description or error.name),
                           error.code or 500)

    @app.errorhandler(sqlite3.Error)
    def storage_error(error: sqlite3.Error) -> ResponseReturnValue:
        log.exception("could not save %s %s", request.method, request.path)
        return _json_error(f"the scorepad could not save this, nothing changed: {error}", 503)

    for cls in STATUS:
        @app.errorhandler(cls)
        def known_error(error: Exception) -> ResponseReturnValue:
            status = status_of(error) or 400
            log.info("refused %s %s: %s", request.method, request.path, error)
            message = str(error)
            if isinstance(error, LookupError) and error.args:
                message = str(error.args[0])
            retry_after = getattr(error, "retry_after", None)  # a client told to wait (429)
            headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
            return jsonify(error=message), status, headers

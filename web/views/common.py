"""Helpers every blueprint shares: the app's Table, request bodies, the table PIN."""

from __future__ import annotations

import hmac
from typing import Any

from flask import current_app, request

from web.commands import BadActionError
from web.errors import PinRequiredError, WrongPinError
from web.request_numbers import parse_json

#: The header (or body field) that carries the table PIN.
PIN_HEADER = "X-Table-Pin"


def table() -> Any:
    return current_app.extensions["phase10"]


def json_body(*fields: str) -> dict[str, Any]:
    """The request's JSON object (an empty body counts as {}); anything else is refused.

    `fields` are the names this request takes (besides "pin"); any other field is
    refused by name, so a typo in an option ("rolloff") is not silently ignored.
    """
    if not request.get_data(cache=True):
        return {}
    body = None
    if request.is_json:
        try:  # numbers bounded by their length before they are parsed
            body = parse_json(request.get_data(cache=True))
        except RecursionError:  # thousands of nested [[[...]]]: the parser runs out of stack
            raise BadActionError("the request body is nested too deeply to be a request") from None
        except ValueError as error:
            if isinstance(error, BadActionError):
                raise
            body = None
    if not isinstance(body, dict):
        raise BadActionError("the request body must be a JSON object")
    allowed = (*fields, "pin")
    for name in body:
        if name not in allowed:
            raise BadActionError(f"unknown field {name!r}: this request takes "
                                 + ", ".join(repr(field) for field in allowed))
    return body


def require_pin(body: dict[str, Any] | None = None) -> None:
    """Refuse a change unless it carries the table PIN (when one is configured).

    Wrong PINs are counted per client and for the table (`web.pin_guard`): after a
    few, that client (after many from anyone, every client) must wait before its next
    PIN is even checked (429).
    """
    tab = table()
    expected = tab.config.pin
    if expected is None:
        return
    given = request.headers.get(PIN_HEADER)
    if given is None and body is not None and isinstance(body.get("pin"), str):
        given = body["pin"]
    if not given:
        raise PinRequiredError(f"this table has a PIN: send it in the {PIN_HEADER} header")
    client = request.remote_addr or "unknown"
    tab.pins.check_allowed(client)
    if not hmac.compare_digest(given.encode(), expected.encode()):
        tab.pins.wrong(client)
        raise WrongPinError("wrong table PIN")
    tab.pins.right(client)

"""A test client that acts like a phone which has just loaded the game.

Every change of a game must name the `version` and `roll_id` the phone showed
(web/API.md, "What the phone saw"). Most tests are about something else, so this
client adds them, read from `GET /api/games/<id>` just before, to a change whose
JSON body names neither. A test of the guard itself sends them (or `seen=False`
to send the body exactly as given).
"""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

#: The changes of a game that carry what the phone saw (web/views/api.py, cards.py).
GUARDED = re.compile(
    r"^/api/games/(\d+)/(score|fail|undo|roll-off|correct|hand|hands/\d+|roll|roll/dice/\d+)$")


class PhoneClient(FlaskClient):
    """FlaskClient that sends the game's current `version` and `roll_id` with each change."""

    def open(self, *args: Any, seen: bool = True, **kwargs: Any) -> Any:
        path = args[0] if args and isinstance(args[0], str) else kwargs.get("path", "")
        method = kwargs.get("method", "GET").upper()
        match = GUARDED.match(path.split("?")[0])
        body = kwargs.get("json")
        if (seen and match and method in ("POST", "PUT", "DELETE") and "data" not in kwargs
                and (body is None or (isinstance(body, dict) and "version" not in body
                                      and "roll_id" not in body))):
            state = super().open(f"/api/games/{match.group(1)}", method="GET")
            if state.status_code == 200:
                now = state.get_json()
                shown = {"version": now["version"]}
                if now.get("game") != "cards" and "hand" not in match.group(2):  # no roll
                    shown["roll_id"] = now["roll_id"]
                kwargs["json"] = {**(body or {}), **shown}
        return super().open(*args, **kwargs)

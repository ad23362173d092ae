"""Numbers from a request, bounded by their text before anything parses them.

Python refuses to turn more than 4,300 digits into an int (a ValueError deep in a
view, so a 500), and a few thousand digits that it does accept end up stored and
break the next write. So every number a request carries (a query, a JSON body, an
id in the address) is first checked by its length: nothing the scorepad counts
(game ids, versions, roll ids, offsets, phases, points) needs more than
`NumberLimits.max_digits` digits, and a longer one is refused with a 400 (or, in
an address, matches no route: 404) before `int()` ever sees it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Final

from werkzeug.routing import IntegerConverter

from web.commands import BadActionError


@dataclass(frozen=True)
class NumberLimits:
    """How long a number a request may carry, in characters of its text."""

    max_digits: int = 19  # the largest game id, 2**63 - 1, has 19
    max_float_chars: int = 32  # a decimal with this many characters is plenty for a tray corner


LIMITS: Final[NumberLimits] = NumberLimits()


def whole_number(name: str, text: str, low: int, high: int,
                 limits: NumberLimits = LIMITS) -> int:
    """`text` as a whole number within low..high (ASCII digits only), else a 400 naming `name`.

    The length is checked first, so thousands of digits never reach `int()`.
    """
    refusal = BadActionError(f"{name} must be a whole number {low}-{high}, got {_short(text)}")
    if not text or len(text) > limits.max_digits or not (text.isascii() and text.isdigit()):
        raise refusal
    value = int(text)
    if not low <= value <= high:
        raise refusal
    return value


def _short(text: str, limit: int = 24) -> str:
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} characters)"


def _json_int(text: str, limits: NumberLimits = LIMITS) -> int:
    if len(text.lstrip("-")) > limits.max_digits:
        raise BadActionError(f"a number in the request has {len(text)} digits, more than the "
                             f"{limits.max_digits} any field takes: send the number asked for")
    return int(text)


def _json_float(text: str, limits: NumberLimits = LIMITS) -> float:
    value = float(text) if len(text) <= limits.max_float_chars else math.inf
    if not math.isfinite(value):
        raise BadActionError(f"a number in the request ({_short(text)}) is too long or too "
                             "large: send the number asked for")
    return value


def _json_constant(name: str) -> Any:
    raise BadActionError(f"{name} is not a number a request can carry: send a plain number")


def parse_json(data: bytes) -> Any:
    """The JSON text of a request body, each number bounded by its length before parsing.

    Raises ValueError (JSONDecodeError, UnicodeDecodeError) for text that is not JSON,
    BadActionError for a number too long to be meant, and RecursionError when nested
    too deeply.
    """
    return json.loads(data, parse_int=_json_int, parse_float=_json_float,
                      parse_constant=_json_constant)


class BoundedIntConverter(IntegerConverter):
    """`<int:...>` in an address, at most `max_digits` digits: a longer one matches no
    route (404), instead of failing inside the converter or falling to another route."""

    regex = rf"\d{{1,{LIMITS.max_digits}}}"

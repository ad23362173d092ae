"""The odds tables as a shipped data file, so the first hint on a Pi needs no build.

Building every phase's tables takes about ten seconds on a desktop and far more
on a Raspberry Pi; reading them back takes a fraction of a second. The file
(`scorer/data/odds_tables.xz`) is written by `benchmarks/build_odds_tables.py`,
never by hand, and a test rebuilds the tables and compares them bit for bit.

It holds the tables as little-endian float64 (exact, so a fresh build matches
it), LZMA-compressed behind a JSON header that names the inventory it was
built for. Tables for another face layout (scorer.inventory edited) or a file
that is missing or unreadable are built instead, as before; the file is read
once, as package data, and never written at run time.
"""

from __future__ import annotations

import json
import logging
import lzma
import struct
import sys
import time
from array import array
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.odds_colour_tables import ColourTable, build_colour_table, colour_layout
from scorer.odds_tables import MAX_ROLLS_LEFT, OddsTable, build_odds_table
from scorer.phases import PHASES, Phase

logger = logging.getLogger(__name__)

FILE_NAME: Final[str] = "odds_tables.xz"
FORMAT: Final[int] = 1
_HEADER_SIZE = struct.Struct("<I")


def inventory_key(dice: DiceSet = PRINTED_DICE) -> str:
    """A fingerprint of the dice the tables were built for (palette and face layout)."""
    return dice.key


def _set_run_phases() -> tuple[Phase, ...]:
    return tuple(phase for phase in PHASES if not phase.is_colour_phase())


def _named_arrays(tables: dict[int, OddsTable], colour: ColourTable
                  ) -> list[tuple[str, array[float]]]:
    named = []
    for number, table in tables.items():
        for k, (chance, score) in enumerate(zip(table.keep_chance, table.keep_score, strict=True)):
            named += [(f"{number}.chance.{k + 1}", chance), (f"{number}.score.{k + 1}", score)]
    for k, (keep, best) in enumerate(zip(colour.keep_chance, colour.best_chance, strict=True)):
        named += [(f"colour.keep.{k + 1}", keep), (f"colour.best.{k + 1}", best)]
    return named


def encode(tables: dict[int, OddsTable], colour: ColourTable, dice: DiceSet = PRINTED_DICE
           ) -> bytes:
    """The file's bytes for these tables, built for `dice`."""
    named = _named_arrays(tables, colour)
    header = {
        "format": FORMAT,
        "inventory": inventory_key(dice),
        "turn": {str(n): [t.turn_chance, t.turn_score] for n, t in tables.items()},
        "colour_turn": colour.turn_chance,
        "arrays": [[name, len(values)] for name, values in named],
    }
    text = json.dumps(header, sort_keys=True).encode()
    parts = [_HEADER_SIZE.pack(len(text)), text]
    for _, values in named:
        little = array("d", values)
        if sys.byteorder == "big":
            little.byteswap()
        parts.append(little.tobytes())
    return lzma.compress(b"".join(parts), preset=6)


def build_file_bytes(dice: DiceSet = PRINTED_DICE) -> bytes:
    """Build every table for `dice` afresh (ignoring any shipped file) and encode them."""
    tables = {phase.number: build_odds_table(phase) for phase in _set_run_phases()}
    return encode(tables, build_colour_table(dice), dice)


def write(path: Path) -> int:
    """Build the tables and write the file; returns its size in bytes."""
    data = build_file_bytes()
    path.write_bytes(data)
    return len(data)


class OddsFileError(ValueError):
    """A tables file that cannot be read: the message says why."""


def decode(data: bytes) -> tuple[dict[str, Any], dict[str, array[float]]]:
    """The header and the named arrays of a tables file's bytes."""
    try:
        raw = lzma.decompress(data)
        (size,) = _HEADER_SIZE.unpack_from(raw)
        header = json.loads(raw[_HEADER_SIZE.size : _HEADER_SIZE.size + size])
    except (lzma.LZMAError, struct.error, ValueError) as error:
        raise OddsFileError(f"the odds tables file is not readable: {error}") from error
    if header.get("format") != FORMAT:
        raise OddsFileError(f"odds tables file format {header.get('format')!r}, expected {FORMAT}")
    arrays: dict[str, array[float]] = {}
    at = _HEADER_SIZE.size + size
    for name, length in header["arrays"]:
        values = array("d")
        values.frombytes(raw[at : at + 8 * length])
        if len(values) != length:
            raise OddsFileError(f"the odds tables file is cut short in {name!r}")
        if sys.byteorder == "big":
            values.byteswap()
        arrays[name] = values
        at += 8 * length
    return header, arrays


@cache
def _shipped_file() -> tuple[dict[str, Any], dict[str, array[float]]] | None:
    """The shipped file, read once; None when absent or unreadable."""
    started = time.perf_counter()
    try:
        data = resources.files("scorer").joinpath("data", FILE_NAME).read_bytes()
        header, arrays = decode(data)
    except (OSError, OddsFileError) as error:
        logger.warning("odds tables are built instead of read: %s", error)
        return None
    logger.debug("odds tables read in %.3f s", time.perf_counter() - started)
    return header, arrays


def _shipped(dice: DiceSet) -> tuple[dict[str, Any], dict[str, array[float]]] | None:
    """The shipped file when it was built for `dice`; None otherwise."""
    shipped = _shipped_file()
    if shipped is not None and shipped[0]["inventory"] != inventory_key(dice):
        logger.info("the shipped odds tables are for other dice; building them")
        return None
    return shipped


def shipped_odds_table(phase: Phase, dice: DiceSet = PRINTED_DICE) -> OddsTable | None:
    """A set/run phase's tables from the shipped file (None: build them)."""
    shipped = _shipped(dice)
    if shipped is None:
        return None
    header, arrays = shipped
    n = phase.number
    levels = range(1, MAX_ROLLS_LEFT + 1)
    turn_chance, turn_score = header["turn"][str(n)]
    return OddsTable(
        phase,
        tuple(arrays[f"{n}.chance.{k}"] for k in levels),
        tuple(arrays[f"{n}.score.{k}"] for k in levels),
        turn_chance,
        turn_score,
        0.0,
    )


def shipped_colour_table(dice: DiceSet = PRINTED_DICE) -> ColourTable | None:
    """The colour phase's tables for `dice` from the shipped file (None: build them)."""
    shipped = _shipped(dice)
    if shipped is None:
        return None
    header, arrays = shipped
    types, die_type, sides = colour_layout(dice)
    levels = range(1, MAX_ROLLS_LEFT + 1)
    return ColourTable(
        tuple(types),
        die_type,
        sides,
        tuple(arrays[f"colour.keep.{k}"] for k in levels),
        tuple(arrays[f"colour.best.{k}"] for k in levels),
        header["colour_turn"],
        0.0,
    )

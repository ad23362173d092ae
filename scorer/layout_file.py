"""A household's own face layout, kept as a file beside its games.

`scorer.inventory.LAYOUT` is a transcription of one set of dice. When the players'
dice differ, the layout they agreed to (on the teaching page, or typed die by die) is
written to `dice_layout.json` in the data folder. `cli` reads it (or the file the
environment names) when a command starts and builds the household's
`scorer.dice_set.DiceSet` from it; the scorepad swaps that set when a new layout is
saved, so the dice table, the joint decoding of camera readings and the odds agree.
Nothing here reads the environment.

The layout is checked as a whole: ten dice, each with a unique name and six faces
in dice notation, four low dice (1 to 4 and Wilds) and six high dice (5 to 10), as
the game's dice are. Standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from scorer.atomic_file import write_atomically

#: The layout file's name in the data folder.
LAYOUT_FILE_NAME: Final[str] = "dice_layout.json"
FORMAT: Final[int] = 1

#: (name, faces in dice notation separated by spaces) per die, as in scorer.inventory.
Layout = tuple[tuple[str, str], ...]

_LOW_VALUES: Final[frozenset[str]] = frozenset({"1", "2", "3", "4", "W"})
_HIGH_VALUES: Final[frozenset[str]] = frozenset(str(value) for value in range(5, 11))
_NAME = re.compile(r"[A-Za-z0-9_-]{1,12}")
_DICE: Final[tuple[int, int]] = (4, 6)  # low dice, high dice
_FACES: Final[int] = 6


class LayoutError(ValueError):
    """Not a layout of the game's ten dice; the message says what is wrong."""


def check_layout_rows(rows: Iterable[tuple[str, str]], letters: Sequence[str]) -> Layout:
    """The layout of these (name, faces) rows, names and faces in upper case, faces in single
    spaces, or LayoutError naming the first thing wrong. `letters`: the colours' letters."""
    face = re.compile(r"(10|[1-9]|W)([" + "".join(letters) + "])")
    layout, names, kinds = [], set(), {"low": 0, "high": 0}
    for number, (name, faces) in enumerate(rows, start=1):
        name = str(name).strip().upper()
        if not _NAME.fullmatch(name):
            raise LayoutError(f"die {number}: {name!r} is not a die's name (letters and "
                              "digits, at most 12)")
        if name in names:
            raise LayoutError(f"two dice are named {name}")
        names.add(name)
        shown = str(faces).upper().split()
        if len(shown) != _FACES:
            raise LayoutError(f"die {name} has {len(shown)} faces, not {_FACES}")
        values = set()
        for text in shown:
            match = face.fullmatch(text)
            if match is None:
                raise LayoutError(f"die {name}: {text!r} is not a face (a value 1 to 10 or W "
                                  f"and a colour, {'/'.join(letters)}: 8R, WB)")
            values.add(match.group(1))
        if values <= _LOW_VALUES:
            kinds["low"] += 1
        elif values <= _HIGH_VALUES:
            kinds["high"] += 1
        else:
            raise LayoutError(f"die {name} mixes low faces (1 to 4, W) with high ones "
                              "(5 to 10)")
        layout.append((name, " ".join(shown)))
    if (kinds["low"], kinds["high"]) != _DICE:
        raise LayoutError(f"a layout has {_DICE[0]} low dice (1 to 4 and Wilds) and "
                          f"{_DICE[1]} high dice (5 to 10), not {kinds['low']} and "
                          f"{kinds['high']}")
    return tuple(layout)


def parse_layout_text(text: str, letters: Sequence[str]) -> Layout:
    """A layout typed one die per line, "NAME: faces" (e.g. "H1: 5R 6O 7B 8G 9O 10G");
    blank lines are skipped."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, faces = line.partition(":")
        if not colon:
            raise LayoutError(f"line {number}: write a die as its name, a colon and its six "
                              "faces (H1: 5R 6O 7B 8G 9O 10G)")
        rows.append((name, faces))
    return check_layout_rows(rows, letters)


def layout_text(layout: Layout) -> str:
    """The layout one die per line, as `parse_layout_text` reads it."""
    return "\n".join(f"{name}: {faces}" for name, faces in layout)


def read_layout_file(path: Path, letters: Sequence[str]) -> Layout:
    """The layout in the file at `path`; LayoutError when it is unreadable or no layout."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise LayoutError(f"cannot read the dice layout {path}: {error}") from error
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(
            data.get("dice"), list):
        raise LayoutError(f"{path} is not a dice layout file (format {FORMAT})")
    rows = []
    for entry in data["dice"]:
        if not (isinstance(entry, dict) and isinstance(entry.get("name"), str)
                and isinstance(entry.get("faces"), str)):
            raise LayoutError(f"{path}: each die is {{\"name\": ..., \"faces\": ...}}")
        rows.append((entry["name"], entry["faces"]))
    try:
        return check_layout_rows(rows, letters)
    except LayoutError as error:
        raise LayoutError(f"{path}: {error}") from error


def write_layout_file(path: Path, layout: Layout) -> None:
    """Write the layout atomically (a crash leaves the old file or the new one)."""
    body = {"format": FORMAT, "dice": [{"name": name, "faces": faces} for name, faces in layout]}
    write_atomically(path, json.dumps(body, indent=1).encode("utf-8"))

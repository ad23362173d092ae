"""The household's dice, read once when a command starts: the only place that looks at
the environment for them.

A household whose dice differ from the printed table keeps its layout in
`dice_layout.json` in the scorepad's data folder (saved on /setup); the environment
variable LAYOUT_ENV may name a layout file for the commands that have no data folder
(`phase10 score`, `odds`, `read`, `teach`). Everything below `cli` is given the
resulting `DiceSet` instead of reading either. A file that cannot be read or is not a
layout is logged and the printed table used: a bad file never stops a command.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from scorer.dice_set import DiceSet

log = logging.getLogger(__name__)

#: The environment variable naming a layout file (used when no data folder has one).
LAYOUT_ENV: Final[str] = "PHASE10_DICE_LAYOUT"


def layout_file(data_dir: Path | None = None,
                environ: Mapping[str, str] | None = None) -> Path | None:
    """The layout file to use: the data folder's saved layout when there is one, else the
    file LAYOUT_ENV names when it exists, else None (the printed table)."""
    from scorer.layout_file import LAYOUT_FILE_NAME  # a command imports what it runs

    if data_dir is not None and (Path(data_dir) / LAYOUT_FILE_NAME).exists():
        return Path(data_dir) / LAYOUT_FILE_NAME
    named = (os.environ if environ is None else environ).get(LAYOUT_ENV, "").strip()
    if named and Path(named).exists():
        return Path(named)
    return None


def household_dice(data_dir: Path | None = None,
                   environ: Mapping[str, str] | None = None) -> DiceSet:
    """The dice set of the household's layout file (`layout_file`), or the printed set
    when there is none or it is no layout (logged)."""
    from scorer.dice_set import PRINTED_DICE, DiceSet
    from scorer.layout_file import LayoutError, read_layout_file

    path = layout_file(data_dir, environ)
    if path is None:
        return PRINTED_DICE
    try:
        dice = DiceSet.from_layout(read_layout_file(path, PRINTED_DICE.letters))
    except LayoutError as error:
        log.error("%s; using the printed dice table instead", error)
        return PRINTED_DICE
    log.info("using the dice layout in %s", path)
    return dice

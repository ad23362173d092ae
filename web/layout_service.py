"""The household's dice layout (issue 15): propose one from confirmed rolls, save the
one the players agree to, go back to the printed table.

The layout in use is fixed for the life of the process (`scorer.inventory` reads it
at start-up, so the dice table, the camera's joint decoding and the odds agree); a
layout saved here is written to the data folder and used from the scorepad's next
start (`phase10 serve` picks it up). Nothing is saved that cannot throw every whole
roll the players confirmed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorer.dice import COLOUR_LETTERS, Roll, inventory_matching, physical_dice
from scorer.inventory import DEFAULT_LAYOUT, LAYOUT, LAYOUT_PATH
from scorer.layout_file import (
    LAYOUT_FILE_NAME,
    Layout,
    LayoutError,
    layout_text,
    parse_layout_text,
    read_layout_file,
    write_layout_file,
)
from scorer.layout_proposal import LayoutProposal, propose_layout

log = logging.getLogger(__name__)


class LayoutRefusedError(ValueError):
    """A layout that cannot throw some confirmed roll (422)."""


class TableLayout:
    """The layout file in the data folder and the proposal from the confirmed rolls."""

    def __init__(self, data_dir: Path, confirmed_rolls: Callable[[], list[Roll]]) -> None:
        self.path = Path(data_dir) / LAYOUT_FILE_NAME
        self._confirmed_rolls = confirmed_rolls
        self._lock = threading.Lock()
        self._proposal: tuple[tuple[str, ...], LayoutProposal | None] | None = None

    def _saved(self) -> tuple[Layout | None, str | None]:
        """The layout in the file (None without one) and why it cannot be used, if so."""
        if not self.path.exists():
            return None, None
        try:
            return read_layout_file(self.path, COLOUR_LETTERS), None
        except LayoutError as error:
            return None, str(error)

    def proposal(self) -> LayoutProposal | None:
        """A layout explaining the confirmed rolls when the one in use does not (cached
        until the rolls change: a search over moves takes up to a second)."""
        rolls = self._confirmed_rolls()
        key = tuple(str(roll) for roll in rolls)
        with self._lock:
            if self._proposal is None or self._proposal[0] != key:
                self._proposal = (key, propose_layout(rolls))
            return self._proposal[1]

    def summary(self) -> dict[str, Any]:
        """The layout in use, the saved one, whether a restart is needed, any proposal."""
        saved, problem = self._saved()
        in_use = "yours" if LAYOUT_PATH is not None else "printed"
        waiting = (saved or DEFAULT_LAYOUT) != LAYOUT
        proposal = self.proposal()
        if problem:
            message = f"The saved layout cannot be used ({problem}): save it again."
        elif waiting and saved is not None:
            message = ("Your dice's layout is saved: the scorepad uses it from its next "
                       "start (restart it).")
        elif waiting:
            message = "The printed dice table is used again from the scorepad's next start."
        elif proposal is not None:
            changes = ", ".join(f"{c.die} {c.before} to {c.after}" for c in proposal.changes)
            message = (f"A layout that fits your {proposal.rolls} confirmed rolls changes "
                       f"{len(proposal.changes)} "
                       f"{'face' if len(proposal.changes) == 1 else 'faces'} of the table "
                       f"({changes}): check them on your dice, then use it.")
        elif in_use == "yours":
            message = "The scorepad uses your dice's layout."
        else:
            message = "The scorepad uses the printed dice table."
        return {
            "in_use": in_use,
            "text": layout_text(LAYOUT),
            "printed": layout_text(DEFAULT_LAYOUT),
            "saved": None if saved is None else layout_text(saved),
            "restart_needed": waiting,
            "proposal": None if proposal is None else {
                **proposal.to_dict(), "text": layout_text(proposal.layout())},
            "message": message,
        }

    def save(self, text: str) -> Layout:
        """Check the typed layout (one die per line) and write it; LayoutError when it is no
        layout, LayoutRefusedError when it cannot throw a confirmed roll."""
        layout = parse_layout_text(text, COLOUR_LETTERS)
        dice = physical_dice(layout)
        rolls = self._confirmed_rolls()
        wrong = [roll for roll in rolls if inventory_matching(roll, dice) is None]
        if wrong:
            raise LayoutRefusedError(
                f"{len(wrong)} of your {len(rolls)} confirmed rolls cannot be thrown with "
                f"this layout (the first: {wrong[0]}): check the faces on your dice")
        write_layout_file(self.path, layout)
        log.info("dice layout saved to %s (used from the next start)", self.path)
        return layout

    def forget(self) -> None:
        """Remove the saved layout: the printed table from the next start."""
        self.path.unlink(missing_ok=True)
        log.info("dice layout %s removed (the printed table from the next start)", self.path)


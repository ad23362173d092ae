"""The household's dice layout (issue 15): propose one from confirmed rolls, save the
one the players agree to, go back to the printed table.

A layout saved here is written to the data folder and swapped into the running
scorepad at once (`web.table_dice`): the dice table, the camera's joint decoding and
the odds use it from the next request, and `phase10 serve` reads the file at its next
start. Nothing is saved that cannot throw every whole roll the players confirmed.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorer.dice import COLOUR_LETTERS, Roll
from scorer.dice_set import PRINTED_DICE, DiceSet
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
from web.table_dice import TableDice

log = logging.getLogger(__name__)


class LayoutRefusedError(ValueError):
    """A layout that cannot throw some confirmed roll (422)."""


class TableLayout:
    """The layout file in the data folder and the proposal from the confirmed rolls."""

    def __init__(self, data_dir: Path, confirmed_rolls: Callable[[], list[Roll]],
                 dice: TableDice) -> None:
        self.path = Path(data_dir) / LAYOUT_FILE_NAME
        self._confirmed_rolls = confirmed_rolls
        self._dice = dice
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

    def saved_dice(self) -> DiceSet | None:
        """The set of the layout saved in the data folder; None without one or when it
        cannot be used (the summary says why)."""
        saved, _ = self._saved()
        return None if saved is None else DiceSet.from_layout(saved)

    def proposal(self) -> LayoutProposal | None:
        """A layout explaining the confirmed rolls when the one in use does not (cached
        until the rolls or the set in use change: a search over moves takes up to a second)."""
        rolls = self._confirmed_rolls()
        in_use = self._dice.current
        key = (in_use.key, *(str(roll) for roll in rolls))
        with self._lock:
            if self._proposal is None or self._proposal[0] != key:
                self._proposal = (key, propose_layout(rolls, in_use))
            return self._proposal[1]

    def summary(self) -> dict[str, Any]:
        """The layout in use, the saved one, any proposal, and what to do in plain words."""
        saved, problem = self._saved()
        dice = self._dice.current
        in_use = "printed" if dice == PRINTED_DICE else "yours"
        proposal = self.proposal()
        if problem:
            message = f"The saved layout cannot be used ({problem}): save it again."
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
            "text": layout_text(dice.layout),
            "printed": layout_text(PRINTED_DICE.layout),
            "saved": None if saved is None else layout_text(saved),
            "proposal": None if proposal is None else {
                **proposal.to_dict(), "text": layout_text(proposal.layout())},
            "message": message,
        }

    def save(self, text: str) -> Layout:
        """Check the typed layout (one die per line) and write it; LayoutError when it is no
        layout, LayoutRefusedError when it cannot throw a confirmed roll."""
        layout = parse_layout_text(text, COLOUR_LETTERS)
        dice = DiceSet.from_layout(layout)
        rolls = self._confirmed_rolls()
        wrong = [roll for roll in rolls if not dice.explains(roll)]
        if wrong:
            raise LayoutRefusedError(
                f"{len(wrong)} of your {len(rolls)} confirmed rolls cannot be thrown with "
                f"this layout (the first: {wrong[0]}): check the faces on your dice")
        write_layout_file(self.path, layout)
        self._dice.swap(dice)
        log.info("dice layout saved to %s and in use", self.path)
        return layout

    def forget(self) -> None:
        """Remove the saved layout and use the printed table again, at once."""
        self.path.unlink(missing_ok=True)
        self._dice.swap(PRINTED_DICE)
        log.info("dice layout %s removed: the printed table is in use", self.path)


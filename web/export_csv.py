"""A game's history as CSV, for a spreadsheet: one line per turn (dice) or per player's
hand (cards), then each player's Grand Total."""

from __future__ import annotations

import csv
import io

from web.game_view import CardGameView, GameView


def game_csv(view: GameView | CardGameView) -> str:
    """The CSV text of one game (header line first)."""
    out = io.StringIO()
    write = csv.writer(out, lineterminator="\r\n").writerow
    if isinstance(view, CardGameView):
        write(["hand", "player", "phase", "made", "points"])
        for record in view.hands:
            for line in record.lines:
                write([record.number, line.player, line.phase, "yes" if line.made else "no",
                       line.points])
    else:
        write(["turn", "round", "player", "phase", "made", "score", "roll"])
        for turn in view.turns:
            write([turn.index + 1, turn.round, turn.player, turn.phase,
                   "yes" if turn.made else "no", turn.score,
                   "" if turn.roll is None else str(turn.roll)])
    write([])
    write(["player", "grand total"])
    for column in view.scorepad.columns:
        write([column.player, column.grand_total])
    return out.getvalue()

"""Each player's statistics across every game kept, found by name: games, wins, best
score, average score per phase made, and phases failed (dice turns or card hands)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from scorer import CardGame, replay_log
from web.store import GameStore


@dataclass(frozen=True)
class PlayerStats:
    """One name's record over the games that name played in (a name is a player)."""

    name: str
    games: int = 0
    finished: int = 0
    wins: int = 0
    best_score: int | None = None
    """The best Grand Total of a finished dice game (cards: lowest wins, kept apart)."""
    phase_scores: dict[int, list[int]] = field(default_factory=dict)
    phases_failed: int = 0

    def to_dict(self) -> dict[str, Any]:
        averages = {str(phase): round(sum(scores) / len(scores), 1)
                    for phase, scores in sorted(self.phase_scores.items()) if scores}
        return {"name": self.name, "games": self.games, "finished": self.finished,
                "wins": self.wins, "best_score": self.best_score,
                "average_per_phase": averages, "phases_failed": self.phases_failed}


def player_stats(store: GameStore, name: str) -> PlayerStats:
    """The statistics of `name` (compared without case or outer spaces)."""
    wanted = name.strip().casefold()
    games = finished = wins = failed = 0
    best: int | None = None
    scores: dict[int, list[int]] = defaultdict(list)
    for stored in store.dump_rows()["games"]:
        players = [p for p in stored["settings"].get("players", [])
                   if isinstance(p, str) and p.strip().casefold() == wanted]
        if not players:
            continue
        who = players[0]
        game = replay_log(stored["events"])
        games += 1
        if game.is_over:
            finished += 1
            wins += who in game.winners
            total = next(c.grand_total for c in game.scorepad.columns if c.player == who)
            if not isinstance(game, CardGame):
                best = total if best is None else max(best, total)
        if isinstance(game, CardGame):
            failed += sum(1 for hand in game.hands for line in hand.lines
                          if line.player == who and not line.made)
            continue
        for turn in game.turns:
            if turn.player != who:
                continue
            if turn.made:
                scores[turn.phase].append(turn.score)
            else:
                failed += 1
    return PlayerStats(name.strip(), games, finished, wins, best, dict(scores), failed)

"""How legacy_game_logs.json was written: by the engine before rule editions (commit 9441b00).

Kept for the record, not for regenerating: the file is a frozen old log, and
the current engine cannot write it. To re-run it against that engine:

    git archive 9441b00 scorer tests/game_rolls.py | tar -x -C /tmp/old
    python tests/data/write_legacy_game_logs.py /tmp/old tests/data/legacy_game_logs.json
"""

import json
import sys

sys.path[:0] = [sys.argv[1], f"{sys.argv[1]}/tests"]
from game_rolls import play_all_make, play_round, take_turn  # noqa: E402

from scorer import Game, parse_roll  # noqa: E402


def state(game):
    return {
        "play_order": list(game.play_order),
        "active_player": game.active_player,
        "round": game.round,
        "is_over": game.is_over,
        "winners": list(game.winners),
        "scorepad": game.scorepad.to_dict(),
        "turns": [t.to_dict() for t in game.turns],
    }


games = []
# 1: roll-off with a tie below the top (legacy: seats from the winner), then last tries
# where a player chains phases over later rounds, undo and a correction.
g = Game.new(["Al", "Bea", "Cy", "Di"], roll_off=True)
for p, v in (("Al", 6), ("Bea", 9), ("Cy", 5), ("Di", 6)):
    g.roll_off(p, v)
assert g.play_order == ("Bea", "Cy", "Di", "Al"), g.play_order
play_all_make(g, 7)
play_round(g, {"Bea": True, "Cy": False, "Di": True, "Al": True})  # Cy stays on 8
play_round(g, {"Bea": True, "Cy": True, "Di": True, "Al": False})  # Cy 9, Al stays on 9
play_round(g, {"Bea": True, "Cy": True, "Di": False, "Al": True})  # Bea first to finish
while not g.is_over:
    take_turn(g, True)
g.undo()
take_turn(g, True)
g.correct_turn(0, parse_roll("10G 10R 10O 9B 9G 9O 1B 2B 3R 4R"), True)
games.append(g)
# 2: top tie re-thrown, a plain game to the end with a failure on the last try
g = Game.new(["Ed", "Flo", "Gus"], roll_off=True)
for p, v in (("Ed", 9), ("Flo", 9), ("Gus", 7), ("Flo", 6), ("Ed", 6), ("Flo", 8), ("Ed", 5)):
    g.roll_off(p, v)
play_all_make(g, 8)
play_round(g, {p: p != "Gus" for p in g.play_order})
play_round(g, {p: True for p in g.play_order if g.phase_of(p) is not None})
while not g.is_over:
    take_turn(g, False)
games.append(g)

out = {
    "comment": "Logs written by the engine at commit 9441b00, before rule editions "
    "(no 'rules' or 'first_finish' in game_created), with the state that engine derived. "
    "Frozen on purpose: written once by that engine, never regenerated.",
    "games": [{"events": [e.to_dict() for e in g.events], "state": state(g)} for g in games],
}
json.dump(out, open(sys.argv[2], "w"), indent=1)
for g in games:
    print(g.play_order, [(c.player, c.grand_total) for c in g.scorepad.columns], len(g.turns))

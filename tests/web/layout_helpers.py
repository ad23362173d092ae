"""Confirmed rolls of dice that differ from the printed table, as the teaching step saves
them (a module, so tests can import it by name)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from scorer.dice import PHYSICAL_DICE, Die, PhysicalDie, Roll
from web.profile_service import PROFILE_DIR, PROGRESS_FILE

#: The household's dice: the printed table but H1's red 5 is green.
GREEN_FIVE = tuple(
    PhysicalDie(die.name, tuple(Die.from_text("5G") if die.name == "H1" and str(face) == "5R"
                                else face for face in die.faces))
    for die in PHYSICAL_DICE)
#: A roll those dice throw and the printed table cannot (two green 5s).
TWO_GREEN_FIVES = "5G 5G 7R 8B 9R 10O 1B 4O 2R 3B"


def confirm_rolls(data_dir: Path, dice=GREEN_FIVE, count: int = 40, seed: int = 3) -> list[Roll]:
    """Save `count` rolls of `dice` as whole rolls the players confirmed."""
    rng = random.Random(seed)
    rolls = [Roll.from_dice([rng.choice(die.faces) for die in dice]) for _ in range(count)]
    folder = Path(data_dir) / PROFILE_DIR
    folder.mkdir(parents=True, exist_ok=True)
    (folder / PROGRESS_FILE).write_text(json.dumps(
        {"rolls_confirmed": count, "from_corrections": 0, "rolls": [str(r) for r in rolls]}))
    return rolls

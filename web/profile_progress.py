"""How the dice profile was taught, kept beside it (`teaching.json`): rolls confirmed,
dice learnt from corrections, rolls learnt from scores (with their examples, so the
oldest can make way), the whole rolls confirmed (what the layout check reads) with each
die's example, and the examples the players checked.

It is progress shown to the players, not the profile: what cannot be read is left
out, and a failed write is logged, never raised.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from scorer import Die, Roll
from scorer.atomic_file import write_atomically

log = logging.getLogger(__name__)

#: Beside the profile: how it was taught (rolls confirmed, dice learnt from corrections).
PROGRESS_FILE: Final[str] = "teaching.json"


@dataclass(frozen=True)
class Progress:
    """The teaching so far. `roll_keys` holds, per roll of `rolls`, its dice's examples
    (`example_key`, die by die; empty for a roll saved without them); `scored` the
    examples learnt from rolls scored during play that the profile still holds, oldest
    first."""

    rolls_confirmed: int = 0
    from_corrections: int = 0
    rolls: tuple[Roll, ...] = ()
    roll_keys: tuple[tuple[str, ...], ...] = ()
    checked: frozenset[str] = field(default_factory=frozenset)
    from_scored_rolls: int = 0
    scored: tuple[str, ...] = ()

    def with_roll(self, roll: Roll | None, keys: tuple[str, ...]) -> Progress:
        """One more roll confirmed; `roll`: the whole roll (None: only some of its dice)."""
        if roll is None:
            return replace(self, rolls_confirmed=self.rolls_confirmed + 1)
        return replace(self, rolls_confirmed=self.rolls_confirmed + 1,
                       rolls=(*self.rolls, roll), roll_keys=(*self.roll_keys, keys))

    def with_correction(self) -> Progress:
        """One more die learnt from a correction during play."""
        return replace(self, from_corrections=self.from_corrections + 1)

    def with_scored_roll(self, scored: tuple[str, ...]) -> Progress:
        """One more roll learnt from its score; `scored`: the examples learnt from scores
        that the profile holds now."""
        return replace(self, from_scored_rolls=self.from_scored_rolls + 1, scored=scored)

    def protected(self) -> frozenset[str]:
        """Examples that never make way for newer ones: taught on the set-up page, or
        checked by the players."""
        return self.checked | {key for keys in self.roll_keys for key in keys}

    def with_example(self, key: str, face: Die | None) -> Progress:
        """Example `key` confirmed as `face` (checked from now on), or forgotten (None): the
        confirmed rolls holding it put right, or left out (None, or a face that makes no
        roll)."""
        checked = self.checked - {key} if face is None else self.checked | {key}
        rolls, roll_keys = [], []
        for roll, keys in zip(self.rolls, self.roll_keys, strict=True):
            if key in keys:
                if face is None:
                    continue
                dice = [face if mine == key else die
                        for die, mine in zip(roll.dice, keys, strict=True)]
                try:
                    roll = Roll.from_dice(dice)
                except ValueError:
                    log.warning("dice profile: %s with %s is no roll, left out of the "
                                "layout check", roll, face)
                    continue
            rolls.append(roll)
            roll_keys.append(keys)
        return replace(self, rolls=tuple(rolls), roll_keys=tuple(roll_keys), checked=checked)


def read_progress(folder: Path) -> Progress:
    """The progress saved in `folder`; what cannot be read is left out."""
    path = folder / PROGRESS_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Progress()
    except (OSError, ValueError) as error:
        log.warning("dice profile progress %s not readable (%s): counting anew", path, error)
        return Progress()
    if not isinstance(data, dict):
        return Progress()
    counts = {key: int(value) for key, value in data.items()
              if key in ("rolls_confirmed", "from_corrections", "from_scored_rolls")
              and isinstance(value, int) and value >= 0}
    texts = _list(data, "rolls")
    saved_keys = _list(data, "roll_examples")
    if len(saved_keys) != len(texts):
        saved_keys = [[] for _ in texts]
    rolls, keys = _rolls(texts, saved_keys)
    checked = _list(data, "checked")
    scored = _list(data, "scored_examples")
    return Progress(rolls=rolls, roll_keys=keys,
                    checked=frozenset(key for key in checked if isinstance(key, str)),
                    scored=tuple(key for key in scored if isinstance(key, str)),
                    **counts)


def _list(data: dict[str, Any], name: str) -> list[Any]:
    """A list saved under `name` (none: empty)."""
    value = data.get(name)
    return value if isinstance(value, list) else []


def _rolls(texts: list[Any], saved_keys: list[Any]
           ) -> tuple[tuple[Roll, ...], tuple[tuple[str, ...], ...]]:
    """The saved rolls that read as rolls, each with its examples when they fit it."""
    rolls, keys = [], []
    for text, roll_keys in zip(texts, saved_keys, strict=True):
        try:
            roll = Roll.from_text(str(text))
        except ValueError:
            log.warning("dice profile progress: %r is not a roll, left out", text)
            continue
        linked = (isinstance(roll_keys, list) and len(roll_keys) == len(roll.dice)
                  and all(isinstance(key, str) for key in roll_keys))
        rolls.append(roll)
        keys.append(tuple(roll_keys) if linked else ())
    return tuple(rolls), tuple(keys)


def write_progress(folder: Path, progress: Progress) -> None:
    """Save `progress` in `folder` (atomically); best effort: a failure is logged."""
    try:
        body = {"rolls_confirmed": progress.rolls_confirmed,
                "from_corrections": progress.from_corrections,
                "rolls": [str(roll) for roll in progress.rolls],
                "roll_examples": [list(keys) for keys in progress.roll_keys],
                "checked": sorted(progress.checked),
                "from_scored_rolls": progress.from_scored_rolls,
                "scored_examples": list(progress.scored)}
        write_atomically(folder / PROGRESS_FILE, json.dumps(body).encode("utf-8"))
    except OSError:
        log.exception("could not save the dice profile's progress")

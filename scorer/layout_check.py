"""Do the user's dice carry the faces the inventory table says? Evidence from confirmed rolls.

The face-colour layout (`scorer.inventory.LAYOUT`) is a transcription of one set,
never confirmed by a photo, and a household's set may differ. The joint decoding
and the odds both lean on it, so the players should learn when their dice
disagree. Rolls the players confirmed (each face as the dice showed it) give two
kinds of evidence:

- A roll that no assignment of its faces to distinct dice of the table can
  explain proves the table wrong for these dice: one such roll is enough.
- Over freshly thrown rolls each die shows each of its faces one time in six, so
  among the times a value is shown, each colour comes up in proportion to the
  faces of that value the table prints in that colour. A value whose colours come
  out far from those proportions (a G-test at MAX_G) points at the table's colours
  for that value; the most likely counts of faces per colour are given beside the
  table's. Eleven values are tested at once, so each at 0.1 % / 11: a right table is
  flagged by chance in about one check in a thousand, not one in ninety.

Rolls alone do not say which die carries which face (dice cannot be told apart),
so the check reports; `scorer.layout_proposal` proposes a layout that fits, and
the players decide. Standard library only.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from scorer.dice import (
    COLOUR_LETTERS,
    FULL_ROLL,
    WILD,
    Die,
    Roll,
    value_text,
)
from scorer.dice_set import PRINTED_DICE, DiceSet

#: A value's colours are judged once it has been shown this many times.
MIN_SHOWN: Final[int] = 20
#: Whole rolls after which every value has usually been shown MIN_SHOWN times: a low value
#: comes up 4/6 of a time per roll (four low dice, one face each in six).
ROLLS_TO_JUDGE: Final[int] = math.ceil(MIN_SHOWN / (4 / 6))
#: G statistic above which a value's colours are taken to disagree with the table: the
#: chi-square distribution's point for 3 degrees of freedom (four colours) that chance
#: passes with probability 0.1 % / 11, the eleven values tested together (Bonferroni).
#: At the 0.1 % point of one value (16.27), 4 of 1,200 sets of rolls the table itself
#: threw (14 to 100 rolls) brought a proposal to change it; at this one, none.
MAX_G: Final[float] = 21.31


@dataclass(frozen=True)
class ValueColours:
    """One value: faces per colour in the table, times seen per colour, and the faces per
    colour that best explain what was seen (None until it was shown MIN_SHOWN times)."""

    value: int
    table: tuple[int, ...]  # faces of this value per colour (COLOUR_LETTERS order)
    seen: tuple[int, ...]
    likely: tuple[int, ...] | None
    g: float

    @property
    def shown(self) -> int:
        return sum(self.seen)

    @property
    def disagrees(self) -> bool:
        return self.shown >= MIN_SHOWN and self.g > MAX_G

    def to_dict(self) -> dict[str, object]:
        letters = COLOUR_LETTERS
        return {
            "value": value_text(self.value) if self.value == WILD else self.value,
            "table": dict(zip(letters, self.table, strict=True)),
            "seen": dict(zip(letters, self.seen, strict=True)),
            "likely": None if self.likely is None else dict(zip(letters, self.likely, strict=True)),
            "disagrees": self.disagrees,
        }


@dataclass(frozen=True)
class LayoutReport:
    """What the confirmed rolls say of the table."""

    rolls: int  # full rolls checked
    unexplained: tuple[Roll, ...]  # rolls no assignment to the table's dice explains
    unknown_faces: tuple[Die, ...]  # faces seen that no die of the table carries
    values: tuple[ValueColours, ...]

    @property
    def judged(self) -> bool:
        """Whether every value was shown often enough for its colours to be judged."""
        return all(v.shown >= MIN_SHOWN for v in self.values)

    @property
    def disagrees(self) -> bool:
        return bool(self.unexplained) or any(v.disagrees for v in self.values)

    def message(self) -> str:
        """One sentence for the players."""
        if not self.rolls:
            return "Confirm whole rolls to check your dice against the dice table."
        if self.unknown_faces:
            faces = ", ".join(str(face) for face in self.unknown_faces)
            return (f"Your dice differ from the dice table: it has no die with {faces}. "
                    "Check your dice's faces (below) and save the ones they carry.")
        if self.unexplained:
            return (f"Your dice differ from the dice table: {len(self.unexplained)} of "
                    f"{self.rolls} confirmed rolls cannot be thrown with it.")
        odd = [v for v in self.values if v.disagrees]
        if odd:
            names = ", ".join(value_text(v.value) for v in odd)
            return (f"The colours of your {names} faces seem to differ from the dice table "
                    f"(over {self.rolls} rolls).")
        if not self.judged:
            rolls = f"{self.rolls} confirmed roll{'s fit' if self.rolls > 1 else ' fits'}"
            return (f"{rolls} the dice table so far. After about {ROLLS_TO_JUDGE} confirmed "
                    "rolls it can tell whether your dice's colours match the table: keep "
                    "confirming a roll now and then.")
        return f"Your dice fit the dice table ({self.rolls} confirmed rolls)."

    def to_dict(self) -> dict[str, object]:
        return {
            "rolls": self.rolls,
            "unexplained": [str(roll) for roll in self.unexplained],
            "unknown_faces": [str(face) for face in self.unknown_faces],
            "values": [v.to_dict() for v in self.values],
            "judged": self.judged,
            "disagrees": self.disagrees,
            "message": self.message(),
        }


def check_layout(rolls: Iterable[Roll], dice_set: DiceSet = PRINTED_DICE) -> LayoutReport:
    """Check confirmed whole rolls (of FULL_ROLL dice, freshly thrown) against a set."""
    dice = dice_set.dice
    whole = [roll for roll in rolls if len(roll) == FULL_ROLL]
    carried = set(dice_set.faces)
    unexplained = tuple(roll for roll in whole if not dice_set.explains(roll))
    seen_faces = Counter(face for roll in whole for face in roll)
    unknown = tuple(sorted((face for face in seen_faces if face not in carried), key=str))
    values = sorted({face.value for die in dice for face in die.faces}, key=_value_order)
    report = []
    for value in values:
        table = tuple(sum(face == Die(value, colour) for die in dice for face in die.faces)
                      for colour in COLOUR_LETTERS)
        seen = tuple(seen_faces[Die(value, colour)] for colour in COLOUR_LETTERS)
        likely = _likely_counts(seen, sum(table)) if sum(seen) >= MIN_SHOWN else None
        report.append(ValueColours(value, table, seen, likely, _g_statistic(seen, table)))
    return LayoutReport(len(whole), unexplained, unknown, tuple(report))


def _value_order(value: int) -> int:
    return 99 if value == WILD else value  # W last, as the page lists faces


def _g_statistic(seen: Sequence[int], table: Sequence[int]) -> float:
    """2 * sum(k ln(k / expected)); infinite when a colour the table lacks was seen."""
    shown, faces = sum(seen), sum(table)
    if not shown or not faces:
        return 0.0
    total = 0.0
    for k, n in zip(seen, table, strict=True):
        if k == 0:
            continue
        if n == 0:
            return math.inf
        total += k * math.log(k / (shown * n / faces))
    return 2.0 * total


def _likely_counts(seen: Sequence[int], faces: int) -> tuple[int, ...]:
    """The faces per colour (summing to `faces`) under which `seen` is most likely."""
    best, best_score = None, -math.inf
    for cuts in itertools.combinations(range(faces + len(seen) - 1), len(seen) - 1):
        counts = [b - a - 1 for a, b in zip((-1, *cuts), (*cuts, faces + len(seen) - 1),
                                             strict=True)]
        if any(k and not n for k, n in zip(seen, counts, strict=True)):
            continue
        score = sum(k * math.log(n / faces) for k, n in zip(seen, counts, strict=True) if k)
        if score > best_score:
            best, best_score = tuple(counts), score
    return best if best is not None else tuple(0 for _ in seen)

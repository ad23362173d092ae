"""A face layout that fits the user's confirmed rolls, for the players to agree to.

`scorer.layout_check` says whether the dice table fits the confirmed rolls; this
module proposes the smallest change to the table that does. Rolls alone never say
which die carries which face (dice cannot be told apart), so a proposal is one
layout among those that explain every roll, chosen to change as few faces of the
table as it can, and the players check it against their dice before agreeing.

Two kinds of change, both keeping each die's values (the game's dice carry fixed
values; only the colours of a transcription are in doubt):

- **Recolouring**, where a value's colours were seen far from the table's
  proportions (`ValueColours.disagrees`): faces of a colour the table has too many
  of take a colour it has too few of (the counts `check_layout` found most likely),
  each time on the die that leaves the fewest rolls unexplained.
- **Moves**, while some confirmed roll cannot be thrown: a face recoloured to a
  colour its value was seen in, or the colours of two faces of one value swapped
  between two dice; the moves that explain the most rolls are made (a few
  layouts kept side by side, BEAM_WIDTH), until every roll is explained or no
  move helps (at most MAX_MOVES). Where no single move explains another roll, two
  made together are tried (PAIR_ROLLS): two wrong faces can keep the same rolls from
  being thrown, so that neither mended alone explains one. When a recount leaves
  rolls unexplained, moves alone from the table are tried too and the better kept (a
  recount is a statistical guess, and a colour seen rarely by chance can send it
  astray).

Standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final, TypeAlias

from scorer.dice import (
    COLOUR_LETTERS,
    FULL_ROLL,
    Die,
    PhysicalDie,
    Roll,
    inventory_matching,
    matching_shortfall,
)
from scorer.dice_set import PRINTED_DICE, DiceSet
from scorer.layout_check import check_layout

#: The most steps of moves (a face recoloured, or two swapped; or two such moves made
#: together where no single one helps) a proposal makes after recolouring.
MAX_MOVES: Final[int] = 12
#: Layouts kept at each step of the moves (a beam search); 1 would be greedy. At 2, three
#: changed faces were once mended on the wrong die, leaving a roll of 30 unexplained
#: (tests/scorer/test_layout_proposal.py's example); 4 finds them, in twice the time.
BEAM_WIDTH: Final[int] = 4
#: Unexplained rolls (of those two dice or more are short of) searched for a pair of moves
#: made together, where no single move explains another roll. Two changed faces can each
#: keep the same rolls from being thrown (tests/scorer/test_layout_proposal.py's seed 778:
#: two rolls of 30, each needing both), so the pair that throws one roll is judged on every
#: roll; the bound keeps misread rolls, which no layout throws, from each costing a search.
PAIR_ROLLS: Final[int] = 4

#: A face of the layout, as (die, face) indices.
Place: TypeAlias = tuple[int, int]
#: A move, as the faces it prints and where: one for a recolouring, two for a swap.
Move: TypeAlias = tuple[tuple[Place, Die], ...]
#: Layouts, each with the rolls it leaves unexplained.
Scored: TypeAlias = list[tuple[int, list[list[Die]]]]
#: A search step: up to `keep` layouts one step from the faces that explain more rolls.
Step: TypeAlias = Callable[[list[list[Die]], Sequence[PhysicalDie], Sequence[Roll], int], Scored]


@dataclass(frozen=True)
class FaceChange:
    """One face of one die, as the table prints it and as proposed."""

    die: str
    before: Die
    after: Die

    def to_dict(self) -> dict[str, str]:
        return {"die": self.die, "before": str(self.before), "after": str(self.after)}


@dataclass(frozen=True)
class LayoutProposal:
    """A layout for the players to check, the faces it changes and the confirmed rolls
    it explains (every one, unless `explained < rolls`)."""

    dice: tuple[PhysicalDie, ...]
    changes: tuple[FaceChange, ...]
    explained: int
    rolls: int

    def layout(self) -> tuple[tuple[str, str], ...]:
        """As `scorer.inventory.LAYOUT` writes it: (name, faces) per die."""
        return tuple((die.name, " ".join(str(face) for face in die.faces)) for die in self.dice)

    def to_dict(self) -> dict[str, object]:
        return {
            "layout": [{"name": name, "faces": faces} for name, faces in self.layout()],
            "changes": [change.to_dict() for change in self.changes],
            "explained": self.explained,
            "rolls": self.rolls,
        }


def propose_layout(rolls: Iterable[Roll], dice_set: DiceSet = PRINTED_DICE
                   ) -> LayoutProposal | None:
    """The smallest change to the set's dice found that explains the confirmed whole rolls, or
    None when the table fits them (or nothing was found to change). With few rolls a
    proposal only explains the rolls that cannot be thrown; colours are recounted once
    a value was shown often enough to judge them."""
    dice = dice_set.dice
    whole = [roll for roll in rolls if len(roll) == FULL_ROLL]
    report = check_layout(whole, dice_set)
    if not report.disagrees:
        return None
    table = [list(die.faces) for die in dice]
    faces = [list(row) for row in table]
    for value in report.values:
        if value.likely is None or not value.disagrees:
            continue
        _recolour(faces, dice, value.value, value.table, value.likely, whole)
    recounted = faces != table
    unexplained, faces = _moved(faces, dice, whole)
    if recounted and unexplained:
        # The recount is a statistical guess: a colour seen rarely by chance can send
        # it the wrong way, and single moves cannot undo two wrong faces. Moves alone
        # from the table may explain more, or as many with fewer changes.
        unexplained, faces = min(((unexplained, faces), _moved(table, dice, whole)),
                                 key=lambda entry: _rank(entry, dice))
    changes = _changes(faces, dice)
    if not changes:
        return None
    return LayoutProposal(tuple(_layout(faces, dice)), changes, len(whole) - unexplained,
                          len(whole))


def _recolour(faces: list[list[Die]], dice: Sequence[PhysicalDie], value: int,
              table: Sequence[int], likely: Sequence[int], rolls: Sequence[Roll]) -> None:
    """Bring the value's faces per colour from `table` to `likely`, one face at a time,
    each on the die whose change leaves the fewest rolls unexplained."""
    counts = list(table)
    while True:
        surplus = [c for c, (n, k) in enumerate(zip(counts, likely, strict=True)) if n > k]
        deficit = [c for c, (n, k) in enumerate(zip(counts, likely, strict=True)) if n < k]
        if not surplus or not deficit:
            return
        to = Die(value, COLOUR_LETTERS[deficit[0]])
        candidates = [(d, f) for d, row in enumerate(faces) for f, face in enumerate(row)
                      if face.value == value and COLOUR_LETTERS.index(face.colour) in surplus]

        scored = [(_unexplained(_with_face(faces, place, to), dice, rolls), place)
                  for place in candidates]
        d, f = min(scored)[1]
        counts[COLOUR_LETTERS.index(faces[d][f].colour)] -= 1
        counts[deficit[0]] += 1
        faces[d][f] = to


def _moved(faces: list[list[Die]], dice: Sequence[PhysicalDie],
           rolls: Sequence[Roll]) -> tuple[int, list[list[Die]]]:
    """The faces after the best moves, one at a time, while moves explain more rolls,
    with how many rolls they leave unexplained.

    A few layouts are kept at each step (BEAM_WIDTH), not only the best: the move that
    explains the most rolls now can lead where no single move explains the rest (two
    faces of one value each half right), while the second best leads on to all. Where
    none does, pairs of moves are tried before giving up (`_best_pairs`)."""
    beam: Scored = [(_unexplained(faces, dice, rolls), faces)]
    for _ in range(MAX_MOVES):
        if beam[0][0] == 0:
            break
        ranked = _ranked(beam, dice, rolls, _best_moves)
        if not ranked or ranked[0][0] >= beam[0][0]:
            ranked = _ranked(beam, dice, rolls, _best_pairs)
        if not ranked or ranked[0][0] >= beam[0][0]:
            break
        beam = ranked[:BEAM_WIDTH]
    return beam[0]


def _ranked(beam: Scored, dice: Sequence[PhysicalDie], rolls: Sequence[Roll],
            step: Step) -> Scored:
    """The layouts one step from any kept one, each once, best first (`_rank`)."""
    found = {tuple(map(tuple, trial)): (count, trial) for _, state in beam
             for count, trial in step(state, dice, rolls, BEAM_WIDTH)}
    return sorted(found.values(), key=lambda entry: _rank(entry, dice))


def _rank(entry: tuple[int, list[list[Die]]], dice: Sequence[PhysicalDie]) -> tuple[int, int]:
    """(rolls unexplained, faces) ranked: fewest rolls unexplained, then fewest changes."""
    return entry[0], len(_changes(entry[1], dice))


def _changes(faces: list[list[Die]], dice: Sequence[PhysicalDie]) -> tuple[FaceChange, ...]:
    """Each face that differs from the table's, as the table prints it and as proposed."""
    return tuple(FaceChange(die.name, old, new)
                 for die, row in zip(dice, faces, strict=True)
                 for old, new in zip(die.faces, row, strict=True) if old != new)


def _with_face(faces: list[list[Die]], place: tuple[int, int], face: Die) -> list[list[Die]]:
    """The faces with the one at `place` (die, face) printed as `face`."""
    trial = [list(row) for row in faces]
    trial[place[0]][place[1]] = face
    return trial


def _best_moves(faces: list[list[Die]], dice: Sequence[PhysicalDie],
                rolls: Sequence[Roll], keep: int) -> Scored:
    """Up to `keep` single moves (a face recoloured to a colour its value was seen in, or
    two faces of one value swapped between dice) that leave the fewest rolls unexplained,
    each as (rolls unexplained, faces after it), best first; only moves that explain more
    rolls than now, so none when every roll is explained or no move helps."""
    wrong, thrown = _split(faces, dice, rolls)
    if not wrong:
        return []
    moves = _moves(faces, {face for roll in rolls for face in roll})
    return _best(faces, [_applied(faces, move) for move in moves], dice, wrong, thrown, keep)


def _best_pairs(faces: list[list[Die]], dice: Sequence[PhysicalDie],
                rolls: Sequence[Roll], keep: int) -> Scored:
    """Up to `keep` pairs of single moves made together, ranked as `_best_moves` ranks
    moves, for where no single move explains another roll: two wrong faces that each keep
    the same rolls from being thrown. Mending either alone leaves fewer of such a roll's
    dice without a die, but not none, so pairs are drawn from the moves that do that, for
    the first few unexplained rolls that two dice or more are short of (PAIR_ROLLS)."""
    wrong, thrown = _split(faces, dice, rolls)
    layout = _layout(faces, dice)
    shortfalls = [(roll, matching_shortfall(roll, layout)) for roll in wrong]
    far = [(roll, short) for roll, short in shortfalls if short > 1]
    moves = _moves(faces, {face for roll in rolls for face in roll})
    trials: dict[tuple[tuple[Die, ...], ...], list[list[Die]]] = {}
    for roll, short in far[:PAIR_ROLLS]:
        nearer = _nearer(faces, dice, roll, short, moves)
        for (first, left), (second, right) in combinations(nearer, 2):
            # Each die a move changes matches at most one more of the roll's dice.
            if (left <= len(second) and right <= len(first)
                    and {place for place, _ in first}.isdisjoint(place for place, _ in second)):
                trial = _applied(faces, first + second)
                if inventory_matching(roll, _layout(trial, dice)) is not None:
                    trials.setdefault(tuple(map(tuple, trial)), trial)
    return _best(faces, list(trials.values()), dice, wrong, thrown, keep)


def _nearer(faces: list[list[Die]], dice: Sequence[PhysicalDie], roll: Roll, short: int,
            moves: Sequence[Move]) -> list[tuple[Move, int]]:
    """The moves that leave fewer than `short` of the roll's dice without a die, but not
    none, each with how many it leaves (`matching_shortfall`). Only a move printing a face
    the roll shows can, so only those are matched."""
    shown = set(roll)
    nearer: list[tuple[Move, int]] = []
    for move in moves:
        if any(face in shown for _, face in move):
            left = matching_shortfall(roll, _layout(_applied(faces, move), dice))
            if 0 < left < short:
                nearer.append((move, left))
    return nearer


def _moves(faces: list[list[Die]], seen: set[Die]) -> list[Move]:
    """Every single move: a face recoloured to a colour its value was seen in (one face
    changed), then two faces of one value swapped between dice (two changed)."""
    places = [(d, f) for d, row in enumerate(faces) for f in range(len(row))]
    moves: list[Move] = []
    for d, f in places:  # one face recoloured (one face changed) ...
        for colour in COLOUR_LETTERS:
            face = Die(faces[d][f].value, colour)
            if face != faces[d][f] and face in seen:
                moves.append((((d, f), face),))
    for i, (da, fa) in enumerate(places):  # ... then two faces swapped (two changed)
        for db, fb in places[i + 1:]:
            a, b = faces[da][fa], faces[db][fb]
            if da != db and a.value == b.value and a.colour != b.colour:
                moves.append((((da, fa), b), ((db, fb), a)))
    return moves


def _best(faces: list[list[Die]], trials: Sequence[list[list[Die]]],
          dice: Sequence[PhysicalDie], wrong: Sequence[Roll], thrown: Sequence[Roll],
          keep: int) -> Scored:
    """Up to `keep` of the trial layouts (changed from `faces`) that leave the fewest rolls
    unexplained, best first; only those that explain more rolls than the faces do (the
    `wrong` rolls, where the faces throw the others)."""
    # A move must explain a roll not explained now: judge that on those rolls first,
    # and count the rolls it loses only for moves that could still be among the best.
    helpful = [(len(wrong) - _unexplained(trial, dice, wrong), trial) for trial in trials]
    best: Scored = []
    for fixed, trial in sorted(helpful, key=lambda pair: -pair[0]):
        bar = best[-1][0] if len(best) == keep else len(wrong)
        if fixed == 0 or len(wrong) - fixed >= bar:
            break
        count = len(wrong) - fixed
        count += _lost(faces, trial, dice, thrown, bar - count)
        if count < bar:
            best = sorted([*best, (count, trial)], key=lambda pair: pair[0])[:keep]
    return best


def _lost(faces: list[list[Die]], trial: list[list[Die]], dice: Sequence[PhysicalDie],
          thrown: Sequence[Roll], limit: int) -> int:
    """How many of the rolls the faces throw the trial does not, counted up to `limit`
    (past it the trial is not kept). Only a roll showing a face the trial took off a die
    can be lost: the others keep the dice they were matched to."""
    taken = {old for row, moved in zip(faces, trial, strict=True)
             for old, new in zip(row, moved, strict=True) if old != new}
    layout = _layout(trial, dice)
    lost = 0
    for roll in thrown:
        if not taken.isdisjoint(roll) and inventory_matching(roll, layout) is None:
            lost += 1
            if lost == limit:
                break
    return lost


def _applied(faces: list[list[Die]], move: Move) -> list[list[Die]]:
    """The faces with the move made."""
    trial = [list(row) for row in faces]
    for (d, f), face in move:
        trial[d][f] = face
    return trial


def _split(faces: list[list[Die]], dice: Sequence[PhysicalDie],
           rolls: Sequence[Roll]) -> tuple[list[Roll], list[Roll]]:
    """The rolls the faces cannot throw, and those they can."""
    layout = _layout(faces, dice)
    wrong: list[Roll] = []
    thrown: list[Roll] = []
    for roll in rolls:
        (wrong if inventory_matching(roll, layout) is None else thrown).append(roll)
    return wrong, thrown


def _layout(faces: list[list[Die]], dice: Sequence[PhysicalDie]) -> list[PhysicalDie]:
    return [PhysicalDie(die.name, tuple(row)) for die, row in zip(dice, faces, strict=True)]


def _unexplained(faces: list[list[Die]], dice: Sequence[PhysicalDie],
                 rolls: Sequence[Roll]) -> int:
    layout = _layout(faces, dice)
    return sum(inventory_matching(roll, layout) is None for roll in rolls)

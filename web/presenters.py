"""The JSON phones get: a game's state, the roll on the table with the solver's verdict, dice.

Every answer of the API that shows a game or dice is made here, from the
service's typed views (`web.game_view`) and the scorer's own `to_dict`; the
service and the views build no JSON of their own. The shapes are documented in
web/API.md and pinned by tests/web/test_web_golden_api.py.

Views hold no rules: the solver decides; this module only says, per die of
the roll on the table, which group of the verdict uses it and what number a
Wild stands for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorer import (
    CARD_VALUES,
    PHASES,
    ROLLS_PER_TURN,
    CardScorepad,
    CardWinnerRule,
    Die,
    FirstFinishRule,
    GameKind,
    PhaseResult,
    Roll,
    Scorepad,
    as_counted,
    evaluate,
    faces_it_could_show,
    get_phase,
)
from scorer.dice_set import DiceSet
from vision.reading import ReadDie
from web.camera_status import CameraStatus, ExposureStatus
from web.game_view import CardGameView, GameState, GameView
from web.store import GamePage
from web.table_roll import TableRoll


def die_dict(die: Die) -> dict[str, Any]:
    """One die's face: notation, value ("W" for a Wild), colour letter and name."""
    return {
        "notation": str(die),
        "value": "W" if die.is_wild() else die.value,
        "colour": die.colour,
        "colour_name": die.colour_name,
        "wild": die.is_wild(),
    }


def unreadable_die_dict() -> dict[str, Any]:
    """A die the camera found but could not read: in the shape of `die_dict`, no face."""
    return {"notation": None, "value": None, "colour": None, "colour_name": None,
            "wild": False, "unreadable": True}


def read_dice_dicts(dice: Iterable[ReadDie], unreadable: int) -> list[dict[str, Any]]:
    """A reading's dice for a reply: those read (with confidence, and whether their value is
    doubtful too, `ReadDie.value_doubtful`), then those not read."""
    listed = [
        {**die_dict(read.die), "confidence": round(float(read.confidence), 4),
         "probability": round(float(read.right_probability), 4),
         "unsure": bool(read.unsure), "value_unsure": read.value_doubtful,
         "unreadable": False}
        for read in dice
    ]
    return listed + [{**unreadable_die_dict(), "confidence": 0.0, "probability": 0.0,
                      "unsure": True, "value_unsure": True}] * unreadable


def _placement(roll: Roll, result: PhaseResult) -> list[tuple[int, int | None] | None]:
    """For each die of the roll: (group index, the number it stands for), or None if unused."""
    placement: list[tuple[int, int | None] | None] = [None] * len(roll.dice)
    for group_index, group in enumerate(result.groups):
        for die, number in zip(group.dice, group.stands_for, strict=True):
            for index, candidate in enumerate(roll.dice):
                if placement[index] is None and candidate == die:
                    placement[index] = (group_index, number)
                    break
    return placement


def verdict_dict(roll: Roll, phase_number: int) -> dict[str, Any]:
    """The solver's verdict for the phase plus, per die of the roll, where it is used."""
    result = evaluate(roll, get_phase(phase_number))
    verdict = result.to_dict()
    verdict["placement"] = [
        None if place is None else {"group": place[0], "stands_for": place[1]}
        for place in _placement(roll, result)
    ]
    return verdict


#: The other faces an unsure die's correction offers first, at most.
MIGHT_BE = 3


def _likely_shown(table_roll: TableRoll, index: int, phase_number: int | None,
                  colour_only: bool) -> list[dict[str, Any]] | None:
    """The faces a settled die was weighed as (`scorer.faces_it_could_show`), the face read
    first, where the camera told them; None where every face was weighed, or where the
    phase cannot tell its doubt (a colour in a phase that does not count colour)."""
    told = table_roll.likely_faces(index)
    if told is None or phase_number is None:
        return None
    phase = get_phase(phase_number)
    if colour_only and not phase.is_colour_phase():
        return None
    die = table_roll.roll.dice[index]
    weighed = set(faces_it_could_show(die, phase, colour_only, told))
    shown = [die]
    for face in (as_counted(face, die, phase) for face in told):  # most likely first
        if face in weighed and face not in shown:
            shown.append(face)
    return [die_dict(face) for face in shown]


def table_roll_dict(table_roll: TableRoll | None, phase_number: int | None,
                    dice_set: DiceSet) -> dict[str, Any] | None:
    """The roll on the table, expanded for the page: dice, unsure marks, verdict.

    Dice the camera found but could not read come after the dice read, each with
    `"unreadable": true` and no face; until each is fixed the roll cannot be
    scored (`unreadable_count`), and the verdict is of the dice read only.
    Dice the camera was unsure of (`unsure`) and faces the ten dice of `dice_set`
    cannot show together (`impossible`, `DiceSet.impossible`) are marked per die;
    while any is, scoring the roll needs the players' confirmation
    (`needs_confirmation`). An unsure die needs no check where no face it could truly
    show changes the phase's score (`TableRoll.to_check`): it is marked `settled`
    (`settled_count`), and `colour_doubt` too when only its colour was in doubt
    (`colour_doubt_count`); `unsure_count` counts every die marked, either way, and
    `colour_counts` says whether the phase counts colour at all (phase 8), so the page
    can say why the score stands. A settled die the camera told the likely faces of
    carries them (`likely`: the face read first, as the phase tells faces apart), so the
    page can say which faces were weighed; None where any face was. Every unsure die
    carries the faces the camera found it most likely shows instead (`might_be`, at most
    MIGHT_BE, most likely first; empty where it could not tell), offered first when a
    player taps it.
    """
    if table_roll is None:
        return None
    roll = table_roll.roll
    unsure = set(table_roll.unsure)
    to_check = set(table_roll.to_check(phase_number))
    settled = set(table_roll.unchecked(phase_number))
    colour_doubt = settled - set(table_roll.value_doubts)
    impossible = set(dice_set.impossible(roll))
    dice = [{**die_dict(die), "unsure": index in unsure,
             "colour_doubt": index in colour_doubt, "settled": index in settled,
             "likely": _likely_shown(table_roll, index, phase_number, index in colour_doubt)
             if index in settled else None,
             "might_be": [die_dict(face) for face in
                          (table_roll.likely_faces(index) or ())[:MIGHT_BE]],
             "unreadable": False, "impossible": index in impossible}
            for index, die in enumerate(roll.dice)]
    dice += [{**unreadable_die_dict(), "unsure": True, "colour_doubt": False,
              "settled": False, "likely": None, "might_be": [], "impossible": False}
             for _ in range(table_roll.unreadable)]
    verdict = None
    if phase_number is not None and roll.dice:
        verdict = verdict_dict(roll, phase_number)
    return {
        "notation": str(roll),
        "dice": dice,
        "full": roll.is_full(),
        "explained": not impossible,
        "roll_number": table_roll.roll_number,
        "rolls_per_turn": ROLLS_PER_TURN,
        "source": table_roll.source.value,
        "flags": list(table_roll.flags),
        "unsure_count": len(unsure),
        "colour_doubt_count": len(colour_doubt),
        "settled_count": len(settled),
        "colour_counts": phase_number is None or get_phase(phase_number).is_colour_phase(),
        "unreadable_count": table_roll.unreadable,
        "impossible_count": len(impossible),
        "needs_confirmation": bool(to_check or impossible),
        "verdict": verdict,
    }


def first_finish_dict(rule: FirstFinishRule) -> dict[str, str]:
    """A First Finish Bonus reading for the page: its value, printing and plain words."""
    return {"rule": rule.value, "printing": rule.printing, "description": rule.description}


def winner_rule_dict(rule: CardWinnerRule) -> dict[str, str]:
    """A card game's winner rule for the page: its value and plain words."""
    return {"rule": rule.value, "description": rule.description}


def scorepad_dict(scorepad: Scorepad | CardScorepad) -> dict[str, Any]:
    """The paper sheet: phase rows with labels and one column per player, in play order."""
    return {
        "phases": [{"number": phase.number, "label": phase.label} for phase in PHASES],
        "columns": [column.to_dict() for column in scorepad.columns],
    }


def game_state_dict(state: GameState) -> dict[str, Any]:
    """A game's state as phones get it (every answer that shows a game, and each live
    update)."""
    return state_dict(state.view, state.dice_set)


def state_dict(view: GameView | CardGameView, dice_set: DiceSet) -> dict[str, Any]:
    """Everything a phone draws for one game (also the body of each live update); the
    roll on the table is checked against `dice_set`, the table's dice."""
    if isinstance(view, CardGameView):
        return _card_state_dict(view)
    phase = view.active_phase
    return {
        "id": view.id,
        "game": GameKind.DICE.value,
        "created": view.created,
        "updated": view.updated,
        "version": view.version,
        "roll_id": None if view.table_roll is None else view.table_roll.roll_id,
        "players": list(view.players),
        "solitaire": view.solitaire,
        "play_order": list(view.play_order),
        "round": view.round,
        "roll_off_pending": list(view.roll_off_pending),
        "roll_off_throws": {name: list(throws) for name, throws in view.roll_off_throws.items()},
        "first_finish": first_finish_dict(view.first_finish),
        "rules": view.rules,
        "active_player": view.active_player,
        "active_phase": None if phase is None else {
            "number": phase,
            "label": PHASES[phase - 1].label,
        },
        "is_over": view.is_over,
        "winners": list(view.winners),
        "scorepad": scorepad_dict(view.scorepad),
        "camera": view.camera,
        "turns": [turn.to_dict() for turn in view.turns],
        "current": table_roll_dict(view.table_roll, phase, dice_set),
        "undo": view.undo,
    }


def _card_state_dict(view: CardGameView) -> dict[str, Any]:
    """A card game's state: the dice game's keys for rolls and the camera say "none", so a
    client that only knows dice games is never handed a shape it cannot read."""
    return {
        "id": view.id,
        "game": GameKind.CARDS.value,
        "created": view.created,
        "updated": view.updated,
        "version": view.version,
        "roll_id": None,
        "players": list(view.players),
        "play_order": list(view.players),
        "hand": view.hand,
        "winner_rule": winner_rule_dict(view.winner_rule),
        "card_values": [{"label": value.label, "points": value.points} for value in CARD_VALUES],
        "active_player": None,
        "active_phase": None,
        "is_over": view.is_over,
        "winners": list(view.winners),
        "scorepad": scorepad_dict(view.scorepad),
        "camera": False,
        "hands": [record.to_dict() for record in view.hands],
        "current": None,
    }


def page_dict(page: GamePage) -> dict[str, Any]:
    """A page of the list of games (`GET /api/games`): each game's line and the count."""
    return {"games": [game.to_dict() for game in page.games], "total": page.total,
            "offset": page.offset, "limit": page.limit}


def camera_status_dict(status: CameraStatus) -> dict[str, Any]:
    """The camera as the set-up page and `GET /api/camera` show it."""
    last = status.last
    return {
        "source": status.source,
        "running": status.running,
        "error": status.error,
        "readings": status.readings,
        "last": None if last is None else {"roll_number": last.roll_number,
                                           "reading": last.reading.to_dict()},
        "game": status.game,
        "demo_dice": status.demo_dice,
    }


def exposure_status_dict(status: ExposureStatus) -> dict[str, Any]:
    """Whether exposure can be locked, and the controls in force as JSON values (picamera2
    hands back tuples)."""
    controls = None if status.controls is None else {
        key: list(value) if isinstance(value, tuple) else value
        for key, value in status.controls.items()}
    return {"supported": status.supported, "locked": status.locked, "controls": controls}

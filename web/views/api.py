"""The JSON API (documented in web/API.md): everything the page does, for any client."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import metadata
from typing import Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from scorer import (
    DEFAULT_FIRST_FINISH,
    PHASES,
    ROLLS_PER_TURN,
    Die,
    GameKind,
    Roll,
    advise,
    evaluate,
    get_phase,
)
from web.camera import CameraControlError, CameraFeed
from web.commands import DICE_ACTIONS, BadActionError
from web.game_view import GameView
from web.hint import plain_hint
from web.presenters import camera_status_dict, die_dict, game_state_dict, page_dict, verdict_dict
from web.request_numbers import whole_number
from web.store import LIST_STATUSES, MAX_ID, MAX_PAGE
from web.typed_roll import typed_roll
from web.views.cards import create_card_game, game_kind
from web.views.common import json_body, require_pin, table
from web.views.parse import action_of, body_field, players_field, preview_of, seen_of

bp = Blueprint("api", __name__, url_prefix="/api")

#: What a phone showed when it asks to change the roll on the table (web/API.md).
SEEN = ("version", "roll_id")

#: The body fields each of the engine's actions takes (others are refused by name).
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "score": ("player", "roll", "confirmed", *SEEN),
    "fail": ("player", "roll", *SEEN),
    "undo": SEEN,
    "roll-off": ("player", "value", *SEEN),
    "correct": ("turn", "roll", "made", *SEEN),
}


@bp.get("/config")
def config() -> ResponseReturnValue:
    """What the page needs to know about this table."""
    tab = table()
    return jsonify(
        pin_required=tab.config.pin is not None,
        pin_locked_s=round(tab.pins.table_locked_for()),
        camera=None if tab.camera is None else tab.camera.source,
        demo_dice=tab.camera is not None and tab.camera.rolls_on_request,
        rolls_per_turn=ROLLS_PER_TURN,
        advice=True,
    )


@bp.get("/health")
def health() -> ResponseReturnValue:
    """That this scorepad answers (`phase10 doctor` and deploy/install.sh ask), its
    version, and the camera's state; reads nothing from the database."""
    try:
        version = metadata.version("phase10-dice")
    except metadata.PackageNotFoundError:
        version = "unknown"
    feed = table().camera
    camera = None if feed is None else {
        "source": feed.source, "running": feed.running, "error": feed.error,
    }
    return jsonify(ok=True, version=version, camera=camera)


def _feed() -> CameraFeed:
    feed = table().camera
    if feed is None:
        raise CameraControlError("no camera is configured on this table (camera = \"none\")")
    return feed


def _query_number(name: str, default: int, low: int, high: int) -> int:
    """A whole-number query parameter (ASCII digits only) within low..high, else 400."""
    text = request.args.get(name)
    if text is None:
        return default
    return whole_number(f"query {name!r}", text, low, high)


@bp.get("/games")
def list_games() -> ResponseReturnValue:
    """A page of the games, most recently played first: ?status=playing|finished|all,
    ?archived=1 for the archived games instead, ?offset=N&limit=M (at most 200)."""
    for name in request.args:
        if name not in ("status", "archived", "offset", "limit"):
            raise BadActionError(f"unknown query {name!r}: this list takes 'status', "
                                 "'archived', 'offset', 'limit'")
    status = request.args.get("status", "all")
    if status not in LIST_STATUSES:
        raise BadActionError(f"query 'status' must be one of {', '.join(LIST_STATUSES)}, "
                             f"got {status!r}")
    archived = request.args.get("archived", "0")
    if archived not in ("0", "1"):
        raise BadActionError(f"query 'archived' must be 0 or 1, got {archived!r}")
    page = table().service.games_page(
        status=status, archived=archived == "1",
        offset=_query_number("offset", 0, 0, MAX_ID),
        limit=_query_number("limit", MAX_PAGE, 1, MAX_PAGE),
    )
    return jsonify(page_dict(page))


@bp.post("/games/<int:game_id>/archive")
def archive_game(game_id: int) -> ResponseReturnValue:
    """Hide a game from the main list; it is kept whole and can be restored."""
    require_pin(json_body())
    return jsonify(game=table().service.archive(game_id, True).to_dict())


@bp.post("/games/<int:game_id>/restore")
def restore_game(game_id: int) -> ResponseReturnValue:
    """Bring an archived game back to the main list (the undo of archive)."""
    require_pin(json_body())
    return jsonify(game=table().service.archive(game_id, False).to_dict())


@bp.delete("/games/<int:game_id>")
def delete_game(game_id: int) -> ResponseReturnValue:
    """Delete one game for good (the page asks first); no other game is touched."""
    require_pin(json_body())
    table().service.delete(game_id)
    return jsonify(deleted=game_id)


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    body = json_body("players", "game", "solitaire", "roll_off", "first_finish", "winner")
    require_pin(body)
    service = table().service
    kind = game_kind(body_field(body, "game", str, required=False, default="dice"))
    if kind is GameKind.CARDS:
        return create_card_game(body)
    if "winner" in body:
        raise BadActionError("field 'winner' is an option of card games (\"game\": \"cards\"); "
                             "the dice game's highest Grand Total wins")
    game_id = service.create(
        players_field(body),
        solitaire=body_field(body, "solitaire", bool, required=False, default=False),
        roll_off=body_field(body, "roll_off", bool, required=False, default=False),
        first_finish=body_field(body, "first_finish", str, required=False,
                                default=DEFAULT_FIRST_FINISH.value),
    )
    return jsonify(game_state_dict(service.state(game_id))), 201


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> ResponseReturnValue:
    return jsonify(game_state_dict(table().service.state(game_id)))


def _typed_roll(body: Mapping[str, Any]) -> Roll:
    return typed_roll(body_field(body, "roll", str))


@bp.post("/games/<int:game_id>/roll")
def put_roll(game_id: int) -> ResponseReturnValue:
    """Put the next roll of the turn on the table (typed notation or the tapped dice)."""
    body = json_body("roll", "roll_number", *SEEN)
    require_pin(body)
    roll = _typed_roll(body)
    roll_number = body_field(body, "roll_number", int, required=False)
    state = table().service.set_roll(game_id, roll, roll_number=roll_number, seen=seen_of(body))
    return jsonify(game_state_dict(state))


@bp.put("/games/<int:game_id>/roll")
def replace_roll(game_id: int) -> ResponseReturnValue:
    """Edit the roll on the table (a typo fixed): same roll number, since nothing was thrown."""
    body = json_body("roll", *SEEN)
    require_pin(body)
    state = table().service.set_roll(game_id, _typed_roll(body), replace=True, seen=seen_of(body))
    return jsonify(game_state_dict(state))


@bp.delete("/games/<int:game_id>/roll")
def clear_roll(game_id: int) -> ResponseReturnValue:
    body = json_body(*SEEN)
    require_pin(body)
    return jsonify(game_state_dict(table().service.clear_roll(game_id, seen=seen_of(body))))


@bp.post("/games/<int:game_id>/roll/dice/<int:index>")
def correct_die(game_id: int, index: int) -> ResponseReturnValue:
    """One tap corrects a misread die: its value and colour."""
    body = json_body("die", *SEEN)
    require_pin(body)
    die = Die.from_text(body_field(body, "die", str))
    state = table().service.correct_die(game_id, index, die, seen=seen_of(body))
    return jsonify(game_state_dict(state))


@bp.post("/games/<int:game_id>/demo-roll")
def demo_roll(game_id: int) -> ResponseReturnValue:
    """Throw the demo dice once: the turn's next roll, read by the camera like real dice."""
    require_pin(json_body())
    table().service.store.load(game_id, events=False)  # unknown game: 404
    plan = _feed().demo_roll(game_id)
    return jsonify(plan.to_dict()), 202


@bp.post("/games/<int:game_id>/correct/preview")
def preview_correction(game_id: int) -> ResponseReturnValue:
    """What a correction of an earlier turn would change (later turns' phases, outcomes,
    points), worked out by the engine's replay; changes nothing, so needs no PIN."""
    body = json_body("turn", "roll", "made", "version")
    version, preview = table().service.preview_correction(game_id, preview_of(body))
    return jsonify(game=game_id, version=version, **preview.to_dict())


@bp.post("/games/<int:game_id>/<action>")
def act(game_id: int, action: str) -> ResponseReturnValue:
    """score, fail, undo, roll-off, correct: the engine's actions."""
    if action not in DICE_ACTIONS:
        raise BadActionError(f"unknown action {action!r}: expected one of "
                             f"{', '.join(DICE_ACTIONS)}")
    body = json_body(*ACTION_FIELDS[action])
    require_pin(body)
    table().service.store.load(game_id, events=False)  # unknown game: 404 before anything else
    return jsonify(game_state_dict(table().service.act(game_id, action_of(action, body))))


@bp.get("/score")
def score() -> ResponseReturnValue:
    """The verdict on a roll for a phase, without any game: ?roll=...&phase=N."""
    for name in request.args:
        if name not in ("roll", "phase"):
            raise BadActionError(f"unknown query {name!r}: this verdict takes 'roll' and 'phase'")
    roll_text = request.args.get("roll", "")
    if not roll_text.strip():
        raise BadActionError("query 'roll' is missing: send the dice, e.g. "
                             "?roll=8R 8B 8G 10O 5G 7R WR WB 1G 3R&phase=1")
    roll = Roll.from_text(roll_text)
    # ASCII digits only (not "¹" or "١"), and their length checked before int() sees them
    phase = get_phase(whole_number("query 'phase'", request.args.get("phase", ""), 1, len(PHASES)))
    verdict = verdict_dict(roll, phase.number)
    verdict["dice"] = [die_dict(die) for die in roll.dice]
    verdict["explained"] = table().dice.current.explains(roll)  # the name the state and CLI use
    return jsonify(verdict)


@bp.get("/games/<int:game_id>/advice")
def advice(game_id: int) -> ResponseReturnValue:
    """The odds advisor's hint for the roll on the table: what to keep, and the chance."""
    view = table().service.view(game_id)
    table_roll = view.table_roll if isinstance(view, GameView) else None
    phase = view.active_phase if isinstance(view, GameView) else None
    if table_roll is None or phase is None:
        raise BadActionError("no roll on the table for an active phase")
    roll = table_roll.roll
    result = advise(roll, phase, max(0, ROLLS_PER_TURN - table_roll.roll_number),
                    dice_set=table().dice.current)
    verdict = evaluate(roll, get_phase(phase)) if roll.dice else None
    used = None
    if verdict is not None and verdict.made:
        used = [die for group in verdict.groups for die in group.dice]
    return jsonify(advice=result.to_dict(), text=plain_hint(result, used), short=str(result))


@bp.get("/camera")
def camera_status() -> ResponseReturnValue:
    feed = table().camera
    return jsonify(camera=None if feed is None else camera_status_dict(feed.status()))


@bp.put("/camera/game")
def camera_game() -> ResponseReturnValue:
    """Which game the camera feeds: `{"game": 3}`, or `{"game": null}` for none."""
    body = json_body("game")
    require_pin(body)
    feed = _feed()
    if "game" not in body:
        raise BadActionError("missing field 'game' (a game id, or null for no game)")
    feed.use_for(body_field(body, "game", int, required=False))
    return jsonify(camera=camera_status_dict(feed.status()))

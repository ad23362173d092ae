"""The dice profile's API (issue 15): teach the table your dice, see what it learnt, reset it.

`POST /api/profile/reading` reads the camera's latest frame (JSON body) or an
uploaded photo (a multipart form or the raw image, as `POST /api/games/<id>/photo`
takes it) and answers each die with its picture and its read face, under a token;
`POST /api/profile/confirm` sends the token back with the faces the players
confirmed, and those dice become examples of the profile. Every request that reads
or changes needs the table PIN (when one is set). See web/API.md.
"""

from __future__ import annotations

import base64
import logging
from typing import Any

import numpy as np
from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from scorer import Die
from web.camera import CameraControlError
from web.commands import BadActionError
from web.crop_images import png_data_url
from web.presenters import read_dice_dicts
from web.profile_service import TableProfile, TeachingError
from web.views.common import json_body, require_pin, table
from web.views.pages import _picker
from web.views.parse import body_field, faces_field
from web.views.photo import _upload
from web.views.profile_json import example_dicts, profile_summary_dict

bp = Blueprint("profile", __name__, url_prefix="/api/profile")
log = logging.getLogger(__name__)


def _profile() -> TableProfile:
    return table().profile


def _is_upload() -> bool:
    return request.mimetype == "multipart/form-data" or request.mimetype.startswith("image/")


@bp.app_context_processor
def teach_context() -> dict[str, Any]:
    """What the "Teach it your dice" partial (_teach.html) draws: the scorepad's die picker,
    and the profile's summary (called only where the partial is rendered)."""
    return {"teach_picker": _picker(), "dice_profile_summary": _summary}


def _summary() -> dict[str, Any]:
    """The profile's summary and, under "dice_layout", the household's dice layout."""
    tab = table()
    layout = None if tab.layout is None else tab.layout.summary()
    return {**profile_summary_dict(_profile().summary()), "dice_layout": layout}


@bp.get("")
def summary() -> ResponseReturnValue:
    """Examples per face, faces seen of the sixty, rolls confirmed, the setting, any error,
    and the dice layout (in use, saved, proposed)."""
    return jsonify(_summary())


@bp.put("/layout")
def save_layout() -> ResponseReturnValue:
    """Save the layout the players agreed to (one die per line, "H1: 5R 6O ..."): in use
    at once, readers included. Refused when it cannot throw a confirmed roll."""
    body = json_body("layout")
    require_pin(body)
    table().layout.save(body_field(body, "layout", str))
    return jsonify(_summary())


@bp.delete("/layout")
def forget_layout() -> ResponseReturnValue:
    """Remove the saved layout: the printed dice table is used again at once."""
    require_pin(json_body())
    table().layout.forget()
    return jsonify(_summary())


@bp.post("/reading")
def reading() -> ResponseReturnValue:
    """Read the dice to teach: the camera's latest frame, or the photo sent."""
    tab = table()
    if _is_upload():
        request.max_content_length = tab.config.max_photo_bytes  # a photo, as for a game
        result = tab.photos.read(_upload())
        found, image, source = result.reading, result.image, "photo"
        overlay = result.overlay_jpeg
    else:
        require_pin(json_body())
        feed = tab.camera
        if feed is None:
            raise CameraControlError("no camera is configured on this table: send a photo "
                                     "of the dice instead")
        frame = feed.latest_frame()
        # loaded on use: the app without a camera loads no OpenCV or model
        from vision.read.overlay import draw_overlay, encode_jpeg

        found, image = _profile().read_frame(frame, feed.settings.tray)
        source = "camera"
        overlay = encode_jpeg(draw_overlay(image, found, status="teaching"))
    dice = read_dice_dicts(found.dice, len(found.unreadable))
    token: str | None = None
    crops: tuple[np.ndarray | None, ...] = ()
    if dice:
        taught = _profile().remember_reading(found, image)
        token, crops = taught.token, taught.crops
    for index, (die, crop) in enumerate(zip(dice, crops, strict=False)):
        die["index"] = index
        die["crop"] = None if crop is None else png_data_url(crop)
    count = len(dice)
    message = (f"{count} {'die' if count == 1 else 'dice'} found: check each face, tap a "
               "wrong one to fix it, then confirm" if count else
               "no dice found: roll the dice into the tray (or send a photo) and read again")
    return jsonify(
        token=token, source=source, message=message, dice=dice,
        unreadable=len(found.unreadable), flags=list(found.flags),
        overlay="data:image/jpeg;base64," + base64.b64encode(overlay).decode("ascii"),
    )


@bp.post("/confirm")
def confirm() -> ResponseReturnValue:
    """The faces the players confirmed for a reading: its dice become examples."""
    body = json_body("token", "dice")
    require_pin(body)
    token = body_field(body, "token", str)
    taught = _profile().confirm(token, faces_field(body.get("dice")))
    return jsonify({**_summary(), "taught": taught})


@bp.post("/check")
def check_left_out() -> ResponseReturnValue:
    """The summary with the taught dice left out worked out (loading the photos' reader
    when no reader has read with the profile yet: a table without a camera). Its body is
    empty or `{}`: anything else is refused, as everywhere."""
    json_body()
    _profile().check_left_out()
    return jsonify(_summary())


@bp.get("/examples")
def examples() -> ResponseReturnValue:
    """The taught pictures of one face (`?face=8R`), oldest first."""
    text = request.args.get("face")
    if not text:
        raise BadActionError("say which face: /api/profile/examples?face=8R")
    face = Die.from_text(text)  # InvalidDieError: 400
    return jsonify(face=str(face), examples=example_dicts(_profile().examples_of(face)))


@bp.put("/examples/<key>")
def fix_example(key: str) -> ResponseReturnValue:
    """Confirm a taught die (named by the summary's "left_out" key) as another face."""
    body = json_body("face")
    require_pin(body)
    _profile().fix_example(key, Die.from_text(body_field(body, "face", str)))
    return jsonify(_summary())


@bp.delete("/examples/<key>")
def forget_example(key: str) -> ResponseReturnValue:
    """Forget a taught die (named by the summary's "left_out" key)."""
    require_pin(json_body())
    _profile().fix_example(key, None)
    return jsonify(_summary())


@bp.put("/settings")
def settings() -> ResponseReturnValue:
    """Whether a corrected camera-read die teaches the profile (on by default)."""
    body = json_body("learn_from_corrections")
    require_pin(body)
    _profile().set_learning(body_field(body, "learn_from_corrections", bool))
    return jsonify(_summary())


@bp.delete("")
def reset() -> ResponseReturnValue:
    """Forget every example (the page asks first)."""
    require_pin(json_body())
    _profile().reset()
    return jsonify(_summary())


@bp.errorhandler(TeachingError)
def refused(error: TeachingError) -> ResponseReturnValue:
    log.info("refused %s %s: %s", request.method, request.path, error)
    return jsonify(error=str(error)), error.status

"""The camera set-up page and its API: mark the tray, lock exposure, try a reading.

Changes need the table PIN (when one is set), are validated, saved under the
data directory and applied to the running camera at once; no restart.
"""

from __future__ import annotations

import base64
from typing import Any

from flask import Blueprint, jsonify, render_template
from flask.typing import ResponseReturnValue

from web.camera import CameraControlError, CameraFeed
from web.camera_settings import ExposureLock, parse_tray
from web.dice_size import small_dice_advice
from web.presenters import camera_status_dict, exposure_status_dict, read_dice_dicts
from web.views.common import json_body, require_pin, table

bp = Blueprint("setup", __name__)


def _feed() -> CameraFeed:
    feed = table().camera
    if feed is None:
        raise CameraControlError("no camera is configured on this table (camera = \"none\")")
    return feed


def _settings_reply() -> dict[str, Any]:
    """The saved settings, with what the running camera can do and has in force."""
    tab = table()
    saved = tab.setup.current.to_dict()
    feed = tab.camera
    exposure = {"supported": False, "locked": False, "controls": None}
    if feed is not None:
        exposure = exposure_status_dict(feed.exposure_status())
    return {
        "camera": None if feed is None else camera_status_dict(feed.status()),
        "tray": saved["tray"],
        "exposure": {**exposure, "saved": saved["exposure"]},
    }


def _apply() -> None:
    feed = table().camera
    if feed is not None:
        feed.apply_settings(table().setup.current)


@bp.get("/setup")
def page() -> ResponseReturnValue:
    tab = table()
    return render_template("setup.html", feed=None if tab.camera is None else tab.camera.status(),
                           pin_required=tab.config.pin is not None)


@bp.get("/api/camera/settings")
def get_settings() -> ResponseReturnValue:
    return jsonify(_settings_reply())


@bp.put("/api/camera/tray")
def save_tray() -> ResponseReturnValue:
    """The tray region: four corners as fractions of the frame, in order around the tray."""
    body = json_body("points")
    require_pin(body)
    tray = parse_tray(body.get("points"))
    table().setup.update(tray=tray)
    _apply()
    return jsonify(_settings_reply())


@bp.delete("/api/camera/tray")
def clear_tray() -> ResponseReturnValue:
    """No tray region: the whole frame is read."""
    require_pin(json_body())
    table().setup.update(tray=None)
    _apply()
    return jsonify(_settings_reply())


@bp.post("/api/camera/exposure/lock")
def lock_exposure() -> ResponseReturnValue:
    """Freeze exposure and white balance where auto control is now (or at given controls)."""
    body = json_body("controls")
    require_pin(body)
    given = body.get("controls")
    wanted = None if given is None else ExposureLock.from_controls(given).to_controls()
    locked = _feed().lock_exposure(wanted)
    table().setup.update(exposure_mode="locked", exposure=ExposureLock.from_controls(locked))
    return jsonify(_settings_reply())


@bp.post("/api/camera/exposure/unlock")
def unlock_exposure() -> ResponseReturnValue:
    """Exposure and white balance back on automatic (kept so after a restart)."""
    require_pin(json_body())
    _feed().unlock_exposure()
    table().setup.update(exposure_mode="auto", exposure=None)
    return jsonify(_settings_reply())


@bp.post("/api/camera/test-reading")
def test_reading() -> ResponseReturnValue:
    """Read the current frame now: the dice found (with confidence) and the annotated picture.
    Its body is empty or `{}`: anything else is refused, as everywhere."""
    json_body()
    reading, jpeg = _feed().test_reading()
    tray = table().setup.current.tray
    unreadable = len(reading.unreadable)  # found, but no face could be read
    dice = read_dice_dicts(reading.dice, unreadable)
    where = "inside the tray region" if tray is not None else "in the frame (no tray marked)"
    if dice:
        message = f"{len(dice)} {'die' if len(dice) == 1 else 'dice'} found {where}"
    else:
        message = f"no dice found {where}"
    if unreadable:
        message += (f"; {'1 of them' if unreadable == 1 else f'{unreadable} of them'} could "
                    "not be read (shown as ?): turn that die so its face is up and lit, "
                    "then read again")
    advice = small_dice_advice(reading)
    if advice:
        message += f"; {advice}"
    return jsonify(
        message=message,
        small_dice=advice is not None,
        dice=dice,
        unreadable=unreadable,
        flags=list(reading.flags),
        frame_size=list(reading.frame_size),
        tray=None if tray is None else [list(point) for point in tray],
        overlay="data:image/jpeg;base64," + base64.b64encode(jpeg).decode("ascii"),
    )

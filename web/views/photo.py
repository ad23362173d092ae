"""`POST /api/games/<id>/photo`: a phone's photo of the dice read and put on the table.

The body is the photo itself (`image/jpeg`, `image/png`, or any type with a JPEG or
PNG inside) or a multipart form with one file (field `photo`, else the first file)
and optionally `pin`. Its size limit is the config's `max_photo_bytes` (413 past
it), this route only: every other request keeps `max_body_bytes`. The photo is
read in the request's own thread by the table's `PhotoReader`, never by the
camera thread; the roll goes on the table (source `photo`) only when one was read.
"""

from __future__ import annotations

import base64
from typing import TYPE_CHECKING, Any

from flask import Blueprint, jsonify, request
from flask.typing import ResponseReturnValue

from scorer.dice import FULL_ROLL
from vision.reading import ReadingFlag
from web.photo import BadImageError, PhotoTooLargeError
from web.presenters import game_state_dict, read_dice_dicts
from web.service import GameOverError
from web.table_roll import RollSource
from web.views.common import require_pin, table

if TYPE_CHECKING:
    from vision.read.photo import PhotoReading

bp = Blueprint("photo", __name__, url_prefix="/api")

#: Multipart field names a photo may come in (else the form's first file is taken).
PHOTO_FIELD = "photo"


class NoRollInPhotoError(ValueError):
    """The photo was read, but what it shows is not a roll (no dice, more than ten):
    422, with the reading so the players see what was seen."""

    def __init__(self, message: str, photo: dict[str, Any]) -> None:
        super().__init__(message)
        self.photo = photo


def _upload() -> bytes:
    """The photo's bytes from a multipart form or the raw body; the PIN checked first."""
    if request.mimetype == "multipart/form-data":
        form_pin = request.form.get("pin")  # parses the body (within the limit)
        _refuse_cut_off_upload()
        require_pin({"pin": form_pin} if form_pin else None)
        upload = request.files.get(PHOTO_FIELD) or next(iter(request.files.values()), None)
        if upload is None:
            raise BadImageError(f"the form has no file: send the photo in field "
                                f"'{PHOTO_FIELD}'")
        return upload.read()
    require_pin(None)
    data = request.get_data(cache=False)
    _refuse_cut_off_upload()
    return data


def _refuse_cut_off_upload() -> None:
    """A body sent in chunks has no length to refuse it by: it is read up to the limit,
    and one that reached it is too large (413), not a truncated photo."""
    limit = request.max_content_length
    if request.content_length is None and limit and getattr(request.stream, "is_exhausted",
                                                            False):
        raise PhotoTooLargeError(
            f"the photo is larger than {limit / 1e6:g} MB, this table's limit "
            "(max_photo_bytes): send a smaller one, or take it at a lower resolution")


def _photo_dict(result: Any) -> dict[str, Any]:
    """The reading for the reply: dice (read ones, then unreadable), flags, sizes, overlay."""
    reading = result.reading
    unreadable = len(reading.unreadable)
    dice = read_dice_dicts(reading.dice, unreadable)
    found = len(dice)
    if found:
        message = f"{found} {'die' if found == 1 else 'dice'} found in the photo"
    else:
        message = "no dice found in the photo"
    if unreadable:
        message += (f"; {'1 of them' if unreadable == 1 else f'{unreadable} of them'} could "
                    "not be read (shown as ?): say what it shows, or take the photo again")
    info = result.info
    return {
        "message": message,
        "dice": dice,
        "unreadable": unreadable,
        "unsure": reading.unsure_count(),
        "roll_probability": (None if reading.roll_probability is None
                             else round(float(reading.roll_probability), 4)),
        "value_probability": (None if reading.value_probability is None
                              else round(float(reading.value_probability), 4)),
        "flags": list(reading.flags),
        "photo_size": list(info.upright_size),
        "orientation": info.orientation,
        "frame_size": list(result.work_size),
        "die_side": round(float(result.die_side), 1),
        "tray_crop": None if result.tray_crop is None else list(result.tray_crop),
        "overlay": "data:image/jpeg;base64," + base64.b64encode(result.overlay_jpeg).decode(),
    }


def _refusal(result: PhotoReading) -> str | None:
    """Why this reading is no roll to put on the table (None when it is one)."""
    reading = result.reading
    found = reading.found_count()
    if found == 0:
        return ("no dice found in the photo: photograph the tray from above, close enough "
                "that the dice are clear, with every die in the picture")
    if reading.has_flag(ReadingFlag.TOO_MANY) or found > FULL_ROLL:
        return (f"{found} dice found in the photo, more than the ten of a roll: photograph "
                "only the tray with this roll's dice (see the overlay for what was taken "
                "for a die)")
    if reading.roll() is None:
        faces = reading.notation()
        return (f"the dice read ({faces}) cannot all be one roll of the ten dice: check the "
                "overlay, then take the photo again or enter the roll by hand")
    return None


@bp.post("/games/<int:game_id>/photo")
def read_photo(game_id: int) -> ResponseReturnValue:
    """Read the dice of a photo and put the roll on the table as the turn's next roll."""
    tab = table()
    request.max_content_length = tab.config.max_photo_bytes  # this route only
    data = _upload()
    stored = tab.service.store.load(game_id, events=False)  # unknown game: 404
    if stored.finished:
        raise GameOverError(f"game {game_id} is over: no more rolls")
    result = tab.photos.read(data)
    photo = _photo_dict(result)
    refusal = _refusal(result)
    if refusal is not None:
        raise NoRollInPhotoError(refusal, photo)
    reading = result.reading
    roll = reading.roll()
    state = tab.service.set_roll(
        game_id, roll, source=RollSource.PHOTO, unsure=reading.unsure_indices(),
        flags=tuple(reading.flags), unreadable=len(reading.unreadable),
        value_unsure=reading.value_unsure_indices(), likely=reading.likely_faces(),
    )
    # The picture the dice were read from: a die corrected later teaches the dice profile.
    if tab.profile is not None:
        tab.profile.remember_read_roll(state.roll_id, reading, result.image)
    return jsonify({**game_state_dict(state), "photo": photo})


@bp.errorhandler(NoRollInPhotoError)
def no_roll(error: NoRollInPhotoError) -> ResponseReturnValue:
    """422: the photo was read and shows no roll; the reading says what it saw."""
    return jsonify(error=str(error), photo=error.photo), 422

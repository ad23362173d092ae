"""Phone-style photos of rendered dice for the photo upload tests (a module, so tests can
import it by name): a rendered tray, seen at an angle, stored sideways with an EXIF
orientation tag as phones do. Pillow writes the tag (a dev dependency, tests only)."""

from __future__ import annotations

import io
from dataclasses import dataclass

import cv2
import numpy as np

from scorer import parse_roll
from vision.synth import render_scene
from vision.synth.locator_training import tilt_scene

#: EXIF orientation -> how a phone stores the upright picture (the inverse of what the
#: tag tells a viewer to do): 6 is a phone held upright, its sensor turned a quarter.
STORE = {
    1: lambda image: image,
    2: lambda image: cv2.flip(image, 1),
    3: lambda image: cv2.rotate(image, cv2.ROTATE_180),
    4: lambda image: cv2.flip(image, 0),
    5: cv2.transpose,
    6: lambda image: cv2.rotate(image, cv2.ROTATE_90_COUNTERCLOCKWISE),
    7: lambda image: cv2.flip(cv2.transpose(image), -1),
    8: lambda image: cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE),
}


def encode(image: np.ndarray, orientation: int = 1, *, kind: str = "JPEG",
           quality: int = 92) -> bytes:
    """A BGR image as JPEG (or PNG) bytes carrying this EXIF orientation tag, as a camera
    writes it: the pixels stored as they are, the tag saying how to show them."""
    from PIL import Image

    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    picture = Image.fromarray(np.ascontiguousarray(image[:, :, ::-1]))
    options = {"quality": quality} if kind == "JPEG" else {}
    picture.save(buffer, kind, exif=exif.tobytes(), **options)
    return buffer.getvalue()


def multipart(photo: bytes | None = None, **fields: str) -> dict:
    """Keyword arguments for the test client posting a form as the page does (the photo in
    field "photo"), encoded here: the client's own encoder spools a large file to a
    temporary file that it never closes."""
    from werkzeug.datastructures import FileStorage
    from werkzeug.test import encode_multipart

    values: dict = dict(fields)
    if photo is not None:
        values["photo"] = FileStorage(io.BytesIO(photo), filename="IMG_0001.jpg",
                                      content_type="image/jpeg")
    boundary, body = encode_multipart(values)
    return {"data": body, "content_type": f"multipart/form-data; boundary={boundary}"}


@dataclass(frozen=True)
class PhonePhoto:
    data: bytes  # the file as uploaded
    truth: list[str]  # the faces of the dice in the picture, sorted
    upright: np.ndarray  # the picture as it is to be seen (BGR)


def phone_photo(seed: int, *, roll: str | None = None, size: tuple[int, int] = (1600, 1200),
                tilt: float = 0.06, orientation: int = 6) -> PhonePhoto:
    """A rendered tray of `size` (upright), tipped by `tilt` of the frame at its corners
    (about 15 to 20 degrees off vertical for 0.06), stored for the EXIF `orientation`."""
    dice = None if roll is None else parse_roll(roll).dice
    scene = render_scene(seed, dice=dice, size=size)
    scene = tilt_scene(scene, np.random.default_rng(seed), tilt)
    truth = sorted(str(die.die) for die in scene.dice)
    return PhonePhoto(encode(STORE[orientation](scene.image), orientation), truth, scene.image)


def photo_with_a_die_beside_the_tray(seed: int, size: tuple[int, int] = (1600, 1200)
                                     ) -> PhonePhoto:
    """A tray with the table showing all round it (a fifth of the picture's height) and,
    on the table in the top left corner, the picture of one of its dice: a die left
    beside the tray, not part of the roll."""
    import dataclasses

    from vision.synth import random_conditions

    conditions = random_conditions(np.random.default_rng(seed), size)
    conditions = dataclasses.replace(conditions, tray_inset=0.2)
    scene = render_scene(seed, conditions=conditions, size=size)
    image = scene.image.copy()
    x, y = (int(v) for v in scene.dice[0].centre)
    half = int(conditions.scale)
    image[10 : 10 + 2 * half, 10 : 10 + 2 * half] = image[y - half : y + half, x - half : x + half]
    truth = sorted(str(die.die) for die in scene.dice)
    return PhonePhoto(encode(image), truth, image)

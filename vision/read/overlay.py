"""The annotated picture for the web page: each die's box and face, unsure dice stand out.

Sure dice get a green box and their face in notation; unsure dice a magenta box
and a trailing '?', and dice found but unreadable a magenta box marked '??', so
the players know which dice to check. Reading flags are written along the top edge.
"""

from __future__ import annotations

from typing import Final

import cv2
import numpy as np

from vision.reading import Reading

SURE_BGR: Final[tuple[int, int, int]] = (60, 200, 60)
UNSURE_BGR: Final[tuple[int, int, int]] = (255, 0, 255)
FLAG_BGR: Final[tuple[int, int, int]] = (0, 200, 255)
TRAY_BGR: Final[tuple[int, int, int]] = (255, 200, 0)
_FONT: Final[int] = cv2.FONT_HERSHEY_SIMPLEX


def _label(image: np.ndarray, text: str, origin: tuple[int, int], colour, scale: float) -> None:
    """Text on a dark plate so it reads on light and dark dice alike."""
    thickness = max(1, round(scale * 2))
    (width, height), base = cv2.getTextSize(text, _FONT, scale, thickness)
    x = int(np.clip(origin[0] - width // 2, 0, max(0, image.shape[1] - width)))
    y = int(np.clip(origin[1], height + 2, max(height + 2, image.shape[0] - base)))
    cv2.rectangle(image, (x - 2, y - height - 2), (x + width + 2, y + base), (20, 20, 20), -1)
    cv2.putText(image, text, (x, y), _FONT, scale, colour, thickness, cv2.LINE_AA)


def draw_overlay(frame: np.ndarray, reading: Reading | None, *, status: str = "") -> np.ndarray:
    """A copy of the frame with the reading drawn on it (the frame itself is untouched)."""
    image = np.ascontiguousarray(frame.copy())
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    scale = max(0.4, image.shape[1] / 1600)
    if reading is None:
        reading = Reading()
    marked = [
        (read.corners, read.centre, f"{read.die}{'?' if read.unsure else ''}", read.unsure)
        for read in reading.dice
    ] + [(die.corners, die.centre, "??", True) for die in reading.unreadable]
    for box, centre, text, doubtful in marked:
        colour = UNSURE_BGR if doubtful else SURE_BGR
        corners = np.round(np.asarray(box, dtype=np.float32)).astype(np.int32)
        cv2.polylines(image, [corners.reshape(-1, 1, 2)], True, colour, max(2, round(scale * 3)))
        top = int(corners[:, 1].min()) - 6
        _label(image, text, (int(centre[0]), top), colour, scale)
    notes = [status] if status else []
    notes += list(reading.flags)
    for row, note in enumerate(notes):
        cv2.putText(
            image,
            note,
            (8, int(24 * scale * (row + 1.2))),
            _FONT,
            scale,
            FLAG_BGR,
            max(1, round(scale * 2)),
            cv2.LINE_AA,
        )
    return image


def encode_jpeg(image: np.ndarray, *, quality: int = 80) -> bytes:
    """JPEG bytes of a BGR image, for the web page's live picture."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"could not encode an image of shape {image.shape} as JPEG")
    return data.tobytes()


def draw_tray(image: np.ndarray, polygon: np.ndarray) -> np.ndarray:
    """The tray region's outline (pixel points) drawn onto `image` in place; returns it."""
    points = np.round(np.asarray(polygon, dtype=np.float32).reshape(-1, 1, 2)).astype(np.int32)
    thickness = max(2, round(image.shape[1] / 400))
    cv2.polylines(image, [points], True, TRAY_BGR, thickness, cv2.LINE_AA)
    return image

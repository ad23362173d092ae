"""The pictures of single dice: cut from a frame as the reader cut them, named by their
pixels, and encoded as PNG data URLs for an <img> (the views do that last step)."""

from __future__ import annotations

import base64
import hashlib

import numpy as np

from vision.reading import Reading


def example_key(crop: np.ndarray) -> str:
    """A name for an example that stays while the profile changes around it: its pixels'
    digest (the page sends it back to fix or forget that die)."""
    return hashlib.sha256(crop.tobytes()).hexdigest()[:16]


def cut_crops(reading: Reading, image: np.ndarray) -> list[np.ndarray | None]:
    """Each die's crop as the reader cut it (its box scaled as the reader's settings
    scale it; a die placed at a top found inside its box, from the quad it was read
    from): the dice read, then the unreadable ones (the order of a roll on the table);
    None for a die without corners."""
    # loaded on use: the app without a camera loads no OpenCV or model
    from vision.read.crops import crop_face, scaled_box
    from vision.read.settings import ClassifySettings

    classify = ClassifySettings()
    box_scale = classify.box_scale
    read_there = classify.top_search.read_there

    outlines = [die.corners if read_there else die.found_box for die in reading.dice]
    outlines += [die.corners for die in reading.unreadable]
    crops: list[np.ndarray | None] = []
    for outline in outlines:
        corners = np.asarray(outline, np.float32).reshape(-1, 2)
        crops.append(crop_face(image, scaled_box(corners, box_scale))
                     if len(corners) == 4 else None)
    return crops


def png_data_url(crop: np.ndarray) -> str:
    """A crop (BGR) as a PNG data URL for an <img>."""
    import cv2  # loaded on use: the app without a camera loads no OpenCV or model

    ok, data = cv2.imencode(".png", crop)
    if not ok:
        raise ValueError("a crop could not be encoded")
    return "data:image/png;base64," + base64.b64encode(data.tobytes()).decode("ascii")

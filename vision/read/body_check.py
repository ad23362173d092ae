"""The dice of a set share one body colour: a box whose body is unlike all the others is
no die of the set.

A frame's false dice are things shaped like a die top: on a desk, mostly laptop keys
(dark squares with a glyph, taken for dark dice) and cable ends. The ten dice of a
roll are one set, printed on one body colour; when the other boxes of the frame
agree closely on their body (a set), a box read as a face whose body is far from
theirs is taken for something else, unless the classifier is sure of its face (or
of its value, on a box the locator is all but certain of: a white die under a
glare, its body and ink both washed out, read "W" for sure but red or orange in
doubt). A box kept as an unreadable die is never judged (a red pip die among white
ones is still a die found), only counted among the others.

A box's body is the median colour (CIE Lab, OpenCV's 8-bit scale) of its face crop:
the ink covers little of a face, and the median ignores it. Nothing is judged when
the other boxes do not agree among themselves (dice of several sets, or too few),
so photos of mixed dice lose nothing.

Rendered trays under a lamp's gradient spread their dice's bodies far wider than a
set's on a desk, so the rule judges only where the other boxes lie close together, and
asks for more than twice their extent (`BodyCheck`; how it was measured is in
models/MODEL_CARD.md, "The reader's settings").
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.crops import channel_medians


@dataclass(frozen=True)
class BodyCheck:
    """When a box's body is unlike the set's (the module's rule)."""

    odd_body: float = 30.0
    """A box's body this far (Lab units) from the median of the frame's other boxes is odd..."""
    extent_times: float = 2.0
    """...and at least this many times the others' extent (the farthest of them from their
    median: how far apart the set's own bodies lie, in shade and glare)..."""
    set_extent: float = 20.0
    """...when that extent is under this (the others are one set under even light)..."""
    min_boxes: int = 3
    """...and there are at least this many boxes in all (the box and two others)."""
    certain_box: float = 0.99
    """A box the locator is all but certain of (its score at least this)..."""
    sure_value: float = 0.9
    """...whose value the classifier is this sure of is never judged, its colour in doubt
    or not: a lamp's glare on a face changes its body's colour and its ink's together."""


def body_colours(crops: np.ndarray) -> np.ndarray:
    """(N, 3) median Lab colour of each (N, S, S, 3) BGR uint8 face crop."""
    if len(crops) == 0:
        return np.zeros((0, 3))
    lab = cv2.cvtColor(np.ascontiguousarray(crops).reshape(-1, crops.shape[2], 3),
                       cv2.COLOR_BGR2LAB)
    return channel_medians(lab.reshape(len(crops), -1, 3))


def never_odd(
    face_sure: np.ndarray, value_probs: np.ndarray, box_scores: np.ndarray,
    check: BodyCheck = BodyCheck(),
) -> np.ndarray:
    """(N,) bool: the boxes the body rule never judges: read as one face for sure
    (`face_sure`), or a box the locator scored `check.certain_box` or more whose value
    (the highest of `value_probs`, (N, values)) is `check.sure_value` or more."""
    value_sure = np.asarray(value_probs).max(axis=1, initial=0.0) >= check.sure_value
    certain = np.asarray(box_scores) >= check.certain_box
    return np.asarray(face_sure, bool) | (value_sure & certain)


def odd_bodies(bodies: np.ndarray, sure: np.ndarray,
               check: BodyCheck = BodyCheck()) -> np.ndarray:
    """(N,) bool: the boxes whose body is unlike the others' (see the module's rule);
    `sure` (N,) bool marks boxes read as a face for sure, never odd."""
    count = len(bodies)
    odd = np.zeros(count, bool)
    if count < check.min_boxes:
        return odd
    for index in range(count):
        if sure[index]:
            continue
        others = np.delete(bodies, index, axis=0)
        reference = np.median(others, axis=0)
        extent = float(np.max(np.linalg.norm(others - reference, axis=1)))
        distance = float(np.linalg.norm(bodies[index] - reference))
        odd[index] = (extent < check.set_extent
                      and distance > max(check.odd_body, check.extent_times * extent))
    return odd

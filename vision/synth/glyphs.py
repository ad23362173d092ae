"""Face artwork: numeral and W masks in thickened Hershey fonts, the 6/9 mark, the bevel.

Masks are float32 coverage maps (0..1) on a TEXTURE x TEXTURE square, cached by
their few discrete parameters, so a scene only mixes colours and warps them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from cv2.typing import MatLike

from scorer.dice import WILD

TEXTURE = 96
"""Side of a face texture in pixels: larger than any die is drawn, so warps only shrink."""

#: Glyph heights (fraction of the face side) and weights the cache is keyed on.
GLYPH_HEIGHTS: tuple[float, ...] = (0.46, 0.54, 0.62)
_SUPERSAMPLE = 4
_MARKED_VALUES = (6, 9)


def face_text(value: int) -> str:
    """What a face shows: its number, or W for a Wild."""
    return "W" if value == WILD else str(value)


#: Stroke weights (fraction of the glyph height) a requested weight is rounded to.
WEIGHTS: tuple[float, ...] = (0.1, 0.14, 0.18, 0.22)


def _quantise_weight(weight: float) -> int:
    return int(np.argmin([abs(weight - w) for w in WEIGHTS]))


@lru_cache(maxsize=4096)
def _glyph_mask(
    value: int, font: int, weight_level: int, height_level: int, mark: str
) -> np.ndarray:
    text = face_text(value)
    big = TEXTURE * _SUPERSAMPLE
    glyph_height = GLYPH_HEIGHTS[height_level] * big
    (text_w, text_h), _ = cv2.getTextSize(text, font, 1.0, 1)
    font_scale = glyph_height / max(text_h, 1)
    thickness = max(1, int(WEIGHTS[weight_level] * glyph_height))
    canvas = np.zeros((2 * big, 2 * big), np.uint8)
    origin = (big // 4, big)
    cv2.putText(canvas, text, origin, font, font_scale, 255, thickness, cv2.LINE_AA)
    left, top, w, h = cv2.boundingRect(canvas)
    bottom, right = top + h, left + w
    if value in _MARKED_VALUES:
        gap = int(0.07 * glyph_height) + thickness // 2
        bar_h = max(thickness, int(0.1 * glyph_height))
        if mark == "bar":
            y0 = bottom + gap
            inset = (right - left) // 8
            cv2.rectangle(canvas, (left + inset, y0), (right - inset, y0 + bar_h), 255, -1)
        else:
            radius = max(thickness, int(0.07 * glyph_height))
            cv2.circle(canvas, (right + radius, bottom + gap), radius, 255, -1, cv2.LINE_AA)
        left, top, w, h = cv2.boundingRect(canvas)
        bottom, right = top + h, left + w
    block: MatLike = canvas[top:bottom, left:right]
    # Fit the block (numeral plus mark) inside 80 % of the face, centred.
    fit = min(0.8 * big / block.shape[1], 0.8 * big / block.shape[0], 1.0)
    if fit < 1.0:
        block = cv2.resize(block, None, fx=fit, fy=fit, interpolation=cv2.INTER_AREA)
    face = np.zeros((big, big), np.uint8)
    y0 = (big - block.shape[0]) // 2
    x0 = (big - block.shape[1]) // 2
    face[y0 : y0 + block.shape[0], x0 : x0 + block.shape[1]] = block
    small = cv2.resize(face, (TEXTURE, TEXTURE), interpolation=cv2.INTER_AREA)
    mask = small.astype(np.float32) / 255.0
    mask.setflags(write=False)
    return mask


@lru_cache(maxsize=4)
def face_alpha(radius: float = 0.14) -> np.ndarray:
    """Coverage of a face with rounded corners, anti-aliased (TEXTURE, TEXTURE) float32."""
    big = TEXTURE * _SUPERSAMPLE
    r = int(radius * big)
    canvas = np.zeros((big, big), np.uint8)
    cv2.rectangle(canvas, (r, 0), (big - 1 - r, big - 1), 255, -1)
    cv2.rectangle(canvas, (0, r), (big - 1, big - 1 - r), 255, -1)
    for cx in (r, big - 1 - r):
        for cy in (r, big - 1 - r):
            cv2.circle(canvas, (cx, cy), r, 255, -1, cv2.LINE_AA)
    alpha = cv2.resize(canvas, (TEXTURE, TEXTURE), interpolation=cv2.INTER_AREA)
    result = alpha.astype(np.float32) / 255.0
    result.setflags(write=False)
    return result


@lru_cache(maxsize=4)
def bevel(width: float = 0.09, depth: float = 0.3) -> np.ndarray:
    """Shading (TEXTURE, TEXTURE) float32: 1 inside, darker towards the rounded edges."""
    ramp = np.linspace(0.0, 1.0, TEXTURE, dtype=np.float32)
    distance = np.minimum(ramp, 1.0 - ramp)
    edge = np.minimum(distance[:, None], distance[None, :])
    shade = 1.0 - depth * np.clip(1.0 - edge / width, 0.0, 1.0) ** 2
    shade = shade.astype(np.float32)
    shade.setflags(write=False)
    return shade


@lru_cache(maxsize=4096)
def _face_layers(
    value: int, font: int, weight_level: int, height_level: int, mark: str
) -> NDArray[np.float32]:
    return layers_of_ink(_glyph_mask(value, font, weight_level, height_level, mark))


def layers_of_ink(ink: np.ndarray, engraved: float = 0.0, rim_blur: float = 0.0) -> np.ndarray:
    """A face's layer columns (see `face_layers`) from its ink coverage (TEXTURE, TEXTURE).

    An engraved face (`engraved` > 0) shows a darker rim around its print, the recess's
    wall, softened by a Gaussian of `rim_blur` texture pixels (0: a hard rim)."""
    alpha = face_alpha()
    lit = bevel() * alpha
    if engraved > 0:
        grown = cv2.dilate(ink.astype(np.float32), np.ones((3, 3), np.uint8))
        rim = np.clip(grown - ink, 0, 1)
        if rim_blur > 0:
            rim = cv2.GaussianBlur(rim, (0, 0), rim_blur)
        lit = lit * (1.0 - engraved * rim)
    layers = np.stack([lit, ink * lit, alpha], axis=-1).reshape(-1, 3)
    layers = np.ascontiguousarray(layers, np.float32)
    layers.setflags(write=False)
    return layers


def face_layers(value: int, font: int, weight: float, height_level: int, mark: str) -> np.ndarray:
    """(TEXTURE * TEXTURE, 3) float32 columns: body x bevel, ink x bevel, face coverage.

    Multiplied by the 3x4 matrix [[body, 0], [ink - body, 0], [0, 0, 0, 1]] this gives a
    face's premultiplied BGRA texture in one matrix product (the renderer's hot loop).
    """
    return _face_layers(value, font, _quantise_weight(weight), height_level, mark)

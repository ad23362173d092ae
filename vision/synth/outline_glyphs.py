"""Face artwork drawn from real outline fonts (TrueType/OpenType), in any dice set's style.

Real dice are printed in fonts nobody here knows, so a dice set's look is an
`OutlineStyle`: a font file plus how that set's maker used it (glyph size and
place on the face, stroke weight, width, slant, the spacing of "10", how 6 and
9 are marked, engraving and wear). `outline_face_layers` gives the same layer
columns as `glyphs.face_layers`, so the renderer composes either alike.

Pillow draws the glyphs; it is a training and test dependency only, imported
when an outline style is first drawn (the app's demo table uses Hershey fonts).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.synth.font_library import ReservedFontError, is_reserved
from vision.synth.glyphs import TEXTURE, face_text, layers_of_ink

_SUPERSAMPLE = 4
_MARKED_VALUES = (6, 9)
MARKS: tuple[str, ...] = ("bar", "dot", "period")
"""How a set marks 6 and 9 so they read the right way up: underline, dot below, period."""

_FACE_FILL = 0.82
"""The glyph block (numeral plus mark) never spans more than this share of the face."""

MIN_STROKE = 0.06
"""The thinnest stroke a maker prints, as a share of the digit height: about a Light
weight (Regular faces measure 0.10 to 0.11 by `stroke_width`, Hairline ones 0.015).
A Hairline font, or a Light one thinned further by a set's `weight`, is drawn with
strokes this thick: thinner ones vanish in a 40-pixel crop, and no dice carry them."""


@dataclass(frozen=True)
class OutlineStyle:
    """How one dice set draws its numerals; every length is a fraction of the glyph height
    (`height` and the offsets are fractions of the face side)."""

    font: str  # path of a .ttf/.otf file
    height: float = 0.52  # digit height on the face
    weight: float = 0.0  # stroke grown (+) or thinned (-)
    width: float = 1.0  # horizontal stretch
    slant: float = 0.0  # shear, x shift per unit of height
    dx: float = 0.0  # block offset from the face centre
    dy: float = 0.0
    ten_gap: float = 0.05  # extra space between the 1 and the 0 of "10"
    mark: str = "bar"  # one of MARKS
    mark_length: float = 0.8  # bar length, fraction of the glyph's width
    mark_thickness: float = 0.09
    mark_gap: float = 0.08
    engraved: float = 0.0  # darkening of the recess rim around strokes (0 = printed flat)
    wear: float = 0.0  # share of ink worn off in patches
    wear_seed: int = 0

    def layers(self, value: int) -> np.ndarray:
        """The face of `value` as the renderer's layer columns (`FaceArtwork`)."""
        return outline_face_layers(value, self)


@lru_cache(maxsize=512)
def _font(path: str, size: int):
    from PIL import ImageFont  # training/test dependency, imported only when drawing

    if is_reserved(path):
        raise ReservedFontError(f"{path} belongs to a reserved family; never draw it")
    if not Path(path).is_file():
        raise FileNotFoundError(f"font file {path} is not installed")
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=512)
def _digit_height_ratio(path: str) -> float:
    """Height of the digits' ink per unit of font size, measured once per font."""
    font = _font(path, 200)
    left, top, right, bottom = font.getbbox("0123456789")
    return max(bottom - top, 1) / 200.0


def _draw_text(text: str, path: str, glyph_px: float, gap_px: float) -> np.ndarray:
    """`text` in the font at a digit height of `glyph_px`, characters `gap_px` further apart."""
    from PIL import Image, ImageDraw

    size = max(int(round(glyph_px / _digit_height_ratio(path))), 4)
    font = _font(path, size)
    pad = int(glyph_px)
    advances = [font.getlength(ch) for ch in text]
    width = int(sum(advances) + gap_px * (len(text) - 1) + 2 * pad + size)
    canvas = Image.new("L", (max(width, 8), int(size * 1.6 + 2 * pad)), 0)
    draw = ImageDraw.Draw(canvas)
    x = float(pad)
    for ch, advance in zip(text, advances, strict=True):
        draw.text((x, pad), ch, fill=255, font=font)
        x += advance + gap_px
    array = np.asarray(canvas, np.uint8)
    return _trim(array)


def _trim(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 16)
    if len(xs) == 0:
        return np.zeros((1, 1), np.uint8)
    return mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def stroke_width(mask: np.ndarray) -> float:
    """Mean stroke width (pixels) of a glyph mask: twice the inked area over its outline's
    length, which is exact for long strokes of even width."""
    ink = (np.asarray(mask) > 127).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(contour, True) for contour in contours)
    return 2.0 * float(ink.sum()) / outline if outline > 0 else 0.0


def _restroke(mask: np.ndarray, pixels: float) -> np.ndarray:
    """Grow (positive) or thin (negative) the strokes by about `pixels`."""
    radius = int(round(abs(pixels)))
    if radius < 1:
        return mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    padded = cv2.copyMakeBorder(mask, radius, radius, radius, radius, cv2.BORDER_CONSTANT)
    if pixels > 0:
        return cv2.dilate(padded, kernel)
    thinned = cv2.erode(padded, kernel)
    return thinned if thinned.max() > 0 else padded


def _shape(mask: np.ndarray, width: float, slant: float) -> np.ndarray:
    """Stretch horizontally and shear (a slant leans the top to the right)."""
    h, w = mask.shape
    new_w = int(np.ceil(w * width + abs(slant) * h)) + 2
    shift = max(slant * h, 0.0)
    matrix = np.array([[width, -slant, shift + 1], [0.0, 1.0, 0.0]], np.float32)
    return cv2.warpAffine(mask, matrix, (new_w, h), flags=cv2.INTER_LINEAR)


def _add_mark(block: np.ndarray, style: OutlineStyle, glyph_px: float) -> np.ndarray:
    """The 6/9 mark under (bar, dot) or beside (period) the numeral, on a grown canvas."""
    h, w = block.shape
    thick = max(int(round(style.mark_thickness * glyph_px)), 2)
    gap = max(int(round(style.mark_gap * glyph_px)), 1)
    extra_right = 2 * thick + gap if style.mark == "period" else 0
    canvas = np.zeros((h + gap + 2 * thick + 2, w + extra_right + 2), np.uint8)
    canvas[:h, :w] = block
    if style.mark == "bar":
        length = max(int(round(style.mark_length * w)), thick)
        x0 = (w - length) // 2
        cv2.rectangle(canvas, (x0, h + gap), (x0 + length, h + gap + thick), 255, -1)
    elif style.mark == "dot":
        radius = max(int(round(0.7 * thick)), 2)
        cv2.circle(canvas, (w // 2, h + gap + radius), radius, 255, -1, cv2.LINE_AA)
    else:
        radius = max(int(round(0.65 * thick)), 2)
        cv2.circle(canvas, (w + gap + radius, h - radius), radius, 255, -1, cv2.LINE_AA)
    return _trim(canvas)


def _wear(mask: np.ndarray, amount: float, seed: int) -> np.ndarray:
    """Soft patches of missing ink, as on a well-used die."""
    if amount <= 0:
        return mask
    rng = np.random.default_rng(seed)
    noise = rng.random((max(mask.shape[0] // 24, 2), max(mask.shape[1] // 24, 2)))
    field = cv2.resize(noise.astype(np.float32), mask.shape[::-1], interpolation=cv2.INTER_CUBIC)
    keep = np.clip((field - amount) / 0.15 + 0.5, 0.0, 1.0)
    return mask * (0.15 + 0.85 * keep)


@lru_cache(maxsize=2048)
def outline_glyph_mask(value: int, style: OutlineStyle) -> np.ndarray:
    """Ink coverage (TEXTURE, TEXTURE) float32 in 0..1 of `value`'s face in `style`."""
    big = TEXTURE * _SUPERSAMPLE
    glyph_px = style.height * big
    text = face_text(value)
    block = _draw_text(text, style.font, glyph_px, style.ten_gap * glyph_px)
    # Growing by r pixels widens a stroke by 2r: never thinner than MIN_STROKE.
    floor = (MIN_STROKE * glyph_px - stroke_width(block)) / 2.0
    block = _restroke(block, max(style.weight * glyph_px, floor))
    block = _shape(block, style.width, style.slant)
    if value in _MARKED_VALUES:
        block = _add_mark(_trim(block), style, glyph_px)
    fit = min(_FACE_FILL * big / block.shape[1], _FACE_FILL * big / block.shape[0], 1.0)
    if fit < 1.0:
        block = cv2.resize(block, None, fx=fit, fy=fit, interpolation=cv2.INTER_AREA)
    face = np.zeros((big, big), np.uint8)
    bh, bw = block.shape
    room_x, room_y = (big - bw) // 2, (big - bh) // 2
    x0 = int(np.clip(room_x + style.dx * big, 0, big - bw))
    y0 = int(np.clip(room_y + style.dy * big, 0, big - bh))
    face[y0 : y0 + bh, x0 : x0 + bw] = block
    small = cv2.resize(face, (TEXTURE, TEXTURE), interpolation=cv2.INTER_AREA)
    mask = _wear(small.astype(np.float32) / 255.0, style.wear, style.wear_seed + value)
    mask.setflags(write=False)
    return mask


@lru_cache(maxsize=2048)
def outline_face_layers(value: int, style: OutlineStyle) -> np.ndarray:
    """(TEXTURE * TEXTURE, 3) float32 columns as `glyphs.face_layers`: body, ink, coverage.

    An engraved face shows a darker rim around each stroke (the recess's wall).
    """
    return layers_of_ink(outline_glyph_mask(value, style), style.engraved, rim_blur=0.8)

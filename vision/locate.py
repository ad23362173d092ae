"""Find the top face of each die: a rotated box (four corners) per die, in frame pixels.

Classical OpenCV, in four steps:

1. On a half-size grey copy, the mat's brightness is modelled as a smooth
   surface (a quadratic fitted to the pixels that look like mat), and pixels far
   from it are die candidates. Whether the dice are lighter or darker than the
   mat is decided per frame from which side has more such pixels (both are
   tried when that is not clear-cut). The tray is the hull of the mat-coloured
   area; walls and table outside it are ignored.
2. Each candidate blob is re-examined at full size: a die's top face is its
   brightest face (light comes from above; side faces are shaded darker and the
   faces' bevelled edges darker still), so a threshold relative to the blob's own
   top brightness cuts the top faces apart from side faces, shadows and from
   each other, even where dice touch. A piece that is still not one face is cut
   again at its brighter part (a tilted die's top), split by the expected die
   size (touching tops whose seam did not show), or joined with a neighbouring
   fragment (a top cut in two by a big numeral).
3. Pieces the size and shape of a top face become boxes; of two adjacent boxes,
   a clearly darker one on the picture-centre side is the other's side face
   and is dropped.
4. A region unlike the mat in brightness or hue and wider than a few dice is a
   hand: it is reported, and no die is taken from under it.

The classifier's face probability rejects whatever stray blob survives.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final

import cv2
import numpy as np

logger = logging.getLogger(__name__)

WORK_WIDTH: Final[int] = 640
"""Width of the grey copy used to find candidate blobs (pixels)."""

#: A top face's side as a fraction of the frame's shorter side: anything outside is not a die.
MIN_SIDE_FRACTION: Final[float] = 0.03
MAX_SIDE_FRACTION: Final[float] = 0.2

_CANDIDATE_MIN: Final[float] = 28.0  # grey levels from the mat, at the least
_CANDIDATE_SHARE: Final[float] = 0.4  # of the dice's typical contrast
_TOP_SHARE: Final[float] = 0.86  # of the blob's top brightness: above it is top face
_MAX_ASPECT: Final[float] = 1.6
_MAX_DICE: Final[int] = 10
_AMBIGUOUS: Final[float] = 0.005  # both polarities are tried when the lesser has this share
_DARK_TOP_BAND: Final[float] = 1.3  # dark dice: top face pixels are no brighter than this
_MAX_TILTED_ASPECT: Final[float] = 2.4
_THIN_LINE: Final[float] = 0.014  # of the shorter side: lines this thin are not dice
_WALL_REACH: Final[float] = 0.03  # of the shorter side: how far a tilted top overhangs the mat
_GROW: Final[float] = 0.04  # the bevelled rim left out by the threshold, of the face side
_SQUARE_COVERED: Final[float] = 0.7  # of a far-corner square that must be piece
_TAIL: Final[float] = 0.3  # of the side: strips this thin hanging off a top face are not top
_LEAN_ASPECT: Final[float] = 1.12  # a piece this elongated may be a top and its side
_SQUARE_AREA: Final[float] = 0.95  # of a face: the least a top joined to its sides covers
_SIDE_NEAR: Final[float] = 1.2  # of the side: a side face lies this close to its top
_SIDE_SHADE: Final[float] = 0.88  # and is at most this bright relative to it
_MAX_LONG: Final[float] = 1.35  # of the typical side: longer pieces are not one face
_HAND_DICE: Final[float] = 8.0  # a hand covers at least this many die areas
_HAND_WIDTH: Final[float] = 2.6  # and is at least this many dice wide
_HAND_CHROMA: Final[float] = 10.0  # Lab a-b distance from the mat's colour that is not mat


@dataclass(frozen=True)
class Located:
    """Top-face corners (4, 2) float32 per die in frame pixels, and what else was seen."""

    boxes: tuple[np.ndarray, ...] = ()
    hand: bool = False
    die_side: float = 0.0
    light_dice: bool = True
    hand_mask: np.ndarray | None = field(default=None, repr=False, compare=False)  # work scale


def tray_mask(shape: tuple[int, int], tray: np.ndarray | None, scale: float) -> np.ndarray:
    """255 inside the tray polygon (given in frame pixels) at the working scale."""
    height, width = shape
    if tray is None:
        return np.full((height, width), 255, np.uint8)
    mask = np.zeros((height, width), np.uint8)
    polygon = np.round(np.asarray(tray, np.float32).reshape(-1, 2) * scale * 16).astype(np.int32)
    if len(polygon) >= 3:
        cv2.fillPoly(mask, [polygon], 255, cv2.LINE_8, shift=4)
    return mask


def _mat_surface(grey: np.ndarray, inside: np.ndarray) -> tuple[np.ndarray, int, int] | None:
    """The mat's brightness at every pixel (quadratic fit), and how many pixels are much
    brighter and much darker than it (which side the dice are on)."""
    coarse_size = (32, 24)
    coarse = cv2.resize(grey, coarse_size, interpolation=cv2.INTER_AREA).astype(np.float32)
    usable = cv2.resize(inside, coarse_size, interpolation=cv2.INTER_AREA) > 250
    if usable.sum() < 12:
        return None
    level = float(np.median(coarse[usable]))
    ys, xs = np.mgrid[0 : coarse_size[1], 0 : coarse_size[0]].astype(np.float32)
    xs = xs / coarse_size[0] - 0.5
    ys = ys / coarse_size[1] - 0.5
    basis = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    near = usable & (np.abs(coarse - level) < 25)
    coefficients = np.zeros(6, np.float32)
    coefficients[0] = level
    for _ in range(2):
        if near.sum() < 12:
            break
        coefficients, *_ = np.linalg.lstsq(basis[near], coarse[near], rcond=None)
        fitted = basis @ coefficients
        near = usable & (np.abs(coarse - fitted) < 18)
    surface = cv2.resize(
        (basis @ coefficients).astype(np.float32), grey.shape[::-1], interpolation=cv2.INTER_LINEAR
    )
    diff = grey.astype(np.float32) - surface
    inner = inside > 0  # counted away from the frame's edges, where walls and table are
    height, width = grey.shape
    inner[: height // 8] = inner[height - height // 8 :] = False
    inner[:, : width // 8] = inner[:, width - width // 8 :] = False
    brighter = np.count_nonzero((diff > 45) & inner)
    darker = np.count_nonzero((diff < -45) & inner)
    return surface, brighter, darker


def _without_rings(candidates: np.ndarray) -> np.ndarray:
    """Blobs spanning much of the picture (the tray wall's lit lip, with any die that
    touches it) lose their thin lines, so the dice come apart from the wall."""
    height, width = candidates.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(candidates, connectivity=8)
    wide = stats[:, cv2.CC_STAT_WIDTH] > 0.4 * width
    spans = wide | (stats[:, cv2.CC_STAT_HEIGHT] > 0.4 * height)
    spans[0] = False
    if not spans.any():
        return candidates
    rings = spans[labels]
    thin = max(3, int(_THIN_LINE * min(height, width)) | 1)
    opened = cv2.morphologyEx(candidates, cv2.MORPH_OPEN, np.ones((thin, thin), np.uint8))
    return np.where(rings, opened, candidates).astype(np.uint8)


def _mat_hull(mat_like: np.ndarray) -> np.ndarray:
    """The tray's inside: the convex hull of the large mat-coloured regions (255 inside).

    Dice lying against the tray wall are inside the hull, the wall and the
    table around the tray are not.
    """
    height, width = mat_like.shape
    coarse = cv2.resize(mat_like.astype(np.uint8) * 255, (width // 4, height // 4),
                        interpolation=cv2.INTER_AREA) > 127
    count, labels, stats, _ = cv2.connectedComponentsWithStats(coarse.astype(np.uint8), 4)
    hull_mask = np.zeros((height, width), np.uint8)
    if count < 2:
        return hull_mask + 255
    areas = stats[:, cv2.CC_STAT_AREA].copy()
    areas[0] = 0
    keep = areas >= 0.1 * areas.max()  # a hand or a row of dice may cut the mat in parts
    contours, _ = cv2.findContours(
        keep[labels].astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    hull = cv2.convexHull(np.concatenate(contours).astype(np.float32) * 4 + 2)
    cv2.fillConvexPoly(hull_mask, np.round(hull).astype(np.int32), 255)
    return hull_mask


def locate_dice(
    frame: np.ndarray,
    tray: Sequence[Sequence[float]] | np.ndarray | None = None,
    *,
    work_width: int = WORK_WIDTH,
) -> Located:
    """Top-face boxes of the dice in a BGR frame; nothing outside `tray` (a polygon)."""
    height, width = frame.shape[:2]
    scale = min(1.0, work_width / width)
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    inside = tray_mask(grey.shape, None if tray is None else np.asarray(tray), scale)
    if not inside.any():
        return Located()
    fitted = _mat_surface(grey, inside)
    if fitted is None:
        return Located()
    surface, brighter, darker = fitted
    diff = grey.astype(np.float32) - surface
    light = brighter >= darker
    grey_full = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    found = _locate(frame, grey_full, small, diff, inside, scale, light)
    if min(brighter, darker) > _AMBIGUOUS * max(brighter, darker):
        # Light dice on a fairly light mat cast shadows as large as their tops: try the
        # other polarity too and keep whichever finds more dice.
        other = _locate(frame, grey_full, small, diff, inside, scale, not light)
        if _plausibility(other) > _plausibility(found):
            found = other
    return found


def _plausibility(found: Located) -> int:
    """More dice is better, up to the ten a game has; beyond that, worse (shadow pieces)."""
    count = len(found.boxes)
    return min(count, _MAX_DICE) - 2 * max(0, count - _MAX_DICE)


def _locate(
    frame: np.ndarray,
    grey_full: np.ndarray,
    small: np.ndarray,
    diff: np.ndarray,
    inside: np.ndarray,
    scale: float,
    light: bool,
) -> Located:
    """locate_dice for one polarity: dice lighter (or darker) than the mat."""
    height, width = frame.shape[:2]
    contrast = diff if light else -diff
    strong = contrast[(contrast > _CANDIDATE_MIN) & (inside > 0)]
    if strong.size == 0:
        return Located(light_dice=light)
    typical = float(np.percentile(strong, 90))
    threshold = max(_CANDIDATE_MIN, _CANDIDATE_SHARE * typical)
    reach = max(3, int(_WALL_REACH * min(diff.shape)))  # tilted dice overhang the wall
    mat_hull = _mat_hull(np.abs(diff) < 0.5 * threshold)
    outer = inside  # a hand may cover the mat's edge: it is looked for in the whole tray
    inside = cv2.bitwise_and(inside, cv2.dilate(mat_hull, np.ones((reach, reach), np.uint8)))
    candidates = ((contrast > threshold) & (inside > 0)).astype(np.uint8) * 255
    candidates = cv2.morphologyEx(candidates, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    candidates = _without_rings(candidates)
    short = min(width, height)
    min_side, max_side = MIN_SIDE_FRACTION * short, MAX_SIDE_FRACTION * short
    count, labels, stats, _ = cv2.connectedComponentsWithStats(candidates, connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    single = areas[(areas >= (0.6 * min_side * scale) ** 2) & (areas <= (max_side * scale) ** 2)]
    if single.size:  # the bigger blobs: dice, not specks of mat texture
        single = single[single >= 0.3 * np.percentile(single, 90)]
    rough_side = float(np.sqrt(np.median(single))) if single.size else min_side * scale
    unlike_mat = _unlike_mat(small, diff, threshold, outer)
    hand_mask = _hand(unlike_mat, rough_side, diff.shape)
    pieces: list[_Piece] = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area < (0.5 * min_side * scale) ** 2:
            continue
        blob = labels[y : y + h, x : x + w] == label
        if hand_mask is not None and np.count_nonzero(blob & hand_mask[y : y + h, x : x + w]) > (
            0.5 * area
        ):
            continue  # the hand itself
        blob = blob.astype(np.uint8) * 255
        pieces += _top_pieces(grey_full, blob, (x, y), scale, light, 0.6 * max_side**2)
    side = _typical_side(pieces, min_side, max_side)
    boxes = _boxes(pieces, side, min_side, max_side, (width, height))
    boxes = _drop_side_faces(boxes, grey_full, side)
    if hand_mask is None and 0 < 1.5 * side * scale < rough_side:
        # The rough size was far too big (a finger's, not a die's): look again.
        hand_mask = _hand(unlike_mat, side * scale, diff.shape)
    if hand_mask is not None:
        boxes = [box for box in boxes if not _under(hand_mask, box, scale)]
    boxes.sort(key=lambda box: (float(box[:, 1].mean()), float(box[:, 0].mean())))
    return Located(tuple(boxes), hand_mask is not None, side, light, hand_mask)


@dataclass
class _Piece:
    """A connected bright region thought to be (part of) top faces, with what cut it."""

    outline: np.ndarray  # (n, 2) float32 frame pixels around the piece
    area: float
    lit: np.ndarray  # the smoothed grey region of interest it was cut from
    mask: np.ndarray  # uint8 mask of this piece in that region
    origin: tuple[int, int]
    level: float
    light: bool
    max_hole: float
    depth: int
    edges: tuple[bool, bool, bool, bool]  # region of interest ends at the frame's l, t, r, b
    around: np.ndarray | None = None  # the blob it was cut from, near the piece

    def shape(self) -> tuple[float, float]:
        return _rect_side(self.outline)

    def points(self) -> np.ndarray:
        """Every pixel of the piece (n, 2) float32, frame pixels."""
        ys, xs = np.nonzero(self.mask)
        return np.stack([xs, ys], axis=1).astype(np.float32) + np.asarray(self.origin, np.float32)

    def recut(self) -> list[_Piece]:
        """This piece cut at the level of its brighter part: a top face is brighter than
        the side faces it was merged with (a tilted die's big side, a dark die's shaded
        sides). [] when there is no brighter part."""
        if self.depth >= 2:
            return []
        # Dark dice: the top may have been left out of the piece (above the band), so
        # look in the blob around the piece.
        region = self.mask if self.light else self.around
        values = self.lit[region > 0]
        brighter = values[values > self.level * 1.06 + (0 if self.light else 2)]
        if brighter.size < 0.1 * self.area:
            return []
        # Light dice: the top is the brightest body. Dark dice: the commonest level above
        # the shaded sides (numerals, rim and shadow are brighter but smaller).
        higher = _top_level(brighter, True) if self.light else _mode(brighter)
        if higher <= self.level * 1.08 + (0 if self.light else 2):
            return []
        return _cut(
            self.lit, region, higher, self.light, self.max_hole, self.origin, self.depth + 1,
            self.edges,
        )


def _top_pieces(
    grey_full: np.ndarray,
    blob: np.ndarray,
    origin: tuple[int, int],
    scale: float,
    light: bool,
    max_hole: float,
) -> list[_Piece]:
    """Cut one candidate blob into top-face pieces, working at full resolution."""
    x, y = origin
    fh, fw = grey_full.shape
    x0, y0 = max(int(x / scale) - 3, 0), max(int(y / scale) - 3, 0)
    x1 = min(int((x + blob.shape[1]) / scale) + 3, fw)
    y1 = min(int((y + blob.shape[0]) / scale) + 3, fh)
    roi = grey_full[y0:y1, x0:x1]
    mask = cv2.resize(blob, None, fx=1 / scale, fy=1 / scale, interpolation=cv2.INTER_NEAREST)
    mx, my = int(round(x / scale)) - x0, int(round(y / scale)) - y0
    full_mask = np.zeros(roi.shape, np.uint8)
    sub = full_mask[max(my, 0) :, max(mx, 0) :]
    sub[: mask.shape[0], : mask.shape[1]] = mask[: sub.shape[0], : sub.shape[1]]
    edges = (x0 == 0, y0 == 0, x1 == fw, y1 == fh)
    full_mask = _fill_holes(full_mask, max_hole, edges)
    smooth = cv2.GaussianBlur(roi, (0, 0), 1.2 if light else 2.0)
    values = smooth[full_mask > 0]
    if values.size == 0:
        return []
    lit = smooth.astype(np.float32)
    level = _top_level(values, light)
    return _cut(lit, full_mask, level, light, max_hole, (x0, y0), 0, edges)


def _cut(
    lit: np.ndarray,
    mask: np.ndarray,
    level: float,
    light: bool,
    max_hole: float,
    origin: tuple[int, int],
    depth: int,
    edges: tuple[bool, bool, bool, bool],
) -> list[_Piece]:
    """Threshold `mask` at a share of the top level; each connected part is a piece."""
    top = (lit > _TOP_SHARE * level) & (mask > 0)
    if not light:  # a dark die's blurred rim and shadow on a light mat are not top face
        top &= cv2.erode(mask, np.ones((5, 5), np.uint8)) > 0
        top &= lit < _DARK_TOP_BAND * level + 12
    top = top.astype(np.uint8) * 255
    top = cv2.morphologyEx(top, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    top = _fill_holes(top, max_hole, edges)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=8)
    pieces = []
    shift = np.asarray(origin, np.float32)
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        if area < 30:
            continue
        piece_mask = (labels == label).astype(np.uint8) * 255
        contours, _ = cv2.findContours(
            piece_mask[y : y + h, x : x + w], cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
        )
        outline = np.concatenate([c.reshape(-1, 2) for c in contours]).astype(np.float32)
        outline += shift + np.asarray((x, y), np.float32)
        around = None
        if not light:
            reach = max(3, max(w, h) // 2 | 1)
            around = cv2.dilate(piece_mask, np.ones((reach, reach), np.uint8)) & mask
        pieces.append(
            _Piece(
                outline, float(area), lit, piece_mask, origin, level, light, max_hole, depth, edges,
                around,
            )
        )
    return pieces


def _mode(values: np.ndarray) -> float:
    """The commonest grey level of some pixels (histogram smoothed over a few levels)."""
    histogram = np.bincount(values.astype(np.int64), minlength=256).astype(np.float32)
    histogram = cv2.GaussianBlur(histogram.reshape(1, -1), (0, 0), 2.5).ravel()
    return float(max(np.argmax(histogram), 4))


def _top_level(values: np.ndarray, light: bool) -> float:
    """The brightness of the top faces in a blob: the most common grey level among the
    brighter half (light dice) or the darker half (dark dice, whose numerals, rims and
    nearby shadows are brighter than their top)."""
    middle = float(np.median(values))
    part = values[values >= middle] if light else values[values <= middle + 4]
    histogram = np.bincount(part.astype(np.int64), minlength=256).astype(np.float32)
    histogram = cv2.GaussianBlur(histogram.reshape(1, -1), (0, 0), 2.5).ravel()
    return float(max(np.argmax(histogram), 4))


def _fill_holes(
    mask: np.ndarray, max_hole: float, edges: tuple[bool, bool, bool, bool] = (False,) * 4
) -> np.ndarray:
    """The mask with its enclosed holes smaller than `max_hole` pixels (numerals) filled.

    Where the mask ends at the frame's edge (`edges`: left, top, right, bottom), the
    edge closes holes too: a die half out of the picture still has its numeral filled.
    """
    left, top, right, bottom = (int(edge) for edge in edges)
    padded = cv2.copyMakeBorder(mask, top, bottom, left, right, cv2.BORDER_CONSTANT, value=255)
    contours, hierarchy = cv2.findContours(padded, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    for index, (_, _, _, parent) in enumerate(hierarchy[0]):
        if parent >= 0 and cv2.contourArea(contours[index]) < max_hole:
            cv2.drawContours(padded, contours, index, 255, -1)
    height, width = padded.shape
    return np.ascontiguousarray(padded[top : height - bottom, left : width - right])


def _rect_side(points: np.ndarray) -> tuple[float, float]:
    (_, _), (w, h), _ = cv2.minAreaRect(points)
    return float(max(w, h)), float(min(w, h))


def _typical_side(pieces: list[_Piece], min_side: float, max_side: float) -> float:
    """The median side of square pieces: the size a single top face has in this frame."""
    sides = []
    for piece in pieces:
        area = piece.area
        long, short = piece.shape()
        if short > 0 and long / short < 1.25 and min_side <= long <= max_side:
            if area > 0.75 * long * short:
                sides.append(np.sqrt(area))
    if not sides:
        return 0.0
    sides_array = np.asarray(sides)
    big = sides_array[sides_array >= 0.6 * np.percentile(sides_array, 90)]  # not fragments
    return float(np.median(big))


def _is_top(
    long: float,
    short: float,
    area: float,
    side: float,
    bounds: tuple[float, float],
    tilted: bool = False,
    fill: float = 0.6,
) -> bool:
    """Whether a piece is the size and shape of one top face (foreshortened when tilted)."""
    min_side, max_side = bounds
    if short <= 0 or long < 0.6 * min_side or long > 1.3 * max_side:
        return False
    if long / short > (_MAX_TILTED_ASPECT if tilted else _MAX_ASPECT):
        return False
    if area < fill * long * short:
        return False
    smallest = 0.25 if tilted else 0.4
    if side > 0 and long > _MAX_LONG * side:
        return False
    return side <= 0 or smallest * side * side <= area <= 1.3 * side * side


def _is_hollow_top(long: float, short: float, area: float, side: float) -> bool:
    """A piece exactly one face in size and square, though its big numeral left it
    hollow (a numeral that touches the bevelled rim is not filled in)."""
    return (
        side > 0
        and 0.85 * side <= short <= long <= 1.2 * side
        and long <= 1.2 * short
        and area >= 0.45 * long * short
    )


def _is_tilted_top(long: float, short: float, area: float, side: float) -> bool:
    """A solid, narrow piece one die long: a tilted die's foreshortened top face."""
    return (
        side > 0
        and 0.75 * side <= long <= _MAX_LONG * side
        and short >= 0.3 * side
        and area >= 0.75 * long * short
    )


def _boxes(
    pieces: list[_Piece],
    side: float,
    min_side: float,
    max_side: float,
    frame_size: tuple[int, int],
) -> list[np.ndarray]:
    """One box per top face: good pieces as they are, others re-cut brighter, split, or
    joined with a neighbouring fragment (a big numeral can cut a top face in two)."""
    bounds = (min_side, max_side)
    boxes = []
    fragments: list[tuple[np.ndarray, float, bool]] = []
    for piece in pieces:
        long, short = piece.shape()
        recut_light = piece.depth > 0 and piece.light  # the bright top of a tilted die
        partial = recut_light or _at_edge(piece.outline, frame_size)
        outer = _brighter_end(piece, long, short, side, frame_size)
        if outer is not None:  # a dark die's top with the darker side it leans over
            boxes.append(outer)
            continue
        if _is_top(long, short, piece.area, side, bounds, tilted=partial):
            boxes.append(_corners(piece.outline))
            continue
        if recut_light and _is_tilted_top(long, short, piece.area, side):
            boxes.append(_corners(piece.outline))
            continue
        if _is_hollow_top(long, short, piece.area, side):
            boxes.append(_corners(piece.outline))
            continue
        several = side > 0 and (
            piece.area > 1.6 * side * side  # or two faces side by side, left hollow
            or (long > 1.8 * side and piece.area > 1.2 * side * side)
        )
        if several:  # touching faces parted at a narrow neck, before anything else
            parts = max(2, int(round(piece.area / (side * side))))
            cores = _boxes(_cores(piece, parts, side), side, min_side, max_side, frame_size)
            if cores:
                boxes += cores
                continue
        finer = _boxes(piece.recut(), side, min_side, max_side, frame_size)
        if finer:
            boxes += finer
            if several and len(finer) < parts and piece.depth == 0:
                # The brighter cut found only some of the faces: look in the rest.
                rest = _remainder(piece, finer, side)
                boxes += _boxes(rest, side, min_side, max_side, frame_size)
            continue
        if _is_tilted_top(long, short, piece.area, side):
            boxes.append(_corners(piece.outline))
            continue
        trimmed = _without_tails(piece, side)
        if trimmed is not None:
            boxes.append(_corners(trimmed.outline))
            continue
        square = _outer_square(piece, long, short, side, frame_size)
        if square is not None:
            boxes.append(square)
            continue
        if several:
            for part in _split(piece, parts):
                long, short = part.shape()
                if _is_top(long, short, part.area, side, bounds) or _is_hollow_top(
                    long, short, part.area, side
                ):
                    boxes.append(_corners(part.outline))
                    continue
                square = _outer_square(part, long, short, side, frame_size)
                if square is not None:  # a dark die's top with its sides, cut from its neighbour
                    boxes.append(square)
        elif side > 0 and piece.area > 0.05 * side * side:
            # Near the picture's edge a die may lean on the wall: its top looks narrow.
            leaning = partial or _near_edge(piece.outline, frame_size, 1.5 * side)
            fragments.append((piece.outline, piece.area, leaning))
    return boxes + _joined(fragments, side, bounds)


def _joined(
    fragments: list[tuple[np.ndarray, float, bool]], side: float, bounds: tuple[float, float]
) -> list[np.ndarray]:
    """Boxes of pairs of nearby fragments that together make one top face."""
    boxes = []
    used: set[int] = set()
    centres = [outline.mean(axis=0) for outline, _, _ in fragments]
    for i, (first, area_i, partial_i) in enumerate(fragments):
        for j in range(i + 1, len(fragments)):
            if i in used or j in used:
                continue
            if np.linalg.norm(centres[i] - centres[j]) > 0.9 * side:
                continue
            union = np.concatenate([first, fragments[j][0]])
            long, short = _rect_side(union)
            tilted = partial_i or fragments[j][2]
            area = area_i + fragments[j][1]
            if _is_top(long, short, area, side, bounds, tilted=tilted, fill=0.45):
                boxes.append(_corners(union))
                used.update((i, j))
    return boxes


def _brightness(grey: np.ndarray, box: np.ndarray) -> float:
    """The commonest grey level inside the middle of a box: the face's body."""
    centre = box.mean(axis=0)
    inner = (box - centre) * 0.6 + centre
    x0, y0 = np.floor(inner.min(axis=0)).astype(int)
    x1, y1 = np.ceil(inner.max(axis=0)).astype(int)
    height, width = grey.shape
    patch = grey[max(y0, 0) : min(y1, height), max(x0, 0) : min(x1, width)]
    if patch.size == 0:
        return 0.0
    histogram = np.bincount(patch.ravel(), minlength=256).astype(np.float32)
    histogram = cv2.GaussianBlur(histogram.reshape(1, -1), (0, 0), 2.0).ravel()
    return float(np.argmax(histogram))  # the body's level, whatever the numeral or glare


def _drop_side_faces(boxes: list[np.ndarray], grey: np.ndarray, side: float) -> list[np.ndarray]:
    """Remove side faces taken for tops: of two adjacent boxes, one clearly darker and
    nearer the picture's centre is the side of the other (the camera looks down on dice
    away from the centre at a slant, so it sees their centre-facing sides, shaded)."""
    if side <= 0 or len(boxes) < 2:
        return boxes
    height, width = grey.shape
    middle = np.array([width / 2, height / 2])
    centres = [box.mean(axis=0) for box in boxes]
    levels = [_brightness(grey, box) for box in boxes]
    dropped: set[int] = set()
    for i in range(len(boxes)):
        for j in range(len(boxes)):
            if i == j or np.linalg.norm(centres[i] - centres[j]) > _SIDE_NEAR * side:
                continue
            outward = centres[j] - middle
            step = centres[j] - centres[i]
            radial = float(step @ outward) > 0.6 * np.linalg.norm(step) * np.linalg.norm(outward)
            if radial and levels[i] < _SIDE_SHADE * levels[j]:
                dropped.add(i)
    return [box for index, box in enumerate(boxes) if index not in dropped]


def _outer_square(
    piece: _Piece, long: float, short: float, side: float, frame_size: tuple[int, int]
) -> np.ndarray | None:
    """A top face still joined to its side faces (a dark die seen at a slant, whose sides
    are nearly as dark as its top): the camera sees the sides on the picture-centre
    side, so the top is the face-sized square at the piece's far corner. None when
    the piece is not one die with its sides."""
    if side <= 0 or not (0.9 * side <= short and long <= 1.9 * side):
        return None
    if not _SQUARE_AREA * side * side <= piece.area <= 1.9 * side * side:
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(piece.outline)
    corners = cv2.boxPoints(((cx, cy), (w, h), angle))
    middle = np.array(frame_size, np.float32) / 2
    far = int(np.argmax(np.linalg.norm(corners - middle, axis=1)))
    origin = corners[far]
    edges = [corners[(far + 1) % 4] - origin, corners[(far + 3) % 4] - origin]
    face = side * (1 + _GROW) + 1
    u, v = (edge / max(float(np.linalg.norm(edge)), 1e-6) * face for edge in edges)
    square = np.array([origin, origin + u, origin + u + v, origin + v], np.float32)
    outward = square.mean(axis=0) - np.array([cx, cy], np.float32)
    if float(outward @ (np.array([cx, cy], np.float32) - middle)) <= 0:
        return None  # the extra part is not on the centre side: not sides, something else
    inside = np.zeros(piece.mask.shape, np.uint8)
    local = np.round(square - np.asarray(piece.origin, np.float32)).astype(np.int32)
    cv2.fillConvexPoly(inside, local, 255)
    covered = np.count_nonzero(inside & piece.mask) / max(np.count_nonzero(inside), 1)
    return square if covered >= _SQUARE_COVERED else None


def _brighter_end(
    piece: _Piece, long: float, short: float, side: float, frame_size: tuple[int, int]
) -> np.ndarray | None:
    """The top face of a dark die seen at a slant near the picture's edge, when the
    piece also holds the side the camera sees (a leaning die's side faces the camera
    almost as squarely as its top). The side lies on the picture-centre end and is
    darker (light comes from above), so the top is the piece's far, brighter end.
    None when the piece does not look like that."""
    if piece.light or side <= 0 or long < _LEAN_ASPECT * short or long > 1.6 * side:
        return None
    if not _near_edge(piece.outline, frame_size, 2.0 * side):
        return None
    (cx, cy), (w, h), angle = cv2.minAreaRect(piece.outline)
    turn = np.radians(angle if w >= h else angle + 90.0)
    axis = np.array([np.cos(turn), np.sin(turn)], np.float32)
    outward = np.array([cx, cy], np.float32) - np.array(frame_size, np.float32) / 2
    along = float(axis @ outward) / max(float(np.linalg.norm(outward)), 1e-6)
    if abs(along) < 0.5:
        return None  # the long axis does not point away from the centre
    axis *= np.sign(along)
    ys, xs = np.nonzero(piece.mask)
    values = piece.lit[ys, xs]
    points = np.stack([xs, ys], axis=1).astype(np.float32) + np.asarray(piece.origin, np.float32)
    t = (points - np.array([cx, cy], np.float32)) @ axis
    far = float(np.median(values[t > 0.2 * long]))
    near = float(np.median(values[t < -0.2 * long])) if np.any(t < -0.2 * long) else far
    if near > _SIDE_SHADE * far - 1.0:
        return None  # one even face: not a top with its side
    middle = (far + near) / 2
    bins = np.clip(((t / long + 0.5) * 20).astype(int), 0, 19)
    medians = [
        float(np.median(values[bins == k])) if np.any(bins == k) else middle for k in range(20)
    ]
    cut = 19
    while cut > 0 and medians[cut - 1] >= middle:
        cut -= 1
    top = points[bins >= cut]
    if len(top) < 30:
        return None
    top_long, top_short = _rect_side(top)  # its numeral may leave it hollow: shape only
    if not 0.75 * side <= top_long <= _MAX_LONG * side or top_short < 0.3 * side:
        return None
    return _corners(top)


def _remainder(piece: _Piece, found: list[np.ndarray], side: float) -> list[_Piece]:
    """What is left of a piece once the faces `found` in it (boxes) are taken out, as
    pieces of at least a third of a face."""
    mask = piece.mask.copy()
    shift = np.asarray(piece.origin, np.float32)
    for box in found:
        grown = (box - box.mean(axis=0)) * 1.1 + box.mean(axis=0) - shift
        cv2.fillConvexPoly(mask, np.round(grown).astype(np.int32), 0)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    rest = []
    for label in range(1, count):
        area = float(stats[label, cv2.CC_STAT_AREA])
        if area < side * side / 3:
            continue
        part = (labels == label).astype(np.uint8) * 255
        rest.append(replace(piece, mask=part, area=area, outline=_outline(part, piece.origin),
                            depth=piece.depth + 1))
    return rest


def _without_tails(piece: _Piece, side: float) -> _Piece | None:
    """A top face with thin strips of side face or rim still attached (a dark die at a
    slant): opened with a disc much smaller than a face, its biggest part is the top.
    None when what is left is not one top face."""
    if side <= 0 or not 0.8 * side * side <= piece.area <= 1.6 * side * side:
        return None
    size = max(3, int(_TAIL * side) | 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    opened = cv2.morphologyEx(piece.mask, cv2.MORPH_OPEN, disc)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    mask = (labels == biggest).astype(np.uint8) * 255
    area = float(stats[biggest, cv2.CC_STAT_AREA])
    outline = _outline(mask, piece.origin)
    long, short = _rect_side(outline)
    if not (long <= 1.2 * side and long <= 1.25 * short and 0.75 * side * side <= area):
        return None
    if area < 0.7 * long * short:
        return None
    return replace(piece, mask=mask, area=area, outline=outline, depth=piece.depth + 1)


def _near_edge(outline: np.ndarray, frame_size: tuple[int, int], reach: float) -> bool:
    """Whether a piece's centre lies within `reach` pixels of the frame's edge."""
    width, height = frame_size
    x, y = outline.mean(axis=0)
    return bool(min(x, y, width - x, height - y) <= reach)


def _at_edge(outline: np.ndarray, frame_size: tuple[int, int]) -> bool:
    """Whether a piece runs into the frame's edge (a die half out of the picture)."""
    width, height = frame_size
    return bool(
        outline[:, 0].min() <= 1
        or outline[:, 1].min() <= 1
        or outline[:, 0].max() >= width - 2
        or outline[:, 1].max() >= height - 2
    )


def _cores(piece: _Piece, parts: int, side: float) -> list[_Piece]:
    """Touching faces joined by a narrow neck, parted: erode the piece until it falls
    into at least `parts` pieces of a good size, then grow each back inside the piece.
    [] when erosion never parts it (faces touching along a whole edge)."""
    mask = piece.mask
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    eroded = mask
    for _ in range(max(1, int(0.3 * side / 2))):
        eroded = cv2.erode(eroded, kernel)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(eroded, connectivity=8)
        big = [k for k in range(1, count) if stats[k, cv2.CC_STAT_AREA] > 0.1 * side * side]
        if len(big) >= parts:
            markers = np.zeros(mask.shape, np.int32)
            for number, label in enumerate(big, start=1):
                markers[labels == label] = number
            grown = _grow(markers, mask)
            return [
                replace(piece, mask=part, area=float(np.count_nonzero(part)),
                        outline=_outline(part, piece.origin), depth=piece.depth + 1)
                for part in grown
                if np.count_nonzero(part) >= 30
            ]
        if not big:
            return []
    return []


def _grow(markers: np.ndarray, mask: np.ndarray) -> list[np.ndarray]:
    """Each marker grown back over the mask (nearest marker wins), as uint8 masks."""
    distances = []
    for number in range(1, int(markers.max()) + 1):
        seed = np.where(markers == number, 0, 255).astype(np.uint8)
        distances.append(cv2.distanceTransform(seed, cv2.DIST_L2, 3))
    owner = np.argmin(np.stack(distances), axis=0)
    return [((owner == k) & (mask > 0)).astype(np.uint8) * 255 for k in range(len(distances))]


def _outline(mask: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    points = np.concatenate([c.reshape(-1, 2) for c in contours]).astype(np.float32)
    return points + np.asarray(origin, np.float32)


def _split(piece: _Piece, parts: int) -> list[_Piece]:
    """Split merged top faces into `parts` pieces (k-means on a sample of pixel
    positions, then every pixel to its nearest centre)."""
    ys, xs = np.nonzero(piece.mask)
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    step = max(1, len(points) // 1500)  # a sample is plenty to find a few squares
    sample = np.ascontiguousarray(points[::step])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, _, centres = cv2.kmeans(sample, parts, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    nearest = np.argmin(
        ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2), axis=1
    )
    split = []
    for k in range(parts):
        chosen = nearest == k
        if np.count_nonzero(chosen) < 30:
            continue
        mask = np.zeros(piece.mask.shape, np.uint8)
        mask[ys[chosen], xs[chosen]] = 255
        split.append(replace(piece, mask=mask, area=float(np.count_nonzero(chosen)),
                             outline=_outline(mask, piece.origin), depth=piece.depth + 1))
    return split


def _corners(points: np.ndarray) -> np.ndarray:
    """The rotated box of a top face's pixels, grown back over its bevelled rim."""
    (cx, cy), (w, h), angle = cv2.minAreaRect(points)
    rim = _GROW * max(w, h) + 1  # the same rim on every side, however narrow the face looks
    box = cv2.boxPoints(((cx, cy), (w + rim, h + rim), angle))
    return box.astype(np.float32)


def _unlike_mat(
    small: np.ndarray, diff: np.ndarray, threshold: float, inside: np.ndarray
) -> np.ndarray:
    """Quarter-size bool mask of what differs from the mat in brightness or in colour
    (Lab a, b): a hand as light or dark as the mat still differs in hue."""
    height, width = diff.shape
    size = (max(width // 4, 1), max(height // 4, 1))
    colour = cv2.resize(small, size, interpolation=cv2.INTER_AREA)
    contrast = np.abs(cv2.resize(diff, size, interpolation=cv2.INTER_AREA))
    within = cv2.resize(inside, size, interpolation=cv2.INTER_NEAREST) > 0
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB)[..., 1:].astype(np.float32)
    mat = (contrast < 0.5 * threshold) & within
    unlike = contrast > threshold
    if mat.any():
        reference = np.median(lab[mat], axis=0)
        unlike |= np.linalg.norm(lab - reference, axis=2) > _HAND_CHROMA
    return unlike & within


def _hand(
    coarse_unlike: np.ndarray, side: float, shape: tuple[int, int]
) -> np.ndarray | None:
    """The mask (working scale `shape`, bool) of a hand over the tray, or None.

    A hand is what is unlike the mat and wider than a few dice: an opening with a
    square about three dice wide keeps a palm or forearm and removes dice, clusters
    of dice, walls and table edges.
    """
    coarse = coarse_unlike.astype(np.uint8)
    size = max(3, int(round(_HAND_WIDTH * side / 4)))
    kernel = np.ones((size, size), np.uint8)
    palm = cv2.morphologyEx(coarse, cv2.MORPH_OPEN, kernel)
    if np.count_nonzero(palm) * 16 < _HAND_DICE * side * side:
        return None
    reach = cv2.dilate(palm, kernel) & coarse  # fingers and wrist next to the palm
    height, width = shape
    mask = cv2.resize(reach * 255, (width, height), interpolation=cv2.INTER_LINEAR)
    return cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0


def _under(hand_mask: np.ndarray, box: np.ndarray, scale: float) -> bool:
    cx, cy = (box.mean(axis=0) * scale).astype(int)
    h, w = hand_mask.shape
    return bool(hand_mask[min(max(cy, 0), h - 1), min(max(cx, 0), w - 1)])

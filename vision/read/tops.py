"""Find the top face of each die: a rotated box (four corners) per die, in frame pixels.

The shipped top-face network (`models/dice_tops.onnx`, trained on rendered scenes)
looks at the frame shrunk to 320 pixels wide and marks three maps on a grid of
half that size: where top faces are, the core of each top face, and a hand. A
core is a top face shrunk to half its size, so the cores of dice touching side
by side stay apart: each core is one die. Every cell of top face goes to its
nearest core, and each die's share of the top map, enlarged back to frame
pixels, gives its box.

The network learned dice of one size range (their side 0.065 to 0.105 of the
frame's shorter side, about 20 pixels of its input). When the dice of a frame
measure well outside it (a camera higher or lower, a 16:9 frame, a photo), the
frame is looked at again resized so that the measured die is the trained size.

Dice centred outside the tray polygon, or of a size no die has at this scale, are
left out; the classifier's face probability judges whatever else. A die under
the hand map is kept: the top map, trained to mark no top under a hand, already
says whether a top is seen there, and a hand map spread over a real table must
never empty the reading.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Final

import cv2
import numpy as np
import onnxruntime as ort

from scorer.dice import FULL_ROLL
from vision.read.locate_settings import HandCheck, LocateSettings, MapCut, SideFaces
from vision.read.model_io import LOCATOR_MODEL_FILE as LOCATOR_NAME
from vision.read.model_io import LOCATOR_OUTPUTS as OUTPUT_NAMES
from vision.read.onnx_model import load_session
from vision.read.tops_input import (
    CORE,
    HAND,
    NET_GRID,
    NET_STRIDE,
    NET_WIDTH,
    TOP,
    Exposure,
    net_input,
    second_looks,
    to_tensor,
)
from vision.read.vectors import side_lengths

logger = logging.getLogger(__name__)


TRAINED_DIE_PX: Final[float] = 20.0
"""The die side, in pixels of the network's input, that the locator was trained on (the
middle of the rendered dice's sizes at NET_WIDTH). A frame whose dice measure outside
`LocateSettings.fit_range` is looked at again resized so that they measure this."""

_OWNER_REACH: Final[int] = 16  # cells at the trained scale around a core: its distances' window
_CHAMFER_STEP: Final[float] = 0.955  # OpenCV's 3x3 L2 chamfer: the cost of a straight step
_WINDOW_MARGIN: Final[int] = 2  # grid cells kept around a die's own: `_box` reaches one


@dataclass(frozen=True)
class Located:
    """Top-face corners (4, 2) float32 per die in frame pixels, and what else was seen.

    `scores` are the locator's confidence in each box (0..1, see `box_score`), in the
    order of `boxes`. `hand_mask` is the flagged hand region (bool) on the network's
    output grid, or None. `net_width` is the network input width the boxes come from,
    `frame_width` the frame's; `top_peak` the top map's highest probability anywhere.
    """

    boxes: tuple[np.ndarray, ...] = ()
    hand: bool = False
    die_side: float = 0.0
    hand_mask: np.ndarray | None = field(default=None, repr=False, compare=False)
    scores: tuple[float, ...] = ()
    net_width: int = NET_WIDTH
    frame_width: int = 0
    top_peak: float = 0.0

    def score(self, index: int) -> float:
        """The locator's confidence in box `index`; a box without a score counts as 0."""
        return self.scores[index] if index < len(self.scores) else 0.0

    @property
    def net_die_side(self) -> float:
        """The measured die side in pixels of the network's input (0 without dice)."""
        if self.die_side <= 0 or self.frame_width <= 0:
            return 0.0
        return self.die_side * self.net_width / self.frame_width


def tray_mask(
    shape: tuple[int, int], tray: np.ndarray | None, scale: tuple[float, float]
) -> np.ndarray:
    """255 inside the tray polygon (given in frame pixels) on a grid of `shape` (h, w),
    `scale` being grid cells per frame pixel in x and y."""
    height, width = shape
    if tray is None:
        return np.full((height, width), 255, np.uint8)
    mask = np.zeros((height, width), np.uint8)
    points = np.asarray(tray, np.float64).reshape(-1, 2) * np.asarray(scale, np.float64)
    polygon = np.round(points * 16).astype(np.int32)
    if len(polygon) >= 3:
        cv2.fillPoly(mask, [polygon], 255, cv2.LINE_8, shift=4)
    return mask


class TopFinder:
    """Locates dice tops in frames: `locate(frame, tray) -> Located`."""

    def __init__(
        self,
        session: ort.InferenceSession,
        name: str,
        settings: LocateSettings = LocateSettings(),
    ) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.name = name
        self.settings = settings

    @classmethod
    def load(
        cls,
        path: Path | None = None,
        *,
        threads: int = 1,
        settings: LocateSettings = LocateSettings(),
    ) -> TopFinder:
        """Load, verify and warm up the network (default: the one shipped in `models/`);
        `settings`: the locate stage's thresholds (the shipped ones by default)."""
        loaded = load_session(path, LOCATOR_NAME, OUTPUT_NAMES, threads)
        finder = cls(loaded.session, loaded.name, settings)
        finder.maps(np.zeros((240, 320, 3), np.uint8))  # warm-up
        logger.info("loaded %s (%d threads)", loaded.name, threads)
        return finder

    def maps(
        self,
        frame: np.ndarray,
        net_width: int = NET_WIDTH,
        *,
        exposure: Exposure = Exposure.AS_SEEN,
    ) -> np.ndarray:
        """The network's (3, h, w) float32 maps of a (H, W, 3) uint8 BGR frame, its
        levels shown as `exposure` says (`vision.read.tops_input.net_input`)."""
        image = net_input(frame, net_width, exposure=exposure, settings=self.settings.exposure)
        return self._session.run(None, {self._input: to_tensor(image[None])})[0][0]

    def locate(
        self, frame: np.ndarray, tray: Sequence[Sequence[float]] | np.ndarray | None = None
    ) -> Located:
        """Top-face boxes of the dice in a BGR frame; nothing outside `tray` (a polygon).

        The first look is at the trained input width. When it fits (`fits`) it is kept
        as it is, unless it found most of a roll but not all (`near_full_roll` to nine
        dice, of `self.settings`): then a closer look (`closer_width`) is taken too and
        the better of the two kept (`_best_look`). A frame of ten dice like the
        training scenes takes one look. Otherwise (the first look does not fit, or
        found fewer than ten dice as small as merged pairs, `merged_pair_px`) the
        frame is looked at also at
        `search_widths`, then at the width that brings the best look's dice to
        TRAINED_DIE_PX, and the best of these looks (`_best_look`) is kept. At most
        four looks, and up to two more at the first width for a frame short of dice
        (below). A frame whose top map shows no top anywhere (an empty tray) takes
        one: dice even a third of the trained size still show there. A hand the first
        look sees is flagged whichever look is kept (`_with_hand_of`). A frame whose
        first look found fewer than ten dice is looked at again with its levels shown
        otherwise (`vision.read.tops_input.second_looks`: lifted when under-exposed,
        darkened when over-exposed, else with its shadows lightened and with its
        highlights darkened), and the further looks are taken with the best of those
        levels when it beats the first look: a frame the locator reads as it is keeps
        its boxes.
        """
        settings = self.settings
        first = self.locate_at(frame, tray, NET_WIDTH)
        exposure = Exposure.AS_SEEN
        if len(first.boxes) < FULL_ROLL:
            plain = first
            for other in second_looks(frame, settings.exposure):
                again = self.locate_at(frame, tray, NET_WIDTH, exposure=other)
                if quality(again, settings) > quality(first, settings):
                    first, exposure = _with_hand_of(plain, again), other
        merged = (len(first.boxes) < FULL_ROLL
                  and first.net_die_side < settings.merged_pair_px)
        fitting = fits(first, settings) and not merged
        if fitting and settings.near_full_roll <= len(first.boxes) < FULL_ROLL:
            closer = self.locate_at(frame, tray, settings.closer_width, exposure=exposure)
            return _with_hand_of(first, _best_look([first, closer], settings))
        if fitting or (not first.boxes and first.top_peak < settings.no_top):
            return first
        looks = {NET_WIDTH: first}
        for net_width in settings.search_widths:
            looks[net_width] = self.locate_at(frame, tray, net_width, exposure=exposure)
        best = _best_look(looks.values(), settings)
        if not best.boxes:
            return first
        wanted = fitted_net_width(best, settings)
        if wanted not in looks:
            looks[wanted] = self.locate_at(frame, tray, wanted, exposure=exposure)
        return _with_hand_of(first, _best_look(looks.values(), settings))

    def locate_at(
        self,
        frame: np.ndarray,
        tray: Sequence[Sequence[float]] | np.ndarray | None,
        net_width: int,
        *,
        exposure: Exposure = Exposure.AS_SEEN,
    ) -> Located:
        """One look at the frame with the network input `net_width` pixels wide, its
        levels shown as `exposure` says (`vision.read.tops_input.net_input`)."""
        height, width = frame.shape[:2]
        located = boxes_from_maps(
            self.maps(frame, net_width, exposure=exposure), (width, height), tray,
            settings=self.settings,
        )
        kept = _drop_side_faces(
            list(located.boxes), frame, located.die_side, self.settings.side_faces
        )
        keep = [any(box is k for k in kept) for box in located.boxes]
        scores = tuple(score for score, chosen in zip(located.scores, keep, strict=True) if chosen)
        return replace(located, boxes=tuple(kept), scores=scores)


def fits(located: Located, settings: LocateSettings = LocateSettings()) -> bool:
    """Whether a look found dice at the size the network was trained on, and sure of them
    (`LocateSettings.fit_range`, `fit_score`)."""
    if not located.boxes:
        return False
    measured = located.net_die_side
    low, high = settings.fit_range
    return low <= measured <= high and float(np.median(located.scores)) >= settings.fit_score


def quality(
    located: Located, settings: LocateSettings = LocateSettings()
) -> tuple[int, float, float]:
    """How good a look is, to compare looks at different widths: how many dice it is sure
    of (score at least `settings.fit_score`), then the sum of all its scores, then how near their
    size is to the trained one. Sure dice first: a look at too fine a scale cuts dice
    into more pieces, each of them doubtful."""
    if not located.boxes:
        return (0, 0.0, 0.0)
    sure = sum(score >= settings.fit_score for score in located.scores)
    closeness = -abs(float(np.log(located.net_die_side / TRAINED_DIE_PX)))
    return (sure, round(sum(located.scores), 1), closeness)


def _with_hand_of(first: Located, look: Located) -> Located:
    """`look`, flagged for the hand that `first` (the look at the trained width, where the
    hand map learned what a hand is) saw: a hand seen there is in the frame, whichever
    look the dice are taken from (a large hand seen at twice the width fills the map
    and its region no longer reaches the frame's border as one)."""
    if look.hand or not first.hand:
        return look
    return replace(look, hand=True, hand_mask=first.hand_mask)


def _best_look(looks: Iterable[Located], settings: LocateSettings) -> Located:
    """The look of highest `quality` among those that did not find the print on
    another look's dice (`print_of`)."""
    looks = list(looks)
    dice_looks = [
        look for look in looks
        if not any(print_of(look, other, settings) for other in looks)
    ]
    return max(dice_looks or looks, key=lambda look: quality(look, settings))


def print_of(
    fine: Located, coarse: Located, settings: LocateSettings = LocateSettings()
) -> bool:
    """Whether the boxes of `fine` are the print on the dice of `coarse` (pips, numerals'
    parts): under `settings.print_share` of the size of `coarse`'s sure boxes, most of
    them (at least half) inside one of those, and at most `print_pieces` inside any one."""
    sure = [box for box, score in zip(coarse.boxes, coarse.scores, strict=True)
            if score >= settings.fit_score]
    if not fine.boxes or not sure or fine.die_side <= 0:
        return False
    share = settings.print_share
    if fine.die_side >= share * float(np.median([longest_side(box) for box in sure])):
        return False
    pieces = [sum(within(box, piece.mean(axis=0)) for piece in fine.boxes) for box in sure]
    return max(pieces) <= settings.print_pieces and 2 * sum(pieces) >= len(fine.boxes)


def fitted_net_width(located: Located, settings: LocateSettings = LocateSettings()) -> int:
    """The network input width that shows `located`'s dice at TRAINED_DIE_PX: its own
    width when they already measure within `settings.fit_range`, from `merged_pair_px`
    up (or there are none): a searched look at dice just inside the range's low end
    places their boxes less well than one at the trained size. Within
    `net_width_range`."""
    measured = located.net_die_side
    if measured <= 0:
        return located.net_width
    high = settings.fit_range[1]
    if settings.merged_pair_px <= measured <= high:
        return located.net_width
    wanted = located.net_width * TRAINED_DIE_PX / measured
    wanted = int(round(wanted / NET_GRID)) * NET_GRID
    return int(np.clip(wanted, *settings.net_width_range))


def boxes_from_maps(
    maps: np.ndarray,
    frame_size: tuple[int, int],
    tray: Sequence[Sequence[float]] | np.ndarray | None = None,
    *,
    settings: LocateSettings = LocateSettings(),
) -> Located:
    """Dice boxes in frame pixels from the network's maps of a frame of `frame_size`."""
    width, height = frame_size
    _, rows, cols = maps.shape
    net_width = cols * NET_STRIDE
    zoom = net_width / NET_WIDTH  # how much larger than at the trained scale dice look
    cell = (width / cols, height / rows)  # frame pixels per grid cell in x and y
    inside = (
        tray_mask(
            (rows, cols), None if tray is None else np.asarray(tray), (1 / cell[0], 1 / cell[1])
        )
        > 0
    )
    short = min(width, height) / zoom
    cut = settings.maps
    cores = _cores(maps[CORE], cut)
    top = maps[TOP]
    owners = _owners(cores, top > 0.5 * cut.level, int(np.ceil(_OWNER_REACH * max(zoom, 1.0))))
    found: list[tuple[np.ndarray, float, float]] = []  # box, score, longest side
    for number, window in enumerate(_windows(owners, len(cores)), start=1):
        if window is None:
            continue
        nearby = owners[window]
        owned = nearby == number
        origin = (window[1].start, window[0].start)
        box = _box(top[window], owned, (nearby == 0) | owned, cell, origin, cut)
        if box is None:
            continue
        if tray is not None and not within(tray, box.mean(axis=0)):
            continue
        smallest, largest = settings.side_fraction
        longest = longest_side(box)
        if not smallest * short <= longest <= largest * short:
            continue
        score = box_score(top[window], maps[CORE][window], owned, cores[number - 1][window])
        found.append((box, score, longest))
    side = float(np.median([longest for *_, longest in found])) if found else 0.0
    hand_mask = hand_region(
        maps[HAND] > cut.level, inside, cell, side or 0.085 * short, settings.hand
    )
    found.sort(key=lambda item: (float(item[0][:, 1].mean()), float(item[0][:, 0].mean())))
    return Located(
        tuple(box for box, *_ in found),
        hand_mask is not None,
        side,
        hand_mask,
        tuple(score for _, score, _ in found),
        net_width,
        width,
        float(top.max()),
    )


def box_score(
    top: np.ndarray, core: np.ndarray, owned: np.ndarray, core_cells: np.ndarray
) -> float:
    """The locator's confidence in one die, 0..1: the smaller of its core's peak and the
    mean top probability over the middle of its top (the cells of its core). A real top
    face gives both near 1; a doubtful blob (a shadow, a bit of clutter) falls short in
    one of them."""
    middle = core_cells & owned
    if not middle.any():
        middle = owned
    return float(min(core[core_cells].max(), top[middle].mean()))


def hand_region(
    hand_cells: np.ndarray,
    inside: np.ndarray,
    cell: tuple[float, float],
    die_side: float,
    check: HandCheck = HandCheck(),
) -> np.ndarray | None:
    """The hand map's cells that make a hand (bool, map grid), or None when none does.

    A region of hand cells (8-connected) is a hand only when it reaches the frame's
    border (within `check.border_cells`), covers, inside the tray, at least
    `check.min_dice` die tops of `die_side` pixels, and is `check.min_width` die sides
    thick: a hand enters
    from the picture's edge and is large, while the map's stray blobs on a real table
    and strips along its edge are not.
    """
    if not hand_cells.any():
        return None
    rows, cols = hand_cells.shape
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        hand_cells.astype(np.uint8), connectivity=8
    )
    margin = check.border_cells
    die_cells = die_side * die_side / (cell[0] * cell[1])
    hand = np.zeros_like(hand_cells, dtype=bool)
    for label in range(1, count):
        x, y, w, h = (int(v) for v in stats[label, :4])
        at_border = x < margin or y < margin or x + w > cols - margin or y + h > rows - margin
        if not at_border:
            continue
        part = labels == label
        if np.count_nonzero(part & inside) < check.min_dice * die_cells:
            continue
        padded = np.pad(part, 1).astype(np.uint8)  # the frame's border is an edge
        inner = cv2.distanceTransform(padded, cv2.DIST_L2, 3).max()  # in cells
        if 2 * inner * min(cell) >= check.min_width * die_side:
            hand |= part
    return hand if hand.any() else None


def longest_side(box: np.ndarray) -> float:
    """The longest side of a box (its corners in order), in its pixels."""
    return float(side_lengths(box).max())


def within(tray: Sequence[Sequence[float]] | np.ndarray, point: np.ndarray) -> bool:
    """Whether a frame point lies inside the tray polygon (False for fewer than 3 points)."""
    polygon = np.asarray(tray, np.float32).reshape(-1, 2)
    if len(polygon) < 3:
        return False
    return cv2.pointPolygonTest(polygon, (float(point[0]), float(point[1])), False) >= 0


def _cores(core: np.ndarray, cut: MapCut) -> list[np.ndarray]:
    """Each die's core as a bool mask of the grid: sure enough and big enough."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (core > cut.level).astype(np.uint8), connectivity=8
    )
    kept = []
    for label in range(1, count):
        part = labels == label
        if stats[label, cv2.CC_STAT_AREA] < cut.min_core_cells or core[part].max() < cut.core_peak:
            continue
        kept.append(part)
    return kept


def _owners(cores: list[np.ndarray], top: np.ndarray, reach_cells: int) -> np.ndarray:
    """Per grid cell, the number (1..) of the core nearest to it where the top map shows a
    top face (0 elsewhere): touching top faces are parted between their cores, a cell
    equally near two going to the first.

    Each core's distances are worked out within `reach_cells` cells of it only: a cell
    that near its nearest core lies in that core's window and there gets the distance
    the whole grid would give. When a top cell lies farther from every core, the whole
    grid is used."""
    owners = np.zeros(top.shape, np.int32)
    if not cores:
        return owners
    reach = top | np.logical_or.reduce(cores)
    nearest = np.zeros(top.shape, np.int32)
    best = np.full(top.shape, np.inf, np.float32)
    for number, part in enumerate(cores, start=1):
        ys, xs = np.nonzero(part)
        window = _around(ys, xs, reach_cells, top.shape)
        distance = _distance_to(part[window])
        closer = distance < best[window]
        best[window][closer] = distance[closer]
        nearest[window][closer] = number
    # A chamfer step moves at most one cell for at least _CHAMFER_STEP of distance.
    if (reach & (best > _CHAMFER_STEP * reach_cells)).any():
        nearest = np.argmin(np.stack([_distance_to(part) for part in cores]), axis=0) + 1
    owners[reach] = nearest[reach]
    return owners


def _distance_to(part: np.ndarray) -> np.ndarray:
    """Each cell's distance (3x3 chamfer, in cells) to the nearest cell of `part`, to a
    thousandth: OpenCV's sums differ in the last bits between a window and the whole
    grid, and two cores equally near must tie wherever it is measured."""
    distance = cv2.distanceTransform(np.where(part, 0, 255).astype(np.uint8), cv2.DIST_L2, 3)
    return np.round(distance, 3)


def _windows(owners: np.ndarray, count: int) -> list[tuple[slice, slice] | None]:
    """Per owner number 1..count, the part of the grid its cells need (their bounding
    box grown by _WINDOW_MARGIN cells, within the grid), or None when it owns none.

    Each die's box is worked out on its window alone: the same cells as on the whole
    grid (`_box` reaches one cell beyond its own), for a fraction of the work."""
    ys, xs = np.nonzero(owners)
    numbers = owners[ys, xs]
    windows: list[tuple[slice, slice] | None] = []
    for number in range(1, count + 1):
        mine = numbers == number
        found = _around(ys[mine], xs[mine], _WINDOW_MARGIN, owners.shape) if mine.any() else None
        windows.append(found)
    return windows


def _around(
    ys: np.ndarray, xs: np.ndarray, margin: int, shape: tuple[int, ...]
) -> tuple[slice, slice]:
    """The part of a grid of `shape` holding the cells (ys, xs) and `margin` cells more
    each way, within the grid."""
    rows, cols = shape[:2]
    return (
        slice(max(int(ys.min()) - margin, 0), min(int(ys.max()) + margin + 1, rows)),
        slice(max(int(xs.min()) - margin, 0), min(int(xs.max()) + margin + 1, cols)),
    )


def _box(
    top: np.ndarray,
    owned: np.ndarray,
    free: np.ndarray,
    cell: tuple[float, float],
    origin: tuple[int, int] = (0, 0),
    cut: MapCut = MapCut(),
) -> np.ndarray | None:
    """The rotated box of one die's top: its owned cells of the top map (with the ring of
    `free` cells around them, where its edge fades out), enlarged to frame pixels with
    bilinear interpolation, cut at the map's level and shrunk by `cut.box_scale`. None
    if nothing is left. The
    arrays may be a window of the grid whose first cell is grid cell `origin` (x, y)."""
    ys, xs = np.nonzero(owned)
    if len(xs) == 0:
        return None
    near = _around(ys, xs, 1, top.shape)  # its cells and the ring its edge fades into
    y0, x0 = near[0].start, near[1].start
    grown = cv2.dilate(owned.astype(np.uint8), np.ones((3, 3), np.uint8)) & free
    probability = top[near] * grown[near]
    factor = max(1, int(round(max(cell))))
    fine = cv2.resize(probability, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (fine > cut.level).astype(np.uint8), connectivity=8
    )
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours(
        (labels == biggest).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
    )
    (cx, cy), (w, h), angle = cv2.minAreaRect(np.concatenate(contours))  # of its outline
    size = ((w + 1) * cut.box_scale, (h + 1) * cut.box_scale)
    corners = cv2.boxPoints(((cx, cy), size, angle)).astype(np.float64)
    # A fine pixel u spans grid position x0 + u / factor .. + 1 / factor (cells), so its
    # centre lies at frame pixel (x0 + (u + 0.5) / factor) * cell - 0.5.
    frame_x = (origin[0] + x0 + (corners[:, 0] + 0.5) / factor) * cell[0] - 0.5
    frame_y = (origin[1] + y0 + (corners[:, 1] + 0.5) / factor) * cell[1] - 0.5
    return np.stack([frame_x, frame_y], axis=1).astype(np.float32)


def _brightness(frame: np.ndarray, box: np.ndarray, ring_shares: tuple[float, float]) -> float:
    """The commonest grey level of a face's rim (between `ring_shares`' inner and outer
    share of the box, `SideFaces.body_ring`): its body, whatever its numeral or a glint.
    A bold numeral (a W, a heavy 10) covers most of a face's middle, so the middle's
    commonest level can be the ink's."""
    centre = box.mean(axis=0)
    inner_share, outer_share = ring_shares
    outer = (box - centre) * outer_share + centre
    x0, y0 = np.floor(outer.min(axis=0)).astype(int)
    x1, y1 = np.ceil(outer.max(axis=0)).astype(int) + 1
    height, width = frame.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    origin = np.array([x0, y0], np.float64)
    ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(ring, np.round(outer - origin).astype(np.int32), 1)
    inner = (box - centre) * inner_share + centre
    cv2.fillConvexPoly(ring, np.round(inner - origin).astype(np.int32), 0)
    grey = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)[ring > 0]
    if grey.size == 0:
        return 0.0
    counts = np.bincount(grey, minlength=256).astype(np.float32)
    histogram = cv2.GaussianBlur(counts.reshape(1, -1), (0, 0), 2.0).ravel()
    return float(np.argmax(histogram))


def _drop_side_faces(
    boxes: list[np.ndarray], frame: np.ndarray, side: float, faces: SideFaces = SideFaces()
) -> list[np.ndarray]:
    """Remove side faces taken for tops: of two adjacent boxes, one clearly darker and
    nearer the picture's centre is the side of the other (`faces`). The camera sees the
    centre-facing sides of dice away from the middle (most of all of a die leaning on
    the tray wall), and light from above leaves every side darker than the top.

    Only the boxes of such a pair (near, and one outward of the other) have their body's
    brightness measured: that is most of this check's work, and most dice have no pair."""
    if side <= 0 or len(boxes) < 2:
        return boxes
    height, width = frame.shape[:2]
    centres = np.array([box.mean(axis=0) for box in boxes])
    outward = centres - np.array([width / 2, height / 2])  # per box j: from the middle
    step = centres[None, :, :] - centres[:, None, :]  # [i, j]: from box i to box j
    distance = np.sqrt(np.einsum("ijk,ijk->ij", step, step))
    along = np.einsum("ijk,jk->ij", step, outward)
    bound = faces.radial * distance * np.sqrt(np.einsum("jk,jk->j", outward, outward))[None, :]
    pairs = (distance <= faces.near * side) & (along > bound)
    np.fill_diagonal(pairs, False)
    levels: dict[int, float] = {}

    def level(index: int) -> float:
        if index not in levels:
            levels[index] = _brightness(frame, boxes[index], faces.body_ring)
        return levels[index]

    dropped = {
        int(i) for i, j in zip(*np.nonzero(pairs), strict=True)
        if level(int(i)) < faces.shade * level(int(j))
    }
    return [box for index, box in enumerate(boxes) if index not in dropped]

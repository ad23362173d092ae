"""Whether a located box has the shape of a die's top: the locator's judgement of a box,
used wherever the classifier alone cannot decide whether it is a die.

The classifier only knows faces it was trained to read, so on its own it cannot tell
"a die I cannot read" from "not a die", nor a die's face from a key cap or a cable
label with a numeral on it. The locator judges the top face's shape, not its print.
A box fits a `DieShape` when
- the locator is sure enough of it: its score (`vision.read.tops.box_score`, the smaller of
  its core's peak and its top's mean probability) is at least `min_score`;
- it is square like a die's top: longest over shortest side at most `max_aspect` (a
  side face, or two dice merged, come out long);
- it is the size of the frame's other dice at its place: its longest side within
  `side_range` times the side the frame's dice have there (`SizeByPlace`: a camera seen
  at a slant shows the near dice larger than the far ones);
- and it does not lie in the flagged hand region (a knuckle is not a die).

Two rules of the reader use it (`vision.read.settings.SortSettings`): a box the
classifier rejects is listed as an unreadable die when it fits `unreadable`, and a box
read as a face, not for sure, is kept only when it fits the looser `doubtful_face`
(laptop keys, cable plugs and labels are read as faces, but are seldom shaped like the
frame's dice). How the two shapes were measured is in models/MODEL_CARD.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.read.tops import Located
from vision.read.vectors import side_lengths

_RIDGE = 1e-9  # a plane's ridge: no slope across a line of boxes (normal equations' scale)


@dataclass(frozen=True)
class SizeByPlace:
    """How the side a die should have at a place of the frame is judged. Seen from above,
    every die has the frame's median side; a phone held at a slant shows the near dice up
    to half as large again as the far ones, so a die read with doubt at the near edge
    would be dropped as too large. Under a perspective view the log of a die's side
    changes about linearly across the frame, so a plane is fitted through the boxes' log
    sides over their centres, and read at the box's centre."""

    min_boxes: int = 7
    """With fewer other boxes in the frame, the median side is the reference."""
    max_residual: float = 0.25
    """Boxes whose log side lies further than this from the first plane (a key cap, two
    dice merged) are left out of the second fit."""
    max_ratio: float = 1.6
    """The plane's side anywhere is held within this factor of the frame's median."""

    def side_at(self, located: Located, index: int) -> float:
        """The side box `index` of `located` should have where it lies (`expected_sides`)."""
        if located.die_side <= 0:
            return located.die_side
        return float(self.expected_sides(located.boxes, located.die_side)[index])

    def expected_sides(self, boxes: Sequence[np.ndarray], median: float) -> np.ndarray:
        """The side each box (corners in frame pixels) should have where it lies, as the
        other boxes say (the box itself left out, so an odd box cannot bend the plane to
        itself); `median`, the frame's median die side, when too few others are there to
        fit it. Every box's plane is solved at once (least squares by normal equations)."""
        count = len(boxes)
        if count - 1 < self.min_boxes or median <= 0:
            return np.full(count, float(median))
        corners = np.asarray(boxes, np.float64)  # (count, 4, 2)
        scale = max(float(np.abs(corners).max()), 1.0)  # any scale fits alike
        design = np.column_stack([np.ones(count), corners.mean(axis=1) / scale])
        sides = np.log(np.maximum(_longest_sides(corners), 1e-6))
        others = ~np.eye(count, dtype=bool)  # row i: the boxes fitted for box i
        planes = self._planes(design, sides, others)
        residuals = np.abs(planes @ design.T - sides)  # (box fitted for, box)
        close = others & (residuals <= self.max_residual)
        refit = (close.sum(axis=1) >= self.min_boxes) & (close.sum(axis=1) < count - 1)
        if refit.any():
            planes[refit] = self._planes(design, sides, close[refit])
        expected = np.exp(np.einsum("ij,ij->i", planes, design))
        return np.clip(expected, median / self.max_ratio, median * self.max_ratio)

    @staticmethod
    def _planes(design: np.ndarray, sides: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """(rows, 3) least-squares planes, one per row of `weights` (which boxes it fits);
        a whisker of ridge keeps the plane flat across boxes that lie on one line."""
        normal = np.einsum("rj,jk,jl->rkl", weights.astype(np.float64), design, design)
        moment = np.einsum("rj,jk,j->rk", weights.astype(np.float64), design, sides)
        return np.linalg.solve(normal + _RIDGE * np.eye(3), moment[..., None])[..., 0]

    def ratios(self, boxes: Sequence[np.ndarray]) -> np.ndarray:
        """Each box's longest side over the side a die should have where it lies: well
        over 1 for a top seen with a side face, or a side face taken for a top."""
        if not boxes:
            return np.zeros(0)
        sides = _longest_sides(np.asarray(boxes, np.float64))
        median = float(np.median(sides))
        return sides / np.maximum(self.expected_sides(boxes, median), 1e-6)


@dataclass(frozen=True)
class DieShape:
    """How sure, how square and what size a box must be to count as a die's top."""

    min_score: float
    max_aspect: float
    side_range: tuple[float, float]
    #: A box the locator is at least this sure of may be long (None: never).
    long_score: float | None = None
    #: The side a die should have where the box lies (None: the frame's median anywhere).
    by_place: SizeByPlace | None = SizeByPlace()

    def fits(self, located: Located, index: int) -> bool:
        """Whether box `index` of `located` has this shape (see the module's rule)."""
        box = located.boxes[index]
        score = located.score(index)
        if score < self.min_score or located.die_side <= 0:
            return False
        sides = side_lengths(box)
        long_allowed = self.long_score is not None and score >= self.long_score
        if not long_allowed and sides.max() > self.max_aspect * max(float(sides.min()), 1e-6):
            return False
        low, high = self.side_range
        side = (located.die_side if self.by_place is None
                else self.by_place.side_at(located, index))
        if not low * side <= sides.max() <= high * side:
            return False
        return not in_hand(located, box.mean(axis=0))


def median_ratios(boxes: Sequence[np.ndarray]) -> np.ndarray:
    """Each box's longest side over the frame's median: where dice are judged against one
    size for the whole frame (a camera looking straight down)."""
    if not boxes:
        return np.zeros(0)
    sides = _longest_sides(np.asarray(boxes, np.float64))
    return sides / max(float(np.median(sides)), 1e-6)


def _longest_sides(corners: np.ndarray) -> np.ndarray:
    """Each box's longest side, for boxes stacked as (count, 4, 2) corners in order."""
    return side_lengths(corners).max(axis=1)


def in_hand(located: Located, point: np.ndarray) -> bool:
    """Whether a frame point lies on the flagged hand region of `located`."""
    mask = located.hand_mask
    if mask is None or located.frame_width <= 0:
        return False
    rows, cols = mask.shape
    cell = located.frame_width / cols
    column = int(np.clip(point[0] / cell, 0, cols - 1))
    row = int(np.clip(point[1] / cell, 0, rows - 1))
    return bool(mask[row, column])

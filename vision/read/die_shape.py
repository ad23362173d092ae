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
- it is the size of the frame's other dice: its longest side within `side_range`
  times the frame's median die side;
- and it does not lie in the flagged hand region (a knuckle is not a die).

Two rules use it (`vision.read.pipeline`):
- `UNREADABLE`: a box the classifier rejects is still listed, as an unreadable die,
  when it fits. Measured on every eighth desk photo of ../shared/realdata (dice
  scaled to 70 pixels): of the boxes the classifier rejected, it kept 54 of 67 on
  real dice and 3 of 22 false detections; a stricter score (0.9) kept 40 and 2.
  Its largest side was 1.4 times the frame's median die at first; 1.7 keeps three
  or four more real dice per size over all 396 desk photos (98.4-98.5 % located
  instead of 98.1-98.2 %) and no more false detections (a die nearer the camera, or
  whose box takes in a side face, measures larger); a smallest side of 0.6 instead
  of 0.7 added false detections and no dice.
- `DOUBTFUL_FACE`: a box read as a face, but not for sure, is kept only when it
  fits this looser shape. On the desk photos most false detections are read as
  faces: laptop keys (small, dark, with a glyph), cable plugs and a white cable
  label printed "C12.0". Measured over all 396 desk photos (boxes before the body
  check), the rule dropped 28, 29 and 27 false detections at dice of 45, 70 and 90
  pixels, and 1-2 real dice at each size; the stricter `UNREADABLE` shape would drop
  up to 6 real dice. A long box the locator is sure of (0.9) is kept: a die leaning
  on the tray wall, its box taking in the side face (no false detection on the
  desk photos was both long and that sure). Faces read for sure are never judged:
  rendered dice read for sure had locator scores as low as 0.67, as low as the
  cable label's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np

from vision.read.tops import Located


@dataclass(frozen=True)
class DieShape:
    """How sure, how square and what size a box must be to count as a die's top."""

    min_score: float
    max_aspect: float
    side_range: tuple[float, float]
    #: A box the locator is at least this sure of may be long (None: never).
    long_score: float | None = None

    def fits(self, located: Located, index: int) -> bool:
        """Whether box `index` of `located` has this shape (see the module's rule)."""
        box = located.boxes[index]
        score = located.score(index)
        if score < self.min_score or located.die_side <= 0:
            return False
        sides = np.linalg.norm(box - np.roll(box, 1, axis=0), axis=1)
        long_allowed = self.long_score is not None and score >= self.long_score
        if not long_allowed and sides.max() > self.max_aspect * max(float(sides.min()), 1e-6):
            return False
        low, high = self.side_range
        if not low * located.die_side <= sides.max() <= high * located.die_side:
            return False
        return not in_hand(located, box.mean(axis=0))


#: A box the classifier rejects is an unreadable die when it fits this.
UNREADABLE: Final[DieShape] = DieShape(min_score=0.8, max_aspect=1.4, side_range=(0.7, 1.7))
#: A box read as a face, not for sure, is a die only when it fits this.
DOUBTFUL_FACE: Final[DieShape] = DieShape(
    min_score=0.75, max_aspect=1.5, side_range=(0.7, 1.4), long_score=0.9
)


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

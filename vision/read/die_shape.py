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

Two rules of the reader use it (`vision.read.settings.SortSettings`): a box the
classifier rejects is listed as an unreadable die when it fits `unreadable`, and a box
read as a face, not for sure, is kept only when it fits the looser `doubtful_face`
(laptop keys, cable plugs and labels are read as faces, but are seldom shaped like the
frame's dice). How the two shapes were measured is in models/MODEL_CARD.md.
"""

from __future__ import annotations

from dataclasses import dataclass

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

"""One frame in, one Reading out: locate the top faces, classify them in one batch, decode.

`DiceReader` holds the classifier (loaded once) and the tray region; it never
knows where frames come from. A frame that is not an image, or a tray without
dice, gives an empty Reading rather than an error, because a camera loop must
keep going.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np

from scorer.dice import FULL_ROLL
from vision.decode import decode
from vision.reading import FLAG_BAD_FRAME, FLAG_HAND, FLAG_TOO_MANY, ReadDie, Reading
from vision.tops import Located, TopFinder

if TYPE_CHECKING:
    from vision.classifier import FaceClassifier

logger = logging.getLogger(__name__)

#: Candidates the classifier scores below this are not dice (stray blobs, a hand's edge).
MIN_FACE_PROB: Final[float] = 0.5


def is_frame(frame: object) -> bool:
    """A non-empty (H, W, 3) uint8 image, the only thing the pipeline reads."""
    return (
        isinstance(frame, np.ndarray)
        and frame.dtype == np.uint8
        and frame.ndim == 3
        and frame.shape[2] == 3
        and frame.shape[0] >= 8
        and frame.shape[1] >= 8
    )


class DiceReader:
    """Reads the dice of a frame: `read(frame) -> Reading`."""

    def __init__(
        self,
        classifier: FaceClassifier | None = None,
        tray: Sequence[Sequence[float]] | np.ndarray | None = None,
        threads: int = 1,
        *,
        use_inventory: bool = True,
        turns: int = 4,
        finder: TopFinder | None = None,
    ) -> None:
        """`tray`: a polygon of (x, y) pixel points; dice outside it are ignored.
        `turns`: quarter turns of each crop classified and averaged (1 to 4)."""
        if not 1 <= turns <= 4:
            raise ValueError(f"turns must be 1 to 4, got {turns}")
        self.turns = turns
        if classifier is None:
            from vision.classifier import FaceClassifier

            classifier = FaceClassifier.load(threads=threads)
        self.classifier = classifier
        self.finder = finder if finder is not None else TopFinder.load(threads=threads)
        self.tray = None if tray is None else np.asarray(tray, dtype=np.float32).reshape(-1, 2)
        self.use_inventory = use_inventory

    def _classify(self, crops: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Class probabilities per crop, averaged over the crop's quarter turns.

        The classifier's confidence depends on which way up a face is shown, and a
        located box has no "up"; averaging the four turns (one batched call) reads
        each face the same whatever its rotation on the table.
        """
        count = len(crops)
        turned = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(self.turns)])
        predictions = self.classifier.predict(np.ascontiguousarray(turned))

        def mean(array: np.ndarray) -> np.ndarray:
            return np.asarray(array, np.float64).reshape(self.turns, count, -1).mean(axis=0)

        return (
            mean(predictions.value_probs),
            mean(predictions.colour_probs),
            mean(predictions.face_prob).ravel(),
        )

    def locate(self, frame: np.ndarray) -> Located:
        return self.finder.locate(frame, self.tray)

    def read(self, frame: np.ndarray) -> Reading:
        """The dice in this frame, decoded jointly against the inventory."""
        if not is_frame(frame):
            shape = getattr(frame, "shape", None)
            logger.debug("not a BGR uint8 frame (shape %s): empty reading", shape)
            return Reading.empty((0, 0), FLAG_BAD_FRAME)
        size = (int(frame.shape[1]), int(frame.shape[0]))
        located = self.locate(frame)
        hand = (FLAG_HAND,) if located.hand else ()
        if not located.boxes:
            return Reading.empty(size, *hand)
        from vision.crops import crop_face

        crops = np.stack([crop_face(frame, corners) for corners in located.boxes])
        value_probs, colour_probs, face_prob = self._classify(crops)
        keep = np.flatnonzero(face_prob >= MIN_FACE_PROB)
        if keep.size == 0:
            return Reading.empty(size, *hand)
        boxes = [located.boxes[int(index)] for index in keep]
        decoding = decode(
            value_probs[keep], colour_probs[keep], use_inventory=self.use_inventory
        )
        dice = [
            ReadDie(
                die=face.die,
                confidence=face.confidence,
                centre=_centre(corners),
                corners=tuple((float(x), float(y)) for x, y in corners),
                unsure=face.unsure,
                alternatives=face.alternatives,
            )
            for face, corners in zip(decoding.faces, boxes, strict=True)
        ]
        dice.sort(key=lambda read: (read.centre[1], read.centre[0]))
        flags = list(hand) + [flag for flag in decoding.flags if flag not in hand]
        if len(dice) > FULL_ROLL and FLAG_TOO_MANY not in flags:
            flags.append(FLAG_TOO_MANY)
        return Reading(tuple(dice), size, tuple(flags))


def _centre(corners: np.ndarray) -> tuple[float, float]:
    x, y = np.asarray(corners, dtype=np.float64).mean(axis=0)
    return (round(float(x), 2), round(float(y), 2))

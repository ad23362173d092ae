"""The reader the trainers' worker processes draw their chunks with: readouts only.

`models.train_frame_colours` and `models.train_face_probe` both render scenes and keep
what the shipped (or given) locator and classifier make of each box. Neither wants what
the reader adds after: the frame network (which the first is training, and may not
exist yet), the calibration's marks or the face probe's doubts (which the second is
fitting). One process, one thread for OpenCV: the pool is the parallelism.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.read.pipeline import DiceReader


def readout_reader(model: str | None, locator: str | None) -> DiceReader:
    """A reader of the classifier at `model` and the locator at `locator` (None: the
    shipped ones), with no frame network, calibration or face probe."""
    import cv2

    from vision.read.classifier import FaceClassifier
    from vision.read.pipeline import DiceReader
    from vision.read.settings import ColourSettings, ReaderSettings
    from vision.read.tops import TopFinder

    cv2.setNumThreads(1)
    return DiceReader(
        FaceClassifier.load(Path(model) if model else None),
        finder=TopFinder.load(Path(locator) if locator else None),
        settings=ReaderSettings(colour=ColourSettings(frame_inks=False)),
        calibration=False, face_probe=False,
    )

"""The face classifier at run time: the shipped ONNX model under ONNX Runtime (never torch).

The model file is data shipped with the package, loaded and verified by
`vision.onnx_model` once, then warmed up so the first real frame is not slow.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from scorer.dice import Die
from vision.crops import CROP_SIZE, crops_to_tensor
from vision.labels import die_from_indices
from vision.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.model_io import FACE_MODEL_FILE as MODEL_NAME
from vision.model_io import FACE_OUTPUTS as OUTPUT_NAMES
from vision.onnx_model import ModelFileError, load_session

logger = logging.getLogger(__name__)

__all__ = [
    "COLOUR_LABELS",
    "MODEL_NAME",
    "VALUE_LABELS",
    "FaceClassifier",
    "FacePredictions",
    "ModelFileError",
]



@dataclass(frozen=True)
class FacePredictions:
    """Per-crop probabilities: value (N, 11) in VALUE_LABELS order, colour (N, 4), face (N,)."""

    value_probs: np.ndarray
    colour_probs: np.ndarray
    face_prob: np.ndarray

    def __len__(self) -> int:
        return len(self.face_prob)

    def best_dice(self) -> list[Die]:
        """The most likely face of each crop (whatever its face probability)."""
        values = self.value_probs.argmax(axis=1)
        colours = self.colour_probs.argmax(axis=1)
        return [die_from_indices(int(v), int(c)) for v, c in zip(values, colours, strict=True)]


class FaceClassifier:
    """Reads die faces from crops; one batched ONNX Runtime call per frame."""

    def __init__(self, session: ort.InferenceSession, name: str) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.name = name

    @classmethod
    def load(cls, path: Path | None = None, *, threads: int = 1) -> FaceClassifier:
        """Load, verify and warm up the model (default: the one shipped in `models/`)."""
        session, name = load_session(path, MODEL_NAME, OUTPUT_NAMES, threads)
        classifier = cls(session, name)
        classifier.predict(np.zeros((1, CROP_SIZE, CROP_SIZE, 3), np.uint8))  # warm-up
        logger.info("loaded %s (%d threads)", name, threads)
        return classifier

    def predict(self, crops: np.ndarray) -> FacePredictions:
        """Probabilities for (N, CROP_SIZE, CROP_SIZE, 3) uint8 BGR crops, in one call."""
        array = np.asarray(crops)
        if array.ndim != 4 or array.shape[1:] != (CROP_SIZE, CROP_SIZE, 3):
            raise ValueError(
                f"crops must be (N, {CROP_SIZE}, {CROP_SIZE}, 3) uint8, got shape {array.shape}"
            )
        if len(array) == 0:
            return FacePredictions(
                np.zeros((0, len(VALUE_LABELS)), np.float32),
                np.zeros((0, len(COLOUR_LABELS)), np.float32),
                np.zeros((0,), np.float32),
            )
        value, colour, face = self._session.run(
            list(OUTPUT_NAMES), {self._input: crops_to_tensor(array)}
        )
        return FacePredictions(value, colour, face)

"""The face classifier at run time: the shipped ONNX model under ONNX Runtime (never torch).

The model file is data shipped with the package, loaded and verified by
`vision.read.onnx_model` once, then warmed up so the first real frame is not slow.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from scorer.dice import Die
from vision.read.crops import CROP_SIZE, crops_to_tensor
from vision.read.labels import die_from_indices
from vision.read.model_io import COLOUR_LABELS, FACE_EMBEDDING, VALUE_LABELS
from vision.read.model_io import FACE_MODEL_FILE as MODEL_NAME
from vision.read.model_io import FACE_OUTPUTS as OUTPUT_NAMES
from vision.read.onnx_model import ModelFileError, load_session
from vision.read.vectors import unit_rows

logger = logging.getLogger(__name__)

__all__ = [
    "COLOUR_LABELS",
    "MODEL_NAME",
    "VALUE_LABELS",
    "FaceClassifier",
    "FacePredictions",
    "ModelFileError",
]

EMBEDDING_OUTPUT = FACE_EMBEDDING  # the model_io name, as the runtime calls it


@dataclass(frozen=True)
class FacePredictions:
    """Per-crop probabilities: value (N, 11) in VALUE_LABELS order, colour (N, 4), face (N,)."""

    value_probs: np.ndarray
    colour_probs: np.ndarray
    face_prob: np.ndarray
    embeddings: np.ndarray | None = None  # (N, D) when the model exports its embedding

    def __len__(self) -> int:
        return len(self.face_prob)

    def best_dice(self) -> list[Die]:
        """The most likely face of each crop (whatever its face probability)."""
        values = self.value_probs.argmax(axis=1)
        colours = self.colour_probs.argmax(axis=1)
        return [die_from_indices(int(v), int(c)) for v, c in zip(values, colours, strict=True)]


class FaceClassifier:
    """Reads die faces from crops; one batched ONNX Runtime call per frame."""

    def __init__(self, session: ort.InferenceSession, name: str, sha256: str = "") -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self._outputs = [output.name for output in session.get_outputs()]
        self.name = name
        self.sha256 = sha256

    @property
    def has_embedding(self) -> bool:
        """Whether this model gives the embedding a dice profile needs."""
        return EMBEDDING_OUTPUT in self._outputs

    @classmethod
    def load(cls, path: Path | None = None, *, threads: int = 1) -> FaceClassifier:
        """Load, verify and warm up the model (default: the one shipped in `models/`)."""
        loaded = load_session(
            path, MODEL_NAME, OUTPUT_NAMES, threads, optional=(EMBEDDING_OUTPUT,)
        )
        classifier = cls(loaded.session, loaded.name, loaded.sha256)
        classifier.predict(np.zeros((1, CROP_SIZE, CROP_SIZE, 3), np.uint8))  # warm-up
        logger.info("loaded %s (%d threads)", loaded.name, threads)
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
        value, colour, face, *embedding = self._session.run(
            self._outputs, {self._input: crops_to_tensor(array)}
        )
        return FacePredictions(value, colour, face, embedding[0] if embedding else None)

    def predict_turns(self, crops: np.ndarray, turns: int = 4) -> FacePredictions:
        """Each crop read at `turns` quarter turns in one batched call, averaged: the
        probabilities (float64), and as `embeddings` one unit descriptor per crop (what
        `vision.profile.profile` compares faces by), None when the model has no embedding.

        A located box has no "up", and the network's confidence depends on which way up
        a face is shown; averaging the turns reads a face the same whatever its rotation
        on the table, and describes it the same too."""
        array = np.asarray(crops, np.uint8)
        if len(array) == 0:
            return self.predict(array)
        turned = np.concatenate([np.rot90(array, k, axes=(1, 2)) for k in range(turns)])
        predictions = self.predict(np.ascontiguousarray(turned))

        def mean(values: np.ndarray) -> np.ndarray:
            return np.asarray(values, np.float64).reshape(turns, len(array), -1).mean(axis=0)

        descriptors = None
        if predictions.embeddings is not None:
            descriptors = unit_rows(mean(predictions.embeddings))
        return FacePredictions(
            mean(predictions.value_probs),
            mean(predictions.colour_probs),
            mean(predictions.face_prob).ravel(),
            descriptors,
        )

    def describe(self, crops: np.ndarray, turns: int = 4) -> np.ndarray:
        """One unit descriptor per crop (`predict_turns`); ValueError for a model without
        an embedding."""
        if not self.has_embedding:
            raise ValueError(f"{self.name} has no {EMBEDDING_OUTPUT} output")
        if len(crops) == 0:
            return np.zeros((0, 0), np.float32)
        descriptors = self.predict_turns(crops, turns).embeddings
        assert descriptors is not None  # the model has an embedding
        return descriptors

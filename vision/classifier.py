"""The face classifier at run time: the shipped ONNX model under ONNX Runtime (never torch).

The model file is data shipped with the package: it is located with
importlib.resources, checked against the SHA-256 stored beside it, loaded once
with an explicit thread count and warmed up, so the first real frame is not slow.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime as ort

from scorer.dice import Die
from vision.crops import CROP_SIZE, crops_to_tensor
from vision.labels import COLOUR_LABELS, VALUE_LABELS, die_from_indices

logger = logging.getLogger(__name__)

__all__ = [
    "COLOUR_LABELS",
    "MODEL_NAME",
    "VALUE_LABELS",
    "FaceClassifier",
    "FacePredictions",
    "ModelFileError",
]

MODEL_NAME = "dice_faces.onnx"
OUTPUT_NAMES = ("value_probs", "colour_probs", "face_prob")


class ModelFileError(RuntimeError):
    """The model file is missing, corrupt, or not the model this code expects."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"model file {self.path}: {problem}")


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


def _read_model(path: Path | None) -> tuple[str, bytes, str]:
    """(display name, model bytes, expected SHA-256) of the given or the shipped model."""
    if path is None:
        package = resources.files("models")
        model, digest = package.joinpath(MODEL_NAME), package.joinpath("dice_faces.sha256")
        name = f"models/{MODEL_NAME}"
    else:
        model, digest = Path(path), Path(path).with_suffix(".sha256")
        name = str(path)
    if not model.is_file():
        raise ModelFileError(name, "file not found")
    if not digest.is_file():
        raise ModelFileError(name, f"its hash file {digest.name} is missing beside it")
    fields = digest.read_text(encoding="utf-8").split()
    if not fields or len(fields[0]) != 64:
        raise ModelFileError(name, f"its hash file {digest.name} holds no SHA-256")
    return name, model.read_bytes(), fields[0].lower()


class FaceClassifier:
    """Reads die faces from crops; one batched ONNX Runtime call per frame."""

    def __init__(self, session: ort.InferenceSession, name: str) -> None:
        self._session = session
        self._input = session.get_inputs()[0].name
        self.name = name

    @classmethod
    def load(cls, path: Path | None = None, *, threads: int = 1) -> FaceClassifier:
        """Load, verify and warm up the model (default: the one shipped in `models/`)."""
        if threads < 1:
            raise ValueError(f"threads must be at least 1, got {threads}")
        name, data, expected = _read_model(path)
        actual = hashlib.sha256(data).hexdigest()
        if actual != expected:
            raise ModelFileError(
                name, f"SHA-256 is {actual}, expected {expected}: the file is corrupt or replaced"
            )
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        try:
            session = ort.InferenceSession(
                data, sess_options=options, providers=["CPUExecutionProvider"]
            )
        except Exception as error:  # onnxruntime raises its own untyped errors
            raise ModelFileError(name, f"not a loadable ONNX model ({error})") from error
        outputs = tuple(o.name for o in session.get_outputs())
        if outputs != OUTPUT_NAMES:
            raise ModelFileError(name, f"outputs are {outputs}, expected {OUTPUT_NAMES}")
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

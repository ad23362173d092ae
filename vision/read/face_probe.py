"""Whether a crop read as a face is a Phase 10 die's face or another numeral die's.

The classifier's face head was taught that pip faces, blank faces and clutter are no
Phase 10 face, and it rejects them; but a numeral on a d20's triangle or a plain
six-sided die is a numeral all the same, and the head reads a quarter of such faces as a
sure face. The classifier's embedding tells them apart better than its head does: a
probe on it, a network of one small hidden layer (`models.train_face_probe`, fitted on
drawn dice in the training fonts), gives each crop the log-odds that it is a Phase 10
face rather than another die's, and a die under the probe's threshold (chosen on other
scenes, in unseen fonts, to doubt a set share of Phase 10 dice) is marked for a tap
whatever its roll.

The probe is a few thousand numbers kept beside the classifier in
`models/face_probe.json`, with the classifier's SHA-256: a probe fitted on another
network's embedding is refused, and no die is doubted.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

logger = logging.getLogger(__name__)

PROBE_FILE: Final[Path] = Path(__file__).resolve().parents[2] / "models" / "face_probe.json"


@dataclass(frozen=True, eq=False)
class FaceProbe:
    """A small network on the classifier's unit descriptors (`FacePredictions.embeddings`
    of `predict_turns`): one hidden layer of rectified units, then their weighed sum, the
    log-odds that the crop is a Phase 10 face. The descriptors' scaling is folded into
    the hidden layer."""

    hidden_weights: np.ndarray  # (D, H)
    hidden_bias: np.ndarray  # (H,)
    weights: np.ndarray  # (H,)
    bias: float
    min_odds: float
    """A die whose crop scores under this is doubted (`doubts`)."""
    classifier_sha256: str = ""

    def __post_init__(self) -> None:
        for name in ("hidden_weights", "hidden_bias", "weights"):
            object.__setattr__(self, name, np.asarray(getattr(self, name), np.float64))
        hidden = self.hidden_weights
        if hidden.ndim != 2 or hidden.size == 0 or self.hidden_bias.shape != hidden.shape[1:] \
                or self.weights.shape != hidden.shape[1:]:
            raise ValueError("a face probe needs (D, H) hidden weights, H hidden biases and "
                             "H weights")
        numbers = np.concatenate([hidden.ravel(), self.hidden_bias, self.weights,
                                  np.array([self.bias, self.min_odds], np.float64)])
        if not np.isfinite(numbers).all():
            raise ValueError("a face probe's numbers must be finite")

    @property
    def inputs(self) -> int:
        """The length of the descriptors it reads (the classifier's embedding)."""
        return int(self.hidden_weights.shape[0])

    def odds(self, descriptors: np.ndarray) -> np.ndarray:
        """(N,) log-odds that each of (N, D) descriptors is a Phase 10 face rather than
        another numeral die's; ValueError when D is not the probe's."""
        array = np.asarray(descriptors, np.float64)
        if array.ndim != 2 or array.shape[1] != self.inputs:
            raise ValueError(f"descriptors must be (N, {self.inputs}), got {array.shape}")
        hidden = np.maximum(array @ self.hidden_weights + self.hidden_bias, 0.0)
        return hidden @ self.weights + self.bias

    def doubts(self, odds: float | None) -> bool:
        """Whether a die whose crop scored `odds` is marked (None: not probed, never)."""
        return odds is not None and odds < self.min_odds

    def to_dict(self) -> dict:
        return {"classifier_sha256": self.classifier_sha256,
                "min_odds": round(self.min_odds, 6), "bias": round(self.bias, 7),
                "weights": _rounded(self.weights), "hidden_bias": _rounded(self.hidden_bias),
                "hidden_weights": [_rounded(row) for row in self.hidden_weights]}

    @classmethod
    def from_dict(cls, data: dict) -> FaceProbe:
        return cls(np.array(data["hidden_weights"], np.float64),
                   np.array(data["hidden_bias"], np.float64),
                   np.array(data["weights"], np.float64), float(data["bias"]),
                   float(data["min_odds"]), str(data.get("classifier_sha256", "")))

    def save(self, path: Path = PROBE_FILE) -> None:
        path.write_text(json.dumps(self.to_dict(), separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: Path = PROBE_FILE, classifier_sha256: str | None = None
             ) -> FaceProbe | None:
        """The probe at `path`; None (with a warning) when there is none, or when it was
        fitted on another classifier's embedding than `classifier_sha256`'s; ValueError
        naming the file when it holds no probe."""
        if not path.is_file():
            logger.warning("no face probe at %s: other dice's faces are judged by the "
                           "classifier's face head alone", path)
            return None
        try:
            probe = cls.from_dict(json.loads(path.read_text()))
        except (ValueError, KeyError, TypeError) as error:  # JSONDecodeError is a ValueError
            raise ValueError(f"{path} is not a face probe file: {error}") from error
        if classifier_sha256 and probe.classifier_sha256 not in ("", classifier_sha256):
            logger.warning("%s was fitted on another classifier: not used", path)
            return None
        return probe


def _rounded(values: np.ndarray) -> list[float]:
    """Seven significant digits: the probe's odds move by far less than its threshold's
    grain."""
    return [float(f"{value:.7g}") for value in values]

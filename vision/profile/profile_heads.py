"""The classifier's heads fitted to the user's own dice: a small model over the profile.

The network reads a face through two linear heads on its pooled features (value and
colour). A household's dice differ from everything it was trained on in ways that are
the same on every die of the set: a font whose 3 looks like the network's 5, a red
ink that leans towards orange. The profile holds crops of those very dice with their
confirmed faces, so a correction to each head, linear in the same features, can be
fitted to them: the network's own log-probabilities plus `descriptor @ weights + bias`,
trained by cross-entropy on the examples. Starting from zero, with a weight penalty
and a few hundred gradient steps, it only moves where the network was wrong or unsure
on the user's dice, and stays near zero elsewhere; a class the examples never show is
left as the network reads it. What it learns of a value on one colour applies to every
colour (and of a colour to every value), so faces the profile has not seen gain from it
too.

Each example is described at its quarter turns (`HeadsSettings.turns`, four), each a
sample of its own (a die lands any way up). `fit_profile_heads` needs the classifier
(for its outputs on the examples); `ProfileHeads.evidence` only the descriptors the
reader has anyway. The classifier's outputs on an example are kept in memory
(`_TurnOutputs`), so fitting again after a roll is taught or a die corrected classifies
only the new examples. How the fitting's settings (`vision.profile.settings.
HeadsSettings`) were chosen is in models/MODEL_CARD.md ("The colour and decode stages'
settings").
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np

from vision.profile.settings import HeadsSettings
from vision.read.decode import by_face
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.read.vectors import unit_rows

if TYPE_CHECKING:
    from vision.profile.profile import DiceProfile
    from vision.read.classifier import FaceClassifier

_PROB_FLOOR: Final[float] = 1e-9


@dataclass(frozen=True)
class HeadCorrection:
    """A linear correction to one head's log-probabilities: `features @ weights + bias`."""

    weights: np.ndarray  # (D, K)
    bias: np.ndarray  # (K,)

    def logits(self, features: np.ndarray) -> np.ndarray:
        """(N, K) corrections for (N, D) unit descriptors."""
        return np.asarray(features, np.float64) @ self.weights + self.bias


def fit_correction(
    features: np.ndarray,
    base_log_probs: np.ndarray,
    labels: np.ndarray,
    settings: HeadsSettings = HeadsSettings(),
) -> HeadCorrection:
    """The correction that, added to `base_log_probs` (N, K), best explains `labels` (N,)
    from `features` (N, D): `settings.steps` steps of gradient descent on the mean
    cross-entropy among the classes the labels show, plus `settings.penalty` / 2 times the
    squared weights, from zero.

    A class no example shows keeps a correction of zero, and so does every class while
    the examples show fewer than two. Every set carries every value and colour, so a
    few confirmed rolls without a green die say nothing of how the household's green
    looks: fitted over every class, one taught roll pushed each class it lacked down for
    every die, and read worse than no profile (MODEL_CARD.md)."""
    x = np.asarray(features, np.float64)
    base = np.asarray(base_log_probs, np.float64)
    labels = np.asarray(labels, int)
    count, classes = base.shape
    if x.shape[0] != count or len(labels) != count:
        raise ValueError(f"{x.shape[0]} features, {count} base rows and {len(labels)} labels")
    if count and not 0 <= labels.min() <= labels.max() < classes:
        raise ValueError(f"labels must be classes 0 to {classes - 1}")
    weights = np.zeros((x.shape[1], classes))
    bias = np.zeros(classes)
    shown = np.flatnonzero(np.bincount(labels, minlength=classes))
    if len(shown) < 2:
        return HeadCorrection(weights, bias)
    base = base[:, shown]
    target = (labels[:, None] == shown[None, :]).astype(np.float64)
    fitted_weights = np.zeros((x.shape[1], len(shown)))
    fitted_bias = np.zeros(len(shown))
    penalty, rate = settings.penalty, settings.rate
    for _ in range(settings.steps):
        logits = base + x @ fitted_weights + fitted_bias
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        probs /= probs.sum(axis=1, keepdims=True)
        gradient = (probs - target) / count
        fitted_weights -= rate * (x.T @ gradient + penalty * fitted_weights)
        fitted_bias -= rate * (gradient.sum(axis=0) + penalty * fitted_bias)
    weights[:, shown] = fitted_weights
    bias[shown] = fitted_bias
    return HeadCorrection(weights, bias)


@dataclass(frozen=True)
class ProfileHeads:
    """The value and colour corrections fitted to one profile's examples."""

    value: HeadCorrection
    colour: HeadCorrection

    def evidence(self, descriptors: np.ndarray) -> np.ndarray:
        """(N, 44) log-likelihood adjustments in `vision.read.decode.FACES` order (value-major):
        each face gets its value's correction plus its colour's."""
        value = self.value.logits(descriptors)  # (N, values)
        colour = self.colour.logits(descriptors)  # (N, colours)
        return np.repeat(value, len(COLOUR_LABELS), axis=1) + by_face(colour)


def fit_profile_heads(
    profile: DiceProfile, classifier: FaceClassifier, settings: HeadsSettings = HeadsSettings()
) -> ProfileHeads | None:
    """Corrections to `classifier`'s heads fitted to `profile`'s examples at each of
    `settings.turns` quarter turns; None for an empty profile or a classifier without an
    embedding output."""
    if not len(profile) or not classifier.has_embedding:
        return None
    features, value_log, colour_log = _TURN_OUTPUTS.of(
        np.asarray(profile.crops), classifier, settings.turns)
    values = np.repeat(profile.values.astype(int), settings.turns)
    colours = np.repeat(profile.colours.astype(int), settings.turns)
    return ProfileHeads(
        fit_correction(features, value_log, values, settings),
        fit_correction(features, colour_log, colours, settings),
    )


def example_probs(
    profile: DiceProfile, classifier: FaceClassifier, settings: HeadsSettings = HeadsSettings()
) -> tuple[np.ndarray, np.ndarray]:
    """(N, V) value and (N, C) colour probabilities the classifier gives each of
    `profile`'s examples, the mean over its `settings.turns` quarter turns (kept with the
    outputs the heads are fitted on)."""
    if not len(profile):
        return np.zeros((0, len(VALUE_LABELS))), np.zeros((0, len(COLOUR_LABELS)))
    turns = settings.turns
    _, value_log, colour_log = _TURN_OUTPUTS.of(np.asarray(profile.crops), classifier, turns)
    value, colour = (np.exp(log).reshape(len(profile), turns, -1).mean(axis=1)
                     for log in (value_log, colour_log))
    return value, colour


def _log(probs: np.ndarray) -> np.ndarray:
    array = np.maximum(np.asarray(probs, np.float64), _PROB_FLOOR)
    return np.log(array / array.sum(axis=1, keepdims=True))


class _TurnOutputs:
    """The classifier's outputs on each example crop at its first few quarter turns, kept by
    (classifier, turns, crop) for the last `limit` crops seen: a refit classifies only new
    ones."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._kept: OrderedDict[tuple[str, int, bytes], tuple[np.ndarray, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def of(
        self, crops: np.ndarray, classifier: FaceClassifier, turns: int
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(N * turns, D) unit features and value and colour log-probabilities at each
        example's first `turns` quarter turns, its turns in a row."""
        crops = np.ascontiguousarray(crops, np.uint8)
        model = classifier.sha256 or f"unhashed {id(classifier)}"  # a stand-in in tests
        keys = [(model, turns, hashlib.blake2b(crop.tobytes(), digest_size=16).digest())
                for crop in crops]
        with self._lock:
            found = {i: self._kept[key] for i, key in enumerate(keys) if key in self._kept}
        missing = [i for i in range(len(keys)) if i not in found]
        if missing:
            new = crops[missing]
            turned = np.stack([np.rot90(new, k, axes=(1, 2)) for k in range(turns)], axis=1)
            read = classifier.predict(np.ascontiguousarray(turned.reshape(-1, *new.shape[1:])))
            assert read.embeddings is not None  # the caller checked has_embedding
            outputs = (unit_rows(read.embeddings), _log(read.value_probs),
                       _log(read.colour_probs))
            for row, index in enumerate(missing):
                rows_of = slice(row * turns, (row + 1) * turns)
                found[index] = tuple(output[rows_of] for output in outputs)
        with self._lock:
            for index, key in enumerate(keys):
                self._kept[key] = found[index]
                self._kept.move_to_end(key)
            while len(self._kept) > self._limit:
                self._kept.popitem(last=False)
        rows = [found[index] for index in range(len(keys))]
        features, value_log, colour_log = (np.concatenate(part) for part in zip(*rows, strict=True))
        return features, value_log, colour_log


#: Outputs kept for this many example crops (a large profile and then some).
_TURN_OUTPUTS: Final[_TurnOutputs] = _TurnOutputs(limit=4000)

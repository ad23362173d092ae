"""Red or orange, settled by the whole frame: a small network over each warm die's ink.

Red and orange are the two palette colours whose inks lie closest, and a set's red may
lean towards orange and its orange towards red. `vision.read.frame_inks` compares each
die's ink with the frame's other dice, but only by distance: it cannot tell which of
two warm inks is the redder, nor weigh a die whose print is thin (its ink measure
pale) against one printed bold. This module gives each warm die (one the classifier
believes red or orange) a row of numbers about its ink *relative to the frame's other
warm dice*: where it lies along the red-to-orange direction against them, how far
from the dice believed red and those believed orange, how many of each there are, its
body's lightness, the classifier's and the frame inks' verdicts. Where the ink lies in
absolute terms is left out on purpose: that is the classifier's to judge, and a network
trained on one renderer's inks would judge it for inks it never saw. A small network
(`models/frame_colours.onnx`, trained by `models.train_frame_colours` on scenes in the
training fonts that no other model trained on) turns the row into the odds of red
against orange, and the die's red and orange evidence is replaced by those odds,
keeping its total belief in the two warm colours where `vision.read.frame_inks` put it.

Dice that are not warm, and a frame of fewer than two dice, keep `frame_inks`'
evidence unchanged. Numpy and ONNX Runtime only.
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numpy as np

from scorer.dice import COLOUR_RGB
from vision.read.crops import channel_medians
from vision.read.frame_inks import frame_ink_evidence
from vision.read.model_io import COLOUR_LABELS
from vision.read.onnx_model import LoadedModel, load_session
from vision.read.settings import FrameInkSettings

MODEL_FILE: Final[str] = "frame_colours.onnx"
INPUT: Final[str] = "features"
OUTPUTS: Final[tuple[str, ...]] = ("logit",)

# The constants below define the network's input rows (`warm_rows`, which training builds
# too): a fixed contract with `models/frame_colours.onnx`, not settings.

#: A die is warm when the classifier gives the two warm colours together this much.
WARM_SHARE: Final[float] = 0.5
#: Log-odds are clipped here so one certain die never dominates a feature's scale.
_MAX_LOG_ODDS: Final[float] = 12.0
#: Probabilities are floored here before their logarithm.
_FLOOR: Final[float] = 1e-9
#: Others' belief in a colour at or below this leaves that colour's reference unknown.
_MIN_REFERENCE_WEIGHT: Final[float] = 0.3

#: An orthonormal basis of the plane of ink chroma (`vision.read.frame_inks.ink_chroma` rows sum
#: to zero), BGR order: blue less green, then blue and green less red.
INK_PLANE: Final[np.ndarray] = np.array([[1.0, -1.0, 0.0], [1.0, 1.0, -2.0]]) / np.array(
    [[np.sqrt(2.0)], [np.sqrt(6.0)]]
)
#: The direction from a set's red ink to its orange ink in that plane: the mean of
#: orange less red over 543 frames in the training fonts (light and dark bodies).
RED_TO_ORANGE: Final[np.ndarray] = np.array([-0.99, 0.12]) / np.hypot(-0.99, 0.12)

FEATURES: Final[tuple[str, ...]] = (
    "classifier log-odds, redder over the other warm colour",
    "the same with the frame inks' evidence",
    "ink along the red-to-orange direction less the warm dice's mean",
    "ink along it less the others believed redder",
    "ink along it less the others believed the other",
    "no other die believed redder",
    "no other die believed the other",
    "ink along it less the others' least",
    "the others' greatest less the ink along it",
    "the others' mean classifier log-odds",
    "ink across the direction less the others' mean",
    "body lightness (0..1)",
    "warm dice in the frame",
    "others the classifier holds redder",
    "share of the others lying redder along the direction",
    "the classifier's belief in the cool colours",
)
"""What each column of a warm die's row means, in order: the model file's input."""


def warm_pair() -> tuple[int, int]:
    """Indices (in COLOUR_LABELS) of the two palette colours whose hues lie nearest,
    the redder (lower hue, turning through red) first: red and orange."""
    hues = {
        letter: colorsys.rgb_to_hsv(*(c / 255.0 for c in COLOUR_RGB[letter]))[0]
        for letter in COLOUR_LABELS
    }

    def apart(a: str, b: str) -> float:
        d = abs(hues[a] - hues[b]) % 1.0
        return min(d, 1.0 - d)

    pairs = [(a, b) for i, a in enumerate(COLOUR_LABELS) for b in COLOUR_LABELS[i + 1 :]]
    a, b = min(pairs, key=lambda pair: apart(*pair))
    # The redder of the two is the one the other lies ahead of, turning through hue.
    redder, other = (a, b) if (hues[b] - hues[a]) % 1.0 < 0.5 else (b, a)
    return COLOUR_LABELS.index(redder), COLOUR_LABELS.index(other)


WARM: Final[tuple[int, int]] = warm_pair()


def crop_lightness(crops: np.ndarray) -> np.ndarray:
    """(N,) lightness of each crop's body in 0..1: the mean over channels of each
    channel's median (most of a crop is its die's body)."""
    if len(crops) == 0:
        return np.zeros(0)
    return channel_medians(crops).mean(axis=1) / 255.0


@dataclass(frozen=True)
class WarmRows:
    """The warm dice of a frame: their indices, feature rows (FEATURES order), and
    the red-over-orange log-odds of the classifier with the frame inks' evidence."""

    index: np.ndarray  # (K,) int
    rows: np.ndarray  # (K, len(FEATURES)) float32
    log_odds: np.ndarray  # (K,)


def warm_rows(
    chroma: np.ndarray,
    colour_probs: np.ndarray,
    lightness: np.ndarray,
    evidence: np.ndarray,
) -> WarmRows:
    """The feature row of every warm die of a frame (see FEATURES).

    `chroma`: (N, 3) ink chroma (`vision.read.frame_inks.ink_chroma`); `colour_probs`: (N, C);
    `lightness`: (N,) (`crop_lightness`); `evidence`: (N, C) `frame_ink_evidence`."""
    probs = np.maximum(np.asarray(colour_probs, np.float64), _FLOOR)
    red, orange = WARM
    index = np.flatnonzero(probs[:, red] + probs[:, orange] >= WARM_SHARE)
    count = len(index)
    if count == 0:
        return WarmRows(index, np.zeros((0, len(FEATURES)), np.float32), np.zeros(0))
    plane = np.asarray(chroma, np.float64)[index] @ INK_PLANE.T
    along = plane @ RED_TO_ORANGE
    across = plane @ np.array([-RED_TO_ORANGE[1], RED_TO_ORANGE[0]])
    odds = np.log(probs[index, red] / probs[index, orange])
    ev = np.asarray(evidence, np.float64)
    with_inks = odds + ev[index, red] - ev[index, orange]
    belief = 1.0 / (1.0 + np.exp(-odds))  # the classifier's red share of the warm belief
    cool = np.delete(probs[index], [red, orange], axis=1).sum(axis=1)
    light = np.asarray(lightness, np.float64)[index]
    rows = np.zeros((count, len(FEATURES)))
    for a in range(count):
        others = np.delete(np.arange(count), a)
        row = rows[a]
        row[0] = np.clip(odds[a], -_MAX_LOG_ODDS, _MAX_LOG_ODDS)
        row[1] = np.clip(with_inks[a], -_MAX_LOG_ODDS, _MAX_LOG_ODDS)
        row[2] = along[a] - along.mean()
        row[11], row[12] = light[a], count
        row[15] = cool[a]
        if len(others) == 0:
            row[5] = row[6] = 1.0
            row[14] = 0.5
            continue
        for column, flag, weight in ((3, 5, belief[others]), (4, 6, 1.0 - belief[others])):
            if weight.sum() > _MIN_REFERENCE_WEIGHT:
                row[column] = along[a] - weight @ along[others] / weight.sum()
            else:
                row[flag] = 1.0
        row[7] = along[a] - along[others].min()
        row[8] = along[others].max() - along[a]
        row[9] = np.clip(odds[others].mean(), -_MAX_LOG_ODDS, _MAX_LOG_ODDS)
        row[10] = across[a] - across[others].mean()
        row[13] = np.sum(belief[others] > 0.5)
        row[14] = np.mean(along[others] < along[a])
    return WarmRows(index, rows.astype(np.float32), with_inks)


class FrameColours:
    """Colour evidence for a frame's dice: `vision.read.frame_inks`, with red against orange
    settled by the frame network (see the module docstring). Call it as a reader's
    ink evidence: (chroma, colour probabilities, body lightness) -> (N, C).

    `inks`: how the frame inks' evidence is weighed (the network reads it among its
    inputs and was trained on the shipped settings)."""

    def __init__(self, model: LoadedModel, inks: FrameInkSettings = FrameInkSettings()) -> None:
        self.model = model
        self.inks = inks

    @property
    def name(self) -> str:
        """The model file's name to show (`models/frame_colours.onnx` when shipped)."""
        return self.model.name

    @classmethod
    def load(
        cls, path: Path | None = None, *, threads: int = 1,
        inks: FrameInkSettings = FrameInkSettings(),
    ) -> FrameColours:
        """The network at `path` (default: the shipped one), checked against its hash."""
        return cls(load_session(path, MODEL_FILE, OUTPUTS, threads), inks)

    def red_log_odds(self, rows: np.ndarray) -> np.ndarray:
        """(K,) the network's log-odds of the redder warm colour for feature rows."""
        if len(rows) == 0:
            return np.zeros(0)
        (logit,) = self.model.session.run(list(OUTPUTS), {INPUT: np.asarray(rows, np.float32)})
        return np.asarray(logit, np.float64).reshape(-1)

    def __call__(
        self, chroma: np.ndarray, colour_probs: np.ndarray, lightness: np.ndarray
    ) -> np.ndarray:
        evidence = frame_ink_evidence(chroma, colour_probs, self.inks)
        if len(evidence) < 2:
            return evidence
        warm = warm_rows(chroma, colour_probs, lightness, evidence)
        if len(warm.index) == 0:
            return evidence
        return replace_warm_odds(
            evidence, colour_probs, warm.index, self.red_log_odds(warm.rows)
        )


def replace_warm_odds(
    evidence: np.ndarray, colour_probs: np.ndarray, index: np.ndarray, log_odds: np.ndarray
) -> np.ndarray:
    """`evidence` with the red and orange columns of dice `index` set so the classifier's
    probabilities times their exponent give red over orange the odds `log_odds`, while
    the dice's total belief in the two warm colours stays what `evidence` made it."""
    red, orange = WARM
    probs = np.maximum(np.asarray(colour_probs, np.float64)[index], _FLOOR)
    old = np.asarray(evidence, np.float64)[index]
    warm_total = probs[:, red] + probs[:, orange]
    level = np.log(
        (probs[:, red] * np.exp(old[:, red]) + probs[:, orange] * np.exp(old[:, orange]))
        / warm_total
    )
    share = np.clip(1.0 / (1.0 + np.exp(-np.asarray(log_odds, np.float64))), 1e-9, 1 - 1e-9)
    out = np.array(evidence, np.float64, copy=True)
    out[index, red] = level + np.log(share * warm_total / probs[:, red])
    out[index, orange] = level + np.log((1.0 - share) * warm_total / probs[:, orange])
    return out

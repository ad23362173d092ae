"""Red or orange, green or blue, settled by the whole frame: small networks over each die's ink.

Red and orange are the two palette colours whose inks lie closest, and a set's red may
lean towards orange and its orange towards red; a set's green may lean towards blue
and its blue towards green, less often. `vision.read.frame_inks` compares each die's
ink with the frame's other dice, but only by distance: it cannot tell which of two
close inks is the redder (or the bluer), nor weigh a die whose print is thin (its ink
measure pale) against one printed bold. This module gives each die the classifier
believes to be in one such pair of colours (`ColourPair`: the warm pair, red and orange,
and the cool pair, green and blue) a row of numbers about its ink *relative to the
frame's other dice of that pair*: where it lies along the direction from the pair's
first ink to its second against them, how far from the dice believed each colour, how
many of each there are, its body's lightness, the classifier's and the frame inks'
verdicts. Where the ink lies in absolute terms is left out on purpose: that is the
classifier's to judge, and a network trained on one renderer's inks would judge it for
inks it never saw. A small network per pair (`models/frame_colours.onnx` for the warm
pair, `models/frame_cool_colours.onnx` for the cool one, trained by
`models.train_frame_colours` on scenes in the training fonts that no other model
trained on) turns the row into the odds of the pair's first colour against its second,
and the die's evidence for the two is replaced by those odds, keeping its total belief
in the pair where `vision.read.frame_inks` put it.

Dice in neither pair, and a frame of fewer than two dice, keep `frame_inks`' evidence
unchanged. Numpy and ONNX Runtime only.
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
"""The warm pair's network, red against orange."""
COOL_MODEL_FILE: Final[str] = "frame_cool_colours.onnx"
"""The cool pair's network, green against blue."""
INPUT: Final[str] = "features"
OUTPUTS: Final[tuple[str, ...]] = ("logit",)

# The constants below define the networks' input rows (`pair_rows`, which training builds
# too): a fixed contract with the model files, not settings.

#: A die is in a pair when the classifier gives the pair's two colours together this much.
PAIR_SHARE: Final[float] = 0.5
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
#: The direction from a set's green ink to its blue ink: the mean of blue less green over
#: the 11,455 fitting frames of `models.train_frame_colours` that show both (training fonts,
#: light and dark, half steep, half printed alike).
GREEN_TO_BLUE: Final[np.ndarray] = np.array([0.997, 0.077]) / np.hypot(0.997, 0.077)

FEATURES: Final[tuple[str, ...]] = (
    "classifier log-odds, the pair's first colour over its second",
    "the same with the frame inks' evidence",
    "ink along the pair's direction less the pair's dice's mean",
    "ink along it less the others believed the first colour",
    "ink along it less the others believed the second",
    "no other die believed the first colour",
    "no other die believed the second",
    "ink along it less the others' least",
    "the others' greatest less the ink along it",
    "the others' mean classifier log-odds",
    "ink across the direction less the others' mean",
    "body lightness (0..1)",
    "the pair's dice in the frame",
    "others the classifier holds the first colour",
    "share of the others lying nearer the first colour along the direction",
    "the classifier's belief in the other colours",
)
"""What each column of a die's row means, in order: the model files' input. For the warm
pair the first colour is red and the direction runs from red to orange."""


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


@dataclass(frozen=True)
class ColourPair:
    """Two palette colours whose inks a set may print close, and the frame network that
    settles one against the other: `first` and `second` index COLOUR_LABELS, `direction`
    is the unit vector in INK_PLANE from a set's first ink to its second."""

    name: str
    first: int
    second: int
    direction: tuple[float, float]
    model_file: str

    @property
    def colours(self) -> list[int]:
        return [self.first, self.second]


WARM_PAIR: Final[ColourPair] = ColourPair(
    "warm", *WARM, (float(RED_TO_ORANGE[0]), float(RED_TO_ORANGE[1])), MODEL_FILE)
_GREEN, _BLUE = (i for i in range(len(COLOUR_LABELS)) if i not in WARM)
COOL_PAIR: Final[ColourPair] = ColourPair(
    "cool", _GREEN, _BLUE, (float(GREEN_TO_BLUE[0]), float(GREEN_TO_BLUE[1])), COOL_MODEL_FILE)
"""Green against blue: the two palette colours that are not warm, green first."""
PAIRS: Final[tuple[ColourPair, ...]] = (WARM_PAIR, COOL_PAIR)


def crop_lightness(crops: np.ndarray) -> np.ndarray:
    """(N,) lightness of each crop's body in 0..1: the mean over channels of each
    channel's median (most of a crop is its die's body)."""
    if len(crops) == 0:
        return np.zeros(0)
    return channel_medians(crops).mean(axis=1) / 255.0


@dataclass(frozen=True)
class PairRows:
    """The dice of a frame that the classifier holds in one pair's colours: their indices,
    feature rows (FEATURES order), and the first-over-second log-odds of the classifier
    with the frame inks' evidence."""

    index: np.ndarray  # (K,) int
    rows: np.ndarray  # (K, len(FEATURES)) float32
    log_odds: np.ndarray  # (K,)


def pair_rows(
    pair: ColourPair,
    chroma: np.ndarray,
    colour_probs: np.ndarray,
    lightness: np.ndarray,
    evidence: np.ndarray,
) -> PairRows:
    """The feature row of every die of a frame that the classifier holds in `pair`'s
    colours (the two together at least PAIR_SHARE; see FEATURES).

    `chroma`: (N, 3) ink chroma (`vision.read.frame_inks.ink_chroma`); `colour_probs`: (N, C);
    `lightness`: (N,) (`crop_lightness`); `evidence`: (N, C) `frame_ink_evidence`."""
    probs = np.maximum(np.asarray(colour_probs, np.float64), _FLOOR)
    first, second = pair.first, pair.second
    index = np.flatnonzero(probs[:, first] + probs[:, second] >= PAIR_SHARE)
    count = len(index)
    if count == 0:
        return PairRows(index, np.zeros((0, len(FEATURES)), np.float32), np.zeros(0))
    direction = np.asarray(pair.direction)
    plane = np.asarray(chroma, np.float64)[index] @ INK_PLANE.T
    along = plane @ direction
    across = plane @ np.array([-direction[1], direction[0]])
    odds = np.log(probs[index, first] / probs[index, second])
    ev = np.asarray(evidence, np.float64)
    with_inks = odds + ev[index, first] - ev[index, second]
    belief = 1.0 / (1.0 + np.exp(-odds))  # the classifier's first-colour share of the pair
    rows = np.zeros((count, len(FEATURES)))
    rows[:, 0] = np.clip(odds, -_MAX_LOG_ODDS, _MAX_LOG_ODDS)
    rows[:, 1] = np.clip(with_inks, -_MAX_LOG_ODDS, _MAX_LOG_ODDS)
    rows[:, 2] = along - along.mean()
    rows[:, 11] = np.asarray(lightness, np.float64)[index]
    rows[:, 12] = count
    rows[:, 15] = np.delete(probs[index], pair.colours, axis=1).sum(axis=1)
    if count == 1:
        rows[:, 5] = rows[:, 6] = 1.0
        rows[:, 14] = 0.5
        return PairRows(index, rows.astype(np.float32), with_inks)
    # Each die against the others: (K, K) with the die itself left out of every sum.
    other = ~np.eye(count, dtype=bool)
    for column, flag, weight in ((3, 5, belief), (4, 6, 1.0 - belief)):
        weights = np.where(other, weight[None, :], 0.0)
        total = weights.sum(axis=1)
        known = total > _MIN_REFERENCE_WEIGHT
        reference = (weights @ along) / np.where(known, total, 1.0)
        rows[:, column] = np.where(known, along - reference, 0.0)
        rows[:, flag] = (~known).astype(np.float64)
    spread = np.broadcast_to(along, (count, count))
    rows[:, 7] = along - np.where(other, spread, np.inf).min(axis=1)
    rows[:, 8] = np.where(other, spread, -np.inf).max(axis=1) - along
    rows[:, 9] = np.clip((odds.sum() - odds) / (count - 1), -_MAX_LOG_ODDS, _MAX_LOG_ODDS)
    rows[:, 10] = across - (across.sum() - across) / (count - 1)
    rows[:, 13] = (belief > 0.5).sum() - (belief > 0.5)
    rows[:, 14] = (other & (spread < along[:, None])).sum(axis=1) / (count - 1)
    return PairRows(index, rows.astype(np.float32), with_inks)


class PairNetwork:
    """One pair's frame network (`ColourPair.model_file`): feature rows -> the log-odds of
    the pair's first colour over its second."""

    def __init__(self, pair: ColourPair, model: LoadedModel) -> None:
        self.pair = pair
        self.model = model

    @property
    def name(self) -> str:
        """The model file's name to show (`models/frame_colours.onnx` when shipped)."""
        return self.model.name

    @classmethod
    def load(cls, pair: ColourPair, path: Path | None = None, *, threads: int = 1
             ) -> PairNetwork:
        """The pair's network at `path` (default: the shipped one), checked against its hash."""
        return cls(pair, load_session(path, pair.model_file, OUTPUTS, threads))

    def log_odds(self, rows: np.ndarray) -> np.ndarray:
        """(K,) the network's log-odds of the pair's first colour for feature rows."""
        if len(rows) == 0:
            return np.zeros(0)
        (logit,) = self.model.session.run(list(OUTPUTS), {INPUT: np.asarray(rows, np.float32)})
        return np.asarray(logit, np.float64).reshape(-1)


class FrameColours:
    """Colour evidence for a frame's dice: `vision.read.frame_inks`, with each pair of close
    colours settled by its frame network (see the module docstring). Call it as a reader's
    ink evidence: (chroma, colour probabilities, body lightness) -> (N, C).

    `inks`: how the frame inks' evidence is weighed (the networks read it among their
    inputs and were trained on the shipped settings)."""

    def __init__(self, networks: tuple[PairNetwork, ...],
                 inks: FrameInkSettings = FrameInkSettings()) -> None:
        pairs = [network.pair for network in networks]
        if len(set(pairs)) != len(pairs):
            raise ValueError("one network per colour pair")
        self.networks = networks
        self.inks = inks

    @property
    def names(self) -> tuple[str, ...]:
        """The model files' names to show, one per pair."""
        return tuple(network.name for network in self.networks)

    @classmethod
    def load(
        cls, path: Path | None = None, *, cool_path: Path | None = None, threads: int = 1,
        inks: FrameInkSettings = FrameInkSettings(), pairs: tuple[ColourPair, ...] = PAIRS,
    ) -> FrameColours:
        """The networks of `pairs`, the warm one at `path` and the cool one at `cool_path`
        (default: the shipped ones), each checked against its hash."""
        paths = {WARM_PAIR: path, COOL_PAIR: cool_path}
        return cls(tuple(PairNetwork.load(pair, paths.get(pair), threads=threads)
                         for pair in pairs), inks)

    def __call__(
        self, chroma: np.ndarray, colour_probs: np.ndarray, lightness: np.ndarray
    ) -> np.ndarray:
        base = frame_ink_evidence(chroma, colour_probs, self.inks)
        if len(base) < 2:
            return base
        evidence = base
        for network in self.networks:
            # every pair's rows read the frame inks' own evidence, as in training
            rows = pair_rows(network.pair, chroma, colour_probs, lightness, base)
            if len(rows.index):
                evidence = replace_pair_odds(evidence, colour_probs, network.pair, rows.index,
                                             network.log_odds(rows.rows))
        return evidence


def replace_pair_odds(
    evidence: np.ndarray, colour_probs: np.ndarray, pair: ColourPair, index: np.ndarray,
    log_odds: np.ndarray,
) -> np.ndarray:
    """`evidence` with the pair's two columns of dice `index` set so the classifier's
    probabilities times their exponent give the first colour over the second the odds
    `log_odds`, while the dice's total belief in the pair stays what `evidence` made it."""
    first, second = pair.first, pair.second
    probs = np.maximum(np.asarray(colour_probs, np.float64)[index], _FLOOR)
    old = np.asarray(evidence, np.float64)[index]
    total = probs[:, first] + probs[:, second]
    level = np.log(
        (probs[:, first] * np.exp(old[:, first]) + probs[:, second] * np.exp(old[:, second]))
        / total
    )
    share = np.clip(1.0 / (1.0 + np.exp(-np.asarray(log_odds, np.float64))), 1e-9, 1 - 1e-9)
    out = np.array(evidence, np.float64, copy=True)
    out[index, first] = level + np.log(share * total / probs[:, first])
    out[index, second] = level + np.log((1.0 - share) * total / probs[:, second])
    return out

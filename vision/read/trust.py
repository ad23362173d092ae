"""How far a reading can be trusted: calibrated probabilities, and which dice to mark.

The decoder's posterior for a die says how the networks and the dice table weigh
its faces, not how often such a reading is right: on pictures unlike the training
ones it is too sure. `Calibration` maps each die's raw evidence (the posterior
and the classifier's belief that the crop is a Phase 10 face at all) to the share
of such dice that are right, measured on rendered scenes kept for that purpose
(`benchmarks/calibrate.py`, never the scenes figures are reported on), and maps
the product of a roll's die probabilities to the share of such rolls that are
right (the dice of one picture fail together: a lamp, a steep view).

A roll is shown as sure only when that probability reaches `TrustSettings.roll_sure`:
otherwise the least probable dice are marked for a tap, one at a time, until the
dice left unmarked reach it (a die the players confirm is no longer in doubt). A
die under `TrustSettings.die_sure` is marked whatever the roll.

A die whose face the classifier itself did not favour (the frame's inks, the dice table
or the composition chose it over the network's own reading) is right far less often
than its posterior says: such dice have a map of their own (`Calibration.overruled`,
under `TrustSettings.overruled_below`).

Nine phases of ten do not count colour: there only the dice's values decide the score.
`Calibration.value` (`ValueTrust`) judges the values alone the same way, from each
die's posterior of the value read whatever its colour, with maps and a roll threshold
of their own, fitted on the same scenes: the dice whose values are doubtful are marked
`value_unsure`, apart from the face's marks (`unsure`). A die doubted only for its
colour (red against orange, green against blue) is `unsure` but not `value_unsure`, and
the scorepad asks for no tap for it where colour does not count. Each set of marks
holds its own errors to the target: a value read wrong is a face read wrong, so phase 8
needs only the face's marks, and the other phases only the values'.

A reading that carries a flag (the dice table or the composition does not explain the
roll, the picture was soft, a die could not be read) is wrong far more often than its
dice's probabilities say: its roll is judged by a roll map of its own (`flagged_roll`,
of the faces and of the values), fitted on the flagged rolls alone.

The fitted tables live in `models/calibration.json` beside the networks they were
measured with (the classifier's SHA-256 is recorded; a file fitted for another
network is refused and the reader falls back to the posterior as it is).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import numpy as np

logger = logging.getLogger(__name__)

CALIBRATION_FILE: Final[Path] = Path(__file__).resolve().parents[2] / "models" / "calibration.json"
PHOTO_CALIBRATION_FILE: Final[Path] = CALIBRATION_FILE.with_name("photo_calibration.json")
"""Where a calibration of the photos' own, fitted on photo readings (`vision.read.photo`,
`benchmarks/calibrate.py --as-photos --fit`), would be: a photo keeps the surer of two
readings of its dice, which a calibration fitted on frames read once may take for surer
than it is. None is shipped: fitted so, it held fresh photos no better than the frames'
(models/MODEL_CARD.md, "The photos' own calibration"), and photos take `CALIBRATION_FILE`."""

_EPSILON: Final[float] = 1e-6
PRIOR: Final[float] = 0.5
"""Pseudo-readings, right and wrong each, added to every block of a fitted map."""


@dataclass(frozen=True)
class TrustSettings:
    """When the reading is shown as sure, and when a die is marked."""

    roll_sure: float = 0.995
    """A roll is shown as sure only when the probability that every unmarked die is right
    reaches this; below it the least probable dice are marked until it does."""
    die_sure: float = 0.8
    """A die less probable than this is marked whatever the roll."""
    second_look_below: float | None = None
    """A crop whose most likely value the classifier believes less than this is read again
    at two other quarter turns, and how far the looks agree on the value read is part of
    the die's evidence (`DieEvidence.agreement`); None: one look, no agreement."""
    max_size_ratio: float | None = None
    """A die whose box is more than this times the side the frame's other dice have where
    it lies (`vision.read.pipeline.size_ratios`) is marked whatever the roll: a top seen
    with its side face, or a side face taken for the top, read as surely as a right die;
    None: never."""
    overruled_below: float | None = None
    """A die whose face the classifier itself believes less than this
    (`DieEvidence.network_prob`: the frame's inks, the dice table or the composition chose
    it) is judged by its own map (`Calibration.overruled`); None: one map for every die."""

    min_locator_score: float | None = None
    """A die whose box the locator scored under this (`ReadDie.locator_score`) is marked
    whatever the roll: a die leaning on the tray's wall, its side face boxed in place of
    its top and read as surely as a right die; None: never."""
    merged_aspect: float | None = None
    """A die whose box is narrower than this (shortest side over longest) and larger than
    `merged_size_ratio` times its place's side is marked whatever the roll: a die leaning
    on the tray's wall, its top and the side face beside it boxed as one and read as
    surely as a right die; None: never."""
    merged_size_ratio: float = 1.2
    """How much larger than its place's side such a long box must be (`merged_aspect`)."""

    def oversized(self, size_ratio: float) -> bool:
        """Whether a box this many times the side dice have where it lies is marked."""
        return self.max_size_ratio is not None and size_ratio > self.max_size_ratio

    def merged(self, size_ratio: float, aspect: float) -> bool:
        """Whether a box this long and this large is taken for two faces of one die
        (`merged_aspect`)."""
        return (self.merged_aspect is not None and aspect < self.merged_aspect
                and size_ratio > self.merged_size_ratio)

    def box_doubted(self, size_ratio: float, locator_score: float, aspect: float = 1.0) -> bool:
        """Whether a die is marked whatever the roll for its box: too large for its place
        (`oversized`), long and large like two faces of one die (`merged`), or scored under
        `min_locator_score` by the locator."""
        low = self.min_locator_score is not None and locator_score < self.min_locator_score
        return self.oversized(size_ratio) or self.merged(size_ratio, aspect) or low


def _logit(p: float) -> float:
    p = min(max(p, _EPSILON), 1 - _EPSILON)
    return math.log(p / (1 - p))


def raw_score(confidence: float, face_prob: float, agreement: float = 1.0) -> float:
    """The evidence a die's probability is read from without fitted weights: the log-odds
    of its posterior times the classifier's belief that the crop is a Phase 10 face, times
    the looks' agreement on its value (1 without a second look)."""
    return _logit(confidence * face_prob * agreement)


@dataclass(frozen=True)
class DieEvidence:
    """What a die's probability is judged from, as the reader has it."""

    confidence: float  # the decoder's posterior of the face read
    face_prob: float  # the classifier's belief that the crop is a Phase 10 face
    network_prob: float = 1.0  # the classifier's own belief in the face read
    side: float = 60.0  # the top's side, pixels
    aspect: float = 1.0  # the box's shortest side over its longest (a steep view: lower)
    agreement: float = 1.0  # the classifier's belief in the value read, mean of its looks
    value_confidence: float | None = None  # the posterior of the value read (None: confidence)

    def value_score(self) -> float:
        """The log-odds the value map reads: the value's posterior (whatever the colour)
        times the face belief, times the looks' agreement on the value."""
        value = self.confidence if self.value_confidence is None else self.value_confidence
        return raw_score(value, self.face_prob, self.agreement)

    def features(self) -> np.ndarray:
        """The features a fitted score weighs, FEATURES in order."""
        return np.array([
            _logit(self.confidence),
            _logit(self.face_prob),
            _logit(self.network_prob),
            math.log(max(self.side, 1.0)),
            self.aspect,
            1.0,
        ])


#: The names of `DieEvidence.features`, in order (the last is the constant).
FEATURES: Final[tuple[str, ...]] = (
    "posterior", "face", "network", "log_side", "aspect", "constant"
)


def fit_weights(features: np.ndarray, right: np.ndarray, l2: float = 1.0,
                steps: int = 50) -> tuple[float, ...]:
    """Logistic regression of `right` on `features` (N, len(FEATURES)) by Newton's method,
    with an L2 penalty `l2` on every weight but the constant's."""
    x = np.asarray(features, np.float64)
    y = np.asarray(right, np.float64)
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(x @ w, -30, 30)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return tuple(float(v) for v in w)


def _rate(block: list[float]) -> float:
    return block[1] / block[2]


@dataclass(frozen=True)
class MonotoneMap:
    """A non-decreasing map by linear interpolation between knots (flat beyond them)."""

    knots: tuple[float, ...]
    values: tuple[float, ...]

    def __post_init__(self) -> None:
        if len(self.knots) != len(self.values) or not self.knots:
            raise ValueError("a monotone map needs as many values as knots, at least one")
        if any(b < a for a, b in zip(self.knots, self.knots[1:], strict=False)):
            raise ValueError("knots must not decrease")
        if any(b < a for a, b in zip(self.values, self.values[1:], strict=False)):
            raise ValueError("values must not decrease")

    def __call__(self, x: float) -> float:
        return float(np.interp(x, self.knots, self.values))

    @classmethod
    def fit(cls, scores: Sequence[float], right: Sequence[bool], bins: int,
            max_span: float | None = None, min_count: int = 20) -> MonotoneMap:
        """Isotonic regression of `right` on `scores` (pool-adjacent-violators) over
        `bins` groups of equal count, each group one knot at its mean score.

        `max_span`: a group whose scores spread wider than this is cut into groups no
        wider (of `min_count` readings or more). Equal counts put the few doubtful
        readings of the low tail into one group, so a die read at even odds and one read
        at 0.98 would share one probability; cut, the tail keeps its slope."""
        order = np.argsort(np.asarray(scores, np.float64), kind="stable")
        x = np.asarray(scores, np.float64)[order]
        y = np.asarray(right, np.float64)[order]
        if not len(x):
            raise ValueError("no data to fit")
        groups = np.array_split(np.arange(len(x)), min(bins, len(x)))
        if max_span is not None:
            groups = [part for group in groups for part in _cut(x, group, max_span, min_count)]
        means = [float(x[g].mean()) for g in groups]
        sums = [float(y[g].sum()) for g in groups]
        counts = [float(len(g)) for g in groups]
        # Pool adjacent violators: merge blocks until their rates rise (equal rates pool too,
        # so a long run of right readings is one block, read as surely as its size allows).
        blocks: list[list[float]] = []  # [score sum weighted, right sum, count]
        for mean, total, count in zip(means, sums, counts, strict=True):
            blocks.append([mean * count, total, count])
            while len(blocks) > 1 and _rate(blocks[-2]) >= _rate(blocks[-1]):
                last = blocks.pop()
                blocks[-1] = [a + b for a, b in zip(blocks[-1], last, strict=True)]
        # A block's mean score, summed and divided back, may come out an ulp below the
        # block before it when both hold one score (the top of the logit's clip).
        knots = tuple(float(k) for k in np.maximum.accumulate([b[0] / b[2] for b in blocks]))
        # Half a right and half a wrong reading added to each block: a block of 500 right
        # readings says 99.9 %, not certainty, which no sample can show.
        smoothed = [(b[1] + PRIOR) / (b[2] + 2 * PRIOR) for b in blocks]
        values = tuple(float(v) for v in np.maximum.accumulate(smoothed))
        return cls(knots, values)

    def to_dict(self) -> dict[str, list[float]]:
        return {"knots": [round(k, 6) for k in self.knots],
                "values": [round(v, 6) for v in self.values]}

    @classmethod
    def from_dict(cls, data: dict) -> MonotoneMap:
        return cls(tuple(float(k) for k in data["knots"]), tuple(float(v) for v in data["values"]))


def _cut(x: np.ndarray, group: np.ndarray, max_span: float, min_count: int) -> list[np.ndarray]:
    """`group` (indices into the sorted scores `x`) cut at every `max_span` of score,
    neighbouring parts joined until each holds `min_count` readings or more (a short last
    one joined to the one before)."""
    low, high = float(x[group[0]]), float(x[group[-1]])
    if high - low <= max_span or len(group) < 2 * min_count:
        return [group]
    edges = np.arange(low + max_span, high, max_span)
    parts = np.split(group, np.searchsorted(x[group], edges, side="right"))
    joined: list[np.ndarray] = []
    growing = group[:0]
    for part in parts:
        growing = np.concatenate([growing, part])
        if len(growing) >= min_count:
            joined.append(growing)
            growing = group[:0]
    if len(growing):
        joined[-1] = np.concatenate([joined[-1], growing])
    return joined


def _optional(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]


def _roll_map(roll: MonotoneMap, flagged_roll: MonotoneMap | None,
              flagged: bool) -> MonotoneMap:
    """`flagged_roll` for a reading with a flag when there is one, else `roll`."""
    return flagged_roll if flagged and flagged_roll is not None else roll


def _optional_map(data: dict | None) -> MonotoneMap | None:
    return None if data is None else MonotoneMap.from_dict(data)


def _map_dict(fitted: MonotoneMap | None) -> dict | None:
    return None if fitted is None else fitted.to_dict()


def _weights(data: dict) -> tuple[float, ...] | None:
    weights = data.get("weights")
    if weights is None:
        return None
    if list(data.get("features", [])) != list(FEATURES) or len(weights) != len(FEATURES):
        raise ValueError(f"the calibration weighs other features than {', '.join(FEATURES)}")
    return tuple(float(w) for w in weights)


def roll_probability(roll: MonotoneMap, die_probabilities: Sequence[float]) -> float:
    """What the roll map `roll` makes of these dice's probabilities (the log of their
    product; 1.0 for no dice)."""
    if not die_probabilities:
        return 1.0
    return roll(math.log(float(np.prod(np.clip(die_probabilities, _EPSILON, 1.0)))))


def least_probable_marked(die_probabilities: Sequence[float], marks: Sequence[bool],
                          roll: MonotoneMap, sure: float) -> tuple[bool, ...]:
    """`marks`, then the least probable unmarked dice one at a time, until the unmarked
    dice's roll probability (`roll_probability` under `roll`) reaches `sure`."""
    probs = list(die_probabilities)
    marked = list(marks)
    for index in sorted(range(len(probs)), key=lambda i: probs[i]):
        rest = [p for p, mark in zip(probs, marked, strict=True) if not mark]
        if roll_probability(roll, rest) >= sure:
            break
        marked[index] = True
    return tuple(marked)


@dataclass(frozen=True)
class ValueTrust:
    """How far the values read can be trusted whatever the colours: the die map (of
    `DieEvidence.value_score`), the roll map, and the roll threshold (fitted like the
    face's, on the same scenes, `benchmarks/calibrate.py`)."""

    die: MonotoneMap
    roll: MonotoneMap
    roll_sure: float
    min_phase10_odds: float | None = None
    """A die marked for its face is doubted for its colour alone only if the face probe
    (`vision.read.face_probe`) finds it a Phase 10 face at these log-odds or more: a
    numeral die of another shape, read with a sure number and a doubtful ink, is checked
    in every phase. None: no such condition."""
    flagged_roll: MonotoneMap | None = None
    """The roll map of readings that carry a flag; None: `roll` maps them too."""

    def die_probability(self, evidence: DieEvidence) -> float:
        """The share of dice read with this evidence whose value is right."""
        return self.die(evidence.value_score())

    def kind_doubted(self, phase10_odds: float | None) -> bool:
        """Whether the probe's odds keep a marked die's value in doubt (never without
        odds: a reader with no probe)."""
        return (self.min_phase10_odds is not None and phase10_odds is not None
                and phase10_odds < self.min_phase10_odds)

    def roll_map(self, flagged: bool = False) -> MonotoneMap:
        """The roll map for a reading with a flag (`flagged`) or without."""
        return _roll_map(self.roll, self.flagged_roll, flagged)

    def roll_probability(self, die_probabilities: Sequence[float],
                         flagged: bool = False) -> float:
        """The share of rolls whose dice have these value probabilities with every value
        right, of readings with a flag (`flagged`) or without."""
        return roll_probability(self.roll_map(flagged), die_probabilities)

    def to_dict(self) -> dict:
        odds = self.min_phase10_odds
        return {"roll_sure": self.roll_sure,
                "min_phase10_odds": None if odds is None else round(odds, 6),
                "die": self.die.to_dict(), "roll": self.roll.to_dict(),
                "flagged_roll": _map_dict(self.flagged_roll)}

    @classmethod
    def from_dict(cls, data: dict) -> ValueTrust:
        return cls(MonotoneMap.from_dict(data["die"]), MonotoneMap.from_dict(data["roll"]),
                   float(data["roll_sure"]), _optional(data.get("min_phase10_odds")),
                   _optional_map(data.get("flagged_roll")))


@dataclass(frozen=True)
class Calibration:
    """Die and roll probabilities fitted to how often readings are right."""

    die: MonotoneMap
    roll: MonotoneMap
    settings: TrustSettings = field(default_factory=TrustSettings)
    classifier_sha256: str = ""
    weights: tuple[float, ...] | None = None
    """Weights of `DieEvidence.features` giving the score `die` maps; None: `raw_score`."""
    overruled: MonotoneMap | None = None
    """The map of the dice the classifier did not favour (`TrustSettings.overruled_below`);
    None: `die` maps them too."""
    value: ValueTrust | None = None
    """The values' own maps and threshold; None: a value is as doubtful as its face."""
    flagged_roll: MonotoneMap | None = None
    """The roll map of readings that carry a flag (`vision.reading.ReadingFlag`: the dice
    table or the composition does not explain the roll, a soft picture, a die not read);
    None: `roll` maps them too."""

    def is_overruled(self, evidence: DieEvidence) -> bool:
        """Whether the die is judged by the `overruled` map."""
        below = self.settings.overruled_below
        return (self.overruled is not None and below is not None
                and evidence.network_prob < below)

    def die_score(self, evidence: DieEvidence) -> float:
        """The score the die map reads: the fitted weights' log-odds, or `raw_score`."""
        if self.weights is None:
            return raw_score(evidence.confidence, evidence.face_prob, evidence.agreement)
        return float(np.dot(self.weights, evidence.features()))

    def die_probability(self, evidence: DieEvidence) -> float:
        """The share of dice read with this evidence that are read right."""
        fitted = self.overruled if self.is_overruled(evidence) else self.die
        assert fitted is not None  # is_overruled checked it
        return fitted(self.die_score(evidence))

    def roll_map(self, flagged: bool = False) -> MonotoneMap:
        """The roll map for a reading with a flag (`flagged`) or without."""
        return _roll_map(self.roll, self.flagged_roll, flagged)

    def roll_probability(self, die_probabilities: Sequence[float],
                         flagged: bool = False) -> float:
        """The share of rolls whose dice have these probabilities that are all right, of
        readings with a flag (`flagged`) or without."""
        return roll_probability(self.roll_map(flagged), die_probabilities)

    def marked(self, die_probabilities: Sequence[float],
               doubted: Sequence[bool] | None = None, flagged: bool = False
               ) -> tuple[bool, ...]:
        """Which dice to mark: each under `die_sure` or `doubted` for its box
        (`TrustSettings.box_doubted`), then the least probable of the rest, one at a time,
        until the unmarked dice's roll probability (of a reading with a flag, `flagged`, or
        without) reaches `roll_sure`."""
        return self._marked(die_probabilities, doubted, self.roll_map(flagged),
                            self.settings.roll_sure)

    def value_marked(self, value_probabilities: Sequence[float],
                     doubted: Sequence[bool] | None = None, flagged: bool = False
                     ) -> tuple[bool, ...] | None:
        """Which dice to mark for their value, as `marked` marks faces, by the value maps
        and threshold; None without value maps."""
        if self.value is None:
            return None
        return self._marked(value_probabilities, doubted, self.value.roll_map(flagged),
                            self.value.roll_sure)

    def _marked(self, probabilities: Sequence[float], doubted: Sequence[bool] | None,
                roll: MonotoneMap, sure: float) -> tuple[bool, ...]:
        probs = list(probabilities)
        boxes = [False] * len(probs) if doubted is None else list(doubted)
        marks = [p < self.settings.die_sure or odd for p, odd in zip(probs, boxes, strict=True)]
        return least_probable_marked(probs, marks, roll, sure)

    def to_dict(self) -> dict:
        return {
            "classifier_sha256": self.classifier_sha256,
            "roll_sure": self.settings.roll_sure,
            "die_sure": self.settings.die_sure,
            "second_look_below": self.settings.second_look_below,
            "max_size_ratio": self.settings.max_size_ratio,
            "overruled_below": self.settings.overruled_below,
            "min_locator_score": self.settings.min_locator_score,
            "merged_aspect": self.settings.merged_aspect,
            "merged_size_ratio": self.settings.merged_size_ratio,
            "features": list(FEATURES),
            "weights": None if self.weights is None else [round(w, 6) for w in self.weights],
            "die": self.die.to_dict(),
            "roll": self.roll.to_dict(),
            "overruled": _map_dict(self.overruled),
            "value": None if self.value is None else self.value.to_dict(),
            "flagged_roll": _map_dict(self.flagged_roll),
        }

    @classmethod
    def from_dict(cls, data: dict) -> Calibration:
        return cls(
            MonotoneMap.from_dict(data["die"]),
            MonotoneMap.from_dict(data["roll"]),
            TrustSettings(float(data["roll_sure"]), float(data["die_sure"]),
                          _optional(data.get("second_look_below")),
                          _optional(data.get("max_size_ratio")),
                          _optional(data.get("overruled_below")),
                          _optional(data.get("min_locator_score")),
                          _optional(data.get("merged_aspect")),
                          float(data.get("merged_size_ratio", TrustSettings.merged_size_ratio))),
            str(data.get("classifier_sha256", "")),
            _weights(data),
            _optional_map(data.get("overruled")),
            None if data.get("value") is None else ValueTrust.from_dict(data["value"]),
            _optional_map(data.get("flagged_roll")),
        )

    def save(self, path: Path = CALIBRATION_FILE) -> None:
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n")

    @classmethod
    def load(cls, path: Path = CALIBRATION_FILE, classifier_sha256: str | None = None
             ) -> Calibration | None:
        """The calibration at `path`; None (with a warning) when there is none, or when it
        was fitted for another classifier than `classifier_sha256`."""
        if not path.is_file():
            logger.warning("no calibration at %s: dice are marked by their posterior", path)
            return None
        calibration = cls.from_dict(json.loads(path.read_text()))
        if classifier_sha256 and calibration.classifier_sha256 not in ("", classifier_sha256):
            logger.warning("%s was fitted for another classifier: not used", path)
            return None
        return calibration

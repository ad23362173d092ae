"""Joint decoding: turn per-die face probabilities into faces, using the dice box as a prior.

A roll shows one face of each physical die, so the read faces must match distinct
dice of the inventory (six high dice, four low dice, each with its six faces).
Each read die i and physical die j score W[i, j] = sum of P(i shows f) over the
faces f of die j; an exact dynamic programme over subsets of the ten physical
dice gives both the most likely consistent matching (max-product) and, for each
read die, the posterior of each face under the prior (sum-product). Ten dice and
2**10 subsets make this a millisecond of numpy.

When even the best matching needs a face the classifier all but ruled out (the
dice may differ from the unconfirmed layout table), the matching is not
trusted and the decoding is flagged, never silently bent to fit the table. The
dice then keep only what holds for every Phase 10 set whatever its layout: at
most six dice show a high face (5 to 10) and at most four a low one (1 to 4, W),
so a die torn between a 9 and a 2 in a roll whose four low dice are plain reads
as the 9 (`_composition_decoding`, also used when the inventory is switched
off). Where even that needs a face the classifier all but ruled out, each die
falls back to its own most likely face and the composition is flagged. Where the
matching is believed, the table still only chooses among the faces a die's own evidence
leaves open: a die it reads otherwise than the composition alone reads it surely is shown
as the table has it but doubted, for the players to look at (`_overturned_doubted`). How
implausible a face may be before either is disbelieved, how sure a reading the table may
not overturn unseen, and which faces are unsure, are `vision.read.settings.DecodeSettings`.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Final

import numpy as np

from scorer.dice import (
    FULL_ROLL,
    HIGH_DICE,
    HIGH_VALUES,
    LOW_DICE,
    Die,
)
from scorer.dice_set import PRINTED_DICE, DiceSet
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.read.settings import DecodeSettings
from vision.reading import ReadingFlag

logger = logging.getLogger(__name__)

#: Every face a die can show, indexed value-major in the classifier's class order
#: (`vision.read.model_io`): f = value_index * colours + colour_index.
FACES: Final[tuple[Die, ...]] = tuple(
    Die(value, colour) for value in VALUE_LABELS for colour in COLOUR_LABELS
)
_FACE_INDEX: Final[dict[Die, int]] = {face: index for index, face in enumerate(FACES)}


@lru_cache(maxsize=8)
def carried_faces(dice_set: DiceSet) -> np.ndarray:
    """[j, f]: the set's die j carries face f (read-only, kept per set)."""
    carried = np.array(
        [[face in physical.faces for face in FACES] for physical in dice_set.dice], dtype=bool)
    carried.flags.writeable = False
    return carried


#: FACE_OF_DIE[j, f]: die j of the set in use carries face f.
FACE_OF_DIE: Final[np.ndarray] = carried_faces(PRINTED_DICE)
_HIGH_FACE: Final[np.ndarray] = np.array([face.value in HIGH_VALUES for face in FACES])
#: _SAME_VALUE[f]: the faces showing face f's value, in any colour.
_SAME_VALUE: Final[np.ndarray] = np.array(
    [[other.value == face.value for other in FACES] for face in FACES])


def by_face(colour_evidence: np.ndarray) -> np.ndarray:
    """(N, colours) log-likelihood adjustments of each die's colours as (N, len(FACES)):
    every face gets its colour's (FACES is value-major)."""
    return np.tile(np.asarray(colour_evidence), (1, len(VALUE_LABELS)))

#: Probabilities are floored here so a hard zero never rules a face out entirely.
_PROB_FLOOR: Final[float] = 1e-9


@dataclass(frozen=True)
class DecodedFace:
    """One read die's face after decoding, with its posterior and runner-up faces."""

    die: Die
    confidence: float
    unsure: bool
    alternatives: tuple[tuple[Die, float], ...]
    value_confidence: float | None = None
    """The posterior of the value read, whatever the colour (the sum over the faces of
    that value): what a phase that does not count colour depends on. None: `confidence`."""
    likely: tuple[Die, ...] | None = ()
    """The other faces with at least `DecodeSettings.likely_floor` of the posterior, most
    likely first: the faces the die may truly show where its face is in doubt. None: it
    may show any face (a die whose colour the frame contradicts,
    `vision.read.pipeline.contradicted_faces`)."""

    def held(self, confidence: float, value_too: bool = False) -> DecodedFace:
        """This face read at no more than `confidence`, unsure and free to show any face
        (a reading shown contradicted); `value_too`: its value's posterior held as well."""
        value = self.value_confidence
        if value_too:
            value = min(confidence, self.confidence if value is None else value)
        return replace(self, confidence=min(self.confidence, confidence), unsure=True,
                       likely=None, value_confidence=value)


@dataclass(frozen=True)
class Decoding:
    """The faces of all dice of one frame, in input order, and any flags on the whole."""

    faces: tuple[DecodedFace, ...]
    flags: tuple[ReadingFlag, ...]
    used_inventory: bool


def face_probabilities(value_probs: np.ndarray, colour_probs: np.ndarray) -> np.ndarray:
    """P(i shows face f) as the product of the value and colour heads, shape (N, 44)."""
    values = np.maximum(np.asarray(value_probs, dtype=np.float64), _PROB_FLOOR)
    colours = np.maximum(np.asarray(colour_probs, dtype=np.float64), _PROB_FLOOR)
    if values.ndim != 2 or values.shape[1] != len(VALUE_LABELS):
        raise ValueError(f"value_probs must be (N, {len(VALUE_LABELS)}), got {values.shape}")
    if colours.shape != (values.shape[0], len(COLOUR_LABELS)):
        raise ValueError(
            f"colour_probs must be ({values.shape[0]}, {len(COLOUR_LABELS)}), got {colours.shape}"
        )
    values /= values.sum(axis=1, keepdims=True)
    colours /= colours.sum(axis=1, keepdims=True)
    return (values[:, :, None] * colours[:, None, :]).reshape(len(values), len(FACES))


def decode(
    value_probs: np.ndarray,
    colour_probs: np.ndarray,
    *,
    settings: DecodeSettings = DecodeSettings(),
    use_inventory: bool = True,
    evidence: np.ndarray | None = None,
    dice_set: DiceSet = PRINTED_DICE,
) -> Decoding:
    """Decode N dice (N <= 10) jointly against the dice of `dice_set`; see the module
    docstring. `settings`: which matchings are believed, and which faces are unsure.

    `evidence`: (N, 44) log-likelihood adjustments from the user's dice profile
    (`vision.profile.profile.ProfileMatcher`), added before decoding; None reads as without one."""
    probs = face_probabilities(value_probs, colour_probs)
    if evidence is not None and len(probs) and np.any(evidence):
        weighted = np.log(probs) + np.asarray(evidence, np.float64)
        weighted = np.exp(weighted - weighted.max(axis=1, keepdims=True))
        probs = weighted / weighted.sum(axis=1, keepdims=True)
    count = len(probs)
    if count == 0:
        return Decoding((), (), False)
    if count > FULL_ROLL:
        logger.debug("%d dice read: more than the box holds, decoding each alone", count)
        return _independent(probs, settings, (ReadingFlag.TOO_MANY,))
    if not use_inventory:
        return _composed(probs, settings, ())
    matched = _best_matching(probs, dice_set)
    chosen = [int(face) for face in matched]
    if min(probs[range(count), chosen]) < settings.min_matched_face_prob:
        logger.debug("best inventory matching needs an implausible face; reading by composition")
        return _composed(probs, settings, (ReadingFlag.NOT_EXPLAINED,))
    posterior = _posterior(probs, dice_set)
    faces = tuple(_decoded(posterior[i], chosen[i], settings) for i in range(count))
    return Decoding(_overturned_doubted(faces, probs, chosen, settings), (), True)


def _overturned_doubted(faces: tuple[DecodedFace, ...], probs: np.ndarray, chosen: list[int],
                        settings: DecodeSettings) -> tuple[DecodedFace, ...]:
    """`faces` as the table matched them, each die the table read otherwise than the
    composition alone reads it surely (`DecodeSettings.overturn_sure`) held at
    `overturned_confidence`, unsure and free to show any face: the table may choose among
    the faces a die's own evidence leaves open, but it is an unconfirmed transcription, so
    it must not overturn a face that evidence is sure of without the players' look (its
    value held too, where the two readings' values differ)."""
    if settings.overturn_sure is None:
        return faces
    alone, posterior = _composition_decoding(probs)
    return tuple(
        face.held(settings.overturned_confidence,
                  value_too=FACES[alone[i]].value != face.die.value)
        if alone[i] != chosen[i] and posterior[i, alone[i]] >= settings.overturn_sure
        else face
        for i, face in enumerate(faces)
    )


def _composed(
    probs: np.ndarray, settings: DecodeSettings, flags: tuple[ReadingFlag, ...]
) -> Decoding:
    """Faces read under the composition alone (at most six high, four low); each die
    alone, the composition flagged, when that needs a face all but ruled out."""
    chosen, posterior = _composition_decoding(probs)
    if min(probs[range(len(probs)), chosen]) < settings.min_composed_face_prob:
        logger.debug("the composition needs an implausible face; reading each die alone")
        flags = (*flags, *_composition_flags(probs.argmax(axis=1)))
        return _independent(probs, settings, flags)
    faces = tuple(_decoded(posterior[i], chosen[i], settings) for i in range(len(probs)))
    return Decoding(faces, flags, False)


def _composition_decoding(probs: np.ndarray) -> tuple[list[int], np.ndarray]:
    """The most likely faces of N <= 10 dice of which at most HIGH_DICE show a high face
    and at most LOW_DICE a low one, and each die's posterior (N, 44) under that rule.

    Whether a die is high or low is all the rule sees: the MAP makes the dice that
    lose least by it low (for each allowed number of low dice), and the posterior
    sums over every allowed split exactly (a product of N two-term polynomials)."""
    count = len(probs)
    high = np.where(_HIGH_FACE, probs, 0.0)
    low = np.where(_HIGH_FACE, 0.0, probs)
    best_high, best_low = high.argmax(axis=1), low.argmax(axis=1)
    rows = np.arange(count)
    gain = np.log(probs[rows, best_low]) - np.log(probs[rows, best_high])  # of being low
    order = np.argsort(-gain)
    allowed = range(max(0, count - HIGH_DICE), min(count, LOW_DICE) + 1)
    lows = max(allowed, key=lambda k: float(gain[order[:k]].sum()))
    chosen = best_high.copy()
    chosen[order[:lows]] = best_low[order[:lows]]
    p_high, p_low = high.sum(axis=1), low.sum(axis=1)

    def split(dice: np.ndarray) -> np.ndarray:
        """P(k of `dice` show a low face), k = 0..len(dice)."""
        poly = np.ones(1)
        for i in dice:
            poly = np.convolve(poly, [p_high[i], p_low[i]])
        return poly

    ok = np.zeros(count + 1, bool)
    ok[list(allowed)] = True
    total = float(split(rows)[ok].sum())
    posterior = np.empty_like(probs)
    for i in range(count):
        others = split(np.delete(rows, i))  # k = 0..count-1 low among the others
        as_high = float(others[ok[:-1]].sum())  # i high: the others hold all k low
        as_low = float(others[ok[1:]].sum())  # i low: the others hold k - 1
        posterior[i] = np.where(_HIGH_FACE, high[i] * as_high, low[i] * as_low) / total
    return [int(face) for face in chosen], posterior / posterior.sum(axis=1, keepdims=True)


def _independent(
    probs: np.ndarray, settings: DecodeSettings, flags: tuple[ReadingFlag, ...]
) -> Decoding:
    faces = tuple(_decoded(row, int(row.argmax()), settings) for row in probs)
    return Decoding(faces, flags, False)


def _composition_flags(chosen: np.ndarray) -> tuple[ReadingFlag, ...]:
    high = int(_HIGH_FACE[chosen].sum())
    low = len(chosen) - high
    return (ReadingFlag.BAD_COMPOSITION,) if high > HIGH_DICE or low > LOW_DICE else ()


def _decoded(row: np.ndarray, chosen: int, settings: DecodeSettings) -> DecodedFace:
    confidence = float(row[chosen])
    order = np.argsort(row)[::-1]
    alternatives = tuple(
        (FACES[int(f)], round(float(row[f]), 4))
        for f in order[: settings.alternatives + 1]
        if int(f) != chosen and row[f] >= settings.min_alternative
    )[: settings.alternatives]
    same_value = _SAME_VALUE[chosen]
    value_confidence = min(1.0, float(row[same_value].sum()))
    likely = tuple(FACES[int(f)] for f in order
                   if int(f) != chosen and row[f] >= settings.likely_floor)
    return DecodedFace(FACES[chosen], confidence, confidence < settings.unsure_below,
                       alternatives, round(value_confidence, 6), likely)


@lru_cache(maxsize=4)
def _subset_tables(dice: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index tables over the subsets (bit masks) of the physical dice: for each die j,
    the subsets without j (K, 2**(K-1)) and the same subsets with j added; and for each
    subset and die j, the subset less j where it holds j, else the sentinel 2**K."""
    masks, bits = np.arange(1 << dice), 1 << np.arange(dice)
    without = np.stack([masks[masks & bit == 0] for bit in bits])
    with_die = without | bits[:, None]
    less = np.where(masks[:, None] & bits[None, :], masks[:, None] ^ bits[None, :], 1 << dice)
    return without, with_die, less


def _best_matching(probs: np.ndarray, dice_set: DiceSet = PRINTED_DICE) -> list[int]:
    """The face of each read die in the most likely matching to distinct physical dice.

    Each subset's best score after die i comes from the subsets one physical die
    smaller (`_subset_tables`); of equal scores the physical die listed first is taken."""
    count, dice = len(probs), len(dice_set.dice)
    carried = carried_faces(dice_set)
    _, _, less = _subset_tables(dice)
    per_die = np.where(carried[None, :, :], probs[:, None, :], 0.0)  # (N, K, 44)
    best_face = per_die.argmax(axis=2)  # (N, K)
    log_best = np.log(np.maximum(per_die.max(axis=2), 1e-300))
    subsets = np.arange(1 << dice)
    score = np.full((1 << dice) + 1, -np.inf)  # the last entry: the sentinel, never reached
    score[0] = 0.0
    back: list[np.ndarray] = []
    for i in range(count):
        candidate = score[less] + log_best[i]  # (2**K, K)
        took = candidate.argmax(axis=1)
        score = np.append(candidate[subsets, took], -np.inf)
        back.append(took)
    mask = int(score[:-1].argmax())
    faces = [0] * count
    for i in range(count - 1, -1, -1):
        j = int(back[i][mask])
        faces[i] = int(best_face[i, j])
        mask &= ~(1 << j)
    return faces


def _posterior(probs: np.ndarray, dice_set: DiceSet = PRINTED_DICE) -> np.ndarray:
    """P(read die i shows face f | the faces come from distinct physical dice), (N, 44)."""
    count, dice = len(probs), len(dice_set.dice)
    carried = carried_faces(dice_set)
    without, with_die, _ = _subset_tables(dice)
    weight = probs @ carried.T.astype(np.float64)  # (N, K): P(i shows some face of j)
    size = 1 << dice
    # forward[i][s]: the ways dice 0..i-1 fill the physical dice of subset s;
    # backward[i][s]: the ways dice i.. fill those not in s.
    forward: list[np.ndarray] = [np.zeros(size)]
    forward[0][0] = 1.0
    for i in range(count):
        ways = forward[i].take(without) * weight[i][:, None]
        forward.append(np.bincount(with_die.ravel(), ways.ravel(), minlength=size))
    backward: list[np.ndarray] = [np.ones(size)]
    for i in range(count - 1, -1, -1):
        ways = weight[i][:, None] * backward[0].take(with_die)
        backward.insert(0, np.bincount(without.ravel(), ways.ravel(), minlength=size))
    total = backward[0][0]
    before = np.take(np.stack(forward[:-1]), without, axis=1)  # (N, K, 2**(K-1))
    after = np.take(np.stack(backward[1:]), with_die, axis=1)
    # P(read die i is physical die j)
    assigned = np.einsum("ijs,ijs->ij", before, after) * weight / total
    # Within physical die j, face f is chosen in proportion to P(i shows f).
    share = np.where(carried[None], probs[:, None, :], 0.0) / weight[:, :, None]
    posterior = np.einsum("ij,ijf->if", assigned, share)
    return posterior / posterior.sum(axis=1, keepdims=True)

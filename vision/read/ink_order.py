"""Distinct inks are distinct colours: a frame-wide check of the four colours' order.

A dice set carries four inks, one per palette colour, and they keep the palette's hue
order (red, orange, green, blue around the hue circle) whatever their exact shades. In
one frame every die's ink is measured relative to its own body (`ink_chroma`), where a
pale print and a bold one of the same ink lie on one ray from the body's colour, so
dice whose inks point in clearly different directions carry different inks. The
classifier judges each ink on its own, by where it lies in absolute terms, and an
unseen set's shades can fool it for the whole set at once: a yellow-green read orange
beside the set's real orange, a teal read green beside the real green. Such a reading
contradicts itself: two clearly distinct inks in one cool colour, or three in the two
warm colours. This module finds those contradictions and mends them by moving one
group of dice to a cool colour that no other die of the frame shows, the choice that
keeps the inks in the palette's order about the frame's own inks and costs the
classifier's belief least. A reading without a contradiction is left as it is, so
the step never fights `vision.read.frame_colours` over red against orange.

The move raises the group's new colour level with the colour read, not above it: an
ink's direction from its body can mislead (a glint, or a maroon body under a pink-red
ink, turns it towards white), so a contradiction says the reading is doubtful, not
which ink is which. The decoder weighs the two, and the reader marks every moved die
for the players whatever the dice table makes of it
(`vision.read.pipeline.contradicted_faces`).

Only inks measured clearly (far enough from the body's colour) are grouped, a group
of fewer than `InkOrderSettings.min_moved` dice is never moved, and no die is moved into
a warm colour: those were the moves that went wrong (models/MODEL_CARD.md, "The colour
and decode stages' settings"). The thresholds are `vision.read.settings.InkOrderSettings`.
Numpy only.
"""

from __future__ import annotations

import itertools
from typing import Final

import numpy as np

from scorer.dice import COLOUR_RGB, FULL_ROLL
from vision.read.frame_colours import INK_PLANE, WARM
from vision.read.model_io import COLOUR_LABELS
from vision.read.settings import InkOrderSettings


def palette_angle(letter: str) -> float:
    """The direction (radians) of a palette colour's reference ink printed on white, in
    the plane of `ink_chroma`: where the palette says that colour's dice point."""
    bgr = np.log(np.asarray(COLOUR_RGB[letter][::-1], np.float64) + 1.0) - np.log(256.0)
    x, y = INK_PLANE @ (bgr - bgr.mean())
    return float(np.arctan2(y, x))


def colour_families() -> tuple[tuple[int, ...], ...]:
    """The palette's colours in families, in the cyclic order their inks follow as the
    direction turns (the warm pair, red and orange, is one family; every other colour
    its own): `COLOUR_LABELS` indices."""
    warm = tuple(sorted(WARM))
    families = [warm] + [(index,) for index in range(len(COLOUR_LABELS)) if index not in warm]
    start = palette_angle(COLOUR_LABELS[warm[0]])
    return tuple(
        sorted(
            families,
            key=lambda family: (start - palette_angle(COLOUR_LABELS[family[0]])) % (2 * np.pi),
        )
    )


FAMILIES: Final[tuple[tuple[int, ...], ...]] = colour_families()
#: The family (index into FAMILIES) of the warm pair, which may hold two ink groups.
_WARM_FAMILY: Final[int] = next(i for i, f in enumerate(FAMILIES) if set(f) == set(WARM))


def ink_groups(
    angles: np.ndarray, split: float = np.radians(InkOrderSettings().split_degrees)
) -> list[np.ndarray]:
    """Indices of `angles` (radians) in groups of nearby directions: the circle is cut
    wherever two neighbouring directions lie `split` or more apart."""
    order = np.argsort(angles)
    ring = np.asarray(angles, np.float64)[order]
    gaps = np.diff(np.r_[ring, ring[0] + 2 * np.pi])
    cuts = np.flatnonzero(gaps >= split)
    if len(cuts) < 2:
        return [order]
    wrapped = np.r_[order[cuts[-1] + 1 :], order[: cuts[0] + 1]]
    return [wrapped] + [order[cuts[k - 1] + 1 : cuts[k] + 1] for k in range(1, len(cuts))]


def _in_cyclic_order(families: list[int]) -> bool:
    """Whether families met in turn round the circle keep FAMILIES' cyclic order, each
    family's groups side by side."""
    runs = [f for i, f in enumerate(families) if i == 0 or f != families[i - 1]]
    if len(runs) > 1 and runs[0] == runs[-1]:
        runs.pop()
    if len(set(runs)) != len(runs):
        return False
    low = runs.index(min(runs))
    turned = runs[low:] + runs[:low]
    return turned == sorted(turned)


def ink_order_evidence(
    chroma: np.ndarray, log_belief: np.ndarray, settings: InkOrderSettings = InkOrderSettings()
) -> np.ndarray:
    """(N, C) log-likelihood adjustments that mend a frame whose colour reading puts
    distinct inks in one colour (see the module docstring); zeros when it does not, and
    for a frame of fewer than three dice or more than a roll's.

    `chroma`: (N, 3) ink chroma (`vision.read.frame_inks.ink_chroma`); `log_belief`: (N, C) the
    log-belief in each colour so far (the classifier's with the frame inks' evidence).
    Each die of a moved group has its new colour raised level with the colour read
    (`settings.moved_margin`): a contradiction, not proof of which ink is which."""
    belief = np.asarray(log_belief, np.float64)
    count, colours = belief.shape
    evidence = np.zeros((count, colours))
    if not 3 <= count <= FULL_ROLL:  # more dice than a roll are no one set's
        return evidence
    plane = np.asarray(chroma, np.float64) @ INK_PLANE.T
    radius = np.hypot(plane[:, 0], plane[:, 1])
    clear = np.flatnonzero(radius >= settings.min_ink)
    if len(clear) < 3:
        return evidence
    split = np.radians(settings.split_degrees)
    groups = [clear[g] for g in ink_groups(np.arctan2(plane[clear, 1], plane[clear, 0]), split)]
    if len(groups) < 2:
        return evidence
    belief = belief - np.logaddexp.reduce(belief, axis=1, keepdims=True)
    family_belief = np.stack(
        [np.logaddexp.reduce(belief[:, list(f)], axis=1) for f in FAMILIES], axis=1
    )
    group_score = np.array([family_belief[g].sum(axis=0) for g in groups])  # (K, families)
    current = group_score.argmax(axis=1)
    solid = np.array([radius[g].mean() >= settings.solid_ink for g in groups])
    die_family = family_belief.argmax(axis=1)

    def consistent(labels: np.ndarray) -> bool:
        held = np.bincount(labels[solid], minlength=len(FAMILIES))
        return all(held[f] <= (2 if f == _WARM_FAMILY else 1) for f in range(len(FAMILIES)))

    if consistent(current):
        return evidence

    def choices(k: int) -> list[int]:
        """Group k's possible families: its own, and for a group that may move, each
        cool family no die outside the group shows."""
        if len(groups[k]) < settings.min_moved or not solid[k]:
            return [int(current[k])]
        outside = np.delete(die_family, groups[k])
        free = [f for f in range(len(FAMILIES)) if f != _WARM_FAMILY and f not in outside]
        return [int(current[k])] + [f for f in free if f != current[k]]

    centre = plane[clear].mean(axis=0)
    around = np.array([np.arctan2(*(plane[g].mean(axis=0) - centre)[::-1]) for g in groups])
    turn = np.argsort(-around)  # FAMILIES' order: the direction turning clockwise
    best, best_score = None, -np.inf
    for option in itertools.product(*(choices(k) for k in range(len(groups)))):
        labels = np.asarray(option)
        if not (consistent(labels) and _in_cyclic_order(list(labels[turn]))):
            continue
        score = float(group_score[np.arange(len(groups)), labels].sum())
        if score > best_score:
            best, best_score = labels, score
    if best is None:
        return evidence
    for k, group in enumerate(groups):
        if best[k] == current[k]:
            continue
        for die in group:
            rivals = np.delete(family_belief[die], best[k]).max()
            lift = rivals - family_belief[die, best[k]] + settings.moved_margin
            evidence[die, list(FAMILIES[best[k]])] += max(0.0, lift)
    return evidence

"""What the set-up page shows of the dice profile, typed: the views turn it into JSON
(`web.views.profile_json`) and encode the pictures there."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer import Die
from scorer.layout_check import LayoutReport


def distinct_faces(faces: tuple[Die, ...]) -> tuple[Die, ...]:
    """The distinct faces among a set's sixty (44 for the printed table), in value order."""
    return tuple(sorted(set(faces), key=lambda die: (die.value == 0, die.value, die.colour)))


@dataclass(frozen=True)
class FaceCount:
    """One distinct face: the examples taught of it, and how many dice of the set show it."""

    face: Die
    count: int
    dice: int


@dataclass(frozen=True)
class LeftOutDie:
    """A taught die the readers leave out: its example's key and picture, the face it was
    confirmed as and the face it looks like."""

    key: str
    confirmed: Die
    looks_like: Die
    crop: np.ndarray


@dataclass(frozen=True)
class Example:
    """A taught picture of one face: its key (to forget or fix it), and whether the
    readers leave it out."""

    key: str
    crop: np.ndarray
    left_out: bool


@dataclass(frozen=True)
class ProfileSummary:
    """Examples per face, faces seen of the set's, rolls confirmed, the setting, the layout
    check of the confirmed rolls, the dice left out, and any error."""

    examples: int
    rolls_confirmed: int
    from_corrections: int
    from_scored_rolls: int
    faces_seen: int
    faces_total: int
    distinct_seen: int
    distinct_total: int
    faces: tuple[FaceCount, ...]
    learn_from_corrections: bool
    layout: LayoutReport
    left_out: tuple[LeftOutDie, ...]
    left_out_checked: bool
    """False until a reader has read with the profile as it is (`check_left_out`)."""
    error: str | None


@dataclass(frozen=True)
class TaughtReading:
    """A teaching reading kept for confirmation: its token and each die's crop."""

    token: str
    crops: tuple[np.ndarray | None, ...]

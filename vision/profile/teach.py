"""Teaching a dice profile: the dice of a frame, labelled by the faces the user confirmed.

The user says which ten faces a roll shows (in any order, as they would type it);
the reader says where the dice are and how likely each face is for each of them.
The most likely one-to-one match of the two (`vision.profile.profile.label_by_roll`) labels
every die, and their crops become the profile's examples.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from scorer.dice import Die
from vision.profile.profile import (
    DiceProfile,
    ProfileMatcher,
    contradicted_colours,
    contradicted_values,
    label_by_roll,
)
from vision.profile.profile_heads import example_probs, fit_profile_heads
from vision.profile.settings import ProfileSettings
from vision.read.frame_inks import ink_chroma
from vision.read.labels import die_from_indices
from vision.read.pipeline import DiceReader, is_frame, read_dice

if TYPE_CHECKING:
    from vision.read.classifier import FaceClassifier

logger = logging.getLogger(__name__)


class TeachError(ValueError):
    """A frame and roll that cannot teach: no dice found, or more dice than the roll has."""


@dataclass(frozen=True)
class Lesson:
    """What one confirmed roll taught: the profile after it, each die's face and centre,
    and the faces of the roll whose die the picture did not show (not taught)."""

    profile: DiceProfile
    dice: tuple[Die, ...]
    centres: tuple[tuple[float, float], ...]
    not_found: tuple[Die, ...] = ()


def teach(
    reader: DiceReader, frame: np.ndarray, roll: Sequence[Die], profile: DiceProfile
) -> Lesson:
    """`profile` with the dice of `frame` added, labelled by the confirmed `roll`.

    A frame showing fewer dice than the roll (a die not found) teaches the dice it
    shows, each labelled with the roll's face it most likely is; the faces left over
    are named in `Lesson.not_found`. Raises TeachError when the frame is not an image,
    holds no die the classifier can read, or more dice than `roll` has faces;
    ValueError when the reader's model gives no embedding (a model exported before
    profiles)."""
    classifier = reader.classifier
    if not classifier.has_embedding:
        raise ValueError(f"{classifier.name} gives no embedding: it cannot learn a profile")
    if not is_frame(frame):
        raise TeachError("not a colour image")
    readout = reader.readout(frame)
    faces, _ = read_dice(readout)  # the dice a reading of this frame shows
    if faces.size == 0:
        raise TeachError("no dice found in the picture")
    if faces.size > len(roll):
        raise TeachError(f"{faces.size} dice found in the picture, but the roll has {len(roll)}")
    labels = label_by_roll(readout.face_probs(faces), roll)
    not_found = list(roll)
    for label in labels:
        not_found.remove(label)
    assert readout.descriptors is not None  # the model has an embedding
    taught = described_for(reader, profile).add(
        readout.crops[faces], labels, readout.descriptors[faces], classifier.sha256
    )
    boxes = [readout.located.boxes[int(index)] for index in faces]
    centres = tuple(
        (round(float(box[:, 0].mean()), 2), round(float(box[:, 1].mean()), 2)) for box in boxes
    )
    return Lesson(taught, tuple(labels), centres, tuple(not_found))


@dataclass(frozen=True)
class LeftOut:
    """A taught die the reader leaves out (`taught_slips`): where it is in the profile, the
    face it was confirmed as, and the face it looks like (the confirmed one with what was
    contradicted, value or colour or both, as the classifier reads it)."""

    index: int
    confirmed: Die
    looks_like: Die


@dataclass(frozen=True)
class ProfileInUse:
    """A profile as a reader reads with it: described by the reader's model, and the
    taught dice left out of the reading (they stay in the profile)."""

    profile: DiceProfile
    left_out: tuple[LeftOut, ...] = ()


def use_profile(
    reader: DiceReader, profile: DiceProfile, checked: np.ndarray | None = None,
    *, settings: ProfileSettings = ProfileSettings(),
) -> ProfileInUse:
    """Make `reader` weigh its readings with `profile` (described by the reader's model,
    recomputed from the crops when another model described them, and the model's heads
    fitted to its examples: `vision.profile.profile_heads`), less the taught dice that look like
    a slip of the finger (`taught_slips`) unless `checked` ((N,) bool) says the players
    have looked at that die again. An empty profile, or a model without an embedding,
    reads as none. `settings`: how the profile weighs faces and finds slips
    (`vision.profile.settings`)."""
    classifier = reader.classifier
    if not len(profile) or not classifier.has_embedding:
        if len(profile):
            logger.warning("%s gives no embedding: reading without the profile", classifier.name)
        reader.profile = None
        return ProfileInUse(profile)
    described = described_for(reader, profile)
    chroma = ink_chroma(described.crops)
    left_out = taught_slips(described, chroma, classifier, checked, settings=settings)
    kept = np.ones(len(described), bool)
    kept[[slip.index for slip in left_out]] = False
    trusted = described.subset(kept)
    heads = fit_profile_heads(trusted, classifier, settings.heads)
    reader.profile = ProfileMatcher(trusted, heads, chroma[kept], settings=settings)
    return ProfileInUse(described, left_out)


def taught_slips(
    profile: DiceProfile,
    chroma: np.ndarray,
    classifier: FaceClassifier,
    checked: np.ndarray | None = None,
    *,
    settings: ProfileSettings = ProfileSettings(),
) -> tuple[LeftOut, ...]:
    """The examples of `profile` (inks `chroma`) whose confirmed colour their ink and the
    classifier both contradict, or whose confirmed value their likeness to the other
    examples and the classifier both do (`vision.profile.profile.contradicted_colours`,
    `contradicted_values`): a face mistyped or mis-tapped, which the heads would otherwise
    learn for every die like it. The reader leaves them out; they stay in the profile on
    disk, the log names them, and the set-up page shows them to be fixed. An example
    `checked` ((N,) bool: the players looked at it again and kept its face) is never one:
    a face the classifier misreads and the set's other dice do not show."""
    value_probs, colour_probs = example_probs(profile, classifier, settings.heads)
    colour_slips = contradicted_colours(chroma, profile.colours, colour_probs, settings)
    value_slips = contradicted_values(profile.descriptors, profile.values, value_probs, settings)
    if checked is not None:
        colour_slips &= ~np.asarray(checked, bool)
        value_slips &= ~np.asarray(checked, bool)
    looks_values = np.where(value_slips, value_probs.argmax(axis=1), profile.values)
    looks_colours = np.where(colour_slips, colour_probs.argmax(axis=1), profile.colours)
    confirmed = profile.dice
    left_out = tuple(
        LeftOut(int(index), confirmed[index],
                die_from_indices(int(looks_values[index]), int(looks_colours[index])))
        for index in np.flatnonzero(colour_slips | value_slips)
    )
    if left_out:
        logger.warning(
            "dice profile: %d taught dice left out, their confirmed face unlike how they "
            "look and the classifier's reading (%s)", len(left_out),
            ", ".join(f"{slip.confirmed} looks like {slip.looks_like}" for slip in left_out),
        )
    return left_out


def described_for(reader: DiceReader, profile: DiceProfile) -> DiceProfile:
    """`profile` described as `reader` describes faces: by its classifier at its quarter
    turns (recomputed from the crops when another classifier described them)."""
    classifier = reader.classifier
    return profile.described_by(
        lambda crops: classifier.describe(crops, reader.turns), classifier.sha256
    )

"""A dice profile: the user's own dice, learnt from the rolls they confirmed.

No renderer knows the font and inks of a household's dice, but the household rolls
the same ten dice every game. Each die they confirm (or correct) becomes an example:
its crop, its true face, and the classifier's descriptor of it (the pooled features
before the heads, averaged over the crop's four quarter turns, so a face has one
descriptor whatever way up it lies). When a die is read, its descriptor is compared
with the examples; a face the profile has seen and that looks like this die gains
weight, while a seen face that looks unlike it, and faces the profile has not seen,
are left as the network judged them (`ProfileMatcher.evidence`).

The profile lives in one file in a folder (`PROFILE_FILE`), written atomically, so a
crash never leaves half a profile. The crops are kept, not only the descriptors: a
new classifier describes faces differently, and the descriptors are then computed
again from the crops (`DiceProfile.described_by`).
"""

from __future__ import annotations

import io
import json
import logging
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import numpy as np

from scorer.atomic_file import write_atomically
from scorer.dice import Die
from vision.profile.settings import ProfileSettings
from vision.read import ink_likelihood
from vision.read.crops import CROP_SIZE
from vision.read.decode import by_face
from vision.read.frame_inks import ink_chroma
from vision.read.labels import colour_index, die_from_indices, value_index
from vision.read.model_io import COLOUR_LABELS, VALUE_LABELS
from vision.read.vectors import unit_rows

logger = logging.getLogger(__name__)

PROFILE_FILE: Final[str] = "dice_profile.npz"
PROFILE_FORMAT: Final[int] = 1

DescribeCrops = Callable[[np.ndarray], np.ndarray]
"""(N, CROP_SIZE, CROP_SIZE, 3) uint8 crops -> (N, D) descriptors (`FaceClassifier.describe`)."""


class ProfileError(RuntimeError):
    """A profile file that cannot be used: unreadable, corrupt, or not a dice profile."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"dice profile {self.path}: {problem}")


@dataclass(frozen=True)
class DiceProfile:
    """Confirmed examples of the user's faces; immutable, `add` returns a new profile."""

    crops: np.ndarray  # (N, CROP_SIZE, CROP_SIZE, 3) uint8, BGR
    values: np.ndarray  # (N,) value class indices (vision.read.labels.VALUE_LABELS)
    colours: np.ndarray  # (N,) colour class indices (COLOUR_LABELS)
    descriptors: np.ndarray  # (N, D) float32, unit length; (N, 0) when not described
    model: str = ""  # SHA-256 of the classifier that made the descriptors

    @classmethod
    def empty(cls) -> DiceProfile:
        return cls(
            np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8),
            np.zeros((0,), np.int8),
            np.zeros((0,), np.int8),
            np.zeros((0, 0), np.float32),
        )

    def __len__(self) -> int:
        return len(self.values)

    @property
    def dice(self) -> list[Die]:
        """The face of each example, in order."""
        return [
            die_from_indices(int(v), int(c)) for v, c in zip(self.values, self.colours, strict=True)
        ]

    def counts(self) -> dict[Die, int]:
        """How many examples the profile holds of each face it has seen."""
        counts: dict[Die, int] = {}
        for die in self.dice:
            counts[die] = counts.get(die, 0) + 1
        return counts

    def subset(self, keep: np.ndarray) -> DiceProfile:
        """This profile with only the examples `keep` (a boolean mask or indices) selects."""
        return DiceProfile(self.crops[keep], self.values[keep], self.colours[keep],
                           self.descriptors[keep], self.model)

    def relabelled(self, index: int, die: Die) -> DiceProfile:
        """This profile with example `index` confirmed as `die` instead (its crop and
        descriptor kept): a face the players typed wrong, put right."""
        if not 0 <= index < len(self):
            raise IndexError(f"no example {index} in a profile of {len(self)}")
        values, colours = self.values.copy(), self.colours.copy()
        values[index], colours[index] = value_index(die), colour_index(die)
        return DiceProfile(self.crops, values, colours, self.descriptors, self.model)

    def add(
        self, crops: np.ndarray, dice: Sequence[Die], descriptors: np.ndarray, model: str
    ) -> DiceProfile:
        """This profile with `crops` of the faces `dice` added (descriptors by `model`)."""
        crops = np.asarray(crops, np.uint8)
        if crops.ndim != 4 or crops.shape[1:] != (CROP_SIZE, CROP_SIZE, 3):
            raise ValueError(f"crops must be (N, {CROP_SIZE}, {CROP_SIZE}, 3), got {crops.shape}")
        if len(crops) != len(dice) or len(crops) != len(descriptors):
            raise ValueError(
                f"{len(crops)} crops, {len(dice)} faces and {len(descriptors)} descriptors"
            )
        if len(self) and model != self.model:
            raise ValueError("descriptors of a different classifier; use described_by first")
        new = unit_rows(descriptors)
        old = self.descriptors if len(self) else np.zeros((0, new.shape[1]), np.float32)
        return DiceProfile(
            np.concatenate([self.crops, crops]),
            np.concatenate([self.values, [value_index(d) for d in dice]]).astype(np.int8),
            np.concatenate([self.colours, [colour_index(d) for d in dice]]).astype(np.int8),
            np.concatenate([old, new]),
            model,
        )

    def described_by(self, describe: DescribeCrops, model: str) -> DiceProfile:
        """This profile described by classifier `model` (recomputed if another made them)."""
        if model == self.model or not len(self):
            return DiceProfile(self.crops, self.values, self.colours, self.descriptors, model)
        logger.info("dice profile: describing %d examples with the current classifier", len(self))
        descriptors = unit_rows(describe(self.crops))
        return DiceProfile(self.crops, self.values, self.colours, descriptors, model)

    def save(self, folder: Path | str) -> Path:
        """Write the profile into `folder` atomically (a temporary file, then a rename)."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / PROFILE_FILE
        manifest = {"format": PROFILE_FORMAT, "model": self.model, "examples": len(self)}
        buffer = io.BytesIO()
        np.savez_compressed(
            buffer,
            manifest=np.frombuffer(json.dumps(manifest).encode(), np.uint8),
            crops=self.crops,
            values=self.values,
            colours=self.colours,
            descriptors=self.descriptors,
        )
        write_atomically(path, buffer.getvalue())
        return path

    @classmethod
    def load(cls, folder: Path | str) -> DiceProfile:
        """The profile saved in `folder`; an empty one when the folder holds none.

        Raises ProfileError for a file that is not a readable dice profile."""
        path = Path(folder) / PROFILE_FILE
        if not path.exists():
            return cls.empty()
        try:
            with path.open("rb") as file, np.load(file, allow_pickle=False) as data:
                manifest = json.loads(bytes(data["manifest"]).decode())
                arrays = {k: data[k] for k in ("crops", "values", "colours", "descriptors")}
        except (OSError, ValueError, KeyError, EOFError, TypeError, zipfile.BadZipFile) as error:
            raise ProfileError(path, f"not a readable dice profile ({error})") from error
        if not isinstance(manifest, dict) or manifest.get("format") != PROFILE_FORMAT:
            raise ProfileError(path, f"unknown profile format {manifest!r:.80}")
        profile = cls(
            arrays["crops"].astype(np.uint8),
            arrays["values"].astype(np.int8),
            arrays["colours"].astype(np.int8),
            arrays["descriptors"].astype(np.float32),
            str(manifest.get("model", "")),
        )
        _check(profile, path)
        return profile


def _check(profile: DiceProfile, path: Path) -> None:
    """Refuse arrays that disagree with each other or hold impossible classes."""
    count = len(profile.values)
    problems = []
    if profile.crops.shape != (count, CROP_SIZE, CROP_SIZE, 3):
        problems.append(f"crops have shape {profile.crops.shape}")
    if profile.colours.shape != (count,):
        problems.append(f"{profile.colours.shape} colours for {count} values")
    if count and len(profile.descriptors) != count:
        problems.append(f"{len(profile.descriptors)} descriptors for {count} examples")
    if count and not (0 <= profile.values.min() and profile.values.max() < len(VALUE_LABELS)):
        problems.append("a value class out of range")
    if count and not (0 <= profile.colours.min() and profile.colours.max() < len(COLOUR_LABELS)):
        problems.append("a colour class out of range")
    if problems:
        raise ProfileError(path, "corrupt: " + "; ".join(problems))


class HeadEvidence(Protocol):
    """Corrections of the network's value and colour fitted to a profile
    (`vision.profile.profile_heads.ProfileHeads`), seen only through what the matcher asks."""

    def evidence(self, descriptors: np.ndarray) -> np.ndarray:
        """(N, 44) log-likelihood adjustments in `vision.read.decode.FACES` order."""
        ...


class ProfileMatcher:
    """Evidence from a profile's examples for the faces of newly read dice."""

    def __init__(
        self,
        profile: DiceProfile,
        heads: HeadEvidence | None = None,
        chroma: np.ndarray | None = None,
        *,
        settings: ProfileSettings = ProfileSettings(),
    ) -> None:
        """`heads`: the classifier's heads fitted to this profile
        (`vision.profile.profile_heads.fit_profile_heads`); None weighs by resemblance and ink only.
        `chroma`: the examples' `ink_chroma`, where the caller has it (None: measured here).
        `settings`: how each evidence is weighed (`vision.profile.settings`)."""
        self.profile = profile
        self.heads = heads
        self.settings = settings
        faces = profile.values.astype(np.int64) * len(COLOUR_LABELS) + profile.colours
        order = np.argsort(faces, kind="stable")  # examples grouped by face
        self._seen, self._starts = np.unique(faces[order], return_index=True)
        # Cosines of raw pooled features are all high (the features are non-negative);
        # centring on the examples' mean spreads them so "the same face" stands out.
        self._centre = profile.descriptors.mean(axis=0) if len(profile) else None
        self._examples = (
            unit_rows(profile.descriptors[order] - self._centre) if len(profile) else None
        )
        chroma = ink_chroma(profile.crops) if chroma is None else np.asarray(chroma)
        if len(chroma) != len(profile):
            raise ValueError(f"{len(chroma)} inks for {len(profile)} examples")
        self._inks = {
            colour: chroma[profile.colours == colour].mean(axis=0)
            for colour in range(len(COLOUR_LABELS))
            if np.count_nonzero(profile.colours == colour) >= settings.ink_min_examples
        }

    @property
    def frame_ink_weight(self) -> float:
        """How much the frame's colour evidence counts beside this profile's: less once
        the profile holds ink references of its own (`ProfileSettings.frame_ink_weight`),
        fully while it has none, so an empty profile reads as no profile."""
        return self.settings.frame_ink_weight if len(self._inks) >= 2 else 1.0

    def evidence(self, descriptors: np.ndarray, chroma: np.ndarray) -> np.ndarray:
        """(N, 44) log-likelihood adjustments, in `vision.read.decode.FACES` order, for dice with
        these descriptors and ink chroma (`ink_chroma` of their crops).

        The sum of three, each at weight 1 but the first scaled within
        (`ProfileSettings`): a face the profile has seen gains `similarity_weight` per unit
        of its nearest example's similarity above `similarity_neutral`; unseen faces, and
        seen ones that do not look alike, get none. Each colour with a reference gains the
        ink likelihood (`vision.read.ink_likelihood`, scale `ink_sigma`) of the die's ink
        chroma around that colour's reference (`unseen_ink` for a colour without one).
        And, with `heads`, their corrections of the network's value and colour for these
        descriptors.
        """
        settings = self.settings
        count = len(descriptors)
        adjust = np.zeros((count, len(VALUE_LABELS) * len(COLOUR_LABELS)), np.float64)
        if self._examples is None or count == 0:
            return adjust
        if len(self._seen) >= 2:
            queries = unit_rows(np.asarray(descriptors) - self._centre)
            similarity = queries @ self._examples.T  # (N, M), examples grouped by face
            best = np.maximum.reduceat(similarity, self._starts, axis=1)  # (N, faces seen)
            adjust[:, self._seen] = settings.similarity_weight * np.maximum(
                best - settings.similarity_neutral, 0)
        if len(self._inks) >= 2:
            ink = np.full((count, len(COLOUR_LABELS)), settings.unseen_ink)
            for colour, reference in self._inks.items():
                distance = np.sum((np.asarray(chroma) - reference) ** 2, axis=1)
                ink[:, colour] = ink_likelihood.ink_log_likelihood(
                    distance, settings.ink_sigma, settings.ink_degrees)
            adjust += by_face(ink)
        if self.heads is not None:
            adjust += self.heads.evidence(descriptors)
        return adjust


def contradicted_colours(
    chroma: np.ndarray, colours: np.ndarray, colour_probs: np.ndarray,
    settings: ProfileSettings = ProfileSettings(),
) -> np.ndarray:
    """(N,) whether each taught example's confirmed colour (`colours`, class indices) is
    contradicted twice: by its ink (`ink_chroma`), which lies `settings.ink_contradiction`
    nats nearer another colour's examples than the other examples of its own colour, and
    by the classifier (`colour_probs`, (N, C)), which gives that colour less than
    `settings.doubted_colour`.
    An example alone in its colour is never contradicted: nothing of the set says how
    that ink looks. A set whose ink the classifier misreads (a teal green it calls blue)
    is not contradicted either, since its examples' inks agree with one another."""
    chroma = np.asarray(chroma, np.float64)
    colours = np.asarray(colours, int)
    count = len(colours)
    if count == 0:
        return np.zeros(0, bool)
    rows = np.arange(count)
    members = np.eye(len(COLOUR_LABELS))[colours]  # (N, C)
    others = members.sum(axis=0)[None, :] - members  # each colour's examples, less this one
    sums = (members.T @ chroma)[None] - members[:, :, None] * chroma[:, None, :]  # (N, C, 3)
    references = sums / np.maximum(others, 1)[:, :, None]
    distance = np.sum((chroma[:, None, :] - references) ** 2, axis=2)
    likelihood = np.where(
        others > 0,
        ink_likelihood.ink_log_likelihood(distance, settings.ink_sigma, settings.ink_degrees),
        -np.inf)
    own = likelihood[rows, colours]
    likelihood[rows, colours] = -np.inf
    with np.errstate(invalid="ignore"):  # -inf - -inf: no colour to compare with
        nearer = likelihood.max(axis=1) - own >= settings.ink_contradiction
    doubted = np.asarray(colour_probs, np.float64)[rows, colours] < settings.doubted_colour
    return np.isfinite(own) & nearer & doubted


def contradicted_values(
    descriptors: np.ndarray, values: np.ndarray, value_probs: np.ndarray,
    settings: ProfileSettings = ProfileSettings(),
) -> np.ndarray:
    """(N,) whether each taught example's confirmed value (`values`, class indices) is
    contradicted twice: by the classifier (`value_probs`, (N, V)), which gives it less
    than `settings.doubted_value`, and by its likeness: its descriptor lies
    `settings.likeness_margin` of cosine
    nearer an example of the value the classifier reads than any other example of its
    own value (or none shares its value). A font the classifier misreads is not
    contradicted once its faces have examples alike: each looks as much like its own
    value's other examples as like any example of the value it is read as."""
    values = np.asarray(values, int)
    count = len(values)
    if count == 0:
        return np.zeros(0, bool)
    probs = np.asarray(value_probs, np.float64)
    read = probs.argmax(axis=1)  # never its own value while that is doubted
    doubted = probs[np.arange(count), values] < settings.doubted_value
    centred = unit_rows(np.asarray(descriptors) - np.mean(descriptors, axis=0))
    likeness = (centred @ centred.T).astype(np.float64)
    np.fill_diagonal(likeness, -np.inf)
    own = np.where(values[None, :] == values[:, None], likeness, -np.inf).max(axis=1)
    as_read = np.where(values[None, :] == read[:, None], likeness, -np.inf).max(axis=1)
    return doubted & (as_read - np.maximum(own, -1.0) >= settings.likeness_margin)


def label_by_roll(face_probs: np.ndarray, roll: Sequence[Die]) -> list[Die]:
    """The face of each read die, given the faces the user confirmed in any order.

    Picks the one-to-one assignment of `roll`'s faces to the dice (rows of the (N, 44)
    `face_probs`, `vision.read.decode.FACES` order) that the classifier finds most likely
    (the largest sum of log-probabilities), by dynamic programming over the subsets of
    faces used (at most 10 faces, so at most 1,024 subsets per die). With fewer dice
    than faces (a die not found), the faces left over are the dice not found.
    """
    probs = np.asarray(face_probs, np.float64)
    count = len(probs)
    if count > len(roll):
        raise ValueError(f"{count} dice read but {len(roll)} faces given")
    colours = len(COLOUR_LABELS)
    columns = [value_index(die) * colours + colour_index(die) for die in roll]
    scores = np.log(np.maximum(probs[:, columns], 1e-12))  # (dice, faces)
    # faces used (bit mask) -> (score, face of each die so far)
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (0.0, ())}
    for die in range(count):
        step: dict[int, tuple[float, tuple[int, ...]]] = {}
        for used, (score, chosen) in best.items():
            for face in range(len(roll)):
                if used & (1 << face):
                    continue
                key, total = used | (1 << face), score + scores[die, face]
                if key not in step or total > step[key][0]:
                    step[key] = (total, (*chosen, face))
        best = step
    _, chosen = max(best.values(), key=lambda entry: entry[0])  # every die labelled
    return [roll[face] for face in chosen]

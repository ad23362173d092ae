"""The table's dice profile (issue 15): the user's own dice, kept in the data folder.

`TableProfile` owns the profile of `<data dir>/profile/` (`vision.profile.profile`) and its
changes; the jobs around it are modules of their own: the readers that read with it
(`web.profile_readers`), its progress file (`web.profile_progress`), teaching readings
under tokens (`web.teaching_readings`), the crops of rolls read from pictures
(`web.read_rolls`), and cutting and naming crops (`web.crop_images`).

- **At start-up** it loads it. A profile that cannot be used (corrupt, or not a dice
  profile) is logged, shown on /setup and by `GET /api/profile`, and left on disk
  for a person to look at; the readers read without a profile until it is reset.
- **Teaching on /setup**: `read_frame` reads a frame, `remember_reading` keeps each
  die's crop under a token; `confirm` adds the crops with the faces the players
  confirmed, saves the profile (atomically) and counts one roll confirmed.
- **Dice left out.** A taught die whose face looks typed wrong is left out of the
  reading (`vision.profile.teach.taught_slips`); `fix_example` puts its face right, keeps it
  (the players checked it: it is read with from then on) or forgets it.
- **During play**, the camera thread and the photo upload hand over the crops of
  each roll they put on the table (`remember_read_roll`); when the players correct
  one of those dice (`die_corrected`, the service's hook) its crop is added with the
  corrected face, and when they score such a roll as it lies (`roll_scored`: its marked
  dice checked or corrected) every die's crop is added with its face, unless learning
  during play is switched off (a table setting, on by default). A household's dice then
  teach the scorepad their own inks and numerals game after game; the examples learnt
  from scores keep at most `MAX_SCORED_PER_FACE` of each face, the newest. A failure
  there is logged and never breaks the correction or the score.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Final

import numpy as np

from scorer.dice import FULL_ROLL, Die, Roll
from scorer.dice_set import PRINTED_DICE
from scorer.layout_check import check_layout
from vision.reading import Reading
from web.crop_images import cut_crops, example_key
from web.profile_progress import PROGRESS_FILE, Progress, read_progress, write_progress
from web.profile_readers import Applied, ProfileReaders
from web.profile_summary import (
    Example,
    FaceCount,
    LeftOutDie,
    ProfileSummary,
    TaughtReading,
    distinct_faces,
)
from web.read_rolls import ReadRolls
from web.reader import TableReader, UseReader
from web.store import GameStore
from web.table_dice import TableDice
from web.table_roll import RollSource, TableRoll
from web.teaching_readings import TeachingReadings

if TYPE_CHECKING:
    from vision.profile.profile import DiceProfile
    from vision.profile.teach import LeftOut

__all__ = ["LEARN_UNCHECKED_FROM", "MAX_SCORED_PER_FACE", "PROFILE_DIR", "PROGRESS_FILE",
           "ProfileSaveError", "TableProfile", "TeachingError", "UnknownExampleError",
           "UnknownReadingError", "doubtful_dice", "newest_scored"]

log = logging.getLogger(__name__)

#: The profile's folder inside the data directory.
PROFILE_DIR: Final[str] = "profile"
#: The table setting that switches learning from corrections off (False); on when unset.
LEARN_SETTING: Final[str] = "profile_learns_from_corrections"
#: Rolls read from a picture (the camera's frame, a phone's photo): a corrected die of
#: one of these has a picture to learn from; a typed roll has none.
LEARNT_SOURCES: Final[frozenset[RollSource]] = frozenset({RollSource.CAMERA, RollSource.PHOTO})
#: Examples of one face kept from rolls scored during play (the newest); the older ones
#: make way, so the profile, and the time it takes to fit, stop growing.
MAX_SCORED_PER_FACE: Final[int] = 10
#: A die the players did not check (not marked) is learnt from its score only when its
#: probability (its confidence, without a calibration) is at least this: the few dice
#: read wrong without a mark mostly lie under it, and a die learnt wrong would teach
#: the reader its mistake.
LEARN_UNCHECKED_FROM: Final[float] = 0.99

class TeachingError(ValueError):
    """A teaching request that cannot be done now; the message says why and what to do."""

    status = 409


class UnknownReadingError(TeachingError):
    """A confirmation for a reading this scorepad no longer holds (read the dice again)."""

    status = 404


class UnknownExampleError(TeachingError):
    """A change to an example the profile does not hold (changed or reset meanwhile)."""

    status = 404


class ProfileSaveError(TeachingError):
    """The profile could not be written; the one on disk (and in use) is unchanged."""

    status = 503


class TableProfile:
    """The dice profile in the data folder: loading, teaching, fixing, learning."""

    def __init__(self, data_dir: Path, store: GameStore, use_reader: UseReader,
                 dice: TableDice | None = None) -> None:
        """`use_reader` lends a reader to read teaching frames and describe crops; `dice`:
        the table's dice set, which the faces counted and the layout check are of."""
        self.folder = Path(data_dir) / PROFILE_DIR
        self._dice = dice or TableDice(PRINTED_DICE)
        self._store = store
        self._use_reader = use_reader
        self._lock = threading.RLock()
        self._profile: DiceProfile | None = None  # None: no profile (none on disk, or unusable)
        # The taught dice the readers leave out; None until a reader has read with the
        # profile as it is (the photos' reader loads on the first photo: `check_left_out`).
        self._left_out: tuple[LeftOut, ...] | None = ()
        self.error: str | None = None
        self._readers = ProfileReaders()
        self._pending = TeachingReadings()
        self._read_rolls = ReadRolls()
        self._progress = Progress()
        # Scored rolls are learnt one after another, off the request that scored them.
        self._learner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="profile-learning")
        self._load()

    def close(self) -> None:
        """Finish learning the rolls scored so far; learn no more."""
        self._learner.shutdown(wait=True)

    def wait_learnt(self) -> None:
        """Return once the rolls scored so far are learnt (or failed to be)."""
        try:
            self._learner.submit(lambda: None).result()
        except RuntimeError:  # closed: everything scored was learnt before it closed
            pass

    # --- loading and the readers --------------------------------------------------------

    def _load(self) -> None:
        if not self.folder.is_dir() or not any(self.folder.iterdir()):
            return  # nothing taught yet: vision's model code is not even imported
        # loaded on use: the app without a camera loads no OpenCV or model
        from vision.profile.profile import DiceProfile, ProfileError

        try:
            profile = DiceProfile.load(self.folder)
        except ProfileError as error:
            self.error = (f"{error}: reading without the profile (reset it on the set-up "
                          "page to start a new one)")
            log.error("%s", self.error)
            return
        self._profile = profile if len(profile) else None
        self._left_out = None
        self._progress = read_progress(self.folder)
        log.info("dice profile loaded from %s: %d examples", self.folder, len(profile))

    def attach(self, reader: TableReader) -> None:
        """Make `reader` read with the profile, now and after each change."""
        with self._lock:
            self._took(self._readers.attach(reader, self._profile, self._checked_mask()))

    def _apply_all(self) -> None:
        """Swap the profile as it is into every reader (the lock held)."""
        self._took(self._readers.apply_all(self._profile, self._checked_mask()))

    def _took(self, applied: Applied | None) -> None:
        """What a reader found reading with the profile: the profile as its model
        describes it (no recompute from now on) and the dice it leaves out."""
        if applied is None:
            return
        if applied.profile is not None:
            self._profile = applied.profile
        self._left_out = applied.left_out

    def _checked_mask(self) -> np.ndarray | None:
        """(N,) which examples of the profile the players checked (None: none)."""
        profile, checked = self._profile, self._progress.checked
        if profile is None or not checked:
            return None
        return np.array([example_key(crop) in checked for crop in profile.crops])

    # --- what the page shows --------------------------------------------------------------

    @property
    def learns_from_corrections(self) -> bool:
        return self._store.setting(LEARN_SETTING) is not False

    def set_learning(self, on: bool) -> None:
        """Learn from corrections of camera-read dice (on) or not; kept as a table setting."""
        self._store.set_setting(LEARN_SETTING, None if on else False)
        if not on:
            self._read_rolls.clear()
        log.info("the dice profile %s from corrections", "learns" if on else "does not learn")

    def confirmed_rolls(self) -> list[Roll]:
        """The whole rolls the players confirmed, oldest first."""
        with self._lock:
            return list(self._progress.rolls)

    def summary(self) -> ProfileSummary:
        """Examples per face, faces seen of the sixty, rolls confirmed, settings, any error."""
        with self._lock:
            profile, error, progress = self._profile, self.error, self._progress
            left_out = self._left_out
        counts: dict[Die, int] = {} if profile is None else profile.counts()
        dice_set = self._dice.current
        faces, distinct = dice_set.faces, distinct_faces(dice_set.faces)
        return ProfileSummary(
            examples=sum(counts.values()),
            rolls_confirmed=progress.rolls_confirmed,
            from_corrections=progress.from_corrections,
            from_scored_rolls=progress.from_scored_rolls,
            faces_seen=sum(1 for face in faces if counts.get(face)),
            faces_total=len(faces),
            distinct_seen=sum(1 for face in distinct if counts.get(face)),
            distinct_total=len(distinct),
            faces=tuple(FaceCount(face, counts.get(face, 0), faces.count(face))
                        for face in distinct),
            learn_from_corrections=self.learns_from_corrections,
            layout=check_layout(progress.rolls, dice_set),
            left_out=() if profile is None else tuple(
                LeftOutDie(example_key(profile.crops[out.index]), out.confirmed,
                           out.looks_like, profile.crops[out.index])
                for out in left_out or ()),
            left_out_checked=profile is None or left_out is not None,
            error=error,
        )

    def check_left_out(self) -> None:
        """Work out which taught dice the readers leave out, when no reader has read with
        the profile as it is: on a table without a camera the photos' reader loads on the
        first photo, so this loads it (a second or two, once)."""
        with self._lock:
            if self._profile is None or self._left_out is not None:
                return

        def work(reader: TableReader) -> None:
            with self._lock:
                if self._left_out is None:  # loaded before, or its profile not applied
                    self._took(ProfileReaders.apply(reader, self._profile,
                                                    self._checked_mask()))

        self._use_reader(work)

    def examples_of(self, face: Die) -> tuple[Example, ...]:
        """The taught pictures of `face`, oldest first: each with its key (to forget it or
        confirm it otherwise), its picture, and whether the reader leaves it out."""
        with self._lock:
            profile, left_out = self._profile, {out.index for out in self._left_out or ()}
        if profile is None:
            return ()
        return tuple(Example(example_key(profile.crops[index]), profile.crops[index],
                             index in left_out)
                     for index, die in enumerate(profile.dice) if die == face)

    # --- teaching from /setup -----------------------------------------------------------

    def read_frame(self, frame: np.ndarray, tray: Sequence[Sequence[float]] | None
                   ) -> tuple[Reading, np.ndarray]:
        """Read a camera frame with the lent reader, inside the tray (fractions of the frame)."""

        def work(reader: TableReader) -> tuple[Reading, np.ndarray]:
            from vision.read.pipeline import DiceReader  # a reader is loaded: so is vision

            if not isinstance(reader, DiceReader):  # a stand-in reader: the whole frame
                return reader.read(frame), frame
            pixels = None
            if tray is not None:
                height, width = frame.shape[:2]
                pixels = (np.asarray(tray, np.float64) * (width, height)).astype(np.float32)
            return reader.sharing(tray=pixels).read(frame), frame

        return self._use_reader(work)

    def remember_reading(self, reading: Reading, image: np.ndarray) -> TaughtReading:
        """Keep the crops of a teaching reading under a token, for `confirm`."""
        crops = cut_crops(reading, image)
        return TaughtReading(self._pending.keep(crops), tuple(crops))

    def confirm(self, token: str, faces: Sequence[Die | None]) -> int:
        """Add the crops of reading `token` with the confirmed faces (None: leave that die
        out); saves the profile and counts a roll confirmed. Returns the dice added."""
        pending = self._pending.get(token)
        if pending is None:
            raise UnknownReadingError("that reading is no longer kept (too old, or the "
                                      "scorepad restarted): read the dice again")
        if len(faces) != len(pending.crops):
            raise TeachingError(f"the reading has {len(pending.crops)} dice but "
                                f"{len(faces)} faces were sent: send one per die, in order")
        chosen = [(crop, face) for crop, face in zip(pending.crops, faces, strict=True)
                  if crop is not None and face is not None]
        if not chosen:
            raise TeachingError("no die to learn: confirm at least one die's face")
        self._learn([crop for crop, _ in chosen], [face for _, face in chosen])
        whole = len(faces) == FULL_ROLL and all(face is not None for face in faces)
        roll = Roll.from_dice(face for face in faces if face is not None) if whole else None
        with self._lock:
            self._pending.drop(token)
            self._progress = self._progress.with_roll(
                roll, tuple(example_key(crop) for crop, _ in chosen))
            write_progress(self.folder, self._progress)
        log.info("dice profile: a roll of %d dice confirmed", len(chosen))
        return len(chosen)

    def reset(self) -> None:
        """Forget every example: the profile (even an unusable one) and its progress go."""
        with self._lock:
            if self.folder.is_dir():
                from vision.profile.profile import PROFILE_FILE

                for name in (PROFILE_FILE, PROGRESS_FILE):
                    (self.folder / name).unlink(missing_ok=True)
            self._profile = None
            self.error = None
            self._progress = Progress()
            self._pending.clear()
            self._apply_all()
        log.info("dice profile reset")

    def fix_example(self, key: str, face: Die | None) -> None:
        """Confirm the example whose picture has `key` (`example_key`) as `face`, or forget
        it (None): a die taught with a face typed wrong, put right, or its face kept. A die
        the players checked this way is never left out of the reading again. The whole
        roll it was confirmed in is put right too (the dice table is checked by it), or,
        forgotten, no longer counts for the check."""
        with self._lock:
            profile = self._profile
            if self.error is not None:
                raise TeachingError(f"the dice profile on disk cannot be used ({self.error}); "
                                    "reset it first")
            found = [] if profile is None else [
                index for index, crop in enumerate(profile.crops) if example_key(crop) == key]
            if profile is None or not found:
                raise UnknownExampleError("the profile holds no such die (it changed "
                                          "meanwhile): reload the page")
            if face is None:
                keep = np.ones(len(profile), bool)
                keep[found] = False
                profile = profile.subset(keep)
            else:
                for index in found:
                    profile = profile.relabelled(index, face)
            before, self._progress = self._progress, self._progress.with_example(key, face)
            try:
                self._save(profile)
            except ProfileSaveError:
                self._progress = before
                raise
            write_progress(self.folder, self._progress)
        log.info("dice profile: a taught die %s", "forgotten" if face is None
                 else f"confirmed as {face}")

    def _save(self, profile: DiceProfile) -> None:
        """Save `profile` and swap it into the readers (the lock held); ProfileSaveError
        leaves the one on disk and in use as it was."""
        try:
            profile.save(self.folder)
        except OSError as error:
            log.exception("the dice profile could not be saved")
            raise ProfileSaveError("the dice profile could not be saved, nothing "
                                   f"changed: {error}") from error
        self._profile = profile if len(profile) else None
        self._left_out = None
        self._apply_all()

    def _learn(self, crops: Sequence[np.ndarray], faces: Sequence[Die], *,
               replace_same: bool = False,
               trim: Callable[[DiceProfile], DiceProfile] | None = None) -> None:
        """Add examples, save, swap the new profile into the readers. With `replace_same`,
        examples with the same pixels as one of `crops` go first (a die corrected again);
        `trim` takes the profile with them added and gives the one to save."""
        if self.error is not None:
            raise TeachingError(f"the dice profile on disk cannot be used ({self.error}); "
                                "reset it first")
        array = np.stack(crops).astype(np.uint8)

        def work(reader: TableReader) -> None:
            from vision.profile.profile import DiceProfile
            from vision.profile.teach import described_for
            from vision.read.pipeline import DiceReader  # a reader is loaded: so is vision

            if not isinstance(reader, DiceReader):
                raise TeachingError("this reader cannot learn your dice")
            classifier = reader.classifier
            if not classifier.has_embedding:
                raise TeachingError(f"the dice model ({classifier.name}) gives no embedding: "
                                    "it cannot learn your dice")
            descriptors = classifier.describe(array, reader.turns)
            with self._lock:
                profile = described_for(reader, self._profile or DiceProfile.empty())
                if replace_same:
                    profile = _without_crops(profile, array)
                profile = profile.add(array, list(faces), descriptors, classifier.sha256)
                self._save(profile if trim is None else trim(profile))

        self._use_reader(work)

    # --- learning from corrections during play -------------------------------------------

    def remember_read_roll(self, roll_id: int | None, reading: Reading,
                           frame: np.ndarray | None) -> None:
        """Keep the crops of a roll read from `frame` (the camera's, or a photo's working
        image) and put on the table (in memory, the latest few)."""
        if roll_id is None or frame is None or not self.learns_from_corrections:
            return
        try:
            crops = cut_crops(reading, frame)
        except Exception:  # noqa: BLE001 - the roll is on the table either way
            log.exception("could not keep the crops of roll %s", roll_id)
            return
        self._read_rolls.remember(roll_id, crops, doubtful_dice(reading))

    def die_corrected(self, game_id: int, before: TableRoll, index: int, die: Die,
                      after: TableRoll) -> None:
        """The service's hook: a corrected die read from a picture teaches the profile its
        face."""
        if before.source not in LEARNT_SOURCES or before.roll_id is None:
            return
        crop = self._read_rolls.corrected(before.roll_id, index, len(before.roll.dice),
                                          after.roll_id)
        if crop is None or not self.learns_from_corrections:
            return
        try:
            self._learn([crop], [die], replace_same=True)
        except Exception:  # noqa: BLE001 - learning never breaks the correction
            log.exception("game %d: die %d corrected to %s, not learnt", game_id, index, die)
            return
        with self._lock:
            self._progress = self._progress.with_correction()
            write_progress(self.folder, self._progress)
        log.info("game %d: the dice profile learnt %s from a corrected die", game_id, die)

    def roll_scored(self, game_id: int, table_roll: TableRoll) -> Future[None] | None:
        """The service's hook: a roll read from a picture and scored as it lies teaches
        the profile each die's face: the marked dice (the players checked them, or
        corrected them) and the others the reader was sure of (`doubtful_dice` are left
        out). Learnt in the background, so the score is not kept waiting: the returned
        future is done when it is learnt (None: nothing to learn)."""
        if table_roll.source not in LEARNT_SOURCES or table_roll.roll_id is None:
            return None
        kept = self._read_rolls.taken(table_roll.roll_id)
        if kept is None or not self.learns_from_corrections:
            return None
        crops, doubtful = kept
        if len(crops) != len(table_roll.roll.dice):
            log.warning("game %d: %d pictures kept for the %d dice scored: not learnt",
                        game_id, len(crops), len(table_roll.roll.dice))
            return None
        try:
            # A doubtful die learns only when the players checked it: marked, or corrected.
            learnt = [crop if index not in doubtful or index in table_roll.unsure else None
                      for index, crop in enumerate(crops)]
            return self._learner.submit(self._learn_scored, game_id, table_roll, learnt)
        except RuntimeError:  # closing: the scorepad is stopping
            return None

    def _learn_scored(self, game_id: int, table_roll: TableRoll,
                      crops: Sequence[np.ndarray | None]) -> None:
        """Learn the dice of a scored roll (`roll_scored`), on the learning thread."""
        with self._lock:
            progress, profile = self._progress, self._profile
        held = set() if profile is None else {example_key(crop) for crop in profile.crops}
        # A die corrected before the score is held already, learnt from its correction.
        pairs = [(crop, die) for crop, die in zip(crops, table_roll.roll.dice, strict=True)
                 if crop is not None and example_key(crop) not in held]
        if not pairs:
            return
        new = [example_key(crop) for crop, _ in pairs]
        scored = tuple(key for key in progress.scored if key not in new) + tuple(new)
        kept: list[tuple[str, ...]] = []

        def trim(grown: DiceProfile) -> DiceProfile:
            trimmed, still = newest_scored(grown, scored, progress.protected(),
                                           MAX_SCORED_PER_FACE)
            kept.append(still)
            return trimmed

        try:
            self._learn([crop for crop, _ in pairs], [die for _, die in pairs], trim=trim)
        except Exception:  # noqa: BLE001 - learning never breaks the score
            log.exception("game %d: the scored roll %s was not learnt", game_id,
                          table_roll.roll)
            return
        with self._lock:
            self._progress = self._progress.with_scored_roll(kept[-1] if kept else scored)
            write_progress(self.folder, self._progress)
        log.info("game %d: the dice profile learnt the scored roll %s", game_id,
                 table_roll.roll)


def doubtful_dice(reading: Reading) -> tuple[int, ...]:
    """The dice of `reading` marked, or less probable than `LEARN_UNCHECKED_FROM` (their
    confidence, where the reader has no calibration): learnt from a score only once the
    players checked them (still marked on the roll scored, `TableRoll.as_checked`) or
    corrected them."""
    return tuple(
        index for index, die in enumerate(reading.dice) if die.unsure
        or (die.confidence if die.probability is None else die.probability)
        < LEARN_UNCHECKED_FROM)


def newest_scored(profile: DiceProfile, scored: tuple[str, ...], protected: frozenset[str],
                  per_face: int) -> tuple[DiceProfile, tuple[str, ...]]:
    """`profile` keeping, of each face, the newest `per_face` examples learnt from scores
    (`scored`, oldest first; a `protected` one is always kept and does not count), and
    the keys of `scored` it still holds."""
    keys = [example_key(crop) for crop in profile.crops]
    faces = profile.dice
    age = {key: order for order, key in enumerate(scored) if key not in protected}
    keep = np.ones(len(profile), bool)
    for face in set(faces):
        mine = [i for i, (key, die) in enumerate(zip(keys, faces, strict=True))
                if die == face and key in age]
        mine.sort(key=lambda i: age[keys[i]])
        keep[mine[:max(0, len(mine) - per_face)]] = False
    held = {key for key, kept in zip(keys, keep, strict=True) if kept}
    trimmed = profile if keep.all() else profile.subset(keep)
    return trimmed, tuple(key for key in scored if key in held)


def _without_crops(profile: DiceProfile, crops: np.ndarray) -> DiceProfile:
    """`profile` less any example whose crop has the same pixels as one of `crops` (a die
    corrected twice is learnt with its last face only)."""
    if not len(profile):
        return profile
    same = (profile.crops[:, None] == crops[None]).all(axis=(2, 3, 4)).any(axis=1)
    if not same.any():
        return profile
    return profile.subset(~same)

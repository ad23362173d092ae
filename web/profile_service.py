"""The table's dice profile (issue 15): the user's own dice, kept in the data folder.

`TableProfile` owns the profile of `<data dir>/profile/` (`vision.profile`):

- **At start-up** it loads it. A profile that cannot be used (corrupt, or not a dice
  profile) is logged, shown on /setup and by `GET /api/profile`, and left on disk
  for a person to look at; the readers read without a profile until it is reset.
  With no profile on disk nothing of vision is imported (the app without a camera
  stays light).
- **Every reader of the app** (the camera thread's and the photos') is attached
  (`attach`): it reads with the profile from then on. A change builds a new
  matcher and swaps it into each reader in one assignment (`DiceReader.read`
  reads it once per frame), so the camera thread never sees half a profile.
- **Teaching on /setup**: `reading` reads a frame (the camera's latest, or an
  uploaded photo) and keeps each die's crop under a token; `confirm` adds the
  crops with the faces the players confirmed, saves the profile (atomically)
  and counts one roll confirmed.
- **Dice left out.** A taught die whose face looks typed wrong is left out of the
  reading (`vision.teach.taught_slips`); the summary shows each with its picture, and
  `fix_example` puts its face right, keeps it (the players checked it: it is read with
  from then on) or forgets it.
- **During play**, the camera thread and the photo upload hand over the crops of
  each roll they put on the table (`remember_read_roll`, keyed by the roll's id,
  kept in memory only);
  when the players correct one of those dice (`die_corrected`, the service's
  hook) its crop is added with the corrected face, unless learning from
  corrections is switched off (a table setting, on by default). A failure there is
  logged and never breaks the correction.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from scorer.atomic_file import write_atomically
from scorer.dice import FULL_ROLL, Die, Roll
from scorer.dice_set import PRINTED_DICE
from scorer.layout_check import check_layout
from web.presenters import die_dict
from web.table_dice import TableDice
from web.table_roll import RollSource, TableRoll

if TYPE_CHECKING:
    import numpy as np

    from vision.profile import DiceProfile
    from vision.reading import Reading
    from vision.teach import LeftOut
    from web.store import GameStore

log = logging.getLogger(__name__)

#: The profile's folder inside the data directory.
PROFILE_DIR: Final[str] = "profile"
#: Beside the profile: how it was taught (rolls confirmed, dice learnt from corrections).
PROGRESS_FILE: Final[str] = "teaching.json"
#: The table setting that switches learning from corrections off (False); on when unset.
LEARN_SETTING: Final[str] = "profile_learns_from_corrections"
#: Teaching readings kept for confirmation (the oldest are dropped), and for how long.
MAX_READINGS: Final[int] = 8
READING_TTL_S: Final[float] = 30 * 60
#: Rolls read from a picture whose crops are kept for a correction (the latest ones).
MAX_READ_ROLLS: Final[int] = 16
#: Rolls read from a picture (the camera's frame, a phone's photo): a corrected die of
#: one of these has a picture to learn from; a typed roll has none.
LEARNT_SOURCES: Final[frozenset[RollSource]] = frozenset({RollSource.CAMERA, RollSource.PHOTO})


def distinct_faces(faces: tuple[Die, ...]) -> tuple[Die, ...]:
    """The distinct faces among a set's sixty (44 for the printed table), in value order."""
    return tuple(sorted(set(faces), key=lambda die: (die.value == 0, die.value, die.colour)))


#: Runs `work(reader)` with a loaded DiceReader, one caller at a time (`PhotoReader.using`).
UseReader = Callable[[Callable[[Any], Any]], Any]


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


@dataclass
class _Pending:
    """A teaching reading waiting for the players' confirmation: each die's crop."""

    crops: list[np.ndarray | None]  # one per die of the reading (read, then unreadable)
    created: float


@dataclass
class _ReadRoll:
    """The crops of a roll read from a picture, on the table, in the roll's die order."""

    crops: list[np.ndarray | None]


class TableProfile:
    """The dice profile in the data folder, the readers that use it, and its teaching."""

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
        self._readers: list[Any] = []
        self._pending: OrderedDict[str, _Pending] = OrderedDict()
        self._read_rolls: OrderedDict[int, _ReadRoll] = OrderedDict()
        self._progress = {"rolls_confirmed": 0, "from_corrections": 0}
        self._rolls: list[Roll] = []  # whole rolls confirmed: what the dice table is checked by
        self._roll_keys: list[tuple[str, ...]] = []  # per roll, its dice's examples (or none)
        self._checked: set[str] = set()  # examples the players checked: never left out
        self._load()

    # --- loading and the readers --------------------------------------------------------

    def _load(self) -> None:
        if not self.folder.is_dir() or not any(self.folder.iterdir()):
            return  # nothing taught yet: vision is not even imported
        from vision.profile import DiceProfile, ProfileError

        try:
            profile = DiceProfile.load(self.folder)
        except ProfileError as error:
            self.error = (f"{error}: reading without the profile (reset it on the set-up "
                          "page to start a new one)")
            log.error("%s", self.error)
            return
        self._profile = profile if len(profile) else None
        self._left_out = None
        counts, self._rolls, self._roll_keys, self._checked = self._read_progress()
        self._progress.update(counts)
        log.info("dice profile loaded from %s: %d examples", self.folder, len(profile))

    def _read_progress(
        self,
    ) -> tuple[dict[str, int], list[Roll], list[tuple[str, ...]], set[str]]:
        """The counts, the whole rolls confirmed, each roll's examples (`example_key`, die
        by die; none for a roll saved without them) and the examples the players checked,
        as saved; what cannot be read is left out (progress shown to the players, not the
        profile)."""
        try:
            data = json.loads((self.folder / PROGRESS_FILE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}, [], [], set()
        except (OSError, ValueError) as error:
            log.warning("dice profile progress %s not readable (%s): counting anew",
                        self.folder / PROGRESS_FILE, error)
            return {}, [], [], set()
        if not isinstance(data, dict):
            return {}, [], [], set()
        counts = {key: int(value) for key, value in data.items()
                  if key in self._progress and isinstance(value, int) and value >= 0}
        texts = data.get("rolls") if isinstance(data.get("rolls"), list) else []
        saved_keys = data.get("roll_examples")
        if not isinstance(saved_keys, list) or len(saved_keys) != len(texts):
            saved_keys = [[] for _ in texts]
        rolls, keys = [], []
        for text, roll_keys in zip(texts, saved_keys, strict=True):
            try:
                roll = Roll.from_text(str(text))
            except ValueError:
                log.warning("dice profile progress: %r is not a roll, left out", text)
                continue
            linked = (isinstance(roll_keys, list) and len(roll_keys) == len(roll.dice)
                      and all(isinstance(key, str) for key in roll_keys))
            rolls.append(roll)
            keys.append(tuple(roll_keys) if linked else ())
        checked = data.get("checked") if isinstance(data.get("checked"), list) else []
        return counts, rolls, keys, {key for key in checked if isinstance(key, str)}

    def _write_progress(self) -> None:
        """Best effort: the counts are progress shown to the players, not the profile."""
        try:
            body = {**self._progress, "rolls": [str(roll) for roll in self._rolls],
                    "roll_examples": [list(keys) for keys in self._roll_keys],
                    "checked": sorted(self._checked)}
            write_atomically(self.folder / PROGRESS_FILE, json.dumps(body).encode("utf-8"))
        except OSError:
            log.exception("could not save the dice profile's progress")

    def attach(self, reader: Any) -> None:
        """Make `reader` (a DiceReader) read with the profile, now and after each change."""
        with self._lock:
            self._readers.append(reader)
            self._apply(reader)

    def _apply(self, reader: Any, built: dict[tuple[str, int], Any] | None = None) -> None:
        """Swap the current profile into one reader (one assignment; never raises).

        `built` holds the matchers already made in this round, by model and quarter turns:
        readers that describe faces alike share one (its heads are fitted once)."""
        from vision.pipeline import DiceReader  # a reader is loaded: so is vision

        profile = self._profile
        if not isinstance(reader, DiceReader):
            return  # a stand-in reader (tests) has no profile to swap
        if profile is None:
            reader.profile = None
            self._left_out = ()
            return
        key = (reader.classifier.sha256, reader.turns)
        if built is not None and key in built:
            reader.profile = built[key]
            return
        from vision.teach import use_profile

        try:
            in_use = use_profile(reader, profile, self._checked_mask(profile))
        except Exception:  # noqa: BLE001 - a reader without its profile still reads
            log.exception("the dice profile could not be applied: reading without it")
            reader.profile = None
            return
        if built is not None:
            built[key] = reader.profile
        if in_use.profile.model == reader.classifier.sha256:
            self._profile = in_use.profile  # described by this model from now on: no recompute
            self._left_out = in_use.left_out

    def _checked_mask(self, profile: DiceProfile) -> np.ndarray | None:
        """(N,) which examples of `profile` the players checked (None: none)."""
        if not self._checked:
            return None
        import numpy as np

        return np.array([example_key(crop) in self._checked for crop in profile.crops])

    def _apply_all(self) -> None:
        built: dict[tuple[str, int], Any] = {}
        for reader in self._readers:
            self._apply(reader, built)

    # --- what the page shows --------------------------------------------------------------

    @property
    def learns_from_corrections(self) -> bool:
        return self._store.setting(LEARN_SETTING) is not False

    def set_learning(self, on: bool) -> None:
        """Learn from corrections of camera-read dice (on) or not; kept as a table setting."""
        self._store.set_setting(LEARN_SETTING, None if on else False)
        if not on:
            with self._lock:
                self._read_rolls.clear()
        log.info("the dice profile %s from corrections", "learns" if on else "does not learn")

    def confirmed_rolls(self) -> list[Roll]:
        """The whole rolls the players confirmed, oldest first."""
        with self._lock:
            return list(self._rolls)

    def summary(self) -> dict[str, Any]:
        """Examples per face, faces seen of the sixty, rolls confirmed, settings, any error."""
        with self._lock:
            profile, error, progress = self._profile, self.error, dict(self._progress)
            rolls, left_out = list(self._rolls), self._left_out
        counts: dict[Die, int] = {} if profile is None else profile.counts()
        dice_set = self._dice.current
        faces, distinct = dice_set.faces, distinct_faces(dice_set.faces)
        return {
            "examples": sum(counts.values()),
            "rolls_confirmed": progress["rolls_confirmed"],
            "from_corrections": progress["from_corrections"],
            "faces_seen": sum(1 for face in faces if counts.get(face)),
            "faces_total": len(faces),
            "distinct_seen": sum(1 for face in distinct if counts.get(face)),
            "distinct_total": len(distinct),
            "faces": [{**die_dict(face), "count": counts.get(face, 0),
                       "dice": faces.count(face)} for face in distinct],
            "learn_from_corrections": self.learns_from_corrections,
            "layout": check_layout(rolls, dice_set).to_dict(),
            "left_out": [] if profile is None else [
                {"key": example_key(profile.crops[out.index]),
                 "confirmed": die_dict(out.confirmed), "looks_like": die_dict(out.looks_like),
                 "crop": png_data_url(profile.crops[out.index])} for out in left_out or ()],
            "left_out_checked": profile is None or left_out is not None,
            "error": error,
        }

    def check_left_out(self) -> None:
        """Work out which taught dice the readers leave out, when no reader has read with
        the profile as it is: on a table without a camera the photos' reader loads on the
        first photo, so this loads it (a second or two, once)."""
        with self._lock:
            if self._profile is None or self._left_out is not None:
                return

        def work(reader: Any) -> None:
            with self._lock:
                if self._left_out is None:  # loaded before, or its profile not applied
                    self._apply(reader)

        self._use_reader(work)

    def examples_of(self, face: Die) -> list[dict[str, Any]]:
        """The taught pictures of `face`, oldest first: each with its key (to forget it or
        confirm it otherwise), its picture, and whether the reader leaves it out."""
        with self._lock:
            profile, left_out = self._profile, {out.index for out in self._left_out or ()}
        if profile is None:
            return []
        return [{"key": example_key(profile.crops[index]),
                 "crop": png_data_url(profile.crops[index]),
                 "left_out": index in left_out}
                for index, die in enumerate(profile.dice) if die == face]

    # --- teaching from /setup -----------------------------------------------------------

    def read_frame(self, frame: np.ndarray, tray: Sequence[Sequence[float]] | None
                   ) -> tuple[Reading, np.ndarray]:
        """Read a camera frame with the lent reader, inside the tray (fractions of the frame)."""
        import numpy as np

        def work(reader: Any) -> tuple[Reading, np.ndarray]:
            from vision.pipeline import DiceReader

            if not isinstance(reader, DiceReader):  # a stand-in reader: the whole frame
                return reader.read(frame), frame
            pixels = None
            if tray is not None:
                height, width = frame.shape[:2]
                pixels = (np.asarray(tray, np.float64) * (width, height)).astype(np.float32)
            return reader.sharing(tray=pixels).read(frame), frame

        return self._use_reader(work)

    def remember_reading(self, reading: Reading, image: np.ndarray) -> tuple[str, list[str | None]]:
        """Keep the crops of a teaching reading; its token and each die's crop (PNG data URL)."""
        crops = cut_crops(reading, image)
        token = secrets.token_urlsafe(12)
        now = time.monotonic()
        with self._lock:
            for old, pending in list(self._pending.items()):
                if now - pending.created > READING_TTL_S:
                    del self._pending[old]
            self._pending[token] = _Pending(crops, now)
            while len(self._pending) > MAX_READINGS:
                self._pending.popitem(last=False)
        return token, [None if crop is None else png_data_url(crop) for crop in crops]

    def confirm(self, token: str, faces: Sequence[Die | None]) -> int:
        """Add the crops of reading `token` with the confirmed faces (None: leave that die
        out); saves the profile and counts a roll confirmed. Returns the dice added."""
        with self._lock:
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
        with self._lock:
            self._pending.pop(token, None)
            self._progress["rolls_confirmed"] += 1
            if len(faces) == FULL_ROLL and all(face is not None for face in faces):
                self._rolls.append(Roll.from_dice(face for face in faces if face is not None))
                self._roll_keys.append(tuple(example_key(crop) for crop, _ in chosen))
            self._write_progress()
        log.info("dice profile: a roll of %d dice confirmed", len(chosen))
        return len(chosen)

    def reset(self) -> None:
        """Forget every example: the profile (even an unusable one) and its progress go."""
        with self._lock:
            if self.folder.is_dir():
                from vision.profile import PROFILE_FILE

                for name in (PROFILE_FILE, PROGRESS_FILE):
                    (self.folder / name).unlink(missing_ok=True)
            self._profile = None
            self.error = None
            self._progress = {"rolls_confirmed": 0, "from_corrections": 0}
            self._rolls, self._roll_keys, self._checked = [], [], set()
            self._pending.clear()
            self._apply_all()
        log.info("dice profile reset")

    def fix_example(self, key: str, face: Die | None) -> None:
        """Confirm the example whose picture has `key` (`example_key`) as `face`, or forget
        it (None): a die taught with a face typed wrong, put right, or its face kept. A die
        the players checked this way is never left out of the reading again. The whole
        roll it was confirmed in is put right too (the dice table is checked by it), or,
        forgotten, no longer counts for the check."""
        import numpy as np

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
            checked = set(self._checked)
            if face is None:
                keep = np.ones(len(profile), bool)
                keep[found] = False
                profile = profile.subset(keep)
                self._checked.discard(key)
            else:
                for index in found:
                    profile = profile.relabelled(index, face)
                self._checked.add(key)
            try:
                self._save(profile)
            except ProfileSaveError:
                self._checked = checked
                raise
            self._fix_rolls(key, face)
        log.info("dice profile: a taught die %s", "forgotten" if face is None
                 else f"confirmed as {face}")

    def _fix_rolls(self, key: str, face: Die | None) -> None:
        """The confirmed rolls holding example `key` with its die as `face`, or left out
        (None, or a face that makes no roll); the progress (the examples checked too)
        saved. The lock held."""
        rolls, roll_keys = [], []
        for roll, keys in zip(self._rolls, self._roll_keys, strict=True):
            if key in keys:
                if face is None:
                    continue
                dice = [face if mine == key else die
                        for die, mine in zip(roll.dice, keys, strict=True)]
                try:
                    roll = Roll.from_dice(dice)
                except ValueError:
                    log.warning("dice profile: %s with %s is no roll, left out of the "
                                "layout check", roll, face)
                    continue
            rolls.append(roll)
            roll_keys.append(keys)
        self._rolls, self._roll_keys = rolls, roll_keys
        self._write_progress()

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
               replace_same: bool = False) -> None:
        """Add examples, save, swap the new profile into the readers. With `replace_same`,
        examples with the same pixels as one of `crops` go first (a die corrected again)."""
        import numpy as np

        if self.error is not None:
            raise TeachingError(f"the dice profile on disk cannot be used ({self.error}); "
                                "reset it first")
        array = np.stack(crops).astype(np.uint8)

        def work(reader: Any) -> None:
            from vision.profile import DiceProfile
            from vision.teach import described_for

            classifier = reader.classifier
            if not classifier.has_embedding:
                raise TeachingError(f"the dice model ({classifier.name}) gives no embedding: "
                                    "it cannot learn your dice")

            descriptors = classifier.describe(array, reader.turns)
            with self._lock:
                profile = described_for(reader, self._profile or DiceProfile.empty())
                if replace_same:
                    profile = _without_crops(profile, array)
                self._save(profile.add(array, list(faces), descriptors, classifier.sha256))

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
        with self._lock:
            self._read_rolls[roll_id] = _ReadRoll(crops)
            while len(self._read_rolls) > MAX_READ_ROLLS:
                self._read_rolls.popitem(last=False)

    def die_corrected(self, game_id: int, before: TableRoll, index: int, die: Die,
                      after: TableRoll) -> None:
        """The service's hook: a corrected die read from a picture teaches the profile its
        face."""
        if before.source not in LEARNT_SOURCES or before.roll_id is None:
            return
        with self._lock:
            kept = self._read_rolls.pop(before.roll_id, None)
            if kept is None:
                return
            crops = list(kept.crops)
            crop = crops[index] if index < len(crops) else None
            read = len(before.roll.dice)
            if read <= index < len(crops):  # an unreadable die joins the dice read (with_die)
                crops.insert(read, crops.pop(index))
            if after.roll_id is not None:
                self._read_rolls[after.roll_id] = _ReadRoll(crops)
        if crop is None or not self.learns_from_corrections:
            return
        try:
            self._learn([crop], [die], replace_same=True)
        except Exception:  # noqa: BLE001 - learning never breaks the correction
            log.exception("game %d: die %d corrected to %s, not learnt", game_id, index, die)
            return
        with self._lock:
            self._progress["from_corrections"] += 1
            self._write_progress()
        log.info("game %d: the dice profile learnt %s from a corrected die", game_id, die)


def _without_crops(profile: DiceProfile, crops: np.ndarray) -> DiceProfile:
    """`profile` less any example whose crop has the same pixels as one of `crops` (a die
    corrected twice is learnt with its last face only)."""
    if not len(profile):
        return profile
    same = (profile.crops[:, None] == crops[None]).all(axis=(2, 3, 4)).any(axis=1)
    if not same.any():
        return profile
    return profile.subset(~same)


def example_key(crop: np.ndarray) -> str:
    """A name for an example that stays while the profile changes around it: its pixels'
    digest (the page sends it back to fix or forget that die)."""
    return hashlib.sha256(crop.tobytes()).hexdigest()[:16]


def cut_crops(reading: Reading, image: np.ndarray) -> list[np.ndarray | None]:
    """Each die's crop as the reader cut it: the dice read, then the unreadable ones
    (the order of a roll on the table); None for a die without corners."""
    import numpy as np

    from vision.crops import crop_face

    crops: list[np.ndarray | None] = []
    for die in (*reading.dice, *reading.unreadable):
        corners = np.asarray(die.corners, np.float32).reshape(-1, 2)
        crops.append(crop_face(image, corners) if len(corners) == 4 else None)
    return crops


def png_data_url(crop: np.ndarray) -> str:
    """A crop (BGR) as a PNG data URL for an <img>."""
    import cv2

    ok, data = cv2.imencode(".png", crop)
    if not ok:
        raise ValueError("a crop could not be encoded")
    return "data:image/png;base64," + base64.b64encode(data.tobytes()).decode("ascii")

"""The readers that read with the table's dice profile: each attached reader is given the
profile now and after every change.

A change builds a new matcher and swaps it into each reader in one assignment
(`DiceReader.read` reads it once per frame), so the camera thread never sees half a
profile; readers that describe faces alike (same model, same quarter turns) share one
matcher, its heads fitted once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from web.reader import TableReader

if TYPE_CHECKING:
    from vision.profile.profile import DiceProfile
    from vision.profile.teach import LeftOut

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Applied:
    """What reading with a profile found: the profile as the reader's model describes it
    (None: no profile), and the taught dice the reader leaves out."""

    profile: DiceProfile | None
    left_out: tuple[LeftOut, ...] = ()


class ProfileReaders:
    """Every reader of the app (the camera thread's, the photos'), kept to swap profiles in.
    The caller serialises the calls (the dice profile's lock)."""

    def __init__(self) -> None:
        self._readers: list[TableReader] = []

    def attach(self, reader: TableReader, profile: DiceProfile | None,
               checked: np.ndarray | None) -> Applied | None:
        """Keep `reader` and give it `profile` (see `apply`)."""
        self._readers.append(reader)
        return self.apply(reader, profile, checked)

    def apply_all(self, profile: DiceProfile | None, checked: np.ndarray | None
                  ) -> Applied | None:
        """Give every reader `profile`; what the last reader to read with it found."""
        built: dict[tuple[str, int], Any] = {}
        applied = None
        for reader in self._readers:
            applied = self.apply(reader, profile, checked, built) or applied
        return applied

    @staticmethod
    def apply(reader: TableReader, profile: DiceProfile | None, checked: np.ndarray | None,
              built: dict[tuple[str, int], Any] | None = None) -> Applied | None:
        """Swap `profile` into one reader (one assignment; never raises). `checked`: which
        examples the players checked (never left out). `built` holds the matchers already
        made this round, by model and quarter turns. Returns what reading with it found,
        when this reader's model describes it (None: nothing new learnt)."""
        from vision.profile.teach import use_profile
        from vision.read.pipeline import (
            DiceReader,  # loaded on use: the app without a camera loads no OpenCV or model
        )

        if not isinstance(reader, DiceReader):
            return None  # a stand-in reader (tests) has no profile to swap
        if profile is None:
            reader.profile = None
            return Applied(None)
        key = (reader.classifier.sha256, reader.turns)
        if built is not None and key in built:
            reader.profile = built[key]
            return None
        try:
            in_use = use_profile(reader, profile, checked)
        except Exception:  # noqa: BLE001 - a reader without its profile still reads
            log.exception("the dice profile could not be applied: reading without it")
            reader.profile = None
            return None
        if built is not None:
            built[key] = reader.profile
        if in_use.profile.model == reader.classifier.sha256:
            return Applied(in_use.profile, in_use.left_out)  # described by this model
        return None

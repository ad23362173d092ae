"""What the camera thread reports, typed: the pages and the API turn it into JSON
(`web.presenters.camera_status_dict`), so the thread never builds a reply of its own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vision.reading import Reading


@dataclass(frozen=True)
class LastReading:
    """The camera's latest settled reading, and which roll of the turn it saw."""

    roll_number: int
    reading: Reading


@dataclass(frozen=True)
class CameraStatus:
    """What the set-up and camera pages show of the camera (`presenters.camera_status_dict`)."""

    source: str
    running: bool
    error: str | None
    readings: int
    last: LastReading | None
    game: int | None
    """The game the camera feeds (None: none chosen, or it is over)."""
    demo_dice: bool
    """Whether the dice roll when asked (the demo table)."""


@dataclass(frozen=True)
class ExposureStatus:
    """Whether locking exposure works here, and the controls in force (None: automatic)."""

    supported: bool
    controls: Mapping[str, Any] | None

    @property
    def locked(self) -> bool:
        return self.controls is not None

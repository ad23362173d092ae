"""The ten phases of the score sheet, as data.

A phase is a list of exact-size groups: sets (same number), runs (consecutive
numbers inside 1..10) and at most one colour group (dice all of one colour).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final


class GroupKind(Enum):
    SET = "set"
    RUN = "run"
    COLOUR = "colour"


@dataclass(frozen=True)
class GroupSpec:
    """One group a phase asks for: its kind and exact number of dice."""

    kind: GroupKind
    size: int

    def __str__(self) -> str:
        if self.kind is GroupKind.COLOUR:
            return f"{self.size} of all one colour"
        return f"1 {self.kind.value} of {self.size}"


@dataclass(frozen=True)
class Phase:
    """A phase of the score sheet: its number, label and the groups it needs."""

    number: int
    label: str
    groups: tuple[GroupSpec, ...]

    @property
    def dice_needed(self) -> int:
        return sum(group.size for group in self.groups)

    def is_colour_phase(self) -> bool:
        return any(group.kind is GroupKind.COLOUR for group in self.groups)

    def __str__(self) -> str:
        return f"Phase {self.number}: {self.label}"


def _groups(*specs: tuple[GroupKind, int]) -> tuple[GroupSpec, ...]:
    return tuple(GroupSpec(kind, size) for kind, size in specs)


_S, _R, _C = GroupKind.SET, GroupKind.RUN, GroupKind.COLOUR

PHASES: Final[tuple[Phase, ...]] = (
    Phase(1, "2 sets of 3", _groups((_S, 3), (_S, 3))),
    Phase(2, "1 set of 3 + 1 run of 4", _groups((_S, 3), (_R, 4))),
    Phase(3, "1 set of 4 + 1 run of 4", _groups((_S, 4), (_R, 4))),
    Phase(4, "1 run of 7", _groups((_R, 7))),
    Phase(5, "1 run of 8", _groups((_R, 8))),
    Phase(6, "1 run of 9", _groups((_R, 9))),
    Phase(7, "2 sets of 4", _groups((_S, 4), (_S, 4))),
    Phase(8, "7 of all one colour", _groups((_C, 7))),
    Phase(9, "1 set of 5 + 1 set of 2", _groups((_S, 5), (_S, 2))),
    Phase(10, "1 set of 5 + 1 set of 3", _groups((_S, 5), (_S, 3))),
)
LAST_PHASE: Final[int] = len(PHASES)


class InvalidPhaseError(ValueError):
    """A phase number outside 1..10."""


def get_phase(phase: int | Phase) -> Phase:
    """The Phase for a number 1..10 (a Phase passes through unchanged)."""
    if isinstance(phase, Phase):
        return phase
    if isinstance(phase, bool) or not isinstance(phase, int) or not 1 <= phase <= LAST_PHASE:
        raise InvalidPhaseError(f"{phase!r} is not a phase: expected a number 1-{LAST_PHASE}")
    return PHASES[phase - 1]

"""The Phase 10 Dice scorer: pure Python, standard library only, no I/O.

Other layers use only the names exported here.
"""

from scorer.dice import (
    FULL_ROLL,
    WILD,
    Die,
    InvalidDieError,
    InvalidRollError,
    PhysicalDie,
    Roll,
    inventory_matching,
    parse_roll,
)
from scorer.phases import PHASES, GroupKind, GroupSpec, InvalidPhaseError, Phase, get_phase
from scorer.solver import GroupResult, PhaseResult, evaluate, evaluate_all

__all__ = [
    "FULL_ROLL",
    "PHASES",
    "WILD",
    "Die",
    "GroupKind",
    "GroupResult",
    "GroupSpec",
    "InvalidDieError",
    "InvalidPhaseError",
    "InvalidRollError",
    "Phase",
    "PhaseResult",
    "PhysicalDie",
    "Roll",
    "evaluate",
    "evaluate_all",
    "get_phase",
    "inventory_matching",
    "parse_roll",
]

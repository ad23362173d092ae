"""The Phase 10 Dice scorer (and the Phase 10 card game's): pure Python, standard library
only, no I/O.

Other layers use only the names exported here.
"""

from scorer.card_events import (
    CardGameCreated,
    HandCorrected,
    HandPlayed,
    HandResult,
    InvalidHandError,
    card_event_from_dict,
    hand_from_dicts,
)
from scorer.card_game import CardGame
from scorer.card_rules import (
    CARD_VALUES,
    DEFAULT_WINNER_RULE,
    CardValue,
    CardWinnerRule,
    InvalidWinnerRuleError,
)
from scorer.card_scorepad import CardColumn, CardScorepad, HandLine, HandRecord
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
from scorer.doubts import as_counted, dice_to_check, doubts_can_change, faces_it_could_show
from scorer.events import (
    Event,
    GameCreated,
    RollOffThrown,
    TurnCorrected,
    TurnFailed,
    TurnScored,
    Undone,
    event_from_dict,
)
from scorer.game import Game
from scorer.game_errors import (
    GameError,
    GameOverError,
    InvalidCorrectionError,
    InvalidEventError,
    InvalidFirstFinishRuleError,
    InvalidPlayersError,
    NothingToUndoError,
    NotYourTurnError,
    PhaseNotMadeError,
    RollOffError,
    UnknownPlayerError,
)
from scorer.kinds import GameKind, InvalidGameKindError, replay_log
from scorer.odds import Advice, advise, turn_odds
from scorer.phases import PHASES, GroupKind, GroupSpec, InvalidPhaseError, Phase, get_phase
from scorer.rules import DEFAULT_FIRST_FINISH, ROLLS_PER_TURN, FirstFinishRule
from scorer.scorepad import PlayerColumn, Scorepad, TurnRecord
from scorer.solver import GroupResult, PhaseResult, evaluate, evaluate_all

__all__ = [
    "CARD_VALUES",
    "DEFAULT_WINNER_RULE",
    "CardColumn",
    "CardGame",
    "CardGameCreated",
    "CardScorepad",
    "CardValue",
    "CardWinnerRule",
    "GameKind",
    "HandCorrected",
    "HandLine",
    "HandPlayed",
    "HandRecord",
    "HandResult",
    "InvalidGameKindError",
    "InvalidHandError",
    "InvalidWinnerRuleError",
    "card_event_from_dict",
    "hand_from_dicts",
    "replay_log",
    "Advice",
    "advise",
    "turn_odds",
    "Event",
    "GameCreated",
    "RollOffThrown",
    "TurnCorrected",
    "TurnFailed",
    "TurnScored",
    "Undone",
    "event_from_dict",
    "Game",
    "GameError",
    "GameOverError",
    "InvalidCorrectionError",
    "InvalidEventError",
    "InvalidFirstFinishRuleError",
    "DEFAULT_FIRST_FINISH",
    "FirstFinishRule",
    "ROLLS_PER_TURN",
    "InvalidPlayersError",
    "NothingToUndoError",
    "NotYourTurnError",
    "PhaseNotMadeError",
    "RollOffError",
    "UnknownPlayerError",
    "PlayerColumn",
    "Scorepad",
    "TurnRecord",
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
    "doubts_can_change",
    "as_counted",
    "dice_to_check",
    "faces_it_could_show",
    "evaluate",
    "evaluate_all",
    "get_phase",
    "inventory_matching",
    "parse_roll",
]

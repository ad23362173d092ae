"""The game engine's errors: one small ValueError subclass per kind of refused action.

Each message names the bad input, so the web page and the command line can show
it as is. An action that raises has changed nothing.
"""

from __future__ import annotations


class GameError(ValueError):
    """An action or event the game refuses; the game is unchanged."""


class InvalidPlayersError(GameError):
    """Player names or count that cannot make a game."""


class UnknownPlayerError(GameError):
    """A name that is not one of this game's players."""


class NotYourTurnError(GameError):
    """A turn played by someone other than the active player."""


class GameOverError(GameError):
    """A turn played after the game has ended."""


class PhaseNotMadeError(GameError):
    """A score claimed for a roll that does not make the player's phase."""


class RollOffError(GameError):
    """A bad roll-off throw, or a turn played before the play order is settled."""


class NothingToUndoError(GameError):
    """Undo with no action left to undo."""


class InvalidCorrectionError(GameError):
    """A correction of a turn that does not exist or that would break later turns."""


class InvalidEventError(GameError):
    """An event (or its dict form) that is malformed or cannot start or continue a log."""


class InvalidFirstFinishRuleError(InvalidEventError):
    """A First Finish Bonus rule that is not one of the printings' readings."""

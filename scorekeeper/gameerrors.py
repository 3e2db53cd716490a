"""The errors of a game's actions: every one a RulesError with its code for translations."""

from __future__ import annotations

from scorekeeper.errors import RulesError


class GameError(RulesError):
    """An action the game does not allow now."""


class GameSetupError(GameError):
    """Bad players or rule set for a new game."""


class PhaseError(GameError):
    """An action that belongs to another phase (rolling for first player vs play)."""


class NoRollError(GameError):
    """Scoring before the dice were rolled this turn."""


class TooManyRollsError(GameError):
    """A fourth roll in one turn."""


class KeptDiceError(GameError):
    """Kept dice that do not match the previous roll."""


class GameOverError(GameError):
    """An action after every box of every player is filled."""


class NothingToUndoError(GameError):
    """Undo at the very start of a game."""


class GameFormatError(GameError):
    """Serialized game data that cannot be read or replayed."""

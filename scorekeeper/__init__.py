"""The rules of Yahtzee, Yacht and Scandinavian Yatzy: pure Python values, no I/O."""

from scorekeeper.dice import Dice, DiceCountError, DiceError, DiceSyntaxError, DieValueError
from scorekeeper.errors import RulesError
from scorekeeper.game import (
    Game,
    GameError,
    GameFormatError,
    GameOverError,
    GameSetupError,
    KeptDiceError,
    NoRollError,
    NothingToUndoError,
    PhaseError,
    TooManyRollsError,
)
from scorekeeper.rulesets import (
    RULESET_NAMES,
    Category,
    Joker,
    RuleSet,
    RuleSetError,
    Section,
    UnknownBoxError,
    ruleset,
)
from scorekeeper.scorecard import (
    BoxFilledError,
    CardFormatError,
    IllegalBoxError,
    JokerRule,
    Scorecard,
    ScoringError,
)
from scorekeeper.series import Series, SeriesError
from scorekeeper.suggest import Suggestion, suggest

__all__ = [
    "RULESET_NAMES",
    "BoxFilledError",
    "CardFormatError",
    "Category",
    "Dice",
    "DiceCountError",
    "DiceError",
    "DiceSyntaxError",
    "DieValueError",
    "Game",
    "GameError",
    "GameFormatError",
    "GameOverError",
    "GameSetupError",
    "IllegalBoxError",
    "Joker",
    "JokerRule",
    "KeptDiceError",
    "NoRollError",
    "NothingToUndoError",
    "PhaseError",
    "RuleSet",
    "RuleSetError",
    "RulesError",
    "Scorecard",
    "ScoringError",
    "Section",
    "Series",
    "SeriesError",
    "Suggestion",
    "TooManyRollsError",
    "UnknownBoxError",
    "ruleset",
    "suggest",
]

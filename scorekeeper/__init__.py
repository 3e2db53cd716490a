"""The rules of Yahtzee and Yacht: pure Python values, no I/O."""

from scorekeeper.dice import Dice, DiceCountError, DiceError, DiceSyntaxError, DieValueError
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
    "IllegalBoxError",
    "Joker",
    "JokerRule",
    "RuleSet",
    "RuleSetError",
    "Scorecard",
    "ScoringError",
    "Section",
    "Suggestion",
    "UnknownBoxError",
    "ruleset",
    "suggest",
]

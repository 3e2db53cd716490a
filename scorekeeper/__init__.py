"""The rules of Yahtzee and Yacht: pure Python values, no I/O."""

from scorekeeper.dice import Dice, DiceCountError, DiceError, DiceSyntaxError, DieValueError

__all__ = ["Dice", "DiceCountError", "DiceError", "DiceSyntaxError", "DieValueError"]

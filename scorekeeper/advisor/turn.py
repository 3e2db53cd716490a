"""One turn, vectorized over a batch of turn-start states.

Arrays are laid out (rows, states): rows are rolls (252 of five dice, 462 of six) or
keeps of one size, columns are the states of the batch, so that every gather copies
whole rows. The dice count follows from the rows of the arrays (the rule set's).

* `final_values` (in `final`): after the last roll, the best legal box per roll;
* `keep_values`: the value of holding each keep and rerolling the other dice;
* `best_roll_values`: the value of each roll when the best keep (or stopping) is chosen;
* `turn_values`: the three rolls of a turn, backwards, down to the turn-start value.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.final import Batch, final_values
from scorekeeper.advisor.ruletables import RuleTables
from scorekeeper.advisor.tables import FACE_COUNT, dice_of_rolls, dice_tables

__all__ = [
    "ROLLS_PER_TURN",
    "Batch",
    "best_roll_values",
    "final_values",
    "keep_values",
    "turn_values",
]

FloatArray = npt.NDArray[np.float64]
ROLLS_PER_TURN = 3  # every table is of three rolls a turn (see advise for saved rolls)


def keep_values(rolls: FloatArray) -> list[FloatArray]:
    """Return per keep size k = 0..n the (keeps, N) value of holding each keep and rerolling.

    *rolls* (rolls, N) is the value of each outcome of n dice; size n returns it unchanged.
    """
    dice = dice_of_rolls(rolls.shape[0])
    tables = dice_tables(dice)
    levels = [rolls]
    for k in range(dice - 1, -1, -1):
        bigger = levels[0]
        first, *others = tables.add_columns[k]
        total = bigger.take(first, axis=0)
        for column in others:
            total += bigger.take(column, axis=0)
        total *= 1 / FACE_COUNT
        levels.insert(0, total)
    return levels


def best_roll_values(keeps: list[FloatArray]) -> FloatArray:
    """Return (rolls, N): each roll's value when the best of its sub-keeps is held."""
    dice = len(keeps) - 1
    tables = dice_tables(dice)
    best = keeps[0]
    for k in range(1, dice + 1):
        first, *others = tables.remove_columns[k]
        below = best.take(first, axis=0)
        for column in others:  # rows with fewer distinct faces have no such column
            head = below[: len(column)]
            np.maximum(head, best.take(column, axis=0), out=head)
        best = np.maximum(keeps[k], below, out=below)
    return best


def turn_values(rt: RuleTables, values: FloatArray, batch: Batch) -> FloatArray:
    """Return (N,): the expected points still to come from each turn-start state."""
    rolls = final_values(rt, values, batch)
    for _reroll in range(ROLLS_PER_TURN - 1):
        rolls = best_roll_values(keep_values(rolls))
    result: FloatArray = dice_tables(rt.dice).roll_probability @ rolls
    return result

"""One turn, vectorized over a batch of turn-start states.

Arrays are laid out (rows, states): rows are rolls (252) or keeps of one size,
columns are the states of the batch, so that every gather copies whole rows.

* `final_values`: after the last roll, the best legal box per roll, counting its
  points, any Yahtzee bonus and the value of the next turn-start state;
* `keep_values`: the value of holding each keep and rerolling the other dice;
* `best_roll_values`: the value of each roll when the best keep (or stopping) is chosen;
* `turn_values`: the three rolls of a turn, backwards, down to the turn-start value.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.ruletables import RuleTables, rule_tables
from scorekeeper.advisor.tables import FACE_COUNT, dice_tables
from scorekeeper.dice import DICE_COUNT
from scorekeeper.rulesets import Joker, RuleSet

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

_NEG = -np.inf


@dataclass(frozen=True)
class Batch:
    """Turn-start states (mask, capped upper subtotal, Yahtzee-bonus flag), one per column."""

    masks: IntArray
    ups: IntArray
    flags: IntArray

    @property
    def size(self) -> int:
        """How many states the batch holds."""
        return int(self.masks.shape[0])


@dataclass(frozen=True)
class _NextRows:
    """The values of filling each box, one row per outcome that decides the next state.

    Box b owns rows ``slices[b]``: the dice count k = 0..5 of its face (an upper box;
    points face*k included), the new flag 0/1 (the tracked five-alike box), else one row.
    """

    boxes: IntArray  # (R,) the box of each row
    up_add: IntArray  # (R,) points of an upper box, added to the upper subtotal too
    flag: IntArray  # (R,) the next flag, or -1 to keep the state's
    slices: tuple[slice, ...]


@cache
def _next_rows(rules: RuleSet) -> _NextRows:
    rt = rule_tables(rules)
    boxes: list[int] = []
    up_add: list[int] = []
    flag: list[int] = []
    slices: list[slice] = []
    for box, face in enumerate(rt.upper_faces):
        start = len(boxes)
        if face:
            outcomes = [(face * k, -1) for k in range(DICE_COUNT + 1)]
        elif box == rt.five_box and rt.tracks_bonus:
            outcomes = [(0, 0), (0, 1)]
        else:
            outcomes = [(0, -1)]
        for add, new_flag in outcomes:
            boxes.append(box)
            up_add.append(add)
            flag.append(new_flag)
        slices.append(slice(start, len(boxes)))
    return _NextRows(np.array(boxes), np.array(up_add), np.array(flag), tuple(slices))


def _next_values(rt: RuleTables, values: FloatArray, batch: Batch) -> list[FloatArray | None]:
    """Return per box the value of filling it from each state of *batch* (rows: see
    `_NextRows`); -inf where the box may not be filled; None where no state may fill it.
    """
    rows = _next_rows(rt.rules)
    candidates = rt.candidates[batch.masks]
    masks = batch.masks[None, :] | (1 << rows.boxes)[:, None]
    ups = np.minimum(batch.ups[None, :] + rows.up_add[:, None], rt.cap)
    flags = np.where(rows.flag[:, None] < 0, batch.flags[None, :], rows.flag[:, None])
    index = (masks * (rt.cap + 1) + ups) * rt.flags + flags
    allowed = (candidates[None, :] >> rows.boxes[:, None]) & 1 == 1
    nxt = np.where(allowed, values.reshape(-1)[index] + rows.up_add[:, None], _NEG)
    anywhere = int(np.bitwise_or.reduce(candidates)) if batch.size else 0
    return [
        nxt[part] if anywhere >> box & 1 else None for box, part in enumerate(rows.slices)
    ]


def _raise_rows(best: FloatArray, rows: IntArray, candidate: FloatArray) -> None:
    """Set best[rows] to the larger of itself and *candidate* (rows of the same length)."""
    if len(rows) == len(best):
        np.maximum(best, candidate, out=best)
    else:
        best[rows] = np.maximum(best[rows], candidate)


def _score_rows(
    rt: RuleTables, box: int, nxt: FloatArray, best: FloatArray, buffer: FloatArray
) -> None:
    """Raise *best* (252, N) with scoring each roll in *box* (no Joker).

    An upper box covers every roll (the dice count sets points and next subtotal); a lower
    box only the rolls that make points in it: its zero is in the start values of
    `final_values`.
    """
    face = rt.upper_faces[box]
    if face:
        np.take(nxt, dice_tables().face_count[:, face - 1], axis=0, out=buffer)
        np.maximum(best, buffer, out=best)
        return
    rows = rt.scoring_rows[box]
    points = rt.points[box, rows].astype(np.float64)[:, None]
    _raise_rows(best, rows, points + nxt[-1][None, :])


def _joker_rows(
    rt: RuleTables, batch: Batch, nexts: list[FloatArray | None], plain: FloatArray
) -> FloatArray:
    """Return (6, N): the best box for five (face+1)s once the five-alike box is filled.

    *plain* (6, N) is the best box when these dice score as they are (no Joker).
    """
    size = batch.size
    own = np.full((FACE_COUNT, size), _NEG)
    other_upper = np.full((FACE_COUNT, size), _NEG)
    lower = np.full((FACE_COUNT, size), _NEG)
    for box, nxt in enumerate(nexts):
        face = rt.upper_faces[box]
        if nxt is None:
            continue
        if face:
            own[face - 1] = nxt[DICE_COUNT]
            zero = nxt[0][None, :].repeat(FACE_COUNT, axis=0)
            zero[face - 1] = _NEG
            np.maximum(other_upper, zero, out=other_upper)
        elif box != rt.five_box:  # the five-alike box is filled whenever a Joker applies
            points = rt.joker_points[box].astype(np.float64)[:, None]
            np.maximum(lower, points + nxt[-1][None, :], out=lower)
    own_open = np.isfinite(own)
    if rt.rules.joker is Joker.FREE:
        # Free choice: any open box; a Joker (lower boxes at full value) only when the
        # upper box of the face is filled, else the dice score as they are.
        return np.where(own_open, plain, np.maximum(other_upper, lower))
    lower_open = np.isfinite(lower).any(axis=0)[None, :]
    # Hasbro: own upper box if open, else any open lower box, else a zero above.
    return np.where(own_open, own, np.where(lower_open, lower, other_upper))


def _zero_rows(rt: RuleTables, nexts: list[FloatArray | None], size: int) -> FloatArray:
    """Return (252, N): the best lower box filled with a zero, offered for every roll.

    Offering a box's zero for a roll that makes points there is harmless: points plus the
    same next state is larger. Not so for the tracked five-alike box, whose next state
    differs (a 50 sets the bonus flag): its zero is offered only to the other rolls.
    """
    zero = np.full(size, _NEG)
    five_zero = None
    for box, nxt in enumerate(nexts):
        if nxt is None or rt.upper_faces[box]:
            continue
        if box == rt.five_box and rt.tracks_bonus:
            five_zero = nxt[0]
        else:
            np.maximum(zero, nxt[0], out=zero)
    rolls = len(dice_tables().rolls)
    if five_zero is None:
        return np.repeat(zero[None, :], rolls, axis=0)
    best = np.repeat(np.maximum(zero, five_zero)[None, :], rolls, axis=0)
    best[dice_tables().five_alike] = zero
    return best


def final_values(rt: RuleTables, values: FloatArray, batch: Batch) -> FloatArray:
    """Return (252, N): the best legal box for each final roll, plus bonuses and what follows.

    *values* holds the turn-start values of every state with more boxes filled.
    """
    tables = dice_tables()
    nexts = _next_values(rt, values, batch)
    best = _zero_rows(rt, nexts, batch.size)
    buffer = np.empty_like(best)
    for box, nxt in enumerate(nexts):
        if nxt is not None:
            _score_rows(rt, box, nxt, best, buffer)
    five = tables.five_alike
    joker = rt.joker_active(batch.masks)
    if joker.any():
        best[five] = np.where(joker[None, :], _joker_rows(rt, batch, nexts, best[five]), best[five])
    if rt.tracks_bonus:
        best[five] += rt.rules.five_alike_bonus * batch.flags[None, :]
    return best


def keep_values(rolls: FloatArray) -> list[FloatArray]:
    """Return per keep size k = 0..5 the (keeps, N) value of holding each keep and rerolling.

    *rolls* (252, N) is the value of each five-dice outcome; size 5 returns it unchanged.
    """
    tables = dice_tables()
    levels = [rolls]
    for k in range(DICE_COUNT - 1, -1, -1):
        bigger = levels[0]
        first, *others = tables.add_columns[k]
        total = bigger.take(first, axis=0)
        for column in others:
            total += bigger.take(column, axis=0)
        total *= 1 / FACE_COUNT
        levels.insert(0, total)
    return levels


def best_roll_values(keeps: list[FloatArray]) -> FloatArray:
    """Return (252, N): each roll's value when the best of its sub-keeps is held."""
    tables = dice_tables()
    best = keeps[0]
    for k in range(1, DICE_COUNT + 1):
        first, *others = tables.remove_columns[k]
        below = best.take(first, axis=0)
        for column in others:
            np.maximum(below, best.take(column, axis=0), out=below)
        best = np.maximum(keeps[k], below, out=below)
    return best


def turn_values(rt: RuleTables, values: FloatArray, batch: Batch) -> FloatArray:
    """Return (N,): the expected points still to come from each turn-start state."""
    rolls = final_values(rt, values, batch)
    for _reroll in range(2):
        rolls = best_roll_values(keep_values(rolls))
    result: FloatArray = dice_tables().roll_probability @ rolls
    return result

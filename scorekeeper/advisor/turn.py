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

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.ruletables import RuleTables
from scorekeeper.advisor.tables import FACE_COUNT, dice_tables
from scorekeeper.dice import DICE_COUNT
from scorekeeper.rulesets import Joker

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


def _flat(rt: RuleTables, masks: IntArray, ups: IntArray, flags: IntArray) -> IntArray:
    """Return flat indices into the value array of states (mask, up, flag)."""
    result: IntArray = (masks * (rt.cap + 1) + ups) * rt.flags + flags
    return result


def _next_values(rt: RuleTables, flat: FloatArray, batch: Batch, box: int) -> FloatArray | None:
    """Return the value of filling *box* from each state, by what decides the next state.

    Rows: the dice count k = 0..5 of the face (upper box; points face*k included), or
    the new flag 0/1 (tracked five-alike box), else one row; -inf where the box may not
    be filled; None when no state of the batch may fill it.
    """
    allowed = (rt.candidates[batch.masks] >> box) & 1 == 1
    if not allowed.any():
        return None
    masks = batch.masks | (1 << box)
    face = rt.upper_faces[box]
    if face:
        points = face * np.arange(DICE_COUNT + 1)[:, None]
        ups = np.minimum(batch.ups[None, :] + points, rt.cap)
        nxt = points + flat[_flat(rt, masks[None, :], ups, batch.flags[None, :])]
    elif box == rt.five_box and rt.tracks_bonus:
        index = _flat(rt, masks, batch.ups, np.zeros_like(masks))
        nxt = np.stack([flat[index], flat[index + 1]])
    else:
        nxt = flat[_flat(rt, masks, batch.ups, batch.flags)][None, :]
    return np.where(allowed[None, :], nxt, _NEG)


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
    flat = values.reshape(-1)
    nexts = [_next_values(rt, flat, batch, box) for box in range(rt.box_count)]
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
        add = tables.add[k]
        total = np.take(bigger, add[:, 0], axis=0)
        for face in range(1, FACE_COUNT):
            total += np.take(bigger, add[:, face], axis=0)
        total /= FACE_COUNT
        levels.insert(0, total)
    return levels


def best_roll_values(keeps: list[FloatArray]) -> FloatArray:
    """Return (252, N): each roll's value when the best of its sub-keeps is held."""
    tables = dice_tables()
    best = keeps[0]
    for k in range(1, DICE_COUNT + 1):
        remove = tables.remove[k]
        below = np.take(best, remove[:, 0], axis=0)
        for j in range(1, k):
            np.maximum(below, np.take(best, remove[:, j], axis=0), out=below)
        best = np.maximum(keeps[k], below, out=below)
    return best


def turn_values(rt: RuleTables, values: FloatArray, batch: Batch) -> FloatArray:
    """Return (N,): the expected points still to come from each turn-start state."""
    rolls = final_values(rt, values, batch)
    for _reroll in range(2):
        rolls = best_roll_values(keep_values(rolls))
    result: FloatArray = dice_tables().roll_probability @ rolls
    return result

"""The last step of a turn, vectorized over a batch of turn-start states: the best box.

Arrays are laid out (rows, states): rows are the rolls of the rule set's n dice
(252 of five, 462 of six), columns the states of the batch. `final_values` gives,
for each final roll, the best legal box counting its points, any Yahtzee bonus and
the value of the next turn-start state; legality and points follow `Scorecard`
(see `ruletables`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.ruletables import RuleTables, rule_tables
from scorekeeper.advisor.tables import FACE_COUNT, dice_tables
from scorekeeper.rulesets import Joker, RuleSet

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

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


Nexts = list[FloatArray | None]


def next_rows(rt: RuleTables, batch: Batch) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """Return (moves, N): the flat row of the value array each move row (see
    `ruletables.Moves`) leads to from each state of *batch*, and whether it may be taken.
    """
    moves = rt.moves
    candidates = rt.candidates[batch.masks]
    masks = batch.masks[None, :] | (1 << moves.boxes)[:, None]
    ups = np.minimum(batch.ups[None, :] + moves.up_add[:, None], rt.cap)
    flags = np.where(moves.flag[:, None] < 0, batch.flags[None, :], moves.flag[:, None])
    index: IntArray = (masks * (rt.cap + 1) + ups) * rt.flags + flags
    allowed = (candidates[None, :] >> moves.boxes[:, None]) & 1 == 1
    return index, allowed


def _next_values(rt: RuleTables, values: FloatArray, batch: Batch) -> Nexts:
    """Return per box the value of filling it from each state of *batch* (rows: see
    `ruletables.Moves`); -inf where the box may not be filled; None where no state may.
    """
    moves = rt.moves
    candidates = rt.candidates[batch.masks]
    index, allowed = next_rows(rt, batch)
    nxt = np.where(allowed, values.reshape(-1)[index] + moves.up_add[:, None], _NEG)
    anywhere = int(np.bitwise_or.reduce(candidates)) if batch.size else 0
    return [nxt[part] if anywhere >> box & 1 else None for box, part in enumerate(moves.slices)]


def _upper_rows(rt: RuleTables, nexts: Nexts, size: int) -> FloatArray:
    """Return (rolls, N): the best upper box for each roll (-inf where none may be filled).

    Built per half of the faces (1-3, 4-6) over the ways a half can look (56 for five
    dice), then
    joined, which takes far fewer row operations than one pass per box over all rolls.
    """
    tables = dice_tables(rt.dice)
    halves = []
    for half in range(2):
        best: FloatArray | None = None
        for j in range(3):
            nxt = nexts[rt.face_boxes[3 * half + j]]
            if nxt is None:
                continue
            rows = nxt.take(tables.half_counts[j], axis=0)
            best = rows if best is None else np.maximum(best, rows, out=best)
        if best is not None:
            halves.append(best.take(tables.roll_half[half], axis=0))
    if not halves:
        return np.full((len(tables.rolls), size), _NEG)
    if len(halves) == 2:
        np.maximum(halves[0], halves[1], out=halves[0])
    return halves[0]


def _add_zeros(rt: RuleTables, nexts: Nexts, best: FloatArray) -> None:
    """Raise *best* with every lower box filled with a zero, offered for every roll.

    Offering a box's zero for a roll that makes points there is harmless: points plus the
    same next state is larger. Not so for the tracked five-alike box, whose next state
    differs (a 50 sets the bonus flag): its zero is offered only to the other rolls.
    """
    zero = np.full(best.shape[1], _NEG)
    five_zero = None
    for box, nxt in enumerate(nexts):
        if nxt is None or rt.upper_faces[box]:
            continue
        if box == rt.five_box and rt.tracks_bonus:
            five_zero = nxt[0]
        else:
            np.maximum(zero, nxt[0], out=zero)
    if five_zero is None:
        np.maximum(best, zero[None, :], out=best)
        return
    five = dice_tables(rt.dice).all_alike
    five_rows = np.maximum(best[five], zero[None, :])
    np.maximum(best, np.maximum(zero, five_zero)[None, :], out=best)
    best[five] = five_rows


def _add_lower_points(rt: RuleTables, nexts: Nexts, best: FloatArray) -> None:
    """Raise *best* with each lower box on the rolls that make points in it (no Joker)."""
    for box, nxt in enumerate(nexts):
        if nxt is None or rt.upper_faces[box]:
            continue
        rows = rt.scoring_rows[box]
        points = rt.points[box, rows].astype(np.float64)[:, None]
        if len(rows) == len(best):
            np.maximum(best, points + nxt[-1][None, :], out=best)
        else:
            best[rows] = np.maximum(best[rows], points + nxt[-1][None, :])


def _joker_rows(rt: RuleTables, size: int, nexts: Nexts, plain: FloatArray) -> FloatArray:
    """Return (6, N): the best box for n (face+1)s once the five-alike box is filled.

    *plain* (6, N) is the best box when these dice score as they are (no Joker).
    """
    own = np.full((FACE_COUNT, size), _NEG)
    other_upper = np.full((FACE_COUNT, size), _NEG)
    lower = np.full((FACE_COUNT, size), _NEG)
    for box, nxt in enumerate(nexts):
        face = rt.upper_faces[box]
        if nxt is None:
            continue
        if face:
            own[face - 1] = nxt[rt.dice]
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


def final_values(rt: RuleTables, values: FloatArray, batch: Batch) -> FloatArray:
    """Return (rolls, N): the best legal box for each final roll, plus bonuses and what
    follows.

    *values* holds the turn-start values of every state with more boxes filled.
    """
    nexts = _next_values(rt, values, batch)
    best = _upper_rows(rt, nexts, batch.size)
    _add_zeros(rt, nexts, best)
    _add_lower_points(rt, nexts, best)
    five = dice_tables(rt.dice).all_alike
    joker = rt.joker_active(batch.masks)
    if joker.any():
        jokers = _joker_rows(rt, batch.size, nexts, best[five])
        best[five] = np.where(joker[None, :], jokers, best[five])
    if rt.tracks_bonus:
        best[five] += rt.rules.five_alike_bonus * batch.flags[None, :]
    return best


@dataclass(frozen=True)
class BoxRolls:
    """What filling each box with each roll leads to, laid out for one card at a time.

    Filling box b with roll r scores its points and takes a row of `ruletables.Moves`
    (the next state). Few (points, move row) *pairs* occur (124 for Yahtzee), so
    `state_final_values` works out each pair's value once for a card and reads it per
    box and roll through ``pairs[b, r]``.
    """

    pairs: IntArray  # (boxes, rolls) the pair of filling box b with roll r (no Joker)
    pair_points: FloatArray  # (pairs,) the points of each pair
    pair_offsets: IntArray  # (cap + 1, flags, pairs) `offsets` of each pair's move row
    open_boxes: npt.NDArray[np.bool_]  # (2**boxes, boxes) the boxes one may fill from mask
    five_rows: IntArray  # (boxes, 6) the move row of five (face+1)s in each box
    joker: FloatArray  # (boxes, 6) points of five (face+1)s under a Joker
    own: npt.NDArray[np.bool_]  # (boxes, 6) whether box b is the upper box of face f+1
    lower: npt.NDArray[np.bool_]  # (boxes,) whether box b is a lower box
    open_rows: npt.NDArray[np.bool_]  # (2**boxes, move rows) the rows one may take from mask
    # (cap + 1, flags, move rows): the next state's flat row, less mask * stride
    offsets: IntArray
    stride: int  # rows of the flat value array per mask


@cache
def box_rolls(rules: RuleSet) -> BoxRolls:
    """Return the (cached) `BoxRolls` of *rules*."""
    rt = rule_tables(rules)
    rows = move_rows(rt)
    pairs, inverse = np.unique(np.stack((rows.ravel(), rt.points.ravel()), axis=1),
                               axis=0, return_inverse=True)
    offsets = _offsets(rt)
    upper_faces = np.array(rt.upper_faces)
    upper = upper_faces[:, None] > 0
    five = dice_tables(rt.dice).all_alike
    box_bits = np.arange(rt.box_count)
    return BoxRolls(
        pairs=inverse.reshape(rows.shape),
        pair_points=pairs[:, 1].astype(np.float64),
        pair_offsets=np.ascontiguousarray(offsets[:, :, pairs[:, 0]]),
        open_boxes=(rt.candidates[:, None] >> box_bits[None, :]) & 1 == 1,
        five_rows=np.ascontiguousarray(rows[:, five]),
        joker=np.where(upper, rt.points[:, five], rt.joker_points).astype(np.float64),
        own=upper_faces[:, None] == np.arange(1, FACE_COUNT + 1)[None, :],
        lower=upper_faces == 0,
        open_rows=(rt.candidates[:, None] >> rt.moves.boxes[None, :]) & 1 == 1,
        offsets=offsets,
        stride=(rt.cap + 1) * rt.flags,
    )


def move_rows(rt: RuleTables) -> IntArray:
    """Return (boxes, rolls): the move row (see `ruletables.Moves`) filling box b with roll r
    takes, no Joker.
    """
    counts = dice_tables(rt.dice).face_count
    rows = np.empty(rt.points.shape, dtype=np.intp)
    for box, part in enumerate(rt.moves.slices):
        face = rt.upper_faces[box]
        if face:
            rows[box] = part.start + counts[:, face - 1]
        else:
            last = part.stop - 1  # the tracked five-alike box: its second row when it scores
            rows[box] = np.where(rt.points[box] > 0, last, part.start)
    return rows


def _offsets(rt: RuleTables) -> IntArray:
    """Return `BoxRolls.offsets`: the box's bit, the next capped subtotal and flag."""
    moves = rt.moves
    ups = np.minimum(moves.up_add[None, :] + np.arange(rt.cap + 1)[:, None], rt.cap)
    flags = np.where(moves.flag[None, :] < 0, np.arange(rt.flags)[:, None], moves.flag[None, :])
    bits = (1 << moves.boxes) * (rt.cap + 1) * rt.flags
    offsets: IntArray = bits + ups[:, None, :] * rt.flags + flags[None, :, :]
    return offsets


def _state_nexts(pre: BoxRolls, values: FloatArray, state: tuple[int, int, int]) -> FloatArray:
    """Return per move row the next state's value (-inf where the box may not be filled)."""
    mask, up, flag = state
    index = pre.offsets[up, flag] + mask * pre.stride  # clipped below: filled boxes only
    after = values.reshape(-1).take(index, mode="clip")
    nexts: FloatArray = np.where(pre.open_rows[mask], after, _NEG)
    return nexts


def state_final_values(rt: RuleTables, pre: BoxRolls, values: FloatArray,
                       state: tuple[int, int, int]) -> FloatArray:
    """Return (rolls,): `final_values` of the one turn-start *state* (mask, up, flag).

    *pre* is `box_rolls` of *rt*'s rules (a `Table` keeps it at hand).
    Each (points, move row) pair is valued once, then the open boxes are read per roll:
    the same sums as `final_values`, so equal bit for bit, in a handful of array operations.
    """
    mask, up, flag = state
    index = pre.pair_offsets[up, flag] + mask * pre.stride  # clipped: filled boxes, unread
    pair_values = values.reshape(-1).take(index, mode="clip")
    pair_values += pre.pair_points
    best: FloatArray = pair_values.take(pre.pairs[pre.open_boxes[mask]]).max(axis=0)
    five = dice_tables(rt.dice).all_alike
    if rt.rules.joker is not Joker.NONE and mask >> rt.five_box & 1:
        jokers = pre.joker + _state_nexts(pre, values, state).take(pre.five_rows)
        best[five] = _state_jokers(rt.rules.joker, pre, jokers, best[five])
    if rt.tracks_bonus and flag:
        best[five] += rt.rules.five_alike_bonus * flag
    return best


def _state_jokers(joker: Joker, pre: BoxRolls, jokers: FloatArray, plain: FloatArray
                  ) -> FloatArray:
    """Return (6,): the best box for five alike under a Joker (see `_joker_rows`).

    *jokers* (boxes, 6) is the value of each box for five (face+1)s (-inf where it may
    not be filled), *plain* (6,) the best box without a Joker.
    """
    own = np.where(pre.own, jokers, _NEG).max(axis=0)
    own_open = own > _NEG
    if joker is Joker.FREE:
        return np.where(own_open, plain, jokers.max(axis=0))
    lower = jokers[pre.lower].max(axis=0)
    fallback = lower if lower[0] > _NEG else jokers[~pre.lower].max(axis=0)
    best: FloatArray = np.where(own_open, own, fallback)
    return best

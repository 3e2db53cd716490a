"""The spread of the final score under optimal play: a second backward pass for E[X^2].

A table gives E[X], X the points still to come from a turn-start state when every
choice maximizes the expected final score. This pass follows the same choices (the
best box for each final roll, the best keep for each roll before) and carries the
second moment E[X^2] along, state by state in the same order as the solve:

* the last roll: filling box b scores p and leads to state s', so
  E[X^2] = E[(p + X')^2] = (p + E[X'])^2 + Var[X'];
* a keep: the mean of E[X^2] over the rerolled dice, as for E[X];
* a roll before the last: E[X^2] of the keep chosen (holding every die is going on).

The choices are those of the solve, bit for bit (the same sums and comparisons on the
same values); where two choices tie exactly, the first box in card order and the
larger keep are taken. The variance of the final score is E[X^2] - E[X]^2 at the
empty card. Rule sets with a Joker or Yahtzee bonuses are not covered (their last
roll has more cases): `AdvisorError`.

``python -m scorekeeper.advisor.moments --rules maxi-yatzy`` prints the mean and the
standard deviation of a rule set's final score (its table from the cache, solved first
if need be), with the second pass's progress on stderr.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.cache import solve
from scorekeeper.advisor.final import move_rows, next_rows
from scorekeeper.advisor.ruletables import RuleTables
from scorekeeper.advisor.solver import AdvisorError, ProgressHook, Table, blank, every, sweep
from scorekeeper.advisor.tables import dice_tables
from scorekeeper.advisor.turn import ROLLS_PER_TURN, Batch, keep_values
from scorekeeper.rulesets import Joker, ruleset

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.integer[Any]]
Pair = tuple[FloatArray, FloatArray]  # (E[X], E[X^2]) of the same rows
_NEG = -np.inf


def _zeros(rt: RuleTables, after: FloatArray) -> tuple[FloatArray, IntArray]:
    """Return (N,): the best zero in a lower box, and that box: a candidate of every roll
    (where a lower box scores, its points beat its zero)."""
    size = after.shape[1]
    best, box_of = np.full(size, _NEG), np.zeros(size, dtype=np.int8)
    for box, part in enumerate(rt.moves.slices):
        if not rt.upper_faces[box]:
            _select(box_of, after[part.start] > best, box)
            np.maximum(best, after[part.start], out=best)
    return best, box_of


def _select(held: IntArray, better: npt.NDArray[np.bool_], other: IntArray | int) -> None:
    """Set *held* to *other* where *better*, in place: by arithmetic, which runs many
    times faster than a masked copy when the mask is irregular."""
    step = np.subtract(other, held, dtype=held.dtype)
    np.multiply(step, better, out=step)
    np.add(held, step, out=held)


def _raise(best: FloatArray, chosen: IntArray, value: FloatArray, box: IntArray | int,
           rows: IntArray | None = None) -> None:
    """Where *value* beats *best* (on *rows*, default all), take it and mark *box* (a box,
    or one per value) chosen; ties keep what is there."""
    if rows is None:
        _select(chosen, value > best, box)
        np.maximum(best, value, out=best)
        return
    current, marks = best.take(rows, axis=0), chosen.take(rows, axis=0)
    _select(marks, value > current, box)
    best[rows] = np.maximum(current, value, out=current)
    chosen[rows] = marks


def _upper(rt: RuleTables, after: FloatArray, allowed: npt.NDArray[np.bool_]
           ) -> tuple[FloatArray, IntArray]:
    """Return (rolls, N): the best upper box for every roll (-inf where none is open) and
    that box; worked out per half of the faces, as `final._upper_rows` does."""
    tables = dice_tables(rt.dice)
    size = after.shape[1]
    best = np.full((len(tables.rolls), size), _NEG)
    chosen = np.zeros(best.shape, dtype=np.int8)
    for half in range(2):
        half_best = np.full((len(tables.half_counts[0]), size), _NEG)
        half_chosen = np.zeros(half_best.shape, dtype=np.int8)
        for j in range(3):
            box = rt.face_boxes[3 * half + j]
            part = rt.moves.slices[box]
            if allowed[part.start].any():  # its points go to the subtotal too
                counts = after[part] + rt.moves.up_add[part][:, None]
                _raise(half_best, half_chosen, counts.take(tables.half_counts[j], axis=0), box)
        rows = tables.roll_half[half]
        _raise(best, chosen, half_best.take(rows, axis=0), half_chosen.take(rows, axis=0))
    return best, chosen


def _final_moments(rt: RuleTables, values: FloatArray, squares: FloatArray,
                   batch: Batch) -> Pair:
    """Return (rolls, N) twice: E[X] and E[X^2] after the last roll, the best box taken.

    E[X] is `final.final_values` bit for bit: each candidate is the same sum (points plus
    the next state's value). Zeros in lower boxes are one candidate for all rolls, a lower
    box's points are tried on the rolls that make them only."""
    index, allowed = next_rows(rt, batch)
    after = np.where(allowed, values.reshape(-1)[index], _NEG)  # (moves, N)
    rows = move_rows(rt)
    best, chosen = _upper(rt, after, allowed)
    zero, zero_box = _zeros(rt, after)
    _raise(best, chosen, zero[None, :], zero_box[None, :])
    for box, part in enumerate(rt.moves.slices):
        if rt.upper_faces[box] or not allowed[part.start].any():
            continue
        scoring = rt.scoring_rows[box]
        if 4 * len(scoring) > 3 * len(best):  # most rolls: all of them (a zero on the rest)
            points = rt.points[box].astype(np.float64)[:, None]
            _raise(best, chosen, points + after[part.start][None, :], box)
        else:
            points = rt.points[box, scoring].astype(np.float64)[:, None]
            _raise(best, chosen, points + after[part.start][None, :], box, scoring)
    # E[X^2] = (p + E[X'])^2 + Var[X'] of the chosen box's next state
    spread = squares.reshape(-1)[index] - after**2  # (moves, N); never read where not allowed
    taken = rows[chosen, np.arange(rows.shape[1])[:, None]]  # (rolls, N) move rows
    flat = taken * batch.size + np.arange(batch.size)[None, :]
    return best, best**2 + spread.reshape(-1).take(flat)


def _keep_moments(pair: Pair) -> tuple[list[FloatArray], list[FloatArray]]:
    return keep_values(pair[0]), keep_values(pair[1])


def _best_moments(means: list[FloatArray], squares: list[FloatArray]) -> Pair:
    """Return (rolls, N) twice: each roll's E[X] and E[X^2] with its best sub-keep held
    (ties: the larger keep); E[X] is `turn.best_roll_values` of *means* bit for bit.

    The chain of `best_roll_values` carries the flat row of the keep chosen along; E[X^2]
    is read at those rows once at the end."""
    tables = dice_tables(len(means) - 1)
    offsets = np.cumsum([0, *(len(level) for level in means)])
    best = means[0]
    held = np.zeros(best.shape, dtype=np.int16)
    for k in range(1, len(means)):
        first, *others = tables.remove_columns[k]
        below, below_held = best.take(first, axis=0), held.take(first, axis=0)
        for column in others:
            head, head_held = below[: len(column)], below_held[: len(column)]
            other = best.take(column, axis=0)
            _select(head_held, other > head, held.take(column, axis=0))
            np.maximum(head, other, out=head)
        own = np.arange(offsets[k], offsets[k + 1], dtype=np.int16)[:, None]
        smaller = below > means[k]  # ties: holding the k dice
        held = np.repeat(own, below.shape[1], axis=1)
        _select(held, smaller, below_held)
        best = np.maximum(means[k], below, out=below)
    size = best.shape[1]
    flat = held.astype(np.intp) * size + np.arange(size)[None, :]
    chosen: FloatArray = np.concatenate(squares).reshape(-1).take(flat)
    return best, chosen


def turn_moments(rt: RuleTables, values: FloatArray, squares: FloatArray,
                 batch: Batch) -> FloatArray:
    """Return (N,): E[X^2] of the points still to come from each turn-start state."""
    pair = _final_moments(rt, values, squares, batch)
    for _reroll in range(ROLLS_PER_TURN - 1):
        pair = _best_moments(*_keep_moments(pair))
    result: FloatArray = dice_tables(rt.dice).roll_probability @ pair[1]
    return result


def _check(rt: RuleTables) -> None:
    if rt.rules.joker is not Joker.NONE or rt.tracks_bonus:
        raise AdvisorError(f"the spread of {rt.rules.name} is not worked out: "
                           "Joker rules and Yahtzee bonuses are not covered")


def second_moments(table: Table, progress: ProgressHook | None = None) -> FloatArray:
    """Return E[X^2] of the points still to come from every state of *table*, in the
    table's shape (states no game reaches as in the table: NaN or 0). *progress* as for
    `solver.build`.

    Raises AdvisorError for a rule set with a Joker or Yahtzee bonuses.
    """
    rt, values = table.tables, table.values
    _check(rt)
    squares = blank(rt)
    squares[rt.full_mask] = values[rt.full_mask] ** 2

    def solve_batch(batch: Batch) -> FloatArray:
        return turn_moments(rt, values, squares, batch)

    sweep(rt, squares, solve_batch, progress)
    return squares


def score_spread(table: Table, progress: ProgressHook | None = None) -> tuple[float, float]:
    """Return the mean and the standard deviation of a whole game's final score under
    optimal play (exact, see the module docstring). Raises as `second_moments` does."""
    mean = table.expected_score
    square = float(second_moments(table, progress)[0, 0, 0])
    return mean, float(np.sqrt(max(0.0, square - mean**2)))


def main(argv: list[str] | None = None) -> int:
    """Print the mean and standard deviation of a rule set's final score; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yatzy")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    table = solve(ruleset(args.rules))
    loaded = time.perf_counter()
    show = every(30.0, lambda line: print(line, file=sys.stderr, flush=True))
    mean, sd = score_spread(table, show)
    print(f"{table.rules.name}: table ready in {loaded - start:.1f} s, second pass "
          f"{time.perf_counter() - loaded:.1f} s")
    print(f"expected score {mean:.7f}, standard deviation {sd:.7f} (variance {sd * sd:.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

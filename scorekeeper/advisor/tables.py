"""Dice combinatorics for the advisor: the 252 rolls, the 462 keeps and how they connect.

A *keep* is a multiset of 0..5 dice (what a player holds before rerolling the
rest); a *roll* is a keep of five dice. Keeps are written as count tuples
``(ones, twos, ..., sixes)`` and grouped by size, so that the within-turn
recursion can work one die at a time:

* ``add[k][i, f]``: the keep of size k+1 made by adding face f+1 to keep i of size k;
* ``remove[k][i, j]``: a keep of size k-1 made by removing one die from keep i of size k
  (rows padded by repetition, so every row has k entries).

The value of holding keep S (rerolling the rest) is the mean over the next die of
the value of holding S plus that die, down to five dice; this is exactly the
multinomial average over the rerolled dice (``transition_matrix`` spells it out).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from scorekeeper.dice import DICE_COUNT, Dice

FACE_COUNT = 6
Counts = tuple[int, ...]
IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]


def _multisets(size: int) -> list[Counts]:
    """Return every count tuple of *size* dice: most distinct faces first, then ascending.

    The order lets `best_roll_values` treat "the rows with more than j distinct faces"
    as a leading slice.
    """
    combos = itertools.combinations_with_replacement(range(1, 7), size)
    return sorted((_counts(combo) for combo in combos), key=lambda c: -_distinct(c))


def _distinct(counts: Counts) -> int:
    return sum(1 for n in counts if n)


def _counts(values: tuple[int, ...] | list[int]) -> Counts:
    counts = [0] * FACE_COUNT
    for value in values:
        counts[value - 1] += 1
    return tuple(counts)


def counts_to_values(counts: Counts) -> tuple[int, ...]:
    """Return the sorted dice values of a count tuple."""
    return tuple(face for face, n in enumerate(counts, start=1) for _ in range(n))


def multinomial_probability(counts: Counts) -> float:
    """Return the probability that rolling sum(counts) dice shows exactly these counts."""
    size = sum(counts)
    ways = math.factorial(size)
    for n in counts:
        ways //= math.factorial(n)
    outcomes: int = FACE_COUNT**size
    return ways / outcomes


@dataclass(frozen=True)
class DiceTables:
    """Every keep by size, with the add/remove links and the five-dice roll data."""

    keeps: tuple[tuple[Counts, ...], ...]  # keeps[k]: the keeps of k dice
    index: tuple[dict[Counts, int], ...]  # index[k][counts] -> row in keeps[k]
    add: tuple[IntArray, ...]  # add[k]: (len(keeps[k]), 6) rows of keeps[k+1], k < 5
    remove: tuple[IntArray, ...]  # remove[k]: (len(keeps[k]), k) rows of keeps[k-1], k >= 1
    roll_probability: FloatArray  # (252,) exact multinomial probabilities
    face_count: IntArray  # (252, 6) how many dice of each face a roll shows
    five_alike: IntArray  # (6,) the row of the roll of five (face i+1)s
    add_columns: tuple[tuple[IntArray, ...], ...] = ()  # add[k][:, f], contiguous
    # remove[k][:, j] over the rows with more than j distinct faces (a leading slice)
    remove_columns: tuple[tuple[IntArray, ...], ...] = ()
    # A roll split into faces 1-3 and 4-6: the 56 ways three faces show at most five dice,
    # half_counts[j] (56,) the count of the half's face j, roll_half[h] (252,) the row of
    # each roll's half h (0: faces 1-3, 1: faces 4-6).
    half_counts: tuple[IntArray, ...] = ()
    roll_half: tuple[IntArray, ...] = ()

    @property
    def rolls(self) -> tuple[Counts, ...]:
        """The 252 distinct rolls of five dice as count tuples."""
        return self.keeps[DICE_COUNT]

    def roll_index(self, dice: Dice) -> int:
        """Return the row of five *dice* among the 252 rolls."""
        return self.index[DICE_COUNT][dice.counts()]

    def keep_index(self, counts: Counts) -> tuple[int, int]:
        """Return (size, row) of a keep given as counts."""
        size = sum(counts)
        return size, self.index[size][tuple(counts)]

    @property
    def keep_count(self) -> int:
        """How many distinct keeps there are (462 for five dice)."""
        return sum(len(level) for level in self.keeps)


def _add_table(smaller: list[Counts], larger: dict[Counts, int]) -> IntArray:
    rows = []
    for counts in smaller:
        row = []
        for face in range(FACE_COUNT):
            bigger = list(counts)
            bigger[face] += 1
            row.append(larger[tuple(bigger)])
        rows.append(row)
    return np.array(rows, dtype=np.intp).reshape(len(smaller), FACE_COUNT)


def _remove_table(larger: list[Counts], smaller: dict[Counts, int], size: int) -> IntArray:
    rows = []
    for counts in larger:
        row = []
        for face in range(FACE_COUNT):
            if counts[face]:
                fewer = list(counts)
                fewer[face] -= 1
                row.append(smaller[tuple(fewer)])
        rows.append((row * size)[:size])  # pad by repetition: max() ignores duplicates
    return np.array(rows, dtype=np.intp).reshape(len(larger), size)


@cache
def dice_tables() -> DiceTables:
    """Return the (cached) keep and roll tables for five six-sided dice."""
    keeps = [_multisets(size) for size in range(DICE_COUNT + 1)]
    index = [{counts: i for i, counts in enumerate(level)} for level in keeps]
    add = tuple(_add_table(keeps[k], index[k + 1]) for k in range(DICE_COUNT))
    remove = tuple(
        _remove_table(keeps[k], index[k - 1], k) if k else np.zeros((1, 0), dtype=np.intp)
        for k in range(DICE_COUNT + 1)
    )
    rolls = keeps[DICE_COUNT]
    five = [index[DICE_COUNT][_counts([face] * DICE_COUNT)] for face in range(1, 7)]
    return DiceTables(
        keeps=tuple(tuple(level) for level in keeps),
        index=tuple(index),
        add=add,
        remove=remove,
        roll_probability=np.array([multinomial_probability(c) for c in rolls]),
        face_count=np.array(rolls, dtype=np.intp),
        five_alike=np.array(five, dtype=np.intp),
        add_columns=tuple(_columns(table) for table in add),
        remove_columns=tuple(
            _distinct_columns(table, level) for table, level in zip(remove, keeps, strict=True)
        ),
        **_halves(rolls),
    )


def _halves(rolls: list[Counts]) -> dict[str, tuple[IntArray, ...]]:
    """Return the half_counts and roll_half tables (see DiceTables)."""
    combos = [c for c in itertools.product(range(DICE_COUNT + 1), repeat=3) if sum(c) <= 5]
    row = {combo: i for i, combo in enumerate(combos)}
    return {
        "half_counts": tuple(
            np.ascontiguousarray(np.array(combos, dtype=np.intp)[:, j]) for j in range(3)
        ),
        "roll_half": tuple(
            np.array([row[roll[3 * h : 3 * h + 3]] for roll in rolls], dtype=np.intp)
            for h in range(2)
        ),
    }


def _columns(table: IntArray) -> tuple[IntArray, ...]:
    return tuple(np.ascontiguousarray(table[:, j]) for j in range(table.shape[1]))


def _distinct_columns(table: IntArray, level: list[Counts]) -> tuple[IntArray, ...]:
    """Column j of a remove table, cut to the rows that have more than j distinct faces."""
    distinct = [_distinct(c) for c in level]
    return tuple(
        np.ascontiguousarray(table[: sum(1 for d in distinct if d > j), j])
        for j in range(table.shape[1])
    )


def sub_keeps(counts: Counts) -> list[Counts]:
    """Return every distinct sub-multiset of a roll (up to 32), smallest first."""
    ranges = [range(n + 1) for n in counts]
    subs = [tuple(c) for c in itertools.product(*ranges)]
    return sorted(subs, key=lambda c: (sum(c), counts_to_values(c)))


def transition_matrix() -> FloatArray:
    """Return P[keep, roll]: the chance that holding *keep* and rerolling the rest gives *roll*.

    Rows follow the keeps by size (0 dice first), columns the 252 rolls. Used to
    check the one-die-at-a-time recursion; the solver itself never builds it.
    """
    tables = dice_tables()
    rows = []
    for level in tables.keeps:
        for keep in level:
            row = np.zeros(len(tables.rolls))
            for rest in _multisets(DICE_COUNT - sum(keep)):
                roll = tuple(a + b for a, b in zip(keep, rest, strict=True))
                row[tables.index[DICE_COUNT][roll]] += multinomial_probability(rest)
            rows.append(row)
    return np.array(rows)


@dataclass(frozen=True)
class KeepLinks:
    """Arrays that evaluate every keep of one state in a few array operations (`keep_rows`).

    ``matrix`` (462, 252) is `transition_matrix`: row s is the distribution of the
    roll that holding keep s (keeps of every size laid end to end, sizes 0..5) and
    rerolling the rest gives. ``columns``, ``weights`` and ``starts`` are its nonzero
    entries row by row for the 210 keeps of 0..4 dice (4116 of them), row s starting
    at ``starts[s]``; holding five dice is the roll itself. ``sub_rows`` (16, 126) holds,
    for each keep of four dice (a column), the flat rows of its sub-keeps, itself included;
    ``drop_rows`` (5, 252), for each roll, the keeps of four dice it holds (rows of
    ``keeps[4]``). Both are padded by repetition.
    """

    matrix: FloatArray
    columns: IntArray
    weights: FloatArray
    starts: IntArray
    offsets: tuple[int, ...]  # the flat row of the first keep of each size
    sub_rows: IntArray
    drop_rows: IntArray

    @property
    def rerolled(self) -> int:
        """How many keeps leave dice to reroll (0..4 dice held): 210 for five dice."""
        return self.offsets[DICE_COUNT]


@cache
def keep_links() -> KeepLinks:
    """Return the (cached) `KeepLinks` of five six-sided dice."""
    tables = dice_tables()
    offsets = tuple(int(n) for n in np.cumsum([0, *(len(level) for level in tables.keeps)]))
    width = 2 ** (DICE_COUNT - 1)  # four distinct faces: 16 sub-keeps
    rows = []
    for keep in tables.keeps[DICE_COUNT - 1]:
        subs = [offsets[size] + row for size, row in map(tables.keep_index, sub_keeps(keep))]
        rows.append((subs * width)[:width])  # pad by repetition: max() ignores duplicates
    matrix = transition_matrix()
    matrix.setflags(write=False)
    keeps, columns = np.nonzero(matrix[: offsets[DICE_COUNT]])
    starts = np.searchsorted(keeps, np.arange(offsets[DICE_COUNT]))
    return KeepLinks(matrix, columns, matrix[keeps, columns], starts, offsets,
                     sub_rows=np.ascontiguousarray(np.array(rows, dtype=np.intp).T),
                     drop_rows=np.ascontiguousarray(tables.remove[DICE_COUNT].T))


def flat_keep_row(counts: Counts) -> int:
    """Return the row of a keep (given as counts) among the keeps of every size."""
    size, row = dice_tables().keep_index(counts)
    return keep_links().offsets[size] + row


def reroll_rows(rolls: FloatArray) -> FloatArray:
    """Return (210,): the value of holding each keep of 0..4 dice and rerolling the rest.

    *rolls* (252,) is the value of each five-dice outcome. Each keep's sum runs over
    its own outcomes only (a sparse product), in one reduction.
    """
    links = keep_links()
    products = rolls.take(links.columns)
    products *= links.weights
    values: FloatArray = np.add.reduceat(products, links.starts)
    return values


def keep_rows(rolls: FloatArray, rows: IntArray | None = None) -> FloatArray:
    """Return the value of holding each keep of flat *rows* (default all 462) and rerolling.

    *rolls* (252,) is the value of each five-dice outcome.
    """
    if rows is not None:
        chosen: FloatArray = keep_links().matrix.take(rows, axis=0) @ rolls
        return chosen
    return np.concatenate((reroll_rows(rolls), rolls))  # holding five dice: the roll itself


def best_rolls(keeps: FloatArray) -> FloatArray:
    """Return (252,): each roll's value when the best of its sub-keeps (or stopping) is held.

    *keeps* (462,) is the value of every keep (`keep_rows`).
    """
    rerolled = keep_links().rerolled
    return _best_sub_keeps(keeps[:rerolled], keeps[rerolled:])


def reroll_best(rolls: FloatArray) -> FloatArray:
    """Return (252,): each roll's value with one more roll to come, the best keep held
    (or stopping); *rolls* (252,) is the value of each roll with none to come.

    The same values as ``best_rolls(keep_rows(rolls))``.
    """
    return _best_sub_keeps(reroll_rows(rolls), rolls)


def _best_sub_keeps(rerolls: FloatArray, rolls: FloatArray) -> FloatArray:
    """Return (252,): per roll the largest of its value in *rolls* and, in *rerolls*
    (210,), those of its keeps of 0..4 dice.

    Every smaller keep of a roll is a keep of four of its dice or lies in one, so the best
    keep within each keep of four dice is found first (126 of them), then per roll.
    """
    links = keep_links()
    within_four = rerolls.take(links.sub_rows).max(axis=0)
    best: FloatArray = within_four.take(links.drop_rows).max(axis=0)
    return np.maximum(best, rolls, out=best)

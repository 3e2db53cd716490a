"""Dice combinatorics for the advisor: rolls, keeps and how they connect, for n dice.

Five dice make 252 rolls and 462 keeps, six dice (Maxi Yatzy) 462 rolls and 924
keeps. A *keep* is a multiset of 0..n dice (what a player holds before rerolling
the rest); a *roll* is a keep of n dice. Every table is built per dice count
(``dice_tables(dice)``, cached); the rule set says how many (`RuleSet.dice_count`).
Keeps are written as count tuples
``(ones, twos, ..., sixes)`` and grouped by size, so that the within-turn
recursion can work one die at a time:

* ``add[k][i, f]``: the keep of size k+1 made by adding face f+1 to keep i of size k;
* ``remove[k][i, j]``: a keep of size k-1 made by removing one die from keep i of size k
  (rows padded by repetition, so every row has k entries).

The value of holding keep S (rerolling the rest) is the mean over the next die of
the value of holding S plus that die, up to n dice; this is exactly the
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
    """Every keep by size, with the add/remove links and the roll data, for n dice."""

    dice: int  # n: how many dice a roll shows
    keeps: tuple[tuple[Counts, ...], ...]  # keeps[k]: the keeps of k dice, k = 0..n
    index: tuple[dict[Counts, int], ...]  # index[k][counts] -> row in keeps[k]
    add: tuple[IntArray, ...]  # add[k]: (len(keeps[k]), 6) rows of keeps[k+1], k < n
    remove: tuple[IntArray, ...]  # remove[k]: (len(keeps[k]), k) rows of keeps[k-1], k >= 1
    roll_probability: FloatArray  # (rolls,) exact multinomial probabilities
    face_count: IntArray  # (rolls, 6) how many dice of each face a roll shows
    all_alike: IntArray  # (6,) the row of the roll of n (face i+1)s
    add_columns: tuple[tuple[IntArray, ...], ...] = ()  # add[k][:, f], contiguous
    # remove[k][:, j] over the rows with more than j distinct faces (a leading slice)
    remove_columns: tuple[tuple[IntArray, ...], ...] = ()
    # A roll split into faces 1-3 and 4-6: the ways three faces show at most n dice (56
    # for five), half_counts[j] the count of the half's face j, roll_half[h] (rolls,) the
    # row of each roll's half h (0: faces 1-3, 1: faces 4-6).
    half_counts: tuple[IntArray, ...] = ()
    roll_half: tuple[IntArray, ...] = ()

    @property
    def rolls(self) -> tuple[Counts, ...]:
        """The distinct rolls of n dice as count tuples (252 for five, 462 for six)."""
        return self.keeps[self.dice]

    def roll_index(self, dice: Dice) -> int:
        """Return the row of *dice* (n of them) among the rolls."""
        return self.index[self.dice][dice.counts()]

    def keep_index(self, counts: Counts) -> tuple[int, int]:
        """Return (size, row) of a keep given as counts."""
        size = sum(counts)
        return size, self.index[size][tuple(counts)]

    @property
    def keep_count(self) -> int:
        """How many distinct keeps there are (462 for five dice, 924 for six)."""
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
def dice_tables(dice: int = DICE_COUNT) -> DiceTables:
    """Return the (cached) keep and roll tables for *dice* six-sided dice."""
    keeps = [_multisets(size) for size in range(dice + 1)]
    index = [{counts: i for i, counts in enumerate(level)} for level in keeps]
    add = tuple(_add_table(keeps[k], index[k + 1]) for k in range(dice))
    remove = tuple(
        _remove_table(keeps[k], index[k - 1], k) if k else np.zeros((1, 0), dtype=np.intp)
        for k in range(dice + 1)
    )
    rolls = keeps[dice]
    alike = [index[dice][_counts([face] * dice)] for face in range(1, 7)]
    return DiceTables(
        dice=dice,
        keeps=tuple(tuple(level) for level in keeps),
        index=tuple(index),
        add=add,
        remove=remove,
        roll_probability=np.array([multinomial_probability(c) for c in rolls]),
        face_count=np.array(rolls, dtype=np.intp),
        all_alike=np.array(alike, dtype=np.intp),
        add_columns=tuple(_columns(table) for table in add),
        remove_columns=tuple(
            _distinct_columns(table, level) for table, level in zip(remove, keeps, strict=True)
        ),
        **_halves(rolls, dice),
    )


def _halves(rolls: list[Counts], dice: int) -> dict[str, tuple[IntArray, ...]]:
    """Return the half_counts and roll_half tables (see DiceTables)."""
    combos = [c for c in itertools.product(range(dice + 1), repeat=3) if sum(c) <= dice]
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
    """Return every distinct sub-multiset of a roll (up to 32 of five dice, 64 of six),
    smallest first."""
    ranges = [range(n + 1) for n in counts]
    subs = [tuple(c) for c in itertools.product(*ranges)]
    return sorted(subs, key=lambda c: (sum(c), counts_to_values(c)))


def transition_matrix(dice: int = DICE_COUNT) -> FloatArray:
    """Return P[keep, roll]: the chance that holding *keep* and rerolling the rest gives *roll*.

    Rows follow the keeps by size (0 dice first), columns the rolls of *dice* dice. Used
    to check the one-die-at-a-time recursion and by `keep_links`; the solver never builds it.
    """
    tables = dice_tables(dice)
    rows = []
    for level in tables.keeps:
        for keep in level:
            row = np.zeros(len(tables.rolls))
            for rest in _multisets(dice - sum(keep)):
                roll = tuple(a + b for a, b in zip(keep, rest, strict=True))
                row[tables.index[dice][roll]] += multinomial_probability(rest)
            rows.append(row)
    return np.array(rows)


@dataclass(frozen=True)
class KeepLinks:
    """Arrays that evaluate every keep of one state in a few array operations (`keep_rows`).

    For n dice (five: 462 keeps, 252 rolls). ``matrix`` (keeps, rolls) is
    `transition_matrix`: row s is the distribution of the roll that holding keep s
    (keeps of every size laid end to end, sizes 0..n) and rerolling the rest gives.
    ``columns``, ``weights`` and ``starts`` are its nonzero entries row by row for the
    keeps of 0..n-1 dice (210 keeps and 4116 entries for five), row s starting at
    ``starts[s]``; holding n dice is the roll itself. ``sub_rows`` (2**(n-1), keeps of
    n-1 dice) holds, for each keep of n-1 dice (a column), the flat rows of its sub-keeps,
    itself included; ``drop_rows`` (n, rolls), for each roll, the keeps of n-1 dice it
    holds (rows of ``keeps[n-1]``). Both are padded by repetition.
    """

    dice: int
    matrix: FloatArray
    columns: IntArray
    weights: FloatArray
    starts: IntArray
    offsets: tuple[int, ...]  # the flat row of the first keep of each size
    sub_rows: IntArray
    drop_rows: IntArray

    @property
    def rerolled(self) -> int:
        """How many keeps leave dice to reroll (0..n-1 held): 210 for five dice."""
        return self.offsets[self.dice]


@cache
def keep_links(dice: int = DICE_COUNT) -> KeepLinks:
    """Return the (cached) `KeepLinks` of *dice* six-sided dice."""
    tables = dice_tables(dice)
    offsets = tuple(int(n) for n in np.cumsum([0, *(len(level) for level in tables.keeps)]))
    width = 2 ** min(dice - 1, FACE_COUNT)  # n-1 dice show at most n-1 distinct faces
    rows = []
    for keep in tables.keeps[dice - 1]:
        subs = [offsets[size] + row for size, row in map(tables.keep_index, sub_keeps(keep))]
        rows.append((subs * width)[:width])  # pad by repetition: max() ignores duplicates
    matrix = transition_matrix(dice)
    matrix.setflags(write=False)
    keeps, columns = np.nonzero(matrix[: offsets[dice]])
    starts = np.searchsorted(keeps, np.arange(offsets[dice]))
    return KeepLinks(dice, matrix, columns, matrix[keeps, columns], starts, offsets,
                     sub_rows=np.ascontiguousarray(np.array(rows, dtype=np.intp).T),
                     drop_rows=np.ascontiguousarray(tables.remove[dice].T))


def flat_keep_row(counts: Counts, dice: int = DICE_COUNT) -> int:
    """Return the row of a keep (given as counts) among the keeps of every size."""
    size, row = dice_tables(dice).keep_index(counts)
    return keep_links(dice).offsets[size] + row


def dice_of_rolls(count: int) -> int:
    """Return n, the dice count whose distinct rolls number *count* (252: 5, 462: 6).

    Raises ValueError for a count of no dice count.
    """
    for dice in range(16):
        if math.comb(dice + FACE_COUNT - 1, dice) == count:
            return dice
    raise ValueError(f"no number of dice makes {count} distinct rolls")


def dice_of_keeps(count: int) -> int:
    """Return n, the dice count whose keeps of 0..n dice number *count* (462: 5, 924: 6).

    Raises ValueError for a count of no dice count.
    """
    for dice in range(16):
        if math.comb(dice + FACE_COUNT, dice) == count:  # multisets of 6 faces and a blank
            return dice
    raise ValueError(f"no number of dice makes {count} keeps")


def _links_of(rolls: FloatArray) -> KeepLinks:
    """Return the `KeepLinks` of the dice whose rolls *rolls* values (its length says)."""
    return keep_links(dice_of_rolls(len(rolls)))


def reroll_rows(rolls: FloatArray) -> FloatArray:
    """Return the value of holding each keep of 0..n-1 dice and rerolling the rest.

    *rolls* (rolls,) is the value of each outcome of n dice. Each keep's sum runs over
    its own outcomes only (a sparse product), in one reduction.
    """
    links = _links_of(rolls)
    products = rolls.take(links.columns)
    products *= links.weights
    values: FloatArray = np.add.reduceat(products, links.starts)
    return values


def keep_rows(rolls: FloatArray, rows: IntArray | None = None) -> FloatArray:
    """Return the value of holding each keep of flat *rows* (default all) and rerolling.

    *rolls* (rolls,) is the value of each outcome of n dice.
    """
    if rows is not None:
        chosen: FloatArray = _links_of(rolls).matrix.take(rows, axis=0) @ rolls
        return chosen
    return np.concatenate((reroll_rows(rolls), rolls))  # holding n dice: the roll itself


def best_rolls(keeps: FloatArray) -> FloatArray:
    """Return (rolls,): each roll's value when the best of its sub-keeps (or stopping) is
    held; *keeps* is the value of every keep (`keep_rows`).
    """
    links = keep_links(dice_of_keeps(len(keeps)))
    return _best_sub_keeps(keeps[: links.rerolled], keeps[links.rerolled :])


def reroll_best(rolls: FloatArray) -> FloatArray:
    """Return (rolls,): each roll's value with one more roll to come, the best keep held
    (or stopping); *rolls* is the value of each roll with none to come.

    The same values as ``best_rolls(keep_rows(rolls))``.
    """
    return _best_sub_keeps(reroll_rows(rolls), rolls)


def _best_sub_keeps(rerolls: FloatArray, rolls: FloatArray) -> FloatArray:
    """Return per roll the largest of its value in *rolls* and, in *rerolls*, those of
    its keeps of 0..n-1 dice.

    Every smaller keep of a roll is a keep of n-1 of its dice or lies in one, so the best
    keep within each keep of n-1 dice is found first (126 of them for five), then per roll.
    """
    links = _links_of(rolls)
    within = rerolls.take(links.sub_rows).max(axis=0)
    best: FloatArray = within.take(links.drop_rows).max(axis=0)
    return np.maximum(best, rolls, out=best)

"""Play many games with the table's optimal policy, all at once, and check its expected score.

``python -m scorekeeper.advisor.simulate --rules maxi-yatzy --games 100000 --seed 1``

Every game of a chunk plays the same turn at the same time (arrays over games): three
rolls a turn (no saved rolls: the game of the table), the best keep before rolls 2
and 3 and the best box after roll 3, each read from the table exactly as the solve
worked them out (`turn` and `final` over the games' own states). It prints the mean
final score, its standard deviation, the standard error of the mean and whether the
table's expected score lies within 3 standard errors of the mean (exit status 1 when
not). Rule sets with a Joker or Yahtzee bonuses are not covered (`AdvisorError`).
A tool that only measures: nothing a player runs imports it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.cache import solve
from scorekeeper.advisor.final import move_rows, next_rows
from scorekeeper.advisor.ruletables import RuleTables
from scorekeeper.advisor.solver import AdvisorError, Table
from scorekeeper.advisor.tables import FACE_COUNT, dice_tables, flat_keep_row, sub_keeps
from scorekeeper.advisor.turn import Batch, best_roll_values, final_values, keep_values
from scorekeeper.rulesets import Joker, ruleset

IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]
_NEG = -np.inf


@dataclass(frozen=True)
class Dice:
    """Rolls and keeps of n dice as arrays: how a game's dice are held and looked up."""

    dice: int
    roll_of_code: IntArray  # roll row of each counts code (sum of counts[f] * (n+1)**f)
    sub_rows: IntArray  # (rolls, 2**n) flat keep rows of each roll's sub-keeps, padded
    keep_counts: IntArray  # (keeps, 6) the counts of each flat keep row


@cache
def dice_arrays(dice: int) -> Dice:
    """Return the (cached) `Dice` arrays of *dice* dice."""
    tables = dice_tables(dice)
    weights = (dice + 1) ** np.arange(FACE_COUNT)
    roll_of_code = np.full((dice + 1) ** FACE_COUNT, -1, dtype=np.intp)
    roll_of_code[tables.face_count @ weights] = np.arange(len(tables.rolls))
    width = 2 ** min(dice, FACE_COUNT)
    rows = []
    for roll in tables.rolls:
        subs = [flat_keep_row(keep, dice) for keep in sub_keeps(roll)]
        rows.append((subs * width)[:width])  # padded by repetition: argmax unchanged
    keeps = np.array([keep for level in tables.keeps for keep in level], dtype=np.intp)
    return Dice(dice, roll_of_code, np.array(rows, dtype=np.intp), keeps)


def _throw(rng: np.random.Generator, held: IntArray, dice: int) -> IntArray:
    """Return (G, 6) counts: each game's *held* counts plus its other dice thrown anew."""
    faces = rng.integers(0, FACE_COUNT, size=(held.shape[0], dice))
    thrown = np.arange(dice)[None, :] < (dice - held.sum(axis=1))[:, None]
    new = (faces[:, :, None] == np.arange(FACE_COUNT)[None, None, :]) & thrown[:, :, None]
    counts: IntArray = held + new.sum(axis=1)
    return counts


def _roll_rows(arrays: Dice, counts: IntArray) -> IntArray:
    rows: IntArray = arrays.roll_of_code[counts @ ((arrays.dice + 1) ** np.arange(FACE_COUNT))]
    return rows


def _best_keep(arrays: Dice, keeps: FloatArray, rolls: IntArray) -> IntArray:
    """Return (G, 6): the counts of each game's best keep of its roll; *keeps* (keeps, G)."""
    games = np.arange(rolls.shape[0])
    candidates = arrays.sub_rows[rolls]  # (G, 2**n)
    chosen = candidates[games, keeps[candidates, games[:, None]].argmax(axis=1)]
    best: IntArray = arrays.keep_counts[chosen]
    return best


def _best_box(rt: RuleTables, values: FloatArray, batch: Batch, rolls: IntArray) -> IntArray:
    """Return (G,): each game's best box for its final roll (as the solve chose it)."""
    index, allowed = next_rows(rt, batch)
    after = np.where(allowed, values.reshape(-1)[index], _NEG)  # (moves, G)
    games = np.arange(batch.size)
    moves = move_rows(rt)[:, rolls]  # (boxes, G)
    worth = after[moves, games[None, :]] + rt.points[:, rolls]
    boxes: IntArray = worth.argmax(axis=0)
    return boxes


def _turn(rt: RuleTables, table: Table, state: tuple[IntArray, IntArray, IntArray],
          rng: np.random.Generator) -> None:
    """Play one turn of every game of *state* (masks, ups, scores), in place."""
    masks, ups, scores = state
    batch = Batch(masks, ups, np.zeros_like(masks))
    arrays = dice_arrays(rt.dice)
    last = final_values(rt, table.values, batch)
    one_left = keep_values(last)
    two_left = keep_values(best_roll_values(one_left))
    held = np.zeros((batch.size, FACE_COUNT), dtype=np.intp)
    for levels in (two_left, one_left):
        rolls = _roll_rows(arrays, _throw(rng, held, rt.dice))
        held = _best_keep(arrays, np.concatenate(levels), rolls)
    rolls = _roll_rows(arrays, _throw(rng, held, rt.dice))
    boxes = _best_box(rt, table.values, batch, rolls)
    moves = move_rows(rt)[boxes, rolls]
    scores += rt.points[boxes, rolls]
    np.minimum(ups + rt.moves.up_add[moves], rt.cap, out=ups)
    masks |= 1 << boxes


def play(table: Table, games: int, seed: int, chunk: int = 2048) -> IntArray:
    """Return the final scores of *games* games played with *table*'s policy (seeded).

    Raises AdvisorError for a rule set with a Joker or Yahtzee bonuses.
    """
    rt = table.tables
    if rt.rules.joker is not Joker.NONE or rt.tracks_bonus:
        raise AdvisorError(f"{rt.rules.name} is not simulated: Joker rules and Yahtzee "
                           "bonuses are not covered")
    rng = np.random.default_rng(seed)
    finals = []
    for start in range(0, games, chunk):
        size = min(chunk, games - start)
        state = (np.zeros(size, dtype=np.intp), np.zeros(size, dtype=np.intp),
                 np.zeros(size, dtype=np.intp))
        for _turn_number in range(rt.box_count):
            _turn(rt, table, state, rng)
        bonus = rt.terminal_value(state[1]).astype(np.intp)
        finals.append(state[2] + bonus)
    return np.concatenate(finals)


@dataclass(frozen=True)
class Check:
    """A simulation's figures beside the table's expected score."""

    games: int
    mean: float
    sd: float
    expected: float

    @property
    def se(self) -> float:
        """The standard error of the mean."""
        return self.sd / math.sqrt(self.games)

    @property
    def z(self) -> float:
        """How many standard errors the table's expected score lies from the mean."""
        return (self.expected - self.mean) / self.se if self.se else math.inf

    @property
    def within(self) -> bool:
        """Whether the table's expected score lies within 3 standard errors of the mean."""
        return abs(self.z) <= 3


def check(table: Table, games: int, seed: int, chunk: int = 2048) -> Check:
    """Return the simulation of *games* games beside *table*'s expected score."""
    scores = play(table, games, seed, chunk).astype(np.float64)
    sd = float(scores.std(ddof=1)) if games > 1 else 0.0
    return Check(games, float(scores.mean()), sd, table.expected_score)


def main(argv: list[str] | None = None) -> int:
    """Simulate, print the figures; return 0 when the table's score is within 3 SE, else 1."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yatzy")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=2048, help="games played at once")
    args = parser.parse_args(argv)
    table = solve(ruleset(args.rules))
    start = time.perf_counter()
    result = check(table, args.games, args.seed, args.chunk)
    seconds = time.perf_counter() - start
    print(f"{table.rules.name}: {result.games:,} games (seed {args.seed}) in {seconds:.1f} s")
    print(f"mean {result.mean:.4f}, SD {result.sd:.4f}, standard error {result.se:.4f}")
    verdict = "within" if result.within else "NOT within"
    print(f"table's expected score {result.expected:.7f}: {result.z:+.2f} SE from the mean, "
          f"{verdict} 3 standard errors")
    return 0 if result.within else 1


if __name__ == "__main__":
    sys.exit(main())

"""Backward induction over every reachable turn-start state of one player's game.

States are solved level by level, from the complete card (only the upper bonus
still to add) down to the empty card; all states of a level depend only on the
level above, so each level is cut into batches solved by `turn.turn_values`,
two at a time on two threads (numpy releases the GIL in the heavy loops).

A `Plan` says how: five-dice games solve every reachable state in batches of 256,
exactly as their published tables were solved (a value's last bits depend on the
batch it was solved in); games of more dice (Maxi Yatzy: 57.5 million reachable
states) solve only the upper subtotals that still matter and copy the others
(`upper`), in batches sized for the CPU caches. `build` reports its progress.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.final import BoxRolls, box_rolls
from scorekeeper.advisor.ruletables import RuleTables, card_state, rule_tables
from scorekeeper.advisor.turn import Batch, turn_values
from scorekeeper.advisor.upper import UpperClasses, spread_dead, upper_classes
from scorekeeper.dice import DICE_COUNT
from scorekeeper.errors import RulesError
from scorekeeper.rulesets import RuleSet, ruleset
from scorekeeper.scorecard import Scorecard

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]

ALGORITHM_VERSION = 1  # bump whenever the values a table holds could change
BATCH_STATES = 256  # columns per batch of five dice: keeps the working arrays in the CPU caches
MANY_DICE_BATCH = 128  # columns per batch of six dice (rows of 462 rolls: half as many fit)
GROUP_BATCHES = 16  # batches of one level in memory at a time
LAZY_BYTES = 1 << 26  # value arrays larger than this start as zeros, not NaN (see `blank`)


class AdvisorError(RulesError):
    """A card or choice the advisor cannot evaluate; the message quotes it."""


class UnreachableCardError(AdvisorError):
    """A card no game under these rules can reach (so the table has no value for it)."""


@dataclass(frozen=True, eq=False)
class Table:
    """Turn-start values of every reachable state of one rule set (read-only, shareable).

    ``values[mask, up, flag]`` is the expected number of points still to come
    (upper bonus and Yahtzee bonuses included) when a turn starts there; for states
    no game reaches NaN, or 0 in arrays of more than 64 MiB (Maxi Yatzy): never written,
    so that the memory of masks no game reaches, e.g. all but 21 of Maxi Yatzy's 2**20
    in order, is never touched; `RuleTables.reaches` says which states are reached.
    """

    rules: RuleSet
    values: FloatArray = field(repr=False)

    def __post_init__(self) -> None:
        self.values.setflags(write=False)  # one table may serve many requests at once

    @cached_property
    def tables(self) -> RuleTables:
        """The rule arrays this table was solved with."""
        return rule_tables(self.rules)

    @cached_property
    def box_rolls(self) -> BoxRolls:
        """The per-box arrays that advice on one card reads (see `final.state_final_values`)."""
        return box_rolls(self.rules)

    @property
    def expected_score(self) -> float:
        """Expected final score of a whole game played optimally from the empty card."""
        return float(self.values[0, 0, 0])

    def future(self, card: Scorecard) -> float:
        """Return the expected points still to come at the start of *card*'s next turn.

        Raises AdvisorError for a card of another rule set, UnreachableCardError for
        a card no game reaches (e.g. 7 in Twos).
        """
        if card.rules.name != self.rules.name:
            raise AdvisorError(
                f"a {card.rules.name!r} card cannot be read with a {self.rules.name!r} table"
            )
        state = card_state(self.tables, card)
        value = float(self.values[state])
        complete = state[0] == self.tables.full_mask  # every subtotal has its bonus there
        if np.isnan(value) or not (complete or self.tables.reaches(state)):
            raise UnreachableCardError(
                f"no {self.rules.name} game reaches this card: {card.boxes()}"
            )
        return value

    def value(self, card: Scorecard) -> float:
        """Return the expected final score of *card* with optimal play from its next turn.

        Raises AdvisorError or UnreachableCardError (see `future`).
        """
        return banked(card) + self.future(card)


def banked(card: Scorecard) -> int:
    """Return the points already on *card*, the upper bonus excepted (a table counts it)."""
    return card.upper_subtotal + card.lower_total


@dataclass(frozen=True)
class Plan:
    """How a rule set is solved: the columns of a batch and whether dead subtotals are
    skipped (worked out once per mask, see `upper`)."""

    batch_states: int
    skip_dead: bool


def plan_for(rt: RuleTables) -> Plan:
    """Return the `Plan` of *rt*: five dice as published, more dice the fast way."""
    if rt.dice == DICE_COUNT:
        return Plan(BATCH_STATES, skip_dead=False)
    return Plan(MANY_DICE_BATCH, skip_dead=True)


@dataclass(frozen=True)
class Progress:
    """How far a build has come: states worked out of the total, and the time so far."""

    rules: str
    level: int  # boxes filled in the states now being solved (from box_count - 1 down to 0)
    levels: int  # the rule set's box count
    done: int
    total: int
    seconds: float

    @property
    def remaining(self) -> float | None:
        """Seconds still to go at the pace so far, or None before any state is done."""
        if not self.done:
            return None
        return self.seconds * (self.total - self.done) / self.done


    def describe(self, width: int = 24) -> str:
        """Return one line: a bar, states done of the total, the level, the time so far and
        the time still to go at the pace so far."""
        share = self.done / self.total if self.total else 1.0
        filled = int(share * width)
        left = self.remaining
        eta = "ETA --:--:--" if left is None else f"ETA {_clock(left)}"
        return (f"{self.rules} [{'#' * filled}{'.' * (width - filled)}] {100 * share:5.1f}% "
                f"{self.done:,}/{self.total:,} states, level {self.level} "
                f"({self.levels - self.level} of {self.levels}), "
                f"{_clock(self.seconds)} so far, {eta}")


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes // 60}:{minutes % 60:02d}:{seconds:02d}"


ProgressHook = Callable[[Progress], None]


def every(seconds: float, show: Callable[[str], None]) -> ProgressHook:
    """Return a progress hook that shows a line at most every *seconds* (and the last)."""
    shown = [-seconds]

    def hook(progress: Progress) -> None:
        if progress.seconds - shown[0] >= seconds or progress.done == progress.total:
            shown[0] = progress.seconds
            show(progress.describe())

    return hook


def _popcounts(rt: RuleTables) -> IntArray:
    masks = np.arange(1 << rt.box_count, dtype=np.intp)
    popcount = np.zeros(masks.shape, dtype=np.intp)
    for b in range(rt.box_count):
        popcount += (masks >> b) & 1
    return popcount


def _level_masks(rt: RuleTables, popcount: IntArray, level: int) -> IntArray:
    """Return the reachable masks with *level* boxes filled, ascending."""
    masks = np.arange(1 << rt.box_count, dtype=np.intp)
    rows: IntArray = masks[(popcount == level) & rt.mask_reachable]
    return rows


def _valid(rt: RuleTables, classes: UpperClasses | None, rows: IntArray) -> BoolArray:
    """Return (masks, cap + 1, flags): the states of masks *rows* to work out."""
    ups = rt.up_reachable[rows]
    if classes is not None:
        ups &= classes.kept[classes.subset[rows]]
    flag_ok = np.ones((rows.shape[0], rt.flags), dtype=np.bool_)
    if rt.tracks_bonus:
        flag_ok[:, 1] = (rows >> rt.five_box) & 1 == 1
    valid: BoolArray = ups[:, :, None] & flag_ok[:, None, :]
    return valid


def _states(rt: RuleTables, classes: UpperClasses | None, rows: IntArray) -> Batch:
    """Return the states of the masks *rows* to work out, by mask, then subtotal, then flag."""
    which, ups, flags = np.nonzero(_valid(rt, classes, rows))
    return Batch(rows[which], ups.astype(np.intp), flags.astype(np.intp))


def _join(first: Batch, second: Batch) -> Batch:
    return Batch(*(np.concatenate(pair) for pair in (
        (first.masks, second.masks), (first.ups, second.ups), (first.flags, second.flags))))


def _cut(states: Batch, start: int, stop: int) -> Batch:
    return Batch(states.masks[start:stop], states.ups[start:stop], states.flags[start:stop])


def _level_batches(rt: RuleTables, plan: Plan, rows: IntArray) -> Iterator[list[Batch]]:
    """Yield the states of the masks *rows* (one level) to work out, a few batches at a time.

    The batches are the level's states in order cut every ``plan.batch_states``, whatever
    the grouping (so a table is the same bit for bit), and only one group of about
    GROUP_BATCHES batches is in memory at a time, however large the level.
    """
    classes = upper_classes(rt.rules) if plan.skip_dead else None
    size = plan.batch_states
    per_group = max(1, GROUP_BATCHES * size // ((rt.cap + 1) * rt.flags))
    pending = _states(rt, classes, rows[:0])
    for i in range(0, rows.shape[0], per_group):
        pending = _join(pending, _states(rt, classes, rows[i : i + per_group]))
        whole = pending.size - pending.size % size
        yield [_cut(pending, j, j + size) for j in range(0, whole, size)]
        pending = _cut(pending, whole, pending.size)
    if pending.size:
        yield [pending]


def state_counts(rt: RuleTables, plan: Plan) -> IntArray:
    """Return per level (boxes filled) how many states a build under *plan* works out."""
    classes = upper_classes(rt.rules) if plan.skip_dead else None
    popcount = _popcounts(rt)
    counts = np.zeros(rt.box_count + 1, dtype=np.intp)
    masks = np.flatnonzero(rt.mask_reachable)
    for start in range(0, masks.shape[0], 1 << 16):
        rows = masks[start : start + (1 << 16)]
        per_mask = _valid(rt, classes, rows).sum(axis=(1, 2))
        np.add.at(counts, popcount[rows], per_mask)
    return counts


def _threads() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def blank(rt: RuleTables) -> FloatArray:
    """Return a value array of *rt*'s shape before a solve: NaN, or zeros when it is
    larger than LAZY_BYTES (their memory is only taken where written, see `Table`)."""
    if np.prod(rt.shape) * np.dtype(np.float64).itemsize > LAZY_BYTES:
        return np.zeros(rt.shape)
    return np.full(rt.shape, np.nan)


def sweep(rt: RuleTables, target: FloatArray, solve_batch: Callable[[Batch], FloatArray],
          progress: ProgressHook | None = None) -> None:
    """Fill *target* (the table's shape, the complete card already set) level by level,
    from the last box down to the empty card: ``solve_batch(batch)`` gives the values of
    a batch of states, reading *target*'s levels above. Two batches run at a time.
    """
    plan = plan_for(rt)
    total, done = int(state_counts(rt, plan)[: rt.box_count].sum()), 0
    start, popcount = time.perf_counter(), _popcounts(rt)

    def report(level: int) -> None:
        if progress is not None:
            progress(Progress(rt.rules.name, level, rt.box_count, done, total,
                              time.perf_counter() - start))

    report(rt.box_count - 1)
    with ThreadPoolExecutor(max_workers=_threads()) as pool:
        for level in range(rt.box_count - 1, -1, -1):
            rows = _level_masks(rt, popcount, level)
            for batches in _level_batches(rt, plan, rows):
                for batch, result in zip(batches, pool.map(solve_batch, batches), strict=True):
                    target[batch.masks, batch.ups, batch.flags] = result
                    done += batch.size
                report(level)
            if plan.skip_dead:
                spread_dead(upper_classes(rt.rules), rt, target, rows)


def build(rules: RuleSet | str, progress: ProgressHook | None = None) -> Table:
    """Solve *rules* from scratch and return its table (no cache involved).

    *progress*, when given, is called at the start and after each group of batches.
    Raises RuleSetError for an unknown rule-set name.
    """
    rules = ruleset(rules) if isinstance(rules, str) else rules
    rt = rule_tables(rules)
    values = blank(rt)
    ups = np.arange(rt.cap + 1)
    values[rt.full_mask, :, :] = rt.terminal_value(ups)[:, None]

    def solve_batch(batch: Batch) -> FloatArray:
        return turn_values(rt, values, batch)

    sweep(rt, values, solve_batch, progress)
    return Table(rules, values)

"""Backward induction over every reachable turn-start state of one player's game.

States are solved level by level, from the complete card (only the upper bonus
still to add) down to the empty card; all states of a level depend only on the
level above, so each level is cut into batches solved by `turn.turn_values`,
two at a time on two threads (numpy releases the GIL in the heavy loops).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.final import BoxRolls, box_rolls
from scorekeeper.advisor.ruletables import RuleTables, card_state, rule_tables
from scorekeeper.advisor.turn import Batch, turn_values
from scorekeeper.errors import RulesError
from scorekeeper.rulesets import RuleSet, ruleset
from scorekeeper.scorecard import Scorecard

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

ALGORITHM_VERSION = 1  # bump whenever the values a table holds could change
BATCH_STATES = 256  # columns per batch: keeps the working arrays in the CPU caches
GROUP_STATES = 16 * BATCH_STATES  # states of one level in memory at a time


class AdvisorError(RulesError):
    """A card or choice the advisor cannot evaluate; the message quotes it."""


class UnreachableCardError(AdvisorError):
    """A card no game under these rules can reach (so the table has no value for it)."""


@dataclass(frozen=True, eq=False)
class Table:
    """Turn-start values of every reachable state of one rule set (read-only, shareable).

    ``values[mask, up, flag]`` is the expected number of points still to come
    (upper bonus and Yahtzee bonuses included) when a turn starts there; NaN for
    states no game reaches.
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
        value = float(self.values[card_state(self.tables, card)])
        if np.isnan(value):
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


def _level_masks(rt: RuleTables, level: int) -> IntArray:
    """Return the reachable masks with *level* boxes filled, ascending."""
    masks = np.arange(1 << rt.box_count, dtype=np.intp)
    popcount = np.zeros(masks.shape, dtype=np.intp)
    for b in range(rt.box_count):
        popcount += (masks >> b) & 1
    rows: IntArray = masks[(popcount == level) & rt.mask_reachable]
    return rows


def _states(rt: RuleTables, rows: IntArray) -> Batch:
    """Return the reachable states of the masks *rows*, by mask, then subtotal, then flag."""
    flag_ok = np.ones((rows.shape[0], rt.flags), dtype=np.bool_)
    if rt.tracks_bonus:
        flag_ok[:, 1] = (rows >> rt.five_box) & 1 == 1
    valid = rt.up_reachable[rows][:, :, None] & flag_ok[:, None, :]
    which, ups, flags = np.nonzero(valid)
    return Batch(rows[which], ups.astype(np.intp), flags.astype(np.intp))


def _join(first: Batch, second: Batch) -> Batch:
    return Batch(*(np.concatenate(pair) for pair in (
        (first.masks, second.masks), (first.ups, second.ups), (first.flags, second.flags))))


def _cut(states: Batch, start: int, stop: int) -> Batch:
    return Batch(states.masks[start:stop], states.ups[start:stop], states.flags[start:stop])


def _level_batches(rt: RuleTables, level: int) -> Iterator[list[Batch]]:
    """Yield the reachable states with *level* boxes filled, a few batches at a time.

    The batches are the level's states in order cut every BATCH_STATES, whatever
    the grouping (so a table is the same bit for bit), and only one group of about
    GROUP_STATES states is in memory at a time, however large the level.
    """
    rows = _level_masks(rt, level)
    per_group = max(1, GROUP_STATES // ((rt.cap + 1) * rt.flags))
    pending = _states(rt, rows[:0])
    for i in range(0, rows.shape[0], per_group):
        pending = _join(pending, _states(rt, rows[i : i + per_group]))
        whole = pending.size - pending.size % BATCH_STATES
        yield [_cut(pending, j, j + BATCH_STATES) for j in range(0, whole, BATCH_STATES)]
        pending = _cut(pending, whole, pending.size)
    if pending.size:
        yield [pending]


def _threads() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def build(rules: RuleSet | str) -> Table:
    """Solve *rules* from scratch and return its table (no cache involved).

    Raises RuleSetError for an unknown rule-set name.
    """
    rules = ruleset(rules) if isinstance(rules, str) else rules
    rt = rule_tables(rules)
    values = np.full(rt.shape, np.nan)
    ups = np.arange(rt.cap + 1)
    values[rt.full_mask, :, :] = rt.terminal_value(ups)[:, None]

    def solve_batch(batch: Batch) -> FloatArray:
        return turn_values(rt, values, batch)

    with ThreadPoolExecutor(max_workers=_threads()) as pool:
        for level in range(rt.box_count - 1, -1, -1):
            for batches in _level_batches(rt, level):
                for batch, result in zip(batches, pool.map(solve_batch, batches), strict=True):
                    values[batch.masks, batch.ups, batch.flags] = result
    return Table(rules, values)

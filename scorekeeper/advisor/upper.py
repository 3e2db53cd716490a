"""Upper subtotals that still matter: which turn-start states share one value.

Once the open upper boxes cannot lift the subtotal to the bonus threshold any more
(even with every die of every open upper box showing its face), the subtotal never
changes what is still to come: every such *dead* subtotal of a card mask has the
value of subtotal 0 (always reachable, and dead too). A solve may therefore work out
only the *kept* subtotals of each mask (the live ones, the capped one and 0) and copy
0's value to the dead ones (`spread_dead`); the cache stores only the kept ones.

Which subtotals are reachable, dead or kept depends on the filled upper boxes only
(one of 64 *subsets*), so the classes are two (64, cap + 1) arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.ruletables import RuleTables, rule_tables
from scorekeeper.advisor.tables import FACE_COUNT
from scorekeeper.rulesets import RuleSet

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

SUBSETS = 1 << FACE_COUNT


@dataclass(frozen=True)
class UpperClasses:
    """The kept and dead upper subtotals of each subset of filled upper boxes."""

    subset: IntArray  # (2**boxes,) bit f set when the upper box of face f+1 is filled
    kept: BoolArray  # (64, cap + 1) reachable subtotals solved and stored
    dead: BoolArray  # (64, cap + 1) reachable subtotals that take subtotal 0's value

    def subset_masks(self, rt: RuleTables, subset: int, masks: IntArray | None = None
                     ) -> IntArray:
        """Return the reachable masks (of *masks*, default all) whose filled upper boxes
        are *subset*, ascending."""
        rows = np.arange(1 << rt.box_count, dtype=np.intp) if masks is None else masks
        chosen: IntArray = rows[(self.subset[rows] == subset) & rt.mask_reachable[rows]]
        return chosen


def _subsets(rt: RuleTables) -> IntArray:
    masks = np.arange(1 << rt.box_count, dtype=np.intp)
    subset = np.zeros(masks.shape, dtype=np.intp)
    for face, box in enumerate(rt.face_boxes):
        subset |= ((masks >> box) & 1) << face
    return subset


@cache
def upper_classes(rules: RuleSet) -> UpperClasses:
    """Return the (cached) `UpperClasses` of *rules*."""
    rt = rule_tables(rules)
    subset = _subsets(rt)
    first_mask = np.zeros(SUBSETS, dtype=np.intp)  # a mask of each subset: the upper boxes
    for s in range(SUBSETS):
        first_mask[s] = sum(1 << box for face, box in enumerate(rt.face_boxes) if s >> face & 1)
    reachable = rt.up_reachable[first_mask]
    faces = np.arange(1, FACE_COUNT + 1)
    open_total = np.array([faces[[not s >> f & 1 for f in range(FACE_COUNT)]].sum()
                           for s in range(SUBSETS)])
    live_from = rt.cap - rt.dice * open_total  # below this the bonus is out of reach
    ups = np.arange(rt.cap + 1)
    dead = reachable & (ups[None, :] < live_from[:, None]) & (ups[None, :] > 0)
    return UpperClasses(subset, reachable & ~dead, dead)


def spread_dead(classes: UpperClasses, rt: RuleTables, values: FloatArray,
                masks: IntArray) -> None:
    """Copy subtotal 0's value of each of *masks* to its dead subtotals, in place."""
    for s in range(SUBSETS):
        dead = np.flatnonzero(classes.dead[s])
        if not dead.size:
            continue
        rows = classes.subset_masks(rt, s, masks)
        values[rows[:, None], dead[None, :]] = values[rows, 0][:, None]


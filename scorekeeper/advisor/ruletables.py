"""A rule set turned into arrays: points per box and roll, open-box masks, reachable states.

A turn-start state is ``(mask, up, flag)``: *mask* has bit b set when box b (in the
rule set's card order) is filled; *up* is the upper subtotal capped at the bonus
threshold (always 0 without an upper bonus); *flag* is 1 when the five-alike box
holds its full 50, so that a further five alike earns the Yahtzee bonus (always 0
without that bonus). Rolls are of the rule set's dice count n (`RuleSet.dice_count`:
five, or six in Maxi Yatzy); "five alike" below means all n dice alike. The tables
follow `Scorecard` exactly:

* candidates: the open boxes, or only the open upper ones under upper-first while
  any is open, or only the first open box in order (`Scorecard._candidates`);
* Joker (five alike with the five-alike box filled): `Scorecard.joker_rule` and
  `legal_boxes` decide the legal boxes, `Scorecard.points_for` the points
  (lower boxes with fixed points score them in full);
* bonus: `Scorecard.bonus_earned`, i.e. five alike while the box holds its maximum.

tests/scorekeeper/test_advisor_tables.py checks these against `Scorecard` on many cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.tables import FACE_COUNT, counts_to_values, dice_tables
from scorekeeper.dice import Dice
from scorekeeper.rulesets import Joker, RuleSet, Section
from scorekeeper.scorecard import Scorecard

IntArray = npt.NDArray[np.intp]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Moves:
    """Filling a box, one row per outcome that decides the next state.

    Box b owns rows ``slices[b]``: the dice count k = 0..n of its face (an upper box,
    worth face*k points), the new flag 0/1 (the tracked five-alike box), else one row.
    """

    boxes: IntArray  # (R,) the box of each row
    up_add: IntArray  # (R,) points of an upper box, added to the upper subtotal too
    flag: IntArray  # (R,) the next flag, or -1 to keep the state's
    slices: tuple[slice, ...]


def _moves(upper_faces: tuple[int, ...], five_box: int, tracks_bonus: bool, dice: int
           ) -> Moves:
    boxes: list[int] = []
    up_add: list[int] = []
    flag: list[int] = []
    slices: list[slice] = []
    for box, face in enumerate(upper_faces):
        start = len(boxes)
        if face:
            outcomes = [(face * k, -1) for k in range(dice + 1)]
        elif box == five_box and tracks_bonus:
            outcomes = [(0, 0), (0, 1)]
        else:
            outcomes = [(0, -1)]
        for add, new_flag in outcomes:
            boxes.append(box)
            up_add.append(add)
            flag.append(new_flag)
        slices.append(slice(start, len(boxes)))
    return Moves(np.array(boxes), np.array(up_add), np.array(flag), tuple(slices))


@dataclass(frozen=True)
class RuleTables:
    """Arrays describing one rule set for the solver (see the module docstring)."""

    rules: RuleSet
    dice: int  # n: the dice of a roll
    box_count: int
    upper_faces: tuple[int, ...]  # face of each box, 0 for a lower box
    five_box: int  # index of the five-alike box (Yahtzee / Yacht)
    cap: int  # the upper bonus threshold, or 0: up runs over 0..cap
    flags: int  # 2 when the Yahtzee bonus is tracked, else 1
    points: IntArray  # (boxes, rolls) points on a card with no Joker
    joker_points: IntArray  # (boxes, 6) points of five (face+1)s under a Joker
    candidates: IntArray  # (2**boxes,) bitmask of the boxes one may fill from mask
    mask_reachable: BoolArray  # (2**boxes,) whether a game can reach this mask
    up_reachable: BoolArray  # (2**boxes, cap + 1) reachable capped upper subtotals
    scoring_rows: tuple[IntArray, ...]  # per box: the rolls making points in it (no Joker)
    moves: Moves  # how filling each box moves the state

    @property
    def face_boxes(self) -> tuple[int, ...]:
        """The box of each face 1..6 (index face-1)."""
        return tuple(self.upper_faces.index(face) for face in range(1, FACE_COUNT + 1))

    @property
    def upper_mask(self) -> int:
        """Bitmask of the upper boxes."""
        return sum(1 << b for b, face in enumerate(self.upper_faces) if face)

    @property
    def full_mask(self) -> int:
        """Bitmask of a complete card."""
        return (1 << self.box_count) - 1

    @property
    def tracks_bonus(self) -> bool:
        """True when the Yahtzee bonus (a flag in the state) is part of the game."""
        return self.flags == 2

    @property
    def shape(self) -> tuple[int, int, int]:
        """Shape of the value array: (masks, up values, flags)."""
        return (1 << self.box_count, self.cap + 1, self.flags)

    def joker_active(self, masks: IntArray) -> BoolArray:
        """Return, per mask, whether five alike would fall under a Joker rule."""
        if self.rules.joker is Joker.NONE:
            return np.zeros(masks.shape, dtype=np.bool_)
        active: BoolArray = (masks >> self.five_box) & 1 == 1
        return active

    def reaches(self, state: tuple[int, int, int]) -> bool:
        """Whether a game reaches the turn-start *state* (mask, up, flag)."""
        mask, up, flag = state
        flag_ok = flag == 0 or (self.tracks_bonus and mask >> self.five_box & 1 == 1)
        return bool(self.mask_reachable[mask] and self.up_reachable[mask, up] and flag_ok)

    def terminal_value(self, up: IntArray) -> FloatArray:
        """Return the points still due on a complete card: the upper bonus if reached."""
        bonus = self.rules.upper_bonus if self.cap else 0
        return np.where(up >= self.cap, float(bonus), 0.0) if self.cap else np.zeros(up.shape)


def _points(rules: RuleSet) -> IntArray:
    rolls = [Dice(counts_to_values(c)) for c in dice_tables(rules.dice_count).rolls]
    return np.array([[c.score(d) for d in rolls] for c in rules.categories], dtype=np.intp)


def _joker_points(rules: RuleSet) -> IntArray:
    table = []
    for category in rules.categories:
        row = []
        for face in range(1, FACE_COUNT + 1):
            fixed = category.section is Section.LOWER and category.joker_points is not None
            points = category.joker_points if fixed else None
            alike = Dice((face,) * rules.dice_count)
            row.append(points if points is not None else category.score(alike))
        table.append(row)
    return np.array(table, dtype=np.intp)


def _candidates(masks: IntArray, upper: int, full: int, rules: RuleSet) -> IntArray:
    open_boxes = ~masks & full
    if rules.in_order:
        first: IntArray = open_boxes & -open_boxes  # the lowest bit: the first open box
        return first
    if not rules.upper_first:
        return open_boxes
    open_upper = open_boxes & upper
    return np.where(open_upper != 0, open_upper, open_boxes)


def _mask_reachable(candidates: IntArray, box_count: int) -> BoolArray:
    """Masks a game reaches: filled one box at a time, each a candidate when filled."""
    masks = np.arange(1 << box_count, dtype=np.intp)
    reach = np.zeros(masks.shape, dtype=np.bool_)
    reach[0] = True
    popcount = np.array([bin(m).count("1") for m in range(1 << box_count)])
    for level in range(1, box_count + 1):
        rows = masks[popcount == level]
        for b in range(box_count):
            has = rows[(rows >> b) & 1 == 1]
            before = has ^ (1 << b)
            reach[has] |= reach[before] & ((candidates[before] >> b) & 1 == 1)
    return reach


def _up_reachable(upper_faces: tuple[int, ...], cap: int, dice: int) -> BoolArray:
    """Reachable capped subtotals per mask: sums of face x (0..n dice) over the filled faces."""
    box_count = len(upper_faces)
    upper = [(b, face) for b, face in enumerate(upper_faces) if face]
    by_subset: dict[int, set[int]] = {0: {0}}
    for subset in range(1, 1 << len(upper)):
        top = subset.bit_length() - 1  # the subset without its highest member came earlier
        face = upper[top][1]
        by_subset[subset] = {
            min(total + face * n, cap)
            for total in by_subset[subset ^ (1 << top)]
            for n in range(dice + 1)
        }
    reach = np.zeros((1 << box_count, cap + 1), dtype=np.bool_)
    masks = np.arange(1 << box_count, dtype=np.intp)
    subset_of_mask = np.zeros(masks.shape, dtype=np.intp)
    for i, (b, _face) in enumerate(upper):
        subset_of_mask |= ((masks >> b) & 1) << i
    for subset, totals in by_subset.items():
        rows = masks[subset_of_mask == subset]
        reach[np.ix_(rows, sorted(totals))] = True
    return reach


@cache
def rule_tables(rules: RuleSet) -> RuleTables:
    """Return the (cached) arrays for *rules*."""
    faces = tuple(c.face or 0 if c.section is Section.UPPER else 0 for c in rules.categories)
    box_count = len(rules.categories)
    cap = rules.upper_bonus_threshold or 0
    upper = sum(1 << b for b, face in enumerate(faces) if face)
    full = (1 << box_count) - 1
    masks = np.arange(1 << box_count, dtype=np.intp)
    candidates = _candidates(masks, upper, full, rules)
    points = _points(rules)
    five_box = rules.slugs.index(rules.five_alike_slug)
    return RuleTables(
        rules=rules,
        dice=rules.dice_count,
        box_count=box_count,
        upper_faces=faces,
        five_box=five_box,
        cap=cap,
        flags=2 if rules.five_alike_bonus else 1,
        points=points,
        joker_points=_joker_points(rules),
        candidates=candidates,
        mask_reachable=_mask_reachable(candidates, box_count),
        up_reachable=_up_reachable(faces, cap, rules.dice_count),
        scoring_rows=tuple(np.flatnonzero(row > 0) for row in points),
        moves=_moves(faces, five_box, bool(rules.five_alike_bonus), rules.dice_count),
    )


def card_state(tables: RuleTables, card: Scorecard) -> tuple[int, int, int]:
    """Return the turn-start state (mask, up, flag) of *card*."""
    mask = sum(1 << b for b, points in enumerate(card.points) if points is not None)
    up = min(card.upper_subtotal, tables.cap)
    five = card.points[tables.five_box]
    full = tables.rules.categories[tables.five_box].max_points
    flag = 1 if tables.tracks_bonus and five == full else 0
    return mask, up, flag

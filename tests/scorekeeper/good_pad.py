"""A Yahtzee pad filled in without a mistake, and copies of it with some rows changed."""

from __future__ import annotations

from typing import Any

from scorekeeper import ruleset
from scorekeeper.audit import Pad

GOOD_BOXES = {
    "aces": 3,
    "twos": 6,
    "threes": 9,
    "fours": 12,
    "fives": 15,
    "sixes": 30,
    "three_of_a_kind": 25,
    "four_of_a_kind": 21,
    "full_house": 25,
    "small_straight": 30,
    "large_straight": 40,
    "yahtzee": 50,
    "chance": 23,
}
GOOD_TOTALS = {
    "upper_subtotal": 75,
    "upper_bonus": 35,
    "upper_total": 110,
    "yahtzee_bonus_checks": 1,
    "yahtzee_bonus": 100,
    "lower_subtotal": 214,
    "lower_total": 314,
    "grand_total": 424,
}


def pad(boxes: dict[str, Any] | None = None, totals: dict[str, Any] | None = None) -> Pad:
    """The good Yahtzee pad with *boxes* and *totals* changed."""
    return Pad(ruleset("yahtzee"), GOOD_BOXES | (boxes or {}), GOOD_TOTALS | (totals or {}))

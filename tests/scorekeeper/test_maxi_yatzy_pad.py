"""The Maxi Yatzy pad: its printed rows, what each box can hold, and its audit."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import Section, ruleset
from scorekeeper.audit import Pad, audit, describe_values, possible_values
from scorekeeper.layout import pad_rows, printed_pad

BOXES = {
    "ones": 4, "twos": 8, "threes": 9, "fours": 16, "fives": 20, "sixes": 30,
    "one_pair": 12, "two_pairs": 20, "three_pairs": 24, "three_of_a_kind": 15,
    "four_of_a_kind": 16, "five_of_a_kind": 0, "small_straight": 15, "large_straight": 20,
    "full_straight": 0, "full_house": 26, "villa": 27, "tower": 22, "chance": 29,
    "maxi_yatzy": 100,
}  # upper 87, lower 326
TOTALS = {"upper_subtotal": 87, "upper_bonus": 100, "grand_total": 513}
CSV = """rules,maxi-yatzy
Ones,4
Twos,8
Threes,9
Fours,16
Fives,20
Sixes,30
Sum,87
Bonus,100
One Pair,12
Two Pairs,20
Three Pairs,24
Three of a Kind,15
Four of a Kind,16
Five of a Kind,0
Small Straight,15
Large Straight,20
Full Straight,0
Full House,26
Villa,27
Tower,22
Chance,29
Maxi Yatzy,100
Total,513
"""


def maxi_pad(totals: dict[str, Any], **boxes: int) -> Pad:
    return Pad(ruleset("maxi-yatzy"), BOXES | boxes, totals)


def test_the_pad_as_printed() -> None:
    rules = ruleset("maxi-yatzy")
    rows = printed_pad(rules)
    assert [(row.key, row.name) for row in rows if row.kind == "total"] == [
        ("upper_subtotal", "Sum"), ("upper_bonus", "Bonus"), ("grand_total", "Total")]
    assert [row.key for row in rows] == [
        *rules.slugs[:6], "upper_subtotal", "upper_bonus", *rules.slugs[6:], "grand_total"]
    assert {row.section for row in rows[:8]} == {Section.UPPER}
    assert {row.marks for row in rows} == {"points"}


def test_rows_a_filled_pad_may_hold_top_to_bottom() -> None:
    rules = ruleset("maxi-yatzy+in-order")
    assert pad_rows(rules) == (
        *rules.slugs[:6], "upper_subtotal", "upper_bonus", "upper_total",
        *rules.slugs[6:], "lower_subtotal", "lower_total", "grand_total",
    )


@pytest.mark.parametrize(
    ("slug", "words"),
    [
        ("ones", "0 to 6"),
        ("sixes", "0, 6, 12, 18, 24, 30 or 36"),
        ("one_pair", "0, 2, 4, 6, 8, 10 or 12"),
        ("two_pairs", "0, 6, 8, 10, 12, 14, 16, 18, 20 or 22"),
        ("three_pairs", "0, 12, 14, 16, 18, 20, 22, 24, 26, 28 or 30"),
        ("three_of_a_kind", "0, 3, 6, 9, 12, 15 or 18"),
        ("four_of_a_kind", "0, 4, 8, 12, 16, 20 or 24"),
        ("five_of_a_kind", "0, 5, 10, 15, 20, 25 or 30"),
        ("small_straight", "0 or 15"),
        ("large_straight", "0 or 20"),
        ("full_straight", "0 or 21"),
        ("full_house", "0, 7, 8, 9, 11 to 24, 26, 27 or 28"),
        ("villa", "0, 9, 12, 15, 18, 21, 24, 27, 30 or 33"),
        ("tower", "0, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32 or 34"),
        ("chance", "6 to 36"),
        ("maxi_yatzy", "0 or 100"),  # no Joker: nothing else
    ],
)
def test_what_each_box_can_hold(slug: str, words: str) -> None:
    assert describe_values(possible_values(ruleset("maxi-yatzy"), slug)) == words


def test_a_pad_typed_with_its_printed_names_adds_up() -> None:
    pad = Pad.from_csv(CSV)
    assert pad.boxes == BOXES
    assert {k: v for k, v in pad.totals.items() if v is not None} == TOTALS
    assert audit(pad) == []


@pytest.mark.parametrize(
    ("totals", "boxes", "found"),
    [
        ({"upper_bonus": 50}, {}, [("upper_bonus", "wrong_bonus", 50, "100")]),
        ({"upper_subtotal": 83, "grand_total": 409}, {"fours": 12},
         [("upper_bonus", "wrong_bonus", 100, "0")]),  # 83: no bonus
        ({"upper_subtotal": 63, "grand_total": 489}, {},
         [("upper_subtotal", "wrong_total", 63, "87"),
          ("grand_total", "carried_total", 489, "513")]),
        ({"grand_total": 500}, {}, [("grand_total", "wrong_total", 500, "513")]),
        ({}, {"villa": 26}, [("villa", "impossible_value", 26,
                              "0, 9, 12, 15, 18, 21, 24, 27, 30 or 33")]),
        ({}, {"maxi_yatzy": 50}, [("maxi_yatzy", "impossible_value", 50, "0 or 100")]),
    ],
)
def test_problems_of_a_maxi_yatzy_pad(
    totals: dict[str, int], boxes: dict[str, int], found: list[tuple[Any, ...]]
) -> None:
    problems = audit(maxi_pad(TOTALS | totals, **boxes))
    assert [(p.row, p.code, p.written, p.expected) for p in problems] == found


def test_the_bonus_message_names_a_hundred_at_eighty_four() -> None:
    [problem] = audit(maxi_pad(TOTALS | {"upper_bonus": 50}))
    assert problem.message == ("Upper bonus: 50 is written, but it should be 100 "
                               "(the upper boxes add up to 87, 84 or more).")

"""The Scandinavian Yatzy pad: its printed rows, what each box can hold, and its audit."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import Section, ruleset
from scorekeeper.audit import Pad, PadFormatError, audit, describe_values, possible_values
from scorekeeper.layout import pad_rows, printed_pad

BOXES = {
    "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 24,
    "one_pair": 12, "two_pairs": 18, "three_of_a_kind": 15, "four_of_a_kind": 16,
    "small_straight": 15, "large_straight": 0, "full_house": 26, "chance": 23, "yatzy": 50,
}  # upper 69, lower 175
CSV = """rules,yatzy
Ones,3
Twos,6
Threes,9
Fours,12
Fives,15
Sixes,24
Sum,69
Bonus,50
One Pair,12
Two Pairs,18
Three of a Kind,15
Four of a Kind,16
Small Straight,15
Large Straight,0
Full House,26
Chance,23
Yatzy,50
Total,294
"""


def yatzy_pad(totals: dict[str, Any], **boxes: int) -> Pad:
    return Pad(ruleset("yatzy"), BOXES | boxes, totals)


def test_the_pad_as_printed() -> None:
    rows = printed_pad(ruleset("yatzy"))
    assert [(row.key, row.name) for row in rows if row.kind == "total"] == [
        ("upper_subtotal", "Sum"), ("upper_bonus", "Bonus"), ("grand_total", "Total")]
    assert [row.key for row in rows] == [
        *ruleset("yatzy").slugs[:6], "upper_subtotal", "upper_bonus",
        *ruleset("yatzy").slugs[6:], "grand_total"]
    assert {row.section for row in rows[:8]} == {Section.UPPER}
    assert {row.marks for row in rows} == {"points"}


def test_rows_a_filled_pad_may_hold_top_to_bottom() -> None:
    assert pad_rows(ruleset("yatzy+fh5")) == (
        "ones", "twos", "threes", "fours", "fives", "sixes",
        "upper_subtotal", "upper_bonus", "upper_total",
        "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
        "large_straight", "full_house", "chance", "yatzy",
        "lower_subtotal", "lower_total", "grand_total",
    )


@pytest.mark.parametrize(
    ("name", "slug", "words"),
    [
        ("yatzy", "sixes", "0, 6, 12, 18, 24 or 30"),
        ("yatzy", "one_pair", "0, 2, 4, 6, 8, 10 or 12"),
        ("yatzy", "two_pairs", "0, 6, 8, 10, 12, 14, 16, 18, 20 or 22"),
        ("yatzy+tp4", "two_pairs", "0, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22 or 24"),
        ("yatzy", "three_of_a_kind", "0, 3, 6, 9, 12, 15 or 18"),
        ("yatzy", "four_of_a_kind", "0, 4, 8, 12, 16, 20 or 24"),
        ("yatzy", "small_straight", "0 or 15"),
        ("yatzy", "large_straight", "0 or 20"),
        ("yatzy", "full_house", "0, 7, 8, 9, 11 to 24, 26, 27 or 28"),
        ("yatzy+fh5", "full_house", "0, 5, 7 to 28 or 30"),
        ("yatzy", "chance", "5 to 30"),
        ("yatzy", "yatzy", "0 or 50"),  # no Joker: nothing else
    ],
)
def test_what_each_box_can_hold(name: str, slug: str, words: str) -> None:
    assert describe_values(possible_values(ruleset(name), slug)) == words


def test_a_pad_typed_with_its_printed_names_adds_up() -> None:
    pad = Pad.from_csv(CSV)
    assert pad.boxes == BOXES
    assert {k: v for k, v in pad.totals.items() if v is not None} == {
        "upper_subtotal": 69, "upper_bonus": 50, "grand_total": 294}
    assert audit(pad) == []


@pytest.mark.parametrize(
    ("totals", "boxes", "found"),
    [
        ({"upper_bonus": 35}, {}, [("upper_bonus", "wrong_bonus", 35, "50")]),
        ({"upper_subtotal": 57, "grand_total": 232}, {"sixes": 12},
         [("upper_bonus", "wrong_bonus", 50, "0")]),  # 57: no bonus
        ({"upper_subtotal": 63, "grand_total": 288}, {},
         [("upper_subtotal", "wrong_total", 63, "69"),
          ("grand_total", "carried_total", 288, "294")]),
        ({"grand_total": 300}, {}, [("grand_total", "wrong_total", 300, "294")]),
        ({}, {"two_pairs": 24}, [("two_pairs", "impossible_value", 24,
                                   "0, 6, 8, 10, 12, 14, 16, 18, 20 or 22")]),
        ({}, {"three_of_a_kind": 17}, [("three_of_a_kind", "impossible_value", 17,
                                         "0, 3, 6, 9, 12, 15 or 18")]),
    ],
)
def test_problems_of_a_yatzy_pad(
    totals: dict[str, int], boxes: dict[str, int], found: list[tuple[Any, ...]]
) -> None:
    pad = yatzy_pad({"upper_subtotal": 69, "upper_bonus": 50, "grand_total": 294} | totals,
                    **boxes)
    problems = audit(pad)
    assert [(p.row, p.code, p.written, p.expected) for p in problems] == found


def test_the_bonus_message_names_fifty() -> None:
    [problem] = audit(yatzy_pad({"upper_bonus": 35}))
    assert problem.message == ("Upper bonus: 35 is written, but it should be 50 "
                               "(the upper boxes add up to 69, 63 or more).")


def test_a_yatzy_pad_has_no_yahtzee_bonus_rows() -> None:
    with pytest.raises(PadFormatError,
                       match=r"^yatzy has no Yahtzee bonus rows, but the pad has 'yahtzee_bonus_"):
        Pad.from_csv("rules,yatzy\nyahtzee_bonus_checks,1\n")

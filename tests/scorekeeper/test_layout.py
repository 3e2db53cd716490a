"""The printed pad, row by row, for every rule set."""

from __future__ import annotations

import pytest

from scorekeeper import RULESET_NAMES, Section, ruleset
from scorekeeper.layout import PadRow, pad_rows, printed_name, printed_pad, total_keys


def test_the_yahtzee_pad_as_printed() -> None:
    rows = printed_pad(ruleset("yahtzee"))
    assert [row.key for row in rows] == [
        "aces", "twos", "threes", "fours", "fives", "sixes",
        "upper_subtotal", "upper_bonus", "upper_total",
        "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
        "large_straight", "yahtzee", "chance",
        "yahtzee_bonus", "lower_total", "upper_total", "grand_total",
    ]
    bonus = next(row for row in rows if row.key == "yahtzee_bonus")
    assert bonus == PadRow("total", "yahtzee_bonus", Section.LOWER, "Yahtzee bonus", "checks",
                           "yahtzee_bonus_checks")
    assert {row.marks for row in rows if row is not bonus} == {"points"}
    assert rows[6].to_dict() == {"kind": "total", "key": "upper_subtotal", "section": "upper",
                                 "name": "Total score", "marks": "points", "count_key": None}


def test_the_yacht_pad_has_no_bonus_rows() -> None:
    keys = [row.key for row in printed_pad(ruleset("yacht"))]
    assert keys[6] == "upper_total" and "upper_bonus" not in keys
    assert keys[-3:] == ["lower_total", "upper_total", "grand_total"]
    assert "yahtzee_bonus" not in keys


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_pad_rows_hold_every_box_and_total_once(name: str) -> None:
    rules = ruleset(name)
    rows = pad_rows(rules)
    assert len(rows) == len(set(rows)) == len(rules.slugs) + len(total_keys(rules))
    assert set(rows) == {*rules.slugs, *total_keys(rules)}
    printed = [row.key for row in printed_pad(rules)]
    assert [key for key in rows if key in printed] == list(dict.fromkeys(printed))
    assert all(row.name == printed_name(rules, row.key)
               for row in printed_pad(rules) if row.kind == "total")

"""audit: reading pads from dicts, JSON and CSV, and refusing malformed ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from good_pad import GOOD_BOXES, GOOD_TOTALS, pad

from scorekeeper import RuleSetError, ruleset
from scorekeeper.audit import Pad, PadFormatError

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_from_dict_with_rules_given_by_the_caller() -> None:
    read = Pad.from_dict({"boxes": GOOD_BOXES, "totals": GOOD_TOTALS}, rules="yahtzee")
    assert read == pad()
    assert Pad.from_dict(read.to_dict()) == read
    assert json.loads(json.dumps(read.to_dict()))["totals"]["grand_total"] == 424


def test_missing_rows_are_blank() -> None:
    read = Pad.from_dict({"rules": "yacht", "boxes": {"yacht": 50}})
    assert read.boxes["yacht"] == 50
    assert read.boxes["ones"] is None
    assert set(read.totals) == {
        "upper_subtotal",
        "upper_total",
        "lower_subtotal",
        "lower_total",
        "grand_total",
    }
    assert set(read.totals.values()) == {None}


def test_printed_names_are_accepted() -> None:
    text = (
        "Row,Value\n3 OF A KIND,25\nFull-House,25\nones,3\n"
        "Total of upper section,110\nGrand Total,7\n"
    )
    read = Pad.from_csv(text, rules="yahtzee")
    assert read.boxes["three_of_a_kind"] == 25
    assert read.boxes["full_house"] == 25
    assert read.boxes["aces"] == 3
    assert read.totals["upper_total"] == 110
    assert read.totals["grand_total"] == 7


def test_csv_comments_blank_values_and_check_marks() -> None:
    text = "# my pad\n\nrules,yahtzee\naces,\nyahtzee,50\nyahtzee_bonus_checks,✓✓\nchance, 17 \n"
    read = Pad.from_csv(text)
    assert read.boxes["aces"] is None
    assert read.boxes["chance"] == 17
    assert read.totals["yahtzee_bonus_checks"] == 2


@pytest.mark.parametrize(
    "text",
    [
        "rules,yacht\nones,3\nchoice,20\n",
        "\ufeffrow;value\r\nrules;yacht\r\nones;3\r\nchoice;20\r\n",
        "rules\tyacht\nones\t3\nchoice\t20\n",
    ],
)
def test_csv_delimiters_and_byte_order_mark(text: str) -> None:
    read = Pad.from_csv(text)
    assert (read.rules.name, read.boxes["ones"], read.boxes["choice"]) == ("yacht", 3, 20)


@pytest.mark.parametrize(
    ("reader", "text", "message"),
    [
        (
            Pad.from_csv,
            "rules,yahtzee\nsevens,3",
            "line 2: unknown row 'sevens'; rows are: aces, twos",
        ),
        (
            Pad.from_csv,
            "rules,yahtzee\naces,three",
            "line 2: aces must be a whole number, got 'three'",
        ),
        (Pad.from_csv, "rules,yahtzee\naces,2.5", "aces must be a whole number, got '2.5'"),
        (Pad.from_csv, "rules,yahtzee\naces,-3", "line 2: aces cannot be negative, got -3"),
        (Pad.from_csv, "aces,3", "the pad does not say which rules it follows"),
        (Pad.from_csv, "rules,yahtzee\naces,3,4", "line 2: expected row,value, got 'aces,3,4'"),
        (Pad.from_csv, "rules,yahtzee\naces,3\nAces,3", "line 3: row 'aces' is given twice"),
        (
            Pad.from_csv,
            "rules,yacht\nupper_bonus,35",
            "yacht has no bonus rows, but the pad has 'upper_bonus'",
        ),
        (Pad.from_csv, "rules,yacht\nyahtzee_bonus_checks,1", "yacht has no bonus rows"),
        (Pad.from_csv, "rules,yacht\nchance,10", "unknown row 'chance'; rows are: ones, twos"),
        (
            Pad.from_json,
            '{"rules": "yahtzee", "boxes": {"aces": 2.5}}',
            "aces must be a whole number, got 2.5",
        ),
        (
            Pad.from_json,
            '{"rules": "yahtzee", "boxes": {"aces": true}}',
            "aces must be a whole number, got True",
        ),
        (
            Pad.from_json,
            '{"rules": "yahtzee", "boxes": {"aces": [1]}}',
            "aces must be a whole number, got [1]",
        ),
        (
            Pad.from_json,
            '{"rules": "yahtzee", "totals": {"grand_total": -1}}',
            "grand_total cannot be negative",
        ),
        (Pad.from_json, '{"rules": "yahtzee", "boxes": []}', "'boxes' must be an object"),
        (Pad.from_json, '{"rules": "yahtzee", "box": {}}', "unknown key(s) 'box'; a pad has"),
        (Pad.from_json, "[1, 2]", "a pad is an object with rules, boxes, totals; got [1, 2]"),
        (Pad.from_json, '{"rules": "yahtzee",', "not valid JSON"),
        (Pad.from_json, '{"boxes": {}}', "the pad does not say which rules it follows"),
    ],
)
def test_format_errors_quote_the_input(reader: Any, text: str, message: str) -> None:
    with pytest.raises(PadFormatError) as caught:
        reader(text)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_rules_must_agree_and_exist() -> None:
    with pytest.raises(
        PadFormatError, match="the pad says rules 'yacht' but 'yahtzee' was asked for"
    ):
        Pad.from_csv("rules,yacht", rules="yahtzee")
    with pytest.raises(RuleSetError, match="unknown rule set 'poker'"):
        Pad.from_csv("rules,poker")
    assert Pad.from_csv("rules,Yahtzee", rules=ruleset("yahtzee")).rules.name == "yahtzee"


def test_constructor_checks_rows_and_values() -> None:
    rules = ruleset("yahtzee")
    with pytest.raises(PadFormatError, match="unknown box 'choice'"):
        Pad(rules, {"choice": 3}, {})
    with pytest.raises(PadFormatError, match="unknown total 'subtotal'"):
        Pad(rules, {}, {"subtotal": 3})
    with pytest.raises(PadFormatError, match="aces must be a whole number, got '3'"):
        Pad(rules, {"aces": "3"}, {})  # type: ignore[dict-item]

"""audit: reading pads (dict, JSON, CSV) and every kind of problem on them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from good_pad import GOOD_BOXES, GOOD_TOTALS, pad
from hypothesis import given
from scorekeeper_strategies import played_cards

from scorekeeper import Scorecard, ruleset
from scorekeeper.audit import (
    Pad,
    Problem,
    audit,
    describe_values,
    possible_values,
)
from scorekeeper.layout import pad_rows

EXAMPLES = Path(__file__).parents[2] / "examples"

def found(problems: list[Problem]) -> list[tuple[str, str, int | None, str]]:
    return [(p.row, p.code, p.written, p.expected) for p in problems]


def test_the_good_pad_is_consistent() -> None:
    assert audit(pad()) == []


@pytest.mark.parametrize(
    ("name", "slug", "words"),
    [
        ("yahtzee", "aces", "0 to 5"),
        ("yahtzee", "twos", "0, 2, 4, 6, 8 or 10"),
        ("yahtzee", "threes", "0, 3, 6, 9, 12 or 15"),
        ("yahtzee", "fours", "0, 4, 8, 12, 16 or 20"),
        ("yahtzee", "fives", "0, 5, 10, 15, 20 or 25"),
        ("yahtzee", "sixes", "0, 6, 12, 18, 24 or 30"),
        ("yahtzee", "three_of_a_kind", "0 or 5 to 30"),
        ("yahtzee", "four_of_a_kind", "0 or 5 to 30"),
        ("yahtzee", "full_house", "0 or 25"),
        ("yahtzee", "small_straight", "0 or 30"),
        ("yahtzee", "large_straight", "0 or 40"),
        ("yahtzee", "yahtzee", "0 or 50"),
        ("yahtzee", "chance", "5 to 30"),
        ("yacht", "ones", "0 to 5"),
        ("yacht", "full_house", "0, 7, 8, 9, 11 to 24, 26, 27 or 28"),
        ("yacht", "four_of_a_kind", "0 or 5 to 30"),
        ("yacht", "little_straight", "0 or 30"),
        ("yacht", "big_straight", "0 or 30"),
        ("yacht", "choice", "5 to 30"),
        ("yacht", "yacht", "0 or 50"),
    ],
)
def test_possible_values_of_each_box(name: str, slug: str, words: str) -> None:
    assert describe_values(possible_values(ruleset(name), slug)) == words


@pytest.mark.parametrize(
    ("values", "words"),
    [([7], "7"), ([0, 1], "0 or 1"), ([3, 2, 1], "1, 2 or 3"), ([1, 2, 3, 4, 9], "1 to 4 or 9")],
)
def test_describe_values(values: list[int], words: str) -> None:
    assert describe_values(values) == words


@pytest.mark.parametrize(
    ("slug", "value", "expected"),
    [
        ("fours", 7, "0, 4, 8, 12, 16 or 20"),
        ("aces", 6, "0 to 5"),
        ("full_house", 20, "0 or 25"),
        ("small_straight", 40, "0 or 30"),
        ("large_straight", 30, "0 or 40"),
        ("yahtzee", 25, "0 or 50"),
        ("chance", 0, "5 to 30"),
        ("chance", 31, "5 to 30"),
        ("three_of_a_kind", 3, "0 or 5 to 30"),
    ],
)
def test_impossible_box_values(slug: str, value: int, expected: str) -> None:
    problems = audit(Pad(ruleset("yahtzee"), GOOD_BOXES | {slug: value}, {}))
    assert found(problems) == [(slug, "impossible_value", value, expected)]
    name = ruleset("yahtzee").category(slug).name
    assert (
        problems[0].message == f"{name}: {value} is written, but this box can only hold {expected}."
    )


@pytest.mark.parametrize(("slug", "value"), [("full_house", 25), ("full_house", 10)])
def test_impossible_yacht_values(slug: str, value: int) -> None:
    boxes = dict.fromkeys(ruleset("yacht").slugs, 0) | {"choice": 20, slug: value}
    assert found(audit(Pad(ruleset("yacht"), boxes, {}))) == [
        (slug, "impossible_value", value, "0, 7, 8, 9, 11 to 24, 26, 27 or 28")
    ]


def test_blank_boxes() -> None:
    blank = Pad(ruleset("yahtzee"), GOOD_BOXES | {"chance": None, "aces": None}, {})
    assert found(audit(blank)) == [
        ("aces", "blank_box", None, "0 to 5"),
        ("chance", "blank_box", None, "5 to 30"),
    ]
    assert audit(blank)[1].message == (
        "Chance is blank; every box holds a score at the end of a game."
    )
    assert audit(blank, finished=False) == []


@pytest.mark.parametrize(
    ("totals", "problem"),
    [
        ({"upper_subtotal": 74}, ("upper_subtotal", "wrong_total", 74, "75")),
        ({"upper_bonus": 0}, ("upper_bonus", "wrong_bonus", 0, "35")),
        ({"upper_bonus": 30}, ("upper_bonus", "wrong_bonus", 30, "35")),
        ({"upper_total": 111}, ("upper_total", "wrong_total", 111, "110")),
        ({"yahtzee_bonus": 50}, ("yahtzee_bonus", "wrong_bonus", 50, "100")),
        ({"lower_subtotal": 200}, ("lower_subtotal", "wrong_total", 200, "214")),
        ({"lower_total": 214}, ("lower_total", "wrong_total", 214, "314")),
        ({"grand_total": 423}, ("grand_total", "wrong_total", 423, "424")),
    ],
)
def test_each_wrong_total(totals: dict[str, int], problem: tuple[Any, ...]) -> None:
    assert found(audit(pad(totals=totals))) == [problem]


def test_wrong_total_messages_show_the_sum() -> None:
    problems = audit(pad(totals={"upper_subtotal": 74, "grand_total": 420}))
    assert [p.message for p in problems] == [
        "Upper subtotal: 74 is written, but it should be 75 (3 + 6 + 9 + 12 + 15 + 30).",
        "Grand total: 420 is written, but it should be 424 (Upper total 110 + Lower total 314).",
    ]


def test_a_slip_carried_down_is_flagged_on_every_total_that_carries_it() -> None:
    carried = {"upper_subtotal": 70, "upper_total": 105, "grand_total": 419}
    assert found(audit(pad(totals=carried))) == [
        ("upper_subtotal", "wrong_total", 70, "75"),
        ("upper_total", "carried_total", 105, "110"),
        ("grand_total", "carried_total", 419, "424"),
    ]


# The upper boxes add up to 63: bonus 35, so the total of the upper section is 98.
UPPER_63 = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}


@pytest.mark.parametrize(
    ("totals", "problems"),
    [
        ({"upper_total": 93}, [("upper_total", "wrong_total", 93, "98")]),
        ({"upper_subtotal": 63, "upper_bonus": 35, "upper_total": 93},
         [("upper_total", "wrong_total", 93, "98")]),
        ({"upper_subtotal": 58, "upper_bonus": 35, "upper_total": 93},
         [("upper_subtotal", "wrong_total", 58, "63"), ("upper_total", "carried_total", 93, "98")]),
        ({"upper_subtotal": 63, "upper_bonus": 30, "upper_total": 93},
         [("upper_bonus", "wrong_bonus", 30, "35"), ("upper_total", "carried_total", 93, "98")]),
        ({"upper_subtotal": 63, "upper_bonus": 35, "upper_total": 98}, []),
        ({"upper_total": 63}, [("upper_total", "wrong_total", 63, "98")]),
    ],
)
def test_total_of_upper_section(totals: dict[str, int], problems: list[Any]) -> None:
    upper = Pad(ruleset("yahtzee"), GOOD_BOXES | UPPER_63, totals)
    assert found(audit(upper)) == problems


def test_a_wrong_total_says_what_it_adds_up() -> None:
    upper = Pad(ruleset("yahtzee"), GOOD_BOXES | UPPER_63, {"upper_total": 93})
    (problem,) = audit(upper)
    assert problem.parts == (("upper_subtotal", 63), ("upper_bonus", 35))
    assert problem.message == (
        "Upper total: 93 is written, but it should be 98 (Upper subtotal 63 + Upper bonus 35)."
    )
    carried = audit(pad(totals={"upper_subtotal": 70, "upper_total": 105, "grand_total": 419}))
    assert carried[2].message == (
        "Grand total: 419 adds up the rows above as written, but one of them is wrong, "
        "so it should be 424 (Upper total 110 + Lower total 314)."
    )
    assert problem.to_dict()["parts"] == (("upper_subtotal", 63), ("upper_bonus", 35))


@pytest.mark.parametrize(
    ("checks", "problems"),
    [
        (100, []),
        (300, []),
        (1200, [("yahtzee_bonus_checks", "too_many_checks", 1200, "5")]),
        (3, []),
        (150, [("yahtzee_bonus_checks", "too_many_checks", 150, "5")]),
    ],
)
def test_bonus_checks_written_as_points(checks: int, problems: list[Any]) -> None:
    # Five boxes hold what a Yahtzee scores there: Sixes, 3 of a Kind, Full House, straights.
    totals = {"yahtzee_bonus_checks": checks, "yahtzee_bonus": None}
    totals |= dict.fromkeys(("lower_subtotal", "lower_total", "grand_total"))
    assert found(audit(pad(totals=totals))) == problems


@pytest.mark.parametrize(
    ("points", "lower_total", "problems"),
    [
        (300, 514, []),  # 214 + 3 checks of 100
        (300, 217, [("lower_total", "wrong_total", 217, "514")]),  # not 300 checks, not 3
        (100, 314, []),
        (200, 514, [("lower_total", "wrong_total", 514, "414")]),
    ],
)
def test_points_in_the_checks_row_count_as_checks_in_the_totals(
    points: int, lower_total: int, problems: list[Any]
) -> None:
    totals = {"yahtzee_bonus_checks": points, "yahtzee_bonus": None, "lower_total": lower_total,
              "grand_total": None}
    assert found(audit(pad(totals=totals))) == problems


@pytest.mark.parametrize(
    ("boxes", "totals", "problems"),
    [
        # Fours 7 cannot be: what it should hold decides every upper total, left unjudged
        # (these are right if it should hold 12).
        ({"fours": 7}, {"upper_subtotal": 75, "upper_bonus": 35, "upper_total": 110,
                        "grand_total": 424},
         [("fours", "impossible_value", 7, "0, 4, 8, 12, 16 or 20")]),
        # The lower section does not rest on Fours: its slip is still found.
        ({"fours": 7}, {"lower_total": 313},
         [("fours", "impossible_value", 7, "0, 4, 8, 12, 16 or 20"),
          ("lower_total", "wrong_total", 313, "314")]),
        ({"full_house": 20}, {"upper_total": 111, "lower_subtotal": 209},
         [("upper_total", "wrong_total", 111, "110"),
          ("full_house", "impossible_value", 20, "0 or 25")]),
        # A bonus check without 50 in the Yahtzee box: the bonus points and the lower and
        # grand totals depend on which of the two is wrong.
        ({"yahtzee": 0}, {"lower_subtotal": 164, "yahtzee_bonus": 200, "lower_total": 364,
                          "grand_total": 400},
         [("yahtzee_bonus_checks", "bonus_without_yahtzee", 1, "0")]),
        ({"yahtzee": 0}, {"lower_subtotal": 164, "upper_total": 100},
         [("upper_total", "wrong_total", 100, "110"),
          ("yahtzee_bonus_checks", "bonus_without_yahtzee", 1, "0")]),
    ],
)
def test_no_total_adds_up_a_row_called_impossible(
    boxes: dict[str, int], totals: dict[str, int], problems: list[Any]
) -> None:
    found_problems = audit(pad(boxes=boxes, totals=totals))
    assert found(found_problems) == problems
    impossible = {p.row: p.written for p in found_problems if p.code != "wrong_total"}
    for problem in found_problems:
        assert not set(dict(problem.parts)) & set(impossible), problem


@pytest.mark.parametrize(
    ("upper", "bonus", "problems"),
    [
        ((3, 6, 9, 12, 15, 18), 35, []),  # exactly 63
        ((3, 6, 9, 12, 15, 18), 0, [("upper_bonus", "wrong_bonus", 0, "35")]),
        ((2, 6, 9, 12, 15, 18), 35, [("upper_bonus", "wrong_bonus", 35, "0")]),  # 62
        ((2, 6, 9, 12, 15, 18), 0, []),
        ((2, 6, 9, 12, 15, 18), None, []),
    ],
)
def test_upper_bonus(upper: tuple[int, ...], bonus: int | None, problems: list[Any]) -> None:
    boxes = GOOD_BOXES | dict(zip(list(GOOD_BOXES)[:6], upper, strict=True))
    assert found(audit(Pad(ruleset("yahtzee"), boxes, {"upper_bonus": bonus}))) == problems


def test_upper_bonus_message() -> None:
    boxes = GOOD_BOXES | {"aces": 2, "sixes": 18}
    (problem,) = audit(Pad(ruleset("yahtzee"), boxes, {"upper_bonus": 35}))
    assert problem.message == (
        "Upper bonus: 35 is written, but it should be 0 "
        "(the upper boxes add up to 62, less than 63)."
    )


@pytest.mark.parametrize("box", [0, None])
def test_bonus_checks_without_fifty(box: int | None) -> None:
    problems = audit(
        Pad(ruleset("yahtzee"), GOOD_BOXES | {"yahtzee": box}, {"yahtzee_bonus_checks": 2})
    )
    assert ("yahtzee_bonus_checks", "bonus_without_yahtzee", 2, "0") in found(problems)


def test_several_checks_with_fifty() -> None:
    assert audit(pad(totals={"yahtzee_bonus_checks": 3, "yahtzee_bonus": 300})) == [
        Problem(
            "lower_total",
            "wrong_total",
            314,
            "514",
            "Lower total: 314 is written, but it should be 514 "
            "(Lower subtotal 214 + Yahtzee bonus 300).",
            (("lower_subtotal", 214), ("yahtzee_bonus", 300)),
        ),
        Problem(
            "grand_total",
            "carried_total",
            424,
            "624",
            "Grand total: 424 adds up the rows above as written, but one of them is wrong, "
            "so it should be 624 (Upper total 110 + Lower total 514).",
            (("upper_total", 110), ("lower_total", 514)),
        ),
    ]


@pytest.mark.parametrize(
    ("checks", "problems"),
    [(2, []), (3, [("yahtzee_bonus_checks", "too_many_checks", 3, "2")])],
)
def test_too_many_checks(checks: int, problems: list[Any]) -> None:
    # Only Fives (25) and Full House (25) hold values a Yahtzee can score there as a Joker.
    boxes = GOOD_BOXES | {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "sixes": 18}
    boxes |= {"three_of_a_kind": 22, "four_of_a_kind": 0, "small_straight": 0}
    boxes |= {"large_straight": 0, "chance": 23, "fives": 25, "full_house": 25}
    assert (
        found(audit(Pad(ruleset("yahtzee"), boxes, {"yahtzee_bonus_checks": checks}))) == problems
    )


@pytest.mark.parametrize(
    ("yahtzee", "points", "problems"),
    [
        (50, 200, []),
        (0, 100, [("yahtzee_bonus", "bonus_without_yahtzee", 100, "0")]),
        (50, 600, [("yahtzee_bonus", "too_many_checks", 600, "500")]),
        (50, 150, [("yahtzee_bonus", "wrong_bonus", 150, "100")]),
    ],
)
def test_bonus_points_without_checks(
    yahtzee: int, points: int, problems: list[tuple[Any, ...]]
) -> None:
    # Five boxes hold values a Yahtzee scores there: Sixes, 3 of a kind, Full House, straights.
    totals = {"yahtzee_bonus_checks": None, "yahtzee_bonus": points}
    totals |= dict.fromkeys(("lower_subtotal", "lower_total", "grand_total"))
    assert found(audit(pad({"yahtzee": yahtzee}, totals))) == problems


def test_blank_totals_are_not_checked() -> None:
    assert audit(pad(totals=dict.fromkeys(GOOD_TOTALS))) == []
    assert audit(Pad(ruleset("yahtzee"), GOOD_BOXES, {})) == []


def test_every_problem_is_reported_in_pad_order() -> None:
    text = (EXAMPLES / "pad_errors.csv").read_text(encoding="utf-8")
    problems = audit(Pad.from_csv(text))
    assert found(problems) == [
        ("fours", "impossible_value", 7, "0, 4, 8, 12, 16 or 20"),
        ("full_house", "impossible_value", 20, "0 or 25"),
        ("chance", "blank_box", None, "5 to 30"),
        ("yahtzee_bonus_checks", "bonus_without_yahtzee", 1, "0"),
    ]
    assert problems[0].to_dict() == {
        "row": "fours",
        "code": "impossible_value",
        "written": 7,
        "expected": "0, 4, 8, 12, 16 or 20",
        "message": "Fours: 7 is written, but this box can only hold 0, 4, 8, 12, 16 or 20.",
        "parts": (),
    }


def test_example_json_pad_is_consistent() -> None:
    good = Pad.from_json((EXAMPLES / "pad_ok.json").read_text(encoding="utf-8"))
    assert good.rules.name == "yahtzee"
    assert audit(good) == []


@given(played_cards(complete=True))
def test_any_legally_played_card_makes_a_consistent_pad(card: Scorecard) -> None:
    assert audit(Pad.from_scorecard(card)) == []


@given(played_cards())
def test_a_game_in_progress_has_only_blank_boxes(card: Scorecard) -> None:
    problems = audit(Pad.from_scorecard(card))
    assert [p.row for p in problems] == list(card.open_boxes())
    assert {p.code for p in problems} <= {"blank_box"}
    assert audit(Pad.from_scorecard(card), finished=False) == []


def test_pad_rows_top_to_bottom() -> None:
    assert pad_rows(ruleset("yacht")) == (
        *ruleset("yacht").slugs[:6],
        "upper_subtotal",
        "upper_total",
        *ruleset("yacht").slugs[6:],
        "lower_subtotal",
        "lower_total",
        "grand_total",
    )
    assert pad_rows(ruleset("yahtzee")).index("yahtzee_bonus_checks") == 16

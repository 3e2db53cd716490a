"""The rules decide between a photographed column's readings: legal values, sums that add
up, and mistakes on the pad reported as the audit reports typed pads."""

from __future__ import annotations

import pytest

from scorekeeper import ruleset
from scorekeeper.padcheck import SURE, Candidates, check_column
from scorekeeper.padlayouts import pad_layout

YAHTZEE = ruleset("yahtzee")
HASBRO = pad_layout("hasbro").rows_for(YAHTZEE)
# A finished game, row by row as the Hasbro pad prints it (None: the checks row left blank).
GAME = {
    "aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
    "upper_subtotal": 63, "upper_bonus": 35, "upper_total": 98,
    "three_of_a_kind": 22, "four_of_a_kind": 0, "full_house": 25, "small_straight": 30,
    "large_straight": 40, "yahtzee": 50, "chance": 23, "yahtzee_bonus_checks": None,
    "yahtzee_bonus": 0, "lower_total": 190, "grand_total": 288,
}


def sure(value: int | None) -> Candidates:
    return ((value, 0.99), (None if value is not None else 1, 0.01))


def readings(changes: dict[int, Candidates] | None = None) -> dict[int, Candidates]:
    found = {i: sure(GAME[row.key]) for i, row in enumerate(HASBRO) if row.read}
    return found | (changes or {})


def row_of(key: str, nth: int = 0) -> int:
    return [i for i, row in enumerate(HASBRO) if row.key == key][nth]


def test_a_column_read_surely_and_right_has_no_problem() -> None:
    check = check_column(YAHTZEE, HASBRO, readings())
    assert check.problems == ()
    assert check.pad is not None and check.pad.totals["grand_total"] == 288
    assert check.doubtful == ()
    assert check.by_name()["upper_total_2"].value == 98


def test_a_value_the_box_cannot_hold_gives_way_to_a_legal_one() -> None:
    # Threes read as 7 (0.6) or 9 (0.4): no roll scores 7 there.
    check = check_column(YAHTZEE, HASBRO, readings({row_of("threes"): ((7, 0.6), (9, 0.4))}))
    cell = check.by_name()["threes"]
    assert (cell.value, check.problems) == (9, ())
    assert cell.confidence > 0.99


def test_the_total_that_adds_up_wins_over_a_likelier_reading() -> None:
    check = check_column(YAHTZEE, HASBRO,
                         readings({row_of("grand_total"): ((298, 0.7), (288, 0.3))}))
    assert check.by_name()["grand_total"].value == 288
    assert check.problems == ()


def test_a_box_read_unsurely_is_settled_by_the_written_total() -> None:
    # Chance read as 28 (0.55) or 23 (0.45); the lower total 190 says 23.
    check = check_column(YAHTZEE, HASBRO, readings({row_of("chance"): ((28, 0.55), (23, 0.45))}))
    assert check.by_name()["chance"].value == 23
    assert check.problems == ()


def test_a_wrong_total_surely_written_is_reported_as_the_audit_does() -> None:
    check = check_column(YAHTZEE, HASBRO, readings({row_of("grand_total"): sure(298)}))
    assert [(p.row, p.code) for p in check.problems] == [("grand_total", "wrong_total")]
    assert check.problems[0].message.startswith(
        "Grand total: 298 is written, but it should be 288")


def test_the_second_upper_total_is_checked_too() -> None:
    check = check_column(YAHTZEE, HASBRO, readings({row_of("upper_total", 1): sure(89)}))
    assert [(p.row, p.code, p.written) for p in check.problems] == [
        ("upper_total", "wrong_total", 89)]


def test_an_unsure_cell_is_marked_doubtful() -> None:
    check = check_column(YAHTZEE, HASBRO,
                         readings({row_of("yahtzee"): ((50, 0.6), (0, 0.4))}))
    cell = check.by_name()["yahtzee"]
    assert cell.value == 50 and cell.confidence < SURE
    assert [c.key for c in check.doubtful] == ["yahtzee"]


def test_a_blank_column_is_a_game_not_played() -> None:
    blank = {i: ((None, 0.98), (1, 0.02)) for i, row in enumerate(HASBRO) if row.read}
    check = check_column(YAHTZEE, HASBRO, blank)
    assert check.pad is None and check.problems == ()
    assert check.to_dict()["blank"] is True


@pytest.mark.parametrize(("written", "code"), [(35, None), (0, "wrong_bonus")])
def test_the_bonus_is_judged_by_the_upper_boxes(written: int, code: str | None) -> None:
    check = check_column(YAHTZEE, HASBRO, readings({row_of("upper_bonus"): sure(written)}))
    assert [p.code for p in check.problems if p.row == "upper_bonus"] == (
        [code] if code else [])


def test_the_json_form_of_a_cell() -> None:
    cell = check_column(YAHTZEE, HASBRO, readings()).by_name()["sixes"]
    assert cell.to_dict() == {"value": 18, "confidence": 1.0,
                              "candidates": [[18, 0.99], [None, 0.01]]}


def test_a_total_written_wrong_is_read_as_the_value_near_its_sum() -> None:
    # Grand total read as 888 (0.7) or 298 (0.2); it should be 288. A total written wrong is
    # seldom off by more than a box's worth: 298 is what the pad holds, and reported so.
    check = check_column(YAHTZEE, HASBRO,
                         readings({row_of("grand_total"): ((888, 0.7), (298, 0.2), (None, 0.1))}))
    assert check.by_name()["grand_total"].value == 298
    assert [(p.row, p.written) for p in check.problems] == [("grand_total", 298)]


def test_a_far_reading_of_the_grand_total_does_not_outweigh_the_boxes() -> None:
    # Chance read as 28 (0.6) or 23 (0.4); the Grand total read surely as 793: the pad's
    # slip is far off whichever Chance holds, so the likelier Chance stands.
    check = check_column(YAHTZEE, HASBRO, readings({
        row_of("chance"): ((28, 0.6), (23, 0.4)),
        row_of("lower_total"): ((195, 0.5), (190, 0.5)),
        row_of("grand_total"): sure(793)}))
    assert check.by_name()["chance"].value == 28
    assert {p.row for p in check.problems} >= {"grand_total"}


def test_the_bonus_points_row_holds_a_multiple_of_the_bonus() -> None:
    # No checks written; the points row read as 1 (0.6) or 0 (0.35): no bonus is 1 point.
    check = check_column(YAHTZEE, HASBRO, readings(
        {row_of("yahtzee_bonus"): ((1, 0.6), (0, 0.35), (None, 0.05))}))
    assert check.by_name()["yahtzee_bonus"].value == 0
    assert check.problems == ()


def test_bonus_points_written_without_checks_count_in_the_lower_total() -> None:
    # The checks row left blank, 100 in the points row; Chance read as 28 (0.55) or 23.
    written = {row_of("yahtzee_bonus"): sure(100), row_of("lower_total"): sure(290),
               row_of("grand_total"): sure(388), row_of("chance"): ((28, 0.55), (23, 0.45)),
               row_of("yahtzee_bonus_checks"): ((None, 1.0),)}
    check = check_column(YAHTZEE, HASBRO, readings(written))
    assert check.problems == ()
    assert check.by_name()["chance"].value == 23
    assert check.pad is not None and check.pad.totals["lower_total"] == 290

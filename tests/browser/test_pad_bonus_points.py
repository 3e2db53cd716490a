"""The pad check on a phone: Yahtzee-bonus points written in the checks row are read as
checks, and no total is judged by adding up a box the check calls impossible."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

UPPER = {"aces": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}  # 63
LOWER = {"three_of_a_kind": 30, "four_of_a_kind": 30, "full_house": 25, "small_straight": 30,
         "large_straight": 40, "yahtzee": 50, "chance": 24}  # 229; sixes and 3/4 of a kind, bonus


def type_rows(page: Any, rows: dict[str, int]) -> None:
    """Type each row's value into its first box on the pad (a row printed twice is one)."""
    for key, value in rows.items():
        page.locator(f'#pad-grid input[data-key="{key}"]').first.fill(str(value))


def check(page: Any) -> str:
    """Check the pad; return the summary line."""
    page.click("#pad-form button[type=submit]")
    page.wait_for_selector("#pad-result strong")
    summary: str = page.inner_text("#pad-result strong")
    return summary


def test_three_hundred_in_the_bonus_row_is_three_checks(device: Any, live_server: str) -> None:
    page = device(PHONE)
    page.goto(f"{live_server}/pad")
    type_rows(page, UPPER | LOWER | {
        "upper_subtotal": 63, "upper_bonus": 35, "upper_total": 98,
        "yahtzee_bonus": 300, "lower_total": 529, "grand_total": 627})
    bonus = page.locator('#pad-grid input[data-key="yahtzee_bonus"]')
    assert bonus.evaluate("i => i.validity.valid") is True  # the field takes points too
    assert check(page) == "No problems found: this column adds up."
    assert page.locator("#pad-grid tr.problem").count() == 0
    # 300 is 3 checks of 100: a lower total of 229 + 3 would be wrong.
    page.locator('#pad-grid input[data-key="lower_total"]').fill("232")
    page.locator('#pad-grid input[data-key="grand_total"]').fill("330")
    assert check(page) == "2 problems found."
    note = page.inner_text('#pad-grid tr[data-row="lower_total"] .problem-note')
    assert note == "This total should be 529 (229 + Yahtzee bonus 300), not 232."


def test_no_total_adds_up_a_box_called_impossible(device: Any, live_server: str) -> None:
    page = device(PHONE)
    page.goto(f"{live_server}/pad")
    page.check("#pad-in-progress")
    # Fours 7 cannot be; with the 8 the player meant, the upper boxes add up to 58.
    type_rows(page, UPPER | {"aces": 2, "fours": 7, "upper_subtotal": 58, "upper_bonus": 0,
                             "upper_total": 58})
    assert check(page) == "1 problem found."
    assert page.locator("#pad-grid tr.problem").evaluate_all(
        "rows => rows.map(r => r.dataset.row)") == ["fours"]
    assert page.inner_text('#pad-grid tr[data-row="fours"] .problem-note') == (
        "7 cannot be scored in this box.")
    # Fours corrected, the slip in the subtotal shows: 2 + 6 + 9 + 8 + 15 + 18 = 58, not 59.
    type_rows(page, {"fours": 8, "upper_subtotal": 59})
    assert check(page) == "1 problem found."
    assert page.inner_text('#pad-grid tr[data-row="upper_subtotal"] .problem-note') == (
        "This total should be 58 (\u20662 + 6 + 9 + 8 + 15 + 18\u2069), not 59.")

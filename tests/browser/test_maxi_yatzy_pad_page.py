"""The pad check of a Maxi Yatzy column on a phone: its rows, the bonus of 100 at 84."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_pad_bonus_points import check, type_rows

pytestmark = pytest.mark.browser

UPPER = {"ones": 4, "twos": 8, "threes": 12, "fours": 16, "fives": 20, "sixes": 24}  # 84
LOWER = {"one_pair": 12, "two_pairs": 22, "three_pairs": 30, "three_of_a_kind": 18,
         "four_of_a_kind": 24, "five_of_a_kind": 30, "small_straight": 15,
         "large_straight": 20, "full_straight": 21, "full_house": 28, "villa": 33, "tower": 34,
         "chance": 36, "maxi_yatzy": 100}  # 423


def test_a_maxi_yatzy_column_and_its_bonus(device: Any, live_server: str) -> None:
    page = device(PHONE)
    page.goto(f"{live_server}/pad")
    page.select_option("#pad-rules", "maxi-yatzy")
    labels = page.locator("#pad-grid th").all_inner_texts()
    assert [label for label in labels if label in ("Three Pairs", "Villa", "Tower", "Sum")] == [
        "Sum", "Three Pairs", "Villa", "Tower"]
    type_rows(page, UPPER | LOWER | {"upper_subtotal": 84, "upper_bonus": 100,
                                     "grand_total": 607})
    assert check(page) == "No problems found: this column adds up."
    page.locator('#pad-grid input[data-key="upper_bonus"]').fill("50")
    page.locator('#pad-grid input[data-key="grand_total"]').fill("557")
    assert check(page) == "2 problems found."
    note = page.inner_text('#pad-grid tr[data-row="upper_bonus"] .problem-note')
    assert note == "The bonus should be 100, not 50."
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]

"""A whole game of Yatzy with its boxes in order (`yatzy+in-order`, the "forced" game) on a
phone: each turn the page offers only the next box, a roll that does not fit it scores 0
there, and the pad's Sum, Bonus and Total add up at the end."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.browser.test_yatzy_game import cell, play

pytestmark = pytest.mark.browser

TURNS = [  # (dice typed, the one box offered, points)
    ("1 1 1 2 3", "ones", 3),
    ("2 2 2 4 5", "twos", 6),
    ("3 3 3 1 2", "threes", 9),
    ("4 4 4 1 2", "fours", 12),
    ("5 5 5 1 2", "fives", 15),
    ("6 6 6 1 2", "sixes", 18),  # 63 in the upper boxes: a bonus of 50
    ("6 6 5 4 1", "one_pair", 12),
    ("6 5 4 3 1", "two_pairs", 0),  # no pair at all: the box takes 0
    ("6 6 6 5 1", "three_of_a_kind", 18),
    ("6 6 6 6 1", "four_of_a_kind", 24),
    ("5 4 3 2 1", "small_straight", 15),
    ("1 2 3 4 5", "large_straight", 0),
    ("6 6 6 5 5", "full_house", 28),
    ("6 6 5 5 4", "chance", 26),
    ("6 6 6 6 6", "yatzy", 50),
]
TOTAL = 63 + 50 + 173


def test_a_whole_in_order_game_on_a_phone(device: Any, live_server: str) -> None:
    page = device(PHONE)
    page.context.set_default_timeout(15_000)
    page.goto(f"{live_server}/")
    page.select_option("#rules", "yatzy+in-order")
    page.fill("#player-1", "Ann")
    page.get_by_role("button", name="Remove player 2").tap()
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".die")
    for dice, box, points in TURNS:
        play(page, dice, box, points, offered=1)
        if box == "sixes":
            assert (cell(page, "upper_subtotal"), cell(page, "upper_bonus")) == ("63", "50")
    page.wait_for_selector("#game-over:not([hidden])")
    assert cell(page, "grand_total") == str(TOTAL)
    assert page.inner_text("#final-scores .total").strip() == str(TOTAL)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]

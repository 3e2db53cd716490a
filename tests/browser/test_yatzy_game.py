"""A whole game of Scandinavian Yatzy on a phone, through the page: the new-game form, typed
dice, the boxes the page offers, and the pad's Sum, Bonus and Total at the end."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

TURNS = [  # (dice typed, box, points)
    ("1 1 1 2 3", "ones", 3),
    ("2 2 2 4 5", "twos", 6),
    ("3 3 3 1 2", "threes", 9),
    ("4 4 4 1 2", "fours", 12),
    ("5 5 5 1 2", "fives", 15),
    ("6 6 6 1 2", "sixes", 18),  # the upper boxes add up to 63: a bonus of 50
    ("6 6 5 4 1", "one_pair", 12),
    ("6 6 5 5 1", "two_pairs", 22),
    ("6 6 6 5 1", "three_of_a_kind", 18),
    ("6 6 6 6 1", "four_of_a_kind", 24),
    ("5 4 3 2 1", "small_straight", 15),
    ("2 3 4 5 6", "large_straight", 20),
    ("6 6 6 5 5", "full_house", 28),
    ("6 6 5 5 4", "chance", 26),
    ("6 6 6 6 6", "yatzy", 50),
]
TOTAL = 63 + 50 + 215


def cell(page: Any, row: str) -> str:
    text: str = page.inner_text(f'#card td[data-player="0"][data-row="{row}"]')
    return text.strip()


def start_from_the_form(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.select_option("#rules", "yatzy")
    page.fill("#player-1", "Ann")
    page.get_by_role("button", name="Remove player 2").tap()
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".die")


def play(page: Any, dice: str, box: str, points: int, offered: int) -> None:
    """Type *dice*, record them, check that *offered* boxes are offered, score *box*."""
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    suggestion = page.locator(f'.suggestion[data-box="{box}"]')
    suggestion.wait_for()
    assert page.locator(".suggestion").count() == offered
    suggestion.click()
    page.wait_for_function(
        """([row, points]) => {
             const td = document.querySelector(`#card td[data-player="0"][data-row="${row}"]`);
             return td && td.textContent.trim() === String(points);
           }""", arg=[box, points])
    page.wait_for_selector("body:not(.busy)")  # the live stream can show the box first


def test_a_whole_yatzy_game_on_a_phone(device: Any, live_server: str) -> None:
    page = device(PHONE)
    page.context.set_default_timeout(15_000)
    start_from_the_form(page, live_server)
    labels = page.locator("#card tbody th.label").all_inner_texts()
    assert labels[:8] == ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "Sum", "Bonus"]
    assert labels[8:] == ["One Pair", "Two Pairs", "Three of a Kind", "Four of a Kind",
                          "Small Straight", "Large Straight", "Full House", "Chance", "Yatzy",
                          "Total"]
    for turn, (dice, box, points) in enumerate(TURNS):
        play(page, dice, box, points, offered=len(TURNS) - turn)
        if box == "sixes":
            assert (cell(page, "upper_subtotal"), cell(page, "upper_bonus")) == ("63", "50")
    page.wait_for_selector("#game-over:not([hidden])")
    assert "Winner: \u2068Ann\u2069" in page.inner_text("#over-title")
    assert cell(page, "grand_total") == str(TOTAL)
    assert page.inner_text("#final-scores .total").strip() == str(TOTAL)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]

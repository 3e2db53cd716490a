"""A whole two-player game of Maxi Yatzy on a phone, through the page: six dice typed, a
turn scored after one roll whose two unused rolls are saved, the next turn rolling four
times with one of them, each player's saved rolls on the page and on the scoreboard, and
the pad's Sum, Bonus (100 at 84) and Total at the end."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, TABLET

pytestmark = pytest.mark.browser

ANN = [  # (rolls typed, box, points): Ann's turns
    (["1 1 1 1 2 3"], "ones", 4),  # one roll: two saved
    (["1 3 4 5 6 6", "2 2 3 4 5 6", "2 2 2 4 5 6", "2 2 2 2 1 4"], "twos", 8),  # a saved roll
    (["3 3 3 3 1 2"], "threes", 12),
    (["4 4 4 4 1 2"], "fours", 16),
    (["5 5 5 5 1 2"], "fives", 20),
    (["6 6 6 6 1 2"], "sixes", 24),  # the upper boxes add up to 84: a bonus of 100
    (["6 6 5 5 1 2"], "one_pair", 12),
    (["6 6 5 5 4 3"], "two_pairs", 22),
    (["6 6 5 5 4 4"], "three_pairs", 30),
    (["6 6 6 1 2 3"], "three_of_a_kind", 18),
    (["6 6 6 6 1 2"], "four_of_a_kind", 24),
    (["6 6 6 6 6 1"], "five_of_a_kind", 30),
    (["1 2 3 4 5 5"], "small_straight", 15),
    (["2 3 4 5 6 6"], "large_straight", 20),
    (["1 2 3 4 5 6"], "full_straight", 21),
    (["6 6 6 5 5 1"], "full_house", 28),
    (["6 6 6 5 5 5"], "villa", 33),
    (["6 6 6 6 5 5"], "tower", 34),
    (["6 6 6 6 6 6"], "chance", 36),
    (["5 5 5 5 5 5"], "maxi_yatzy", 100),
]
BEN = [
    (["2 3 4 5 6 6", "1 2 2 4 5 6", "1 1 2 3 4 5"], "ones", 2),  # all three rolls: none saved
    (["2 2 1 3 4 6"], "twos", 4),
    (["3 3 1 2 4 6"], "threes", 6),
    (["4 4 1 2 3 5"], "fours", 8),
    (["5 5 1 2 3 4"], "fives", 10),
    (["6 6 1 2 3 4"], "sixes", 12),  # 42: no bonus
    (["1 1 2 3 4 5"], "one_pair", 2),
    (["1 1 2 2 3 4"], "two_pairs", 6),
    (["1 1 2 2 3 3"], "three_pairs", 12),
    (["1 1 1 2 3 4"], "three_of_a_kind", 3),
    (["1 1 1 1 2 3"], "four_of_a_kind", 4),
    (["1 1 1 1 1 2"], "five_of_a_kind", 5),
    (["1 2 3 4 5 5"], "small_straight", 15),
    (["2 3 4 5 6 6"], "large_straight", 20),
    (["1 2 3 4 5 6"], "full_straight", 21),
    (["1 1 1 2 2 3"], "full_house", 7),
    (["1 1 1 2 2 2"], "villa", 9),
    (["1 1 1 1 2 2"], "tower", 8),
    (["1 1 1 2 2 3"], "chance", 10),
    (["1 1 1 1 1 1"], "maxi_yatzy", 100),
]
TOTALS = (84 + 100 + 423, 42 + 222)


def cell(page: Any, player: int, row: str) -> str:
    text: str = page.inner_text(f'#card td[data-player="{player}"][data-row="{row}"]')
    return text.strip()


def start_from_the_form(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.select_option("#rules", "maxi-yatzy")
    page.fill("#player-1", "Ann")
    page.fill("#player-2", "Ben")
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    page.wait_for_selector(".die")


def roll(page: Any, dice: str, number: int) -> None:
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_function(
        "n => document.getElementById('turn-status').textContent.includes(`Roll ${n} of`)",
        arg=number)
    page.wait_for_selector("body:not(.busy)")


def score(page: Any, player: int, box: str, points: int) -> None:
    page.click(f'.suggestion[data-box="{box}"]')
    page.wait_for_function(
        """([player, row, points]) => {
             const td = document.querySelector(
               `#card td[data-player="${player}"][data-row="${row}"]`);
             return td && td.textContent.trim() === String(points);
           }""", arg=[player, box, points])
    page.wait_for_selector("body:not(.busy)")  # the live stream can show the box first


def play(page: Any, player: int, turn: tuple[list[str], str, int]) -> None:
    rolls, box, points = turn
    for number, dice in enumerate(rolls, start=1):
        roll(page, dice, number)
    score(page, player, box, points)


def test_a_whole_maxi_yatzy_game_with_saved_rolls_on_a_phone(device: Any,
                                                               live_server: str) -> None:
    page = device(PHONE)
    page.context.set_default_timeout(15_000)
    start_from_the_form(page, live_server)
    assert page.locator("#dice .die").count() == 6
    tops = page.eval_on_selector_all("#dice .die", "dice => dice.map((d) => d.offsetTop)")
    assert len(set(tops)) == 1  # six dice on one row of a phone
    assert page.get_attribute("#dice-text", "placeholder") == "6 6 4 6 6 1"
    labels = page.locator("#card tbody th.label").all_inner_texts()
    assert labels[6:8] == ["Sum", "Bonus"]
    assert labels[8:] == ["One Pair", "Two Pairs", "Three Pairs", "Three of a Kind",
                          "Four of a Kind", "Five of a Kind", "Small Straight", "Large Straight",
                          "Full Straight", "Full House", "Villa", "Tower", "Chance",
                          "Maxi Yatzy", "Total", "Saved rolls"]
    assert "Saved rolls: 0" in page.inner_text("#turn-status")

    play(page, 0, ANN[0])  # scored after one roll: two rolls saved
    assert (cell(page, 0, "saved_rolls"), cell(page, 1, "saved_rolls")) == ("2", "0")
    play(page, 1, BEN[0])  # all three rolls: none saved
    assert (cell(page, 0, "saved_rolls"), cell(page, 1, "saved_rolls")) == ("2", "0")
    assert "Saved rolls: 2" in page.inner_text("#turn-status")

    rolls, box, points = ANN[1]  # four rolls: three and one of the two saved
    for number, dice in enumerate(rolls[:3], start=1):
        roll(page, dice, number)
    assert "Roll 3 of 5" in page.inner_text("#turn-status")
    assert page.locator("#record-roll").is_visible()  # a saved roll may be rolled
    roll(page, rolls[3], 4)
    status = page.inner_text("#turn-status")
    assert "Roll 4 of 5" in status and "Saved rolls: 1" in status
    score(page, 0, box, points)
    assert (cell(page, 0, "saved_rolls"), cell(page, 1, "saved_rolls")) == ("1", "0")

    board = page.context.new_page()
    board.set_viewport_size({"width": TABLET[0], "height": TABLET[1]})
    board.goto(page.url + "/board")
    assert (cell(board, 0, "saved_rolls"), cell(board, 1, "saved_rolls")) == ("1", "0")
    assert board.locator("#card th.label", has_text="Saved rolls").count() == 1
    board.close()

    for ann, ben in zip(ANN[1:], BEN[1:], strict=True):
        if ann is not ANN[1]:
            play(page, 0, ann)
        play(page, 1, ben)
        if ann[1] == "sixes":
            assert (cell(page, 0, "upper_subtotal"), cell(page, 0, "upper_bonus")) == (
                "84", "100")
            assert (cell(page, 1, "upper_subtotal"), cell(page, 1, "upper_bonus")) == ("42", "0")
    page.wait_for_selector("#game-over:not([hidden])")
    assert "Winner: \u2068Ann\u2069" in page.inner_text("#over-title")
    assert (cell(page, 0, "grand_total"), cell(page, 1, "grand_total")) == tuple(map(str, TOTALS))
    assert page.locator("#final-scores .total").all_inner_texts() == [str(t) for t in TOTALS]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]

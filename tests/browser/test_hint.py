"""The advisor on the game page: the hint switch and the review at the end of a game."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.test_game_end import play_turn

pytestmark = pytest.mark.browser


def record(page: Any, dice: str) -> None:
    """Type *dice* and record them as the next roll."""
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")


def test_hint_marks_the_dice_to_keep_and_the_cost_of_each_box(
    page: Any, live_server: str, new_game: Any
) -> None:
    game = new_game(["Ann"])
    page.goto(f"{live_server}/games/{game['id']}")
    assert page.locator("#hint-panel").is_hidden()
    page.check("#hint-toggle")
    record(page, "6 1 6 2 6")
    page.wait_for_selector("#hint .hint-best")
    assert page.inner_text("#hint .hint-best") == "Best: Keep \u20666 6 6\u2069, reroll 2"
    held = page.eval_on_selector_all(
        "#dice .die-slot", "slots => slots.map(s => s.classList.contains('hint-hold'))")
    assert held == [True, False, True, False, True]
    assert page.locator("#hint .hint-keeps li").count() == 4
    costs = page.locator("#suggestions > li > .suggestion .s-loss").all_inner_texts()
    assert costs and all(cost.startswith("−") for cost in costs)
    assert "solitaire-optimal" in page.inner_text("#hint-panel")

    page.reload()  # the switch is remembered
    assert page.is_checked("#hint-toggle")
    page.wait_for_selector(".die-slot.hint-hold")
    page.uncheck("#hint-toggle")
    assert page.locator("#hint-panel").is_hidden()
    assert page.locator(".die-slot.hint-hold").count() == 0


def test_a_finished_game_shows_its_review(
    page: Any, live_server: str, context: Any, new_game: Any
) -> None:
    game = new_game(["Dana"], rules="yacht")
    game = play_turn(context, live_server, game, "choice")
    for box in [b["slug"] for b in game["boxes"] if b["slug"] != "choice"]:
        game = play_turn(context, live_server, game, box)
    assert game["finished"]
    page.goto(f"{live_server}/")
    page.click(f'#finished a.review-link[href="/games/{game["id"]}#review"]')
    page.wait_for_selector("#review .review-table tbody tr")
    assert "12 choices" in page.inner_text("#review .review-total")
    rows = [row.locator("td").all_inner_texts()
            for row in page.locator("#review .review-table tbody tr").all()]
    assert len(rows) == 12
    losses = [float(row[5].replace("−", "")) for row in rows]
    assert losses == sorted(losses, reverse=True) and losses[0] > 0  # costliest first
    assert ["1", "1", "3 3 3 6 6", "Score 21 in Choice"] in [row[:4] for row in rows]

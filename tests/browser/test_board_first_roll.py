"""The scoreboard on a 1024x768 tablet while the first player of the next game of a series is
rolled for: the rolls, the whole card and the join box fit the screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import TABLET, play_out

pytestmark = pytest.mark.browser

RECT = "(e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"


def roll_for_first(page: Any, base: str, game: int, rolls: list[list[int]]) -> None:
    """Record *rolls* as the next rolls for first of *game*."""
    for dice in rolls:
        state = page.request.get(f"{base}/api/games/{game}").json()
        rolled = page.request.post(f"{base}/api/games/{game}/rolls",
                                   data={"dice": dice, "version": state["version"]})
        assert rolled.ok, rolled.text()


def test_the_board_fits_a_tablet_while_game_two_rolls_for_first(device: Any,
                                                               live_server: str) -> None:
    page = device(TABLET)
    created = page.request.post(f"{live_server}/api/games", data={
        "rules": "yahtzee", "players": ["Ann", "Ben", "Cat"], "roll_for_first": True})
    game = int(created.json()["id"])
    roll_for_first(page, live_server, game, [[6, 6, 6, 5, 5], [1, 2, 3, 4, 5], [2, 2, 2, 1, 1]])
    state = play_out(page.request, live_server, game)
    assert page.request.post(f"{live_server}/api/games/{game}/next",
                             data={"version": state["version"]}).ok
    # Ann and Cat tie with 28 and roll again.
    roll_for_first(page, live_server, game, [[6, 6, 6, 5, 5], [1, 2, 3, 4, 5], [6, 6, 5, 5, 6]])
    page.goto(f"{live_server}/games/{game}/board")
    page.wait_for_selector("#live:not(.lost)")
    assert page.inner_text("#game-number") == "Game #2"
    rolls = page.locator(".first-rolls-box")
    assert rolls.locator(".first-die").count() == 15
    assert "Ann and Cat tied with 28" in " ".join(rolls.inner_text().replace("\u2068", "")
                                                  .replace("\u2069", "").split())
    assert page.evaluate("[document.documentElement.scrollWidth,"
                         " document.documentElement.scrollHeight]") == [TABLET[0], TABLET[1]]
    for selector in (".first-rolls-box", '#card tr[data-row="grand_total"]', ".join-box",
                     "#board-series"):
        left, top, right, bottom = page.locator(selector).evaluate(RECT)
        assert left >= 0 and top >= 0 and right <= TABLET[0] and bottom <= TABLET[1], selector
    # The players' names stay in view above the rolls.
    names = page.locator("#card thead th.player").evaluate_all(f"els => els.map({RECT})")
    assert max(name[3] for name in names) <= rolls.evaluate(RECT)[1]

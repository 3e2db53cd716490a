"""Printing: one game prints its card; a series prints each player's sheet with a column per
game of the pad, Game #1 to Game #6, the finished games filled in."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import play_out

pytestmark = pytest.mark.browser


def column(page: Any, player: int, game: int, row: str) -> str:
    """Return the printed text of *player*'s sheet, game column *game*, row *row*."""
    cell = page.locator(f'.print-player[data-player="{player}"] '
                        f'td[data-game="{game}"][data-row="{row}"]')
    return str(cell.inner_text())


def test_one_game_prints_its_card(page: Any, live_server: str, new_game: Any) -> None:
    game = new_game(["Ann", "Ben"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.emulate_media(media="print")
    assert page.locator("#card").is_visible()
    assert not page.locator("#turn").is_visible()
    assert page.locator(".print-player").count() == 0


def test_a_series_prints_every_game_of_the_pad(page: Any, live_server: str,
                                               new_game: Any) -> None:
    game = new_game(["Ann", "Ben"])["id"]
    first = play_out(page.request, live_server, game)
    state = page.request.post(f"{live_server}/api/games/{game}/next",
                              data={"version": first["version"]}).json()
    second = play_out(page.request, live_server, game)
    state = page.request.post(f"{live_server}/api/games/{game}/next",
                              data={"version": second["version"]}).json()
    rolled = page.request.post(f"{live_server}/api/games/{game}/rolls",
                               data={"dice": [6, 6, 6, 6, 6], "version": state["version"]})
    page.request.post(f"{live_server}/api/games/{game}/scores",
                      data={"box": "yahtzee", "version": rolled.json()["state"]["version"]})
    page.goto(f"{live_server}/games/{game}")
    assert not page.locator(".print-pad").is_visible()  # on screen: the game as played
    # The finished games' cards are asked for once, right after the page opens.
    page.wait_for_selector('.print-player td[data-game="2"][data-row="grand_total"]:not(:empty)',
                           state="attached")
    page.emulate_media(media="print")
    assert page.locator(".print-pad").is_visible()
    assert not page.locator("#card").is_visible() and not page.locator("#turn").is_visible()
    assert page.locator(".print-player h2").all_inner_texts() == ["\u2068Ann\u2069",
                                                                   "\u2068Ben\u2069"]
    heads = page.locator('.print-player[data-player="0"] thead th.player').all_inner_texts()
    assert heads == [f"Game #{n}" for n in range(1, 7)]
    for seat in (0, 1):
        for number, played in ((1, first), (2, second)):
            card = played["cards"][seat]
            assert column(page, seat, number, "grand_total") == str(card["totals"]["grand_total"])
            assert column(page, seat, number, "chance") == str(card["boxes"]["chance"])
    assert column(page, 0, 3, "yahtzee") == "50"
    assert column(page, 0, 3, "grand_total") == "50"
    assert column(page, 1, 3, "yahtzee") == ""
    assert column(page, 0, 4, "grand_total") == ""  # not played yet
    total = first["cards"][0]["totals"]["grand_total"] + second["cards"][0]["totals"][
        "grand_total"] + 50
    assert page.locator('.print-player[data-player="0"] .print-series-total').inner_text() \
        == f"Series totals: {total}"

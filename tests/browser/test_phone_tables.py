"""Tables on a phone (390x844): the home page's finished games and statistics after a series
of games, and the review at the end of a game, every column in view without sideways
scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, play_out

pytestmark = pytest.mark.browser

RECT = "(e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
# How many lines the text of an element takes: the distinct tops of its text's boxes.
LINES = """(e) => { const range = document.createRange(); range.selectNodeContents(e);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""


def start(page: Any, base: str, players: list[str]) -> int:
    """Start a Yahtzee game as *page*'s device; return its id."""
    created = page.request.post(f"{base}/api/games", data={"rules": "yahtzee", "players": players})
    assert created.status == 201, created.text()
    return int(created.json()["id"])


def play_again(page: Any, base: str, game: int) -> None:
    """Start the next game of the series of *game*."""
    state = page.request.get(f"{base}/api/games/{game}").json()
    assert page.request.post(f"{base}/api/games/{game}/next",
                             data={"version": state["version"]}).ok


def test_games_finished_in_a_series_still_being_played_are_listed(device: Any,
                                                                  live_server: str) -> None:
    page = device(PHONE)
    game = start(page, live_server, ["Ann", "Ben", "Cat"])
    for _ in range(2):
        play_out(page.request, live_server, game)
        play_again(page, live_server, game)  # game #3 is being played
    page.goto(f"{live_server}/")
    unfinished = page.locator(f'#unfinished a[href="/games/{game}"]')
    unfinished.wait_for()
    assert "game #3, round 1" in unfinished.inner_text()
    finished = page.locator(f'#finished a[href="/games/{game}"]')
    finished.wait_for()
    assert "Yahtzee, game #2: Ann 110, Ben 110, Cat 110" in finished.inner_text()
    assert "★ \u2068Ann\u2069, \u2068Ben\u2069 and \u2068Cat\u2069" in finished.inner_text()
    assert page.locator("#finished .empty").count() == 0


def test_the_statistics_fit_a_phone(device: Any, live_server: str) -> None:
    page = device(PHONE)
    game = start(page, live_server, ["Annabelle Quist", "Ben"])
    play_out(page.request, live_server, game)
    page.goto(f"{live_server}/")
    row = page.locator("#stats tbody tr", has_text="Annabelle Quist")
    row.wait_for()
    frame = page.locator("#stats").locator("xpath=..")
    assert frame.evaluate("f => f.scrollWidth - f.clientWidth") <= 0
    left, _, right, _ = frame.evaluate(RECT)
    for cell in row.locator("th, td").all():
        rect = cell.evaluate(RECT)
        assert left - 0.5 <= rect[0] and rect[2] <= right + 0.5, cell.inner_text()
    # Each figure is named (a tie wins both players the game).
    assert [text.strip() for text in row.locator("td").all_inner_texts()] == [
        "Games 1", "Wins 1", "Average 110", "Best 110", "Yahtzees 0"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


def play_with_keeps(page: Any, base: str, game: int) -> None:
    """Play *game* out, each turn two rolls: three 4s kept from the first (what the review
    calls a keep) and the first suggested box scored."""
    url = f"{base}/api/games/{game}"
    while not (state := page.request.get(url).json())["finished"]:
        first = page.request.post(f"{url}/rolls", data={"dice": [4, 4, 4, 2, 6],
                                                         "version": state["version"]}).json()
        second = page.request.post(f"{url}/rolls", data={
            "dice": [4, 4, 4, 2, 1], "kept": [0, 1, 2], "version": first["state"]["version"]})
        rolled = second.json()
        page.request.post(f"{url}/scores", data={"box": rolled["suggestions"][0]["box"],
                                                  "version": rolled["state"]["version"]})


def test_the_review_shows_every_column_on_a_phone(device: Any, live_server: str) -> None:
    page = device(PHONE)
    game = start(page, live_server, ["Ann"])
    play_with_keeps(page, live_server, game)
    page.goto(f"{live_server}/games/{game}#review")
    page.wait_for_selector("#review .review-table tbody tr")
    body = page.locator("#review-body")
    assert body.evaluate("b => b.scrollWidth - b.clientWidth") <= 0
    rows = page.locator("#review .review-table tbody tr")
    assert rows.count() == 26  # a keep and a box each turn
    keeps = 0
    for row in rows.all():
        loss = row.locator(".r-loss")
        left, _, right, _ = loss.evaluate(RECT)
        assert left >= 0 and right <= PHONE[0], loss.inner_text()
        best = row.locator(".r-best")
        assert best.evaluate(LINES) <= 2, best.inner_text()
        keeps += "Keep \u2066" in best.inner_text()
    assert keeps > 0  # the long choices are among them

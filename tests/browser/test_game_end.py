"""Choosing who starts, the end of a game and "play again", in a real browser."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

YACHT_DICE = {"yacht": [6, 6, 6, 6, 6], "big_straight": [2, 3, 4, 5, 6],
              "little_straight": [1, 2, 3, 4, 5]}


def play_turn(context: Any, base: str, game: dict[str, Any], box: str) -> dict[str, Any]:
    """Roll and score *box* through the API; return the new state."""
    dice = YACHT_DICE.get(box, [3, 3, 3, 6, 6])
    rolled = context.request.post(f"{base}/api/games/{game['id']}/rolls",
                                  data={"dice": dice, "version": game["version"]})
    assert rolled.ok, rolled.text()
    state = rolled.json()["state"]
    scored = context.request.post(f"{base}/api/games/{game['id']}/scores",
                                  data={"box": box, "version": state["version"]})
    assert scored.ok, scored.text()
    result: dict[str, Any] = scored.json()
    return result


def test_roll_for_first_player(page: Any, live_server: str, context: Any) -> None:
    created = context.request.post(f"{live_server}/api/games", data={
        "rules": "yahtzee", "players": ["Ann", "Ben"], "roll_for_first": True})
    game = created.json()
    page.goto(f"{live_server}/games/{game['id']}")
    assert "Who starts? \u2068Ann\u2069" in page.inner_text("#turn-title")
    page.fill("#dice-text", "1 1 2 2 3")
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_function("document.querySelector('#turn-title').textContent.includes('Ben')")
    rolls = " ".join(page.inner_text(".first-rolls-box").split())
    assert "Ann\u2069 rolled \u20661 1 2 2 3\u2069, total 9" in rolls
    assert page.locator(".first-rolls-box .first-die").count() == 5
    page.fill("#dice-text", "6 6 5 5 4")
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_function("document.querySelector('#turn-title').textContent.includes('turn')")
    assert page.inner_text("#turn-title") == "\u2068Ben\u2069's turn"


def test_game_over_shows_the_winner_and_play_again_starts_game_two(
    page: Any, live_server: str, context: Any, new_game: Any
) -> None:
    game = new_game(["Dana"], rules="yacht")
    boxes = [box["slug"] for box in game["boxes"]]
    for box in boxes[:-1]:
        game = play_turn(context, live_server, game, box)
    page.goto(f"{live_server}/games/{game['id']}")
    assert page.locator("#game-over").is_hidden()
    page.fill("#dice-text", "6 6 6 6 6")
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.click(f'.suggestion[data-box="{boxes[-1]}"]')
    page.wait_for_selector("#game-over:not([hidden])")
    assert "Winner: \u2068Dana\u2069" in page.inner_text("#over-title")
    assert page.evaluate("document.activeElement.id") == "over-title"
    assert page.locator("#turn").is_hidden()
    total = page.inner_text('#card td[data-player="0"][data-row="grand_total"]')
    assert page.inner_text("#final-scores .total") == total

    page.click("#play-again")
    page.wait_for_function("document.querySelector('#game-number').textContent === 'Game #2'")
    assert page.locator("#game-over").is_hidden()
    assert page.inner_text('#card td[data-player="0"][data-row="grand_total"]') == "0"


def test_home_lists_unfinished_and_finished_games_and_statistics(
    page: Any, live_server: str, context: Any, new_game: Any
) -> None:
    done = new_game(["Zoë"], rules="yacht")
    for box in [b["slug"] for b in done["boxes"]]:
        done = play_turn(context, live_server, done, box)
    open_game = new_game(["Yusuf", "Xan"])
    page.goto(f"{live_server}/")
    page.wait_for_selector("#finished .game-link")
    unfinished = page.locator(f'#unfinished a[href="/games/{open_game["id"]}"]')
    assert "Yusuf" in unfinished.inner_text()
    finished = page.locator(f'#finished a[href="/games/{done["id"]}"]')
    assert "★ \u2068Zoë\u2069" in finished.inner_text()
    row = page.locator("#stats tbody tr", has_text="Zoë")
    assert row.locator("td").all_inner_texts()[:2] == ["1", "1"]
    unfinished.click()
    page.wait_for_url(f"**/games/{open_game['id']}")

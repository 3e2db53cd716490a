"""The pages in a real browser: start a game, type dice, score, undo, live board, Hebrew."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def cell(page: Any, player: int, row: str) -> Any:
    """Return the scorecard cell of *player* (seat) and *row* (box slug or total key)."""
    return page.locator(f'#card td[data-player="{player}"][data-row="{row}"]')


def type_dice_and_record(page: Any, dice: str) -> None:
    """Type *dice* ("6 6 4 6 6") into the turn panel and record the roll."""
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_selector(".suggestion")


def test_start_a_game_type_dice_score_and_undo(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/")
    page.fill("#player-1", "Ann")
    page.fill("#player-2", "Ben")
    page.click("#add-player")
    page.fill("#player-3", "Cem")
    page.locator("#players li").nth(2).locator(".remove").click()
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    assert page.locator("#card thead th.player .name").all_inner_texts() == ["Ann", "Ben"]
    assert "Ann" in page.inner_text("#turn-title")

    type_dice_and_record(page, "6 6 4 6 6")
    assert page.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.value)") == [
        "6", "6", "4", "6", "6"]
    assert "Roll 1 of 3" in page.inner_text("#turn-status")
    page.click('.suggestion[data-box="four_of_a_kind"]')
    page.wait_for_function("document.querySelector('#turn-title').textContent.includes('Ben')")
    assert cell(page, 0, "four_of_a_kind").inner_text() == "28"
    assert cell(page, 0, "grand_total").inner_text() == "28"

    page.click("#undo")
    page.wait_for_function("document.querySelector('#turn-title').textContent.includes('Ann')")
    assert cell(page, 0, "four_of_a_kind").locator(".score").count() == 0  # only a faint hint
    assert page.locator('.suggestion[data-box="four_of_a_kind"]').count() == 1


def set_die(page: Any, index: int, value: int) -> None:
    """Tap die *index* and pick *value* on the value picker."""
    page.locator(f'.die[data-index="{index}"]').click()
    page.locator(f'#die-picker .pick-face[data-value="{value}"]').click()


def test_keep_dice_and_pick_values_for_the_next_roll(
    page: Any, live_server: str, new_game: Any
) -> None:
    game = new_game(["Ann"])
    page.goto(f"{live_server}/games/{game['id']}")
    for index, value in enumerate([1, 1, 1, 1, 2]):
        set_die(page, index, value)
    page.click("#record-roll")
    page.wait_for_selector("text=Roll 1 of 3")
    page.locator(".keep").nth(0).click()
    assert page.locator(".keep").nth(0).get_attribute("aria-pressed") == "true"
    set_die(page, 1, 2)
    page.click("#record-roll")
    page.wait_for_selector("text=Roll 2 of 3")
    state = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    assert state["dice"] == [1, 2, 1, 1, 2]
    assert state["kept"] == [0]


def test_board_updates_live_after_a_score_on_another_page(
    context: Any, page: Any, live_server: str, new_game: Any
) -> None:
    game = new_game(["Ann", "Ben"])
    board = context.new_page()
    board.goto(f"{live_server}/games/{game['id']}/board")
    board.wait_for_selector("#live:not(.lost)")
    assert board.locator(".join-box img").count() == 0  # served on 127.0.0.1: no phone could
    assert "pipkeeper serve --host 0.0.0.0" in board.inner_text(".join-box")
    assert game["join_code"] in board.inner_text(".join-box")

    page.goto(f"{live_server}/games/{game['id']}")
    type_dice_and_record(page, "2 3 4 5 6")
    page.click('.suggestion[data-box="large_straight"]')
    board.wait_for_function(
        "document.querySelector('#card td[data-player=\"0\"][data-row=\"large_straight\"]')"
        "?.textContent === '40'", timeout=5_000)
    assert "Ben" in board.inner_text("#board-turn")
    board.close()


def test_switch_to_hebrew_is_right_to_left(page: Any, live_server: str, new_game: Any) -> None:
    game = new_game(["Ann"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.click('nav.langs a[lang="he"]')
    page.wait_for_function("document.documentElement.dir === 'rtl'")
    assert page.get_attribute("html", "lang") == "he"
    assert page.url.endswith(f"/games/{game['id']}")
    # The card is drawn by the page's script after load: wait for it, then read it.
    expect(page.locator("#card")).to_contain_text("סטרייט גדול")
    page.goto(f"{live_server}/pad")
    assert page.get_attribute("html", "dir") == "rtl"


def test_check_a_pad_marks_the_wrong_box(page: Any, live_server: str) -> None:
    page.goto(f"{live_server}/pad")
    page.fill('input[data-key="aces"]', "7")
    page.fill('input[data-key="twos"]', "4")
    page.click("#pad-form button[type=submit]")
    page.wait_for_selector('tr.problem[data-row="aces"]')
    assert "7 cannot be scored" in page.inner_text('tr[data-row="aces"]')
    assert page.locator('tr[data-row="twos"].problem').count() == 0
    assert page.get_attribute('input[data-key="aces"]', "aria-invalid") == "true"


def test_a_stale_page_says_so_and_shows_the_current_state(
    context: Any, page: Any, live_server: str, new_game: Any
) -> None:
    game = new_game(["Ann", "Ben"])
    page.route("**/events", lambda route: route.abort())  # this page misses the live updates
    page.goto(f"{live_server}/games/{game['id']}")
    type_dice_and_record(page, "1 2 3 4 5")
    state = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    elsewhere = context.request.post(f"{live_server}/api/games/{game['id']}/scores",
                                     data={"box": "large_straight", "version": state["version"]})
    assert elsewhere.ok
    page.click('.suggestion[data-box="chance"]')
    page.wait_for_selector("#messages .error")
    assert "changed on another device" in page.inner_text("#messages")
    assert cell(page, 0, "large_straight").inner_text() == "40"
    assert cell(page, 0, "chance").locator(".score").count() == 0
    assert "Ben" in page.inner_text("#turn-title")


def test_the_card_is_drawn_again_only_when_the_game_changes(
    context: Any, page: Any, live_server: str, new_game: Any
) -> None:
    """The live stream opens with the state the page already shows: a tap aimed at the card
    must not land on a table being replaced. Only a real change (another device's roll)
    draws it again."""
    page.add_init_script("""window.draws = 0;
      new MutationObserver((changes) => {
        window.draws += changes.filter((c) => c.target.id === 'card').length;
      }).observe(document, {childList: true, subtree: true});""")
    game = new_game(["Ann", "Ben"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.wait_for_selector("#card td.value")
    first = cell(page, 0, "grand_total").element_handle()
    state = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    rolled = context.request.post(f"{live_server}/api/games/{game['id']}/rolls",
                                  data={"dice": "1 2 3 4 5", "version": state["version"]})
    assert rolled.ok
    page.wait_for_selector(".suggestion")  # the roll came down the stream
    assert not first.evaluate("e => e.isConnected")
    page.wait_for_timeout(300)  # anything else the stream had queued
    assert page.evaluate("window.draws") == 2  # on opening, and for the roll

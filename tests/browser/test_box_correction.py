"""Correcting a box filled turns ago on the game page, at phone and tablet sizes."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TABLET

pytestmark = pytest.mark.browser

SIZES = {"phone": PHONE, "tablet": TABLET}
# Ann writes 2 3 4 5 5 in Large Straight (0); the real dice were 2 3 4 5 6 (40).
TURNS = [([2, 3, 4, 5, 5], "large_straight"), ([1, 1, 1, 2, 3], "aces"),
         ([6, 6, 6, 1, 2], "sixes"), ([2, 2, 2, 4, 5], "twos")]


@pytest.fixture(params=list(SIZES))
def touch_page(request: pytest.FixtureRequest, device: Any) -> Any:
    """A touch screen page of the size named by the parameter; fails on script errors."""
    return device(SIZES[request.param])


def played(page: Any, base: str) -> dict[str, Any]:
    """Two rounds of Ann and Ben, then Ann's roll on the table; return the state."""
    api = page.context.request
    state = api.post(f"{base}/api/games", data={"players": ["Ann", "Ben"]}).json()
    for dice, box in TURNS:
        state = api.post(f"{base}/api/games/{state['id']}/rolls",
                         data={"dice": dice, "version": state["version"]}).json()["state"]
        state = api.post(f"{base}/api/games/{state['id']}/scores",
                         data={"box": box, "version": state["version"]}).json()
    reply = api.post(f"{base}/api/games/{state['id']}/rolls",
                     data={"dice": [3, 3, 3, 4, 5], "version": state["version"]})
    result: dict[str, Any] = reply.json()["state"]
    return result


def cell(player: int, row: str) -> str:
    return f'#card td[data-player="{player}"][data-row="{row}"]'


def test_correcting_an_older_box_keeps_the_later_turns(touch_page: Any, live_server: str) -> None:
    page = touch_page
    state = played(page, live_server)
    page.goto(f"{live_server}/games/{state['id']}")
    assert page.inner_text(cell(0, "grand_total")) == "18"
    buttons = page.locator("#card .box-fix")
    assert buttons.count() == 4
    for i in range(4):  # every filled box is a finger-sized target
        box = buttons.nth(i).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box

    # One tab stop for the whole card; the arrow keys go from box to box.
    assert page.locator('#card .box-fix[tabindex="0"]').count() == 1
    page.locator(f"{cell(1, 'aces')} button").focus()
    for key in ["ArrowRight", "ArrowRight", "ArrowDown"]:
        page.keyboard.press(key)
    assert page.evaluate("document.activeElement.closest('td').dataset.row") == "large_straight"

    page.locator(f"{cell(0, 'large_straight')} button").tap()
    dialog = page.locator("#fix-dialog")
    assert dialog.is_visible()
    assert dialog.locator("h2").inner_text() == "Correct \u2068Ann\u2069's Large Straight"
    expect(dialog.locator(".fix-preview")).to_have_text(  # nothing changed yet: no error
        "Change a die or the box to see the new points.")
    assert dialog.locator("button[value=confirm]").is_disabled()
    frame = dialog.bounding_box()
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= page.viewport_size["width"]

    dialog.locator(".fix-die").nth(4).select_option("6")
    page.wait_for_function("document.querySelector('.fix-preview').textContent.includes('40')")
    assert dialog.locator(".fix-preview").inner_text() == (
        "Large Straight: 0 → 40.\nTotal: 18 → 58.")
    dialog.locator("button[value=confirm]").tap()
    page.wait_for_function(
        f"document.querySelector('{cell(0, 'grand_total')}').textContent === '58'")
    assert dialog.count() == 0
    # The later turns stayed: Ben's boxes, Ann's Sixes and the roll on the table.
    assert [page.inner_text(cell(p, row)) for p, row in
            [(1, "aces"), (0, "sixes"), (1, "twos"), (0, "large_straight")]] == [
        "3", "18", "6", "40"]
    assert page.inner_text(cell(1, "grand_total")) == "9"
    assert "Roll 1 of 3" in page.inner_text("#turn")
    assert page.locator("#correct-roll").is_visible()  # the roll on the table stays correctable
    assert "corrected" in (page.get_attribute(cell(0, "large_straight"), "class") or "")
    assert page.inner_text("#corrections ol") == (
        "Round 1, \u2068Ann\u2069: Large Straight \u20662 3 4 5 5\u2069 (0) → "
        "\u20662 3 4 5 6\u2069 (40)")

    # Undo takes the correction back, and only it (centred: the message bar sticks at the top).
    page.evaluate("document.getElementById('undo').scrollIntoView({block: 'center'})")
    page.locator("#undo").tap()
    page.wait_for_function(
        f"document.querySelector('{cell(0, 'grand_total')}').textContent === '18'")
    assert page.locator("#corrections ol").count() == 0
    assert page.inner_text(cell(0, "sixes")) == "18"


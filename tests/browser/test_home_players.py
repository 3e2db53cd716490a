"""The new-game form on a phone and a tablet: the players fit their card, and they can be
reordered and removed (by touch and by keyboard) before the game starts."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "tablet": (1024, 768), "portrait": (768, 1024)}

FITS = """(selector) => {
  const box = document.querySelector(selector);
  const card = box.closest(".sheet").getBoundingClientRect();
  const rect = box.getBoundingClientRect();
  return {overflow: box.scrollWidth - box.clientWidth,
          inside: rect.left >= card.left && rect.right <= card.right,
          page: document.documentElement.scrollWidth - window.innerWidth};
}"""


@pytest.fixture(params=sorted(SIZES))
def device(request: pytest.FixtureRequest, browser: Any) -> Any:
    """A page of a touch device at each of SIZES."""
    width, height = SIZES[request.param]
    ctx = browser.new_context(locale="en-GB", viewport={"width": width, "height": height},
                              has_touch=True, is_mobile=request.param == "phone")
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    ctx.close()


def test_players_box_fits_its_card(device: Any, live_server: str) -> None:
    device.goto(f"{live_server}/")
    for _ in range(6):
        device.click("#add-player")
    assert device.locator("#players li").count() == 8
    for selector in ("#new-game fieldset", "#players"):
        fit = device.evaluate(FITS, selector)
        assert fit == {"overflow": 0, "inside": True, "page": 0}, (selector, fit)
    sizes = device.locator("#players button, #add-player").evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })")
    assert min(min(size) for size in sizes) >= 44, sizes


def test_reorder_and_remove_players_before_the_game(device: Any, live_server: str) -> None:
    device.goto(f"{live_server}/")
    device.fill("#player-1", "Ann")
    device.fill("#player-2", "Ben")
    device.click("#add-player")
    device.fill("#player-3", "Cem")
    assert device.locator("#players li").first.locator(".move-up").is_disabled()
    device.get_by_role("button", name="Move player 3 up").focus()
    device.keyboard.press("Enter")  # Ann, Cem, Ben
    assert device.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "Move player 2 up"
    device.get_by_role("button", name="Move player 1 down").tap()  # Cem, Ann, Ben
    device.get_by_role("button", name="Remove player 3").tap()  # Cem, Ann
    assert device.locator("#players input").evaluate_all("is => is.map(i => i.value)") == [
        "Cem", "Ann"]
    assert device.locator("#players input").evaluate_all("is => is.map(i => i.id)") == [
        "player-1", "player-2"]
    device.click("#new-game button[type=submit]")
    device.wait_for_url("**/games/*")
    assert device.locator("#card thead th.player .name").all_inner_texts() == ["Cem", "Ann"]
    assert "Cem" in device.inner_text("#turn-title")

"""The new-game form on a phone and a tablet: the players fit their card, and they can be
reordered and removed (by touch and by keyboard) before the game starts."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE, PORTRAIT, TABLET

pytestmark = pytest.mark.browser

SIZES = [PHONE, TABLET, PORTRAIT]

FITS = """(selector) => {
  const box = document.querySelector(selector);
  const card = box.closest(".sheet").getBoundingClientRect();
  const rect = box.getBoundingClientRect();
  return {overflow: box.scrollWidth - box.clientWidth,
          inside: rect.left >= card.left && rect.right <= card.right,
          page: document.documentElement.scrollWidth - window.innerWidth};
}"""


@pytest.mark.parametrize("size", SIZES)
def test_players_box_fits_its_card(device: Any, live_server: str, size: tuple[int, int]) -> None:
    page = device(size)
    page.goto(f"{live_server}/")
    for _ in range(6):
        page.click("#add-player")
    assert page.locator("#players li").count() == 8
    for selector in ("#new-game fieldset", "#players"):
        fit = page.evaluate(FITS, selector)
        assert fit == {"overflow": 0, "inside": True, "page": 0}, (selector, fit)
    boxes = page.locator("#players button, #add-player").evaluate_all(
        "bs => bs.map(b => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })")
    assert min(min(box) for box in boxes) >= 44, boxes


@pytest.mark.parametrize("size", SIZES)
def test_reorder_and_remove_players_before_the_game(device: Any, live_server: str,
                                                    size: tuple[int, int]) -> None:
    page = device(size)
    page.goto(f"{live_server}/")
    page.fill("#player-1", "Ann")
    page.fill("#player-2", "Ben")
    page.click("#add-player")
    page.fill("#player-3", "Cem")
    assert page.locator("#players li").first.locator(".move-up").is_disabled()
    page.get_by_role("button", name="Move player 3 up").focus()
    page.keyboard.press("Enter")  # Ann, Cem, Ben
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == \
        "Move player 2 up"
    page.get_by_role("button", name="Move player 1 down").tap()  # Cem, Ann, Ben
    page.get_by_role("button", name="Remove player 3").tap()  # Cem, Ann
    assert page.locator("#players input").evaluate_all("is => is.map(i => i.value)") == [
        "Cem", "Ann"]
    assert page.locator("#players input").evaluate_all("is => is.map(i => i.id)") == [
        "player-1", "player-2"]
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/*")
    assert page.locator("#card thead th.player .name").all_inner_texts() == ["Cem", "Ann"]
    assert "Cem" in page.inner_text("#turn-title")

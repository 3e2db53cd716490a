"""The home page lists games a page at a time: Older games brings the next page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def test_older_unfinished_games_come_a_page_at_a_time(device: Any, live_server: str) -> None:
    page = device(PHONE)
    for n in range(21):  # with the other tests' games: more than the first page's 20
        page.request.post(f"{live_server}/api/games", data={"players": [f"Page {n}"]})
    page.goto(f"{live_server}/")
    page.wait_for_selector("#unfinished-more")
    assert page.locator("#unfinished li").count() == 20
    page.locator("#unfinished-more").tap()
    page.wait_for_function("document.querySelectorAll('#unfinished li').length > 20")
    names = [name.strip("\u2068\u2069")
             for name in page.locator("#unfinished .who").all_inner_texts()]
    assert names[:21] == [f"Page {n}" for n in range(20, -1, -1)]
    # the next page starts where the first ended: no game twice
    assert [name for name in names if name.startswith("Page ")] == names[:21]
    assert page.evaluate("document.activeElement.closest('li') === "
                         "document.querySelectorAll('#unfinished li')[20]")

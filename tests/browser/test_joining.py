"""Joining a table from a phone: the join code on the home page; the owner deletes a game."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}


def test_a_phone_joins_by_typing_the_code_and_plays(
    browser: Any, live_server: str, new_game: Any
) -> None:
    game = new_game(["Ann", "Ben"])
    phone = browser.new_context(locale="en-GB", viewport=PHONE, has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.goto(f"{live_server}/games/{game['id']}")
    assert "has not joined game" in page.inner_text("main")
    page.goto(f"{live_server}/")
    item = page.locator(f"a[href='/games/{game['id']}']")
    assert "Not joined" in item.inner_text()
    page.fill("#join-code", game["join_code"].lower())
    page.click(".join-form button")
    page.wait_for_url(f"{live_server}/games/{game['id']}")
    page.wait_for_selector(".card")
    reply = page.request.post(f"{live_server}/api/games/{game['id']}/rolls",
                              data={"dice": [2, 2, 3, 3, 3], "version": game["version"]})
    assert reply.status == 200
    box = page.locator("#join-code")
    assert box.count() == 0  # the game page itself asks for nothing
    phone.close()


def test_the_owner_deletes_a_game_from_the_home_page(
    context: Any, page: Any, live_server: str, new_game: Any
) -> None:
    game = new_game(["Cy"])
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server}/")
    row = page.locator("li", has=page.locator(f"a[href='/games/{game['id']}']"))
    row.locator(".delete-game").click()
    page.wait_for_selector("#messages .ok")
    assert page.inner_text("#messages") == "The game was deleted."
    assert page.locator(f"a[href='/games/{game['id']}']").count() == 0
    gone = context.request.get(f"{live_server}/api/games/{game['id']}")
    assert gone.status == 404

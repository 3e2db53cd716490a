"""The pages work under their Content-Security-Policy: no refusal on any page."""

from __future__ import annotations

from typing import Any


def test_pages_run_under_their_policy(browser: Any, live_server: str) -> None:
    ctx = browser.strict.new_context(locale="en-GB")  # the policy enforced
    refused: list[str] = []
    try:
        tab = ctx.new_page()
        tab.on("console", lambda m: refused.append(m.text)
               if "Content Security Policy" in m.text else None)
        errors: list[str] = []
        tab.on("pageerror", lambda error: errors.append(str(error)))
        response = ctx.request.post(f"{live_server}/api/games",
                                    data={"players": ["Ann", "Ben"], "roll_for_first": True})
        game = response.json()["id"]
        ctx.request.post(f"{live_server}/api/games/{game}/rolls",
                         data={"dice": [6, 5, 4, 3, 1], "version": 1})
        for path in ("/", f"/games/{game}", f"/games/{game}/board", "/pad"):
            tab.goto(f"{live_server}{path}")
            tab.wait_for_load_state("networkidle")
        dice = tab.goto(f"{live_server}/games/{game}")
        assert dice is not None and dice.ok
        tab.wait_for_selector(".first-die")
        style = tab.eval_on_selector(".first-die", "node => node.style.width")
    finally:
        ctx.close()
    assert refused == [] and errors == []
    assert style == "1.6em"  # set through the CSSOM, which the policy allows

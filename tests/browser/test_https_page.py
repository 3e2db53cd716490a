"""`pipkeeper serve --https` in Chromium: a phone opening the game page by a LAN name
gets a secure page, so the camera and Hands-free are offered; over http they are not."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.server import Server

pytestmark = pytest.mark.browser

LAN_NAME = "pipkeeper.test"  # a name that is not this machine's loopback, like a LAN address
START_GAME = """async () => {
  const reply = await fetch("/api/games", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({rules: "yahtzee", players: ["Ann"]})});
  return (await reply.json()).id;
}"""


@pytest.fixture(scope="module")
def lan_browser(launch: Any) -> Iterator[Any]:
    """A headless Chromium that finds LAN_NAME at 127.0.0.1 (no network needed)."""
    chromium = launch(f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1")
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """`pipkeeper serve` with and without --https, both answering LAN_NAME; yield their
    base URLs by scheme."""
    folder: Path = tmp_path_factory.mktemp("https-page")
    running = {"https": Server(folder / "tls.sqlite3"), "http": Server(folder / "plain.sqlite3")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_DATA_HOME", str(folder / "data"))
        urls = {scheme: f"{scheme}://{LAN_NAME}:"
                + str(server.start("--allow-host", LAN_NAME, *(["--https"] * (scheme == "https"))))
                for scheme, server in running.items()}
    yield urls
    for server in running.values():
        server.stop()


@pytest.mark.parametrize(("scheme", "secure"), [("https", True), ("http", False)])
def test_the_game_page_by_a_lan_name_is_secure_only_over_https(
        lan_browser: Any, servers: dict[str, str], scheme: str, secure: bool) -> None:
    context = lan_browser.new_context(ignore_https_errors=True, locale="en-GB", has_touch=True,
                                      is_mobile=True,
                                      viewport={"width": PHONE[0], "height": PHONE[1]})
    context.set_default_timeout(10_000)
    try:
        base = servers[scheme]
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/")
        game = page.evaluate(START_GAME)  # from the page: the browser alone resolves LAN_NAME
        page.goto(f"{base}/games/{game}")
        page.wait_for_selector("#dice .die")
        assert page.evaluate("location.protocol") == f"{scheme}:"
        assert page.evaluate("window.isSecureContext") is secure
        assert page.evaluate("typeof navigator.mediaDevices?.getUserMedia") == (
            "function" if secure else "undefined")
        assert page.is_visible("#handsfree-switch") is secure
        assert page.is_visible("#webcam-start") is secure
        assert errors == []
    finally:
        context.close()

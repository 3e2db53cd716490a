"""Downloading games on a phone: the game page's and the home page's links give files
holding the scorecards the page shows."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE, play_out

pytestmark = pytest.mark.browser


def finished_game(page: Any, base: str, players: list[str]) -> dict[str, Any]:
    """Start a game as *page*'s device and play it to its end; return its final state."""
    state = page.request.post(f"{base}/api/games",
                              data={"rules": "yahtzee", "players": players}).json()
    return play_out(page.request, base, int(state["id"]))


def click_download(page: Any, name: str) -> tuple[str, str]:
    """Tap the link named *name*; return the suggested file name and the file's text."""
    link = page.get_by_role("link", name=name)
    box = link.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44  # a finger can tap it
    with page.expect_download() as info:
        link.click()
    download = info.value
    assert download.failure() is None
    return download.suggested_filename, Path(download.path()).read_text(encoding="utf-8-sig")


def test_a_phone_downloads_the_scorecards_of_its_game(device: Any, live_server: str) -> None:
    page = device(PHONE)
    state = finished_game(page, live_server, ["Ann", "Ben"])
    page.goto(f"{live_server}/games/{state['id']}")
    page.wait_for_selector("#game-over:not([hidden])")

    name, text = click_download(page, "Spreadsheet (CSV)")
    assert name == f"pipkeeper-game-{state['id']}.csv"
    rows = list(csv.DictReader(io.StringIO(text)))
    grand = {r["player"]: int(r["value"]) for r in rows if r["row"] == "grand_total"}
    assert grand == {card["player"]: card["totals"]["grand_total"] for card in state["cards"]}
    chance = {r["player"]: r["value"] for r in rows if r["row"] == "chance"}
    assert chance == {card["player"]: str(card["boxes"]["chance"]) for card in state["cards"]}

    name, text = click_download(page, "Backup (JSON)")
    assert name == f"pipkeeper-game-{state['id']}.json"
    document = json.loads(text)
    assert document["format"] == "pipkeeper-games"
    assert [g["id"] for g in document["games"]] == [state["id"]]
    assert document["games"][0]["series"]["games"][0]["players"] == ["Ann", "Ben"]


def test_a_phone_downloads_its_finished_games_from_the_home_page(device: Any,
                                                                 live_server: str) -> None:
    page = device(PHONE)
    page.goto(f"{live_server}/")
    assert page.get_by_role("link", name="Backup (JSON)").count() == 0  # nothing finished yet
    first = finished_game(page, live_server, ["Cy"])
    second = finished_game(page, live_server, ["Dee", "Eli"])
    page.request.post(f"{live_server}/api/games", data={"rules": "yacht", "players": ["Fay"]})
    page.goto(f"{live_server}/")

    name, text = click_download(page, "Backup (JSON)")
    assert name.startswith("pipkeeper-finished-games-") and name.endswith(".json")
    assert [g["id"] for g in json.loads(text)["games"]] == [first["id"], second["id"]]
    name, text = click_download(page, "Spreadsheet (CSV)")
    assert name.endswith(".csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert sorted({r["player"] for r in rows}) == ["Cy", "Dee", "Eli"]

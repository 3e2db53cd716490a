"""The README's screenshots: run with PIPKEEPER_SCREENSHOTS=1 to rewrite docs/screenshots/*.png.

    PIPKEEPER_SCREENSHOTS=1 .venv/bin/python -m pytest tests/browser/test_screenshots.py

The photos are read by the camera pipeline itself: the laptop's photo of five dice, and a
phone's photo of the three dice thrown again beside two kept ones (light and dark).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cv2
import pytest

from tests.browser.conftest import SAMPLES

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.environ.get("PIPKEEPER_SCREENSHOTS"),
                       reason="set PIPKEEPER_SCREENSHOTS=1 to rewrite docs/screenshots"),
]

OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
MAX_BYTES = 300_000
# A few turns of three players: (dice, box).
TURNS = [
    ("1 1 1 3 4", "aces"), ("4 4 4 2 6", "fours"), ("3 3 3 5 5", "full_house"),
    ("2 2 2 6 5", "twos"), ("6 6 6 6 2", "sixes"), ("6 6 6 6 6", "yahtzee"),
    ("1 2 3 4 6", "small_straight"), ("5 5 5 3 1", "fives"), ("2 3 4 5 6", "large_straight"),
]


def play(context: Any, base: str, game: dict[str, Any]) -> dict[str, Any]:
    """Play TURNS through the API; return the state after them."""
    for dice, box in TURNS:
        rolled = context.request.post(f"{base}/api/games/{game['id']}/rolls",
                                      data={"dice": dice, "version": game["version"]})
        state = rolled.json()["state"]
        game = context.request.post(f"{base}/api/games/{game['id']}/scores",
                                    data={"box": box, "version": state["version"]}).json()
    return game


def vision_works(page: Any, base: str, game: dict[str, Any], photo: Path) -> bool:
    """True when the server reads photos itself (its model is installed)."""
    page.goto(f"{base}/games/{game['id']}")
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    answer = page.request.post(
        f"{base}/api/games/{game['id']}/rolls", headers={"X-CSRF-Token": token},
        multipart={"version": "0", "photo": {"name": photo.name, "mimeType": "image/jpeg",
                                             "buffer": photo.read_bytes()}})
    return bool(answer.status != 503)


def save(shot: bytes, name: str) -> None:
    """Write screenshot *name* and check its size."""
    path = OUT / name
    path.write_bytes(shot)
    assert len(shot) < MAX_BYTES, f"{path} is {len(shot)} bytes"


def upload(page: Any, url: str, photo: Path) -> None:
    """Open the game page at *url* and upload *photo*; wait until its five dice are shown."""
    page.goto(url)
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(".photo-die >> nth=4")
    page.wait_for_timeout(300)


def join(context: Any, base: str, game: dict[str, Any]) -> None:
    """Let *context*'s device in to *game*, as scanning its QR code does."""
    answer = context.request.get(f"{base}/join/{game['join_code']}")
    assert answer.ok, answer.text()


def kept_and_rethrown(page: Any, base: str, three_dice: Path) -> None:
    """On *page*'s own new game: roll 3 3 3 5 5, keep the fives, photograph the three others."""
    created = page.request.post(f"{base}/api/games",
                                data={"rules": "yahtzee", "players": ["Ann", "Ben"]})
    page.goto(f"{base}/games/{created.json()['id']}")
    page.fill("#dice-text", "3 3 3 5 5")
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_selector("text=Roll 1 of 3")
    for position in (3, 4):
        page.locator(".keep").nth(position).click()
    page.set_input_files("#photo-input", str(three_dice))
    page.wait_for_selector("text=Roll 2 recorded")
    page.wait_for_timeout(300)


def test_screenshots(browser: Any, live_server: str, five_dice_photo: Path,
                     tmp_path: Path) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    laptop = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    page = laptop.new_page()
    start = laptop.request.post(f"{live_server}/api/games",
                                data={"rules": "yahtzee", "players": ["Ann", "Ben", "Cem"]})
    game = play(laptop, live_server, start.json())
    probe = laptop.request.post(f"{live_server}/api/games",
                                data={"rules": "yahtzee", "players": ["Probe"]}).json()
    if not vision_works(page, live_server, probe, five_dice_photo):
        pytest.skip("the camera pipeline is not installed: the photos would not be read")
    upload(page, f"{live_server}/games/{game['id']}", five_dice_photo)
    save(page.screenshot(full_page=True), "game.png")

    tablet = browser.new_context(locale="en-GB", viewport={"width": 1024, "height": 768})
    join(tablet, live_server, game)
    board = tablet.new_page()
    board.goto(f"{live_server}/games/{game['id']}/board")
    board.wait_for_selector("#live:not(.lost)")
    save(board.screenshot(), "board.png")

    three_dice = tmp_path / "three.jpg"
    sample = cv2.imread(str(SAMPLES / "sample_01.jpg"))
    cv2.imwrite(str(three_dice), sample[:, :820])  # its left part: 1 4 1
    for scheme, name in (("light", "photo.png"), ("dark", "phone-dark.png")):
        phone = browser.new_context(locale="en-GB", viewport={"width": 390, "height": 844},
                                    device_scale_factor=1, is_mobile=True, has_touch=True,
                                    color_scheme=scheme)
        mobile = phone.new_page()
        kept_and_rethrown(mobile, live_server, three_dice)
        shot = mobile.locator("#roll-tools").screenshot() if scheme == "light" else (
            mobile.screenshot())
        save(shot, name)
        phone.close()
    for context in (laptop, tablet):
        context.close()

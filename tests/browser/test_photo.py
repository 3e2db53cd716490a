"""Photos in a real browser: the reading drawn over the photo, tap-to-correct with the value
picker, real vision."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

def die_values(page: Any, selector: str) -> list[str]:
    """Return the values shown by the elements matching *selector*, in order."""
    values: list[str] = page.locator(selector).all_inner_texts()
    return [v.strip() for v in values]


def test_photo_reading_is_drawn_and_a_tap_corrects_a_die(
    page: Any, live_server: str, new_game: Any, fake_vision: Any, five_dice_photo: Path
) -> None:
    photo = five_dice_photo
    reading = fake_vision(page, photo, low=2)
    game = new_game(["Ann", "Ben"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(".photo-die >> nth=4")
    truth = [str(v) for v in reading["values"]]
    assert die_values(page, ".photo-value") == truth
    assert page.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.value)") == truth
    assert page.locator(".photo-die.low").count() == 1
    assert "Check the highlighted dice" in page.inner_text("#photo-caption")

    page.locator('.photo-die[data-position="1"]').click()
    corrected = reading["values"][1] % 6 + 1
    page.locator(f'#die-picker .pick-face[data-value="{corrected}"]').click()
    assert die_values(page, ".photo-value")[1] == str(corrected)
    page.click("#correct-roll")
    page.wait_for_selector("text=Dice corrected")
    state = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    assert state["dice"][1] == corrected
    assert state["roll"] == 1


def test_photo_is_read_by_vision(
    page: Any, live_server: str, new_game: Any, five_dice_photo: Path
) -> None:
    photo = five_dice_photo
    game = new_game(["Ann"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(".photo-die >> nth=4", timeout=20_000)
    truth = sorted(json.loads(photo.with_suffix(".json").read_text())["values"])
    assert sorted(int(v) for v in die_values(page, ".photo-value")) == truth
    assert page.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.value)") == (
        die_values(page, ".photo-value"))


def test_no_camera_pipeline_is_said_in_the_players_language(
    context: Any, page: Any, live_server: str, new_game: Any, five_dice_photo: Path
) -> None:
    context.add_cookies([{"name": "pipkeeper_lang", "value": "tr", "url": live_server}])
    page.route("**/api/games/*/rolls", lambda route: route.fulfill(
        status=503, json={"error": "reading photos is not available on this server"}))
    game = new_game(["Ann"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(five_dice_photo))
    page.wait_for_selector("#messages .error")
    assert page.inner_text("#messages") == (
        "Bu sunucuda fotoğraf okuma yok. Zarları düğmelerle gir.")
    assert page.locator(".die").count() == 5  # the dice can still be set by hand


def test_webcam_capture_posts_a_frame(
    launch: Any, live_server: str, new_game: Any, fake_vision: Any, five_dice_photo: Path
) -> None:
    browser = launch("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream")
    game = new_game(["Ann"])
    page = browser.new_page()
    uploads: list[bytes] = []
    page.on("request", lambda r: uploads.append(r.post_data_buffer or b"")
            if r.method == "POST" and r.url.endswith("/rolls") else None)
    fake_vision(page, five_dice_photo)
    page.goto(f"{live_server}/join/{game['join_code']}")  # another device joins by its link
    assert page.url == f"{live_server}/games/{game['id']}"  # 127.0.0.1 is a secure context
    page.click("#webcam-start")
    page.wait_for_function("document.querySelector('#webcam-video').videoWidth > 0")
    page.click("#webcam-capture")
    page.wait_for_selector(".photo-die >> nth=4")
    browser.close()
    assert b'filename="webcam.jpg"' in uploads[0]
    assert b"Content-Type: image/jpeg" in uploads[0]

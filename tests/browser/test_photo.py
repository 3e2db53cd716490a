"""Photos in a real browser: the reading drawn over the photo, tap-to-correct, real vision."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import pytest

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def five_dice_samples() -> list[Path]:
    """Return the sample photos whose sidecar JSON holds exactly five dice."""
    return sorted(p for p in SAMPLES.glob("*.jpg")
                  if len(json.loads(p.with_suffix(".json").read_text())["values"]) == 5)


def truth_reading(photo: Path, low: int | None = None) -> dict[str, Any]:
    """Return a reading as the API sends it, built from the photo's true values and boxes."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    height, width = cv2.imread(str(photo)).shape[:2]
    dice = [{"value": v, "box": box, "confidence": 0.4 if i == low else 0.97}
            for i, (v, box) in enumerate(zip(truth["values"], truth["boxes"], strict=True))]
    return {"width": width, "height": height, "values": truth["values"], "dice": dice}


def answer_photos_with(page: Any, reading: dict[str, Any]) -> None:
    """Make photo uploads record *reading*'s values as a JSON roll and answer with *reading*."""

    def handle(route: Any) -> None:
        request = route.request
        if "multipart/form-data" not in (request.headers.get("content-type") or ""):
            route.continue_()
            return
        version = int(request.post_data_buffer.split(b'name="version"\r\n\r\n')[1].split(b"\r")[0])
        response = route.fetch(
            headers={"content-type": "application/json", "origin": request.headers["origin"]},
            post_data=json.dumps({"dice": reading["values"], "version": version}))
        body = response.json()
        route.fulfill(status=response.status, json={**body, "reading": reading})

    page.route("**/api/games/*/rolls", handle)


def die_values(page: Any, selector: str) -> list[str]:
    """Return the values shown by the elements matching *selector*, in order."""
    values: list[str] = page.locator(selector).all_inner_texts()
    return [v.strip() for v in values]


def test_photo_reading_is_drawn_and_a_tap_corrects_a_die(
    page: Any, live_server: str, new_game: Any
) -> None:
    photo = five_dice_samples()[0]
    reading = truth_reading(photo, low=2)
    answer_photos_with(page, reading)
    game = new_game(["Ann", "Ben"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(".photo-die >> nth=4")
    truth = [str(v) for v in reading["values"]]
    assert die_values(page, ".photo-value") == truth
    assert page.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.value)") == truth
    assert page.locator(".photo-die.low").count() == 1
    assert "Check the highlighted dice" in page.inner_text("#photo-caption")

    page.locator('.photo-die[data-index="1"]').click()
    corrected = reading["values"][1] % 6 + 1
    assert die_values(page, ".photo-value")[1] == str(corrected)
    page.click("#correct-roll")
    page.wait_for_selector("text=Dice corrected")
    state = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    assert state["dice"][1] == corrected
    assert state["roll"] == 1


def test_photo_is_read_by_vision(page: Any, live_server: str, new_game: Any) -> None:
    photo = five_dice_samples()[0]
    probe = new_game(["Probe"])
    page.goto(f"{live_server}/games/{probe['id']}")
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    answer = page.request.post(
        f"{live_server}/api/games/{probe['id']}/rolls", headers={"X-CSRF-Token": token},
        multipart={"photo": {"name": photo.name, "mimeType": "image/jpeg",
                             "buffer": photo.read_bytes()}})
    if answer.status == 503:
        pytest.skip(f"vision is not there yet: {answer.json().get('error')}")
    game = new_game(["Ann"])
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(".photo-die >> nth=4", timeout=20_000)
    truth = sorted(json.loads(photo.with_suffix(".json").read_text())["values"])
    assert sorted(int(v) for v in die_values(page, ".photo-value")) == truth
    assert page.locator(".die").evaluate_all("ds => ds.map(d => d.dataset.value)") == (
        die_values(page, ".photo-value"))

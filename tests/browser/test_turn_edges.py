"""A turn's rough edges on a phone: the photo after Undo, the boxes in hint order, the
correction dialog before a change, the count of a crowded photo, Keep marks over a reload."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, answer_photos_with, shown, truth_reading

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(device: Any) -> Any:
    """A phone-sized touch page, failing the test on any script error."""
    return device(PHONE)


def start(page: Any, base: str, players: list[str], rolls: list[list[int]]) -> int:
    """Start a game from *page*'s device, record *rolls* through the API, open its page;
    return its id."""
    response = page.request.post(f"{base}/api/games", data={"players": players})
    assert response.status == 201, response.text()
    state = response.json()
    for dice in rolls:
        rolled = page.request.post(f"{base}/api/games/{state['id']}/rolls",
                                   data={"dice": dice, "version": state["version"]})
        assert rolled.ok, rolled.text()
        state = rolled.json()["state"]
    page.goto(f"{base}/games/{state['id']}")
    page.wait_for_selector("#dice .die")
    game: int = state["id"]
    return game


def record(page: Any, dice: str, roll: int) -> None:
    """Type *dice*, record them as roll number *roll* and wait for it."""
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_selector(f"text=Roll {roll} of 3")


def test_undo_takes_the_photo_of_the_undone_roll_away(
    phone: Any, live_server: str, fake_vision: Any, five_dice_photo: Path
) -> None:
    page = phone
    reading = fake_vision(page, five_dice_photo)
    start(page, live_server, ["Ann"], [[2, 2, 2, 5, 5]])
    page.set_input_files("#photo-input", str(five_dice_photo))
    page.wait_for_selector("text=Roll 2 of 3")
    expect(page.locator("#photo")).to_be_visible()
    assert shown(page) == reading["values"]

    page.locator("#undo").click()
    page.wait_for_selector("text=Roll 1 of 3")
    assert shown(page) == [2, 2, 2, 5, 5]
    expect(page.locator("#photo")).to_be_hidden()
    assert page.locator(".photo-die").count() == 0


def test_with_hint_on_the_boxes_come_in_order_of_points_lost(
    phone: Any, live_server: str
) -> None:
    page = phone
    game = start(page, live_server, ["Ann"], [[6, 6, 6, 1, 2]] * 3)
    page.evaluate("localStorage.setItem('pipkeeper.hint', 'on')")
    page.reload()
    page.wait_for_selector("#suggestions .s-loss")
    hint = page.request.get(f"{live_server}/api/games/{game}/hint").json()
    losses = {o["box"]: o["loss"] for o in hint["options"] if o["kind"] == "score"}
    boxes = page.locator("#suggestions > li > .suggestion").evaluate_all(
        "bs => bs.map(b => b.dataset.box)")
    # By points Sixes (18) came third, after 3 of a Kind and Chance (21 each).
    assert boxes == ["sixes", "three_of_a_kind", "chance", "aces", "twos"]
    assert [losses[box] for box in boxes] == sorted(losses[box] for box in boxes)
    zeros = page.locator("#suggestions .zeros .suggestion").evaluate_all(
        "bs => bs.map(b => b.dataset.box)")
    assert len(zeros) == 8
    assert [losses[box] for box in zeros] == sorted(losses[box] for box in zeros)
    assert page.locator("#suggestions .suggestion.hint-best").evaluate_all(
        "bs => bs.map(b => b.dataset.box)") == ["sixes"]
    assert page.locator("#suggestions > li > .suggestion .s-loss").all_inner_texts()[:2] == [
        "0.0", "−3.6"]


def test_the_correction_dialog_opens_without_an_error(phone: Any, live_server: str) -> None:
    page = phone
    api = page.request
    state = api.post(f"{live_server}/api/games", data={"players": ["Ann"]}).json()
    state = api.post(f"{live_server}/api/games/{state['id']}/rolls",
                     data={"dice": [2, 3, 4, 5, 5], "version": state["version"]}).json()["state"]
    api.post(f"{live_server}/api/games/{state['id']}/scores",
             data={"box": "large_straight", "version": state["version"]})
    previews: list[str] = []
    page.on("request", lambda r: previews.append(r.url) if "/preview" in r.url else None)
    page.goto(f"{live_server}/games/{state['id']}")
    page.locator('#card td[data-player="0"][data-row="large_straight"] button').tap()
    dialog = page.locator("#fix-dialog")
    preview = dialog.locator(".fix-preview")
    expect(preview).to_have_text("Change a die or the box to see the new points.")
    assert preview.get_attribute("class") == "fix-preview"
    assert dialog.locator("button[value=confirm]").is_disabled()

    dialog.locator(".fix-die").nth(4).select_option("6")
    expect(preview).to_have_text("Large Straight: 0 → 40.Total: 0 → 40.")
    dialog.locator(".fix-die").nth(4).select_option("5")  # back as it was: nothing to check
    expect(preview).to_have_text("Change a die or the box to see the new points.")
    assert dialog.locator("button[value=confirm]").is_disabled()
    assert dialog.locator(".fix-preview.error").count() == 0
    assert len(previews) == 1


def test_a_photo_of_seven_dice_says_seven_were_found(
    phone: Any, live_server: str, five_dice_photo: Path
) -> None:
    page = phone
    reading = truth_reading(five_dice_photo)
    # Two more finds, doubted: the five surest are the roll.
    extra = [{"value": value, "box": [10 + 60 * i, 10, 60 + 60 * i, 60], "confidence": 0.3,
              "role": "doubtful", "position": None, "doubtful": True}
             for i, value in enumerate([3, 6])]
    reading["dice"] += extra
    answer_photos_with(page, reading)
    start(page, live_server, ["Ann"], [])
    page.set_input_files("#photo-input", str(five_dice_photo))
    expect(page.locator(".photo-die")).to_have_count(7)  # the reply may take a while
    assert page.locator(".photo-die.doubtful").count() == 2
    assert page.inner_text("#photo-caption") == (
        "Found 7 dice: tap a die to correct it. "
        "Dotted boxes are not counted: the camera doubts them.")


def test_keep_marks_outlive_a_reload(phone: Any, live_server: str) -> None:
    page = phone
    game = start(page, live_server, ["Ann", "Ben"], [])
    record(page, "2 2 6 5 6", 1)
    page.locator(".keep").nth(2).click()
    page.locator(".keep").nth(4).click()
    page.reload()
    page.wait_for_selector("text=Roll 1 of 3")
    assert page.locator(".keep").evaluate_all(
        "ks => ks.map(k => k.getAttribute('aria-pressed'))") == [
        "false", "false", "true", "false", "true"]
    expect(page.locator("#photo-hint")).to_have_text(
        "3 of 5 dice thrown: photograph them, or all five.")
    record(page, "1 1 6 3 6", 2)
    state = page.request.get(f"{live_server}/api/games/{game}").json()
    assert (state["dice"], state["kept"]) == ([1, 1, 6, 3, 6], [2, 4])

    # Marks made for another roll are not brought back to this one.
    page.locator(".keep").nth(0).click()
    page.locator("#undo").click()
    page.wait_for_selector("text=Roll 1 of 3")
    page.reload()
    page.wait_for_selector("text=Roll 1 of 3")
    assert page.locator(".keep").evaluate_all(
        "ks => ks.map(k => k.getAttribute('aria-pressed'))") == ["false"] * 5

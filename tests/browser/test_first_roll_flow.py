"""Rolling for the first player on a phone: each roll told and shown, a misread roll
corrected, and who starts announced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, shown

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(device: Any) -> Any:
    """A phone-sized touch page, failing the test on any script error."""
    return device(PHONE)


def open_first_roll_game(page: Any, live_server: str) -> int:
    """Start a game of Ann and Ben who roll for first, from *page*'s device; open it."""
    response = page.request.post(f"{live_server}/api/games", data={
        "rules": "yahtzee", "players": ["Ann", "Ben"], "roll_for_first": True})
    assert response.status == 201, response.text()
    game: int = response.json()["id"]
    page.goto(f"{live_server}/games/{game}")
    page.wait_for_selector("#dice .die")
    return game


def type_dice(page: Any, dice: str) -> None:
    """Set the dice on screen by typing *dice*."""
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")


def state_of(page: Any, live_server: str, game: int) -> dict[str, Any]:
    state: dict[str, Any] = page.request.get(f"{live_server}/api/games/{game}").json()
    return state


def test_a_photo_of_a_roll_for_first_is_shown_told_and_correctable(
    phone: Any, live_server: str, fake_vision: Any, five_dice_photo: Path
) -> None:
    page = phone
    reading = fake_vision(page, five_dice_photo)
    values = reading["values"]
    game = open_first_roll_game(page, live_server)
    page.set_input_files("#photo-input", str(five_dice_photo))
    dice = " ".join(map(str, values))
    expect(page.locator("#messages")).to_have_text(
        f"\u2068Ann\u2069 rolled \u2066{dice}\u2069, total {sum(values)}.")
    expect(page.locator("#photo")).to_be_visible()
    assert [int(v) for v in page.locator("button.photo-die").all_inner_texts()] == values
    assert shown(page) == values
    assert "Who starts? \u2068Ben\u2069" in page.inner_text("#turn-title")

    correct = page.locator("#correct-roll")
    expect(correct).to_have_text("Correct \u2068Ann\u2069's roll")
    fixed = values[0] % 6 + 1
    page.locator('.photo-die[data-position="0"]').click()
    page.locator(f'#die-picker .pick-face[data-value="{fixed}"]').click()
    correct.click()
    corrected = [fixed, *values[1:]]
    expect(page.locator("#messages")).to_have_text(
        f"Dice corrected: \u2066{' '.join(map(str, corrected))}\u2069.")
    state = state_of(page, live_server, game)
    assert (state["phase"], state["first_roll_pending"]) == ("first-roll", [1])
    assert state["first_rolls"] == [{"player": 0, "dice": corrected}]
    assert page.locator("button.photo-die").all_inner_texts()[0] == str(fixed)
    assert f"rolled \u2066{' '.join(map(str, corrected))}\u2069" in page.inner_text(
        ".first-rolls-box")


def test_the_deciding_roll_announces_who_starts_and_can_be_corrected(
    phone: Any, live_server: str
) -> None:
    page = phone
    game = open_first_roll_game(page, live_server)
    type_dice(page, "1 1 2 2 3")
    page.click("#record-roll")
    expect(page.locator("#messages")).to_have_text(
        "\u2068Ann\u2069 rolled \u20661 1 2 2 3\u2069, total 9.")

    type_dice(page, "6 6 5 5 4")
    page.click("#record-roll")
    expect(page.locator("#messages")).to_have_text(
        "\u2068Ben\u2069 rolled \u20666 6 5 5 4\u2069, total 26. \u2068Ben\u2069 starts with 26.")
    assert page.inner_text("#turn-title") == "\u2068Ben\u2069's turn"
    rolls = page.locator(".first-rolls-box")
    expect(rolls).to_be_visible()  # the deciding roll stays in view until play begins
    assert "\u2068Ben\u2069 rolled \u20666 6 5 5 4\u2069, total 26" in " ".join(
        rolls.inner_text().split())
    assert rolls.locator(".first-starts").inner_text() == "\u2068Ben\u2069 starts with 26."
    assert shown(page) == [6, 6, 5, 5, 4]

    # Ben's dice were misread: really 1 1 2 2 3, a tie, and both roll again.
    expect(page.locator("#correct-roll")).to_have_text("Correct \u2068Ben\u2069's roll")
    type_dice(page, "1 1 2 2 3")
    page.click("#correct-roll")
    expect(page.locator("#messages")).to_have_text(
        "Dice corrected: \u20661 1 2 2 3\u2069. "
        "\u2068Ann\u2069 and \u2068Ben\u2069 tied with 9: they roll again.")
    state = state_of(page, live_server, game)
    assert (state["phase"], state["first_roll_pending"]) == ("first-roll", [0, 1])
    assert "Who starts? \u2068Ann\u2069" in page.inner_text("#turn-title")

    type_dice(page, "5 5 5 5 5")
    page.click("#record-roll")
    expect(page.locator("#messages")).to_have_text(
        "\u2068Ann\u2069 rolled \u20665 5 5 5 5\u2069, total 25.")
    type_dice(page, "2 2 2 2 2")
    page.click("#record-roll")
    expect(page.locator("#messages")).to_have_text(
        "\u2068Ben\u2069 rolled \u20662 2 2 2 2\u2069, total 10. \u2068Ann\u2069 starts with 25.")
    type_dice(page, "3 3 3 1 2")
    page.click("#record-roll")
    expect(page.locator("#turn-status")).to_contain_text("Roll 1 of 3")
    expect(rolls).to_be_hidden()  # play has begun

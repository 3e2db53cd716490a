"""A turn as players play it, on a phone and on a tablet: kept dice and photos of the thrown
ones, the value picker, boxes that score exactly the dice on screen, focus after scoring."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, TABLET

pytestmark = pytest.mark.browser

SAMPLE = Path(__file__).resolve().parents[2] / "sample_images" / "sample_01.jpg"
# sample_01 shows 1 4 1 5 5 left to right; its left 820 pixels show only 1 4 1.
THREE_DICE_WIDTH = 820
SIZES = {"phone": PHONE, "tablet": TABLET}


@pytest.fixture(params=list(SIZES))
def tab(request: pytest.FixtureRequest, device: Any) -> Any:
    """A page at phone or tablet size, failing the test on any script error."""
    page = device(SIZES[request.param])
    page.context.set_default_timeout(15_000)
    return page


@pytest.fixture
def three_dice(tmp_path: Path) -> Path:
    """A photo of three dice only (1 4 1): the left part of a sample photo."""
    path = tmp_path / "three.jpg"
    cv2.imwrite(str(path), cv2.imread(str(SAMPLE))[:, :THREE_DICE_WIDTH])
    return path


def open_game(page: Any, live_server: str, players: list[str]) -> int:
    """Start a game from *page*'s device (its owner) and open its page; return its id."""
    response = page.request.post(f"{live_server}/api/games",
                                 data={"rules": "yahtzee", "players": players})
    assert response.status == 201, response.text()
    game: int = response.json()["id"]
    page.goto(f"{live_server}/games/{game}")
    page.wait_for_selector(".die")
    return game


def shown(page: Any) -> list[int | None]:
    """Return the dice on screen, None for a die not set."""
    values = page.locator("#dice .die").evaluate_all("ds => ds.map(d => d.dataset.value)")
    return [int(v) if v else None for v in values]


def record(page: Any, dice: str, roll: int) -> None:
    """Type *dice*, record them as roll number *roll* and wait for it."""
    page.fill("#dice-text", dice)
    page.click("#dice-form button[type=submit]")
    page.click("#record-roll")
    page.wait_for_selector(f"text=Roll {roll} of 3")


def keep(page: Any, *positions: int) -> None:
    for position in positions:
        page.locator(".keep").nth(position).click()


def state_of(page: Any, live_server: str, game: int) -> dict[str, Any]:
    state: dict[str, Any] = page.request.get(f"{live_server}/api/games/{game}").json()
    return state


def test_photo_of_the_thrown_dice_keeps_the_kept_ones(
    tab: Any, live_server: str, three_dice: Path
) -> None:
    game = open_game(tab, live_server, ["Ann"])
    record(tab, "2 2 2 5 5", 1)
    assert tab.input_value("#dice-text") == ""  # typed dice are for one roll
    keep(tab, 3, 4)
    expect(tab.locator("#photo-hint")).to_have_text(
        "3 of 5 dice thrown: photograph them, or all five.")
    tab.set_input_files("#photo-input", str(three_dice))
    tab.wait_for_selector("text=Roll 2 recorded")
    assert shown(tab) == [1, 4, 1, 5, 5]
    assert tab.locator("#dice .die.kept").evaluate_all(
        "ds => ds.map(d => d.dataset.index)") == ["3", "4"]  # the kept marks survive
    assert state_of(tab, live_server, game)["kept"] == [3, 4]
    assert tab.locator("button.photo-die").count() == 3


def test_photo_of_all_five_reads_only_the_thrown_dice(
    tab: Any, live_server: str
) -> None:
    game = open_game(tab, live_server, ["Ann"])
    record(tab, "3 3 3 5 5", 1)
    keep(tab, 3, 4)
    tab.set_input_files("#photo-input", str(SAMPLE))
    tab.wait_for_selector("text=Roll 2 recorded")
    assert shown(tab) == [1, 4, 1, 5, 5]
    assert tab.locator("button.photo-die").count() == 3
    kept = tab.locator(".photo-die.kept")
    assert kept.count() == 2 and kept.all_inner_texts() == ["5", "5"]
    assert "The kept dice keep their values." in tab.inner_text("#photo-caption")
    assert state_of(tab, live_server, game)["dice"] == [1, 4, 1, 5, 5]


def test_more_dice_than_thrown_the_surest_count_the_rest_are_doubtful(
    tab: Any, live_server: str, three_dice: Path
) -> None:
    game = open_game(tab, live_server, ["Ann"])
    record(tab, "6 6 6 6 3", 1)
    keep(tab, 0, 1, 2, 3)
    tab.set_input_files("#photo-input", str(three_dice))
    tab.wait_for_selector("text=Roll 2 recorded")
    state = state_of(tab, live_server, game)
    assert state["dice"][:4] == [6, 6, 6, 6] and state["dice"][4] in (1, 4)
    assert tab.locator("button.photo-die").count() == 1
    assert tab.locator(".photo-die.doubtful").count() == 2
    assert "Dotted boxes are not counted" in tab.inner_text("#photo-caption")


def test_fewer_dice_than_thrown_records_nothing(
    tab: Any, live_server: str, three_dice: Path
) -> None:
    game = open_game(tab, live_server, ["Ann"])
    record(tab, "2 2 2 5 5", 1)
    keep(tab, 4)
    tab.set_input_files("#photo-input", str(three_dice))
    tab.wait_for_selector("#messages .error")
    assert tab.inner_text("#messages") == (
        "Dice found: 3; dice thrown: 4. Set the dice with the buttons.")
    assert state_of(tab, live_server, game)["roll"] == 1
    assert shown(tab) == [2, 2, 2, 5, 5]  # the dice on screen are still there to set


def test_value_picker_sets_a_die_in_one_tap(tab: Any, live_server: str) -> None:
    open_game(tab, live_server, ["Ann"])
    for index, value in enumerate([6, 6, 4, 6, 2]):
        tab.locator(f'#dice .die[data-index="{index}"]').click()
        expect(tab.locator("#die-picker-title")).to_have_text(f"Value of die {index + 1}")
        faces = tab.locator("#die-picker .pick-face")
        for box in (faces.nth(i).bounding_box() for i in range(6)):
            assert box["width"] >= 44 and box["height"] >= 44  # a finger's size
        tab.locator(f'#die-picker .pick-face[data-value="{value}"]').click()
        expect(tab.locator("#die-picker")).to_be_hidden()
    assert shown(tab) == [6, 6, 4, 6, 2]


def test_a_box_scores_the_dice_on_screen_or_nothing(
    tab: Any, live_server: str
) -> None:
    game = open_game(tab, live_server, ["Ann", "Ben"])
    record(tab, "6 6 4 6 1", 1)
    tab.locator('#dice .die[data-index="4"]').click()
    tab.locator('#die-picker .pick-face[data-value="6"]').click()  # edited, not recorded
    expect(tab.locator("#draft-note")).to_be_visible()
    tab.click('.suggestion[data-box="three_of_a_kind"]')
    expect(tab.locator("#messages .error")).to_contain_text(
        "The dice on screen are not recorded yet")
    state = state_of(tab, live_server, game)
    assert (state["current_player"], state["roll"], state["dice"]) == (0, 1, [6, 6, 4, 6, 1])
    assert tab.evaluate("document.activeElement.id") == "record-roll"

    tab.click("#record-roll")
    tab.wait_for_selector("text=Roll 2 of 3")
    expect(tab.locator("#draft-note")).to_be_hidden()
    tab.click('.suggestion[data-box="three_of_a_kind"]')
    tab.wait_for_function("document.querySelector('#turn-title').textContent.includes('Ben')")
    state = state_of(tab, live_server, game)
    assert state["cards"][0]["boxes"]["three_of_a_kind"] == 28  # 6 6 4 6 6, as on screen


def test_keyboard_only_turn_and_focus_back_on_the_dice(
    tab: Any, live_server: str
) -> None:
    game = open_game(tab, live_server, ["Ann", "Ben"])
    tab.locator('#dice .die[data-index="0"]').focus()
    for index, value in enumerate("55552"):
        tab.keyboard.press(value)  # a digit sets the focused die
        tab.keyboard.press("Tab")
        if index < 4:
            assert tab.evaluate("document.activeElement.dataset.index") == str(index + 1)
    assert shown(tab) == [5, 5, 5, 5, 2]
    tab.locator('#dice .die[data-index="4"]').focus()
    tab.keyboard.press("Enter")  # the picker opens on the die's value
    assert tab.evaluate("document.activeElement.dataset.value") == "2"
    tab.keyboard.press("ArrowRight")
    tab.keyboard.press("ArrowRight")
    tab.keyboard.press("ArrowRight")
    tab.keyboard.press("Enter")
    assert shown(tab) == [5, 5, 5, 5, 5]
    assert tab.evaluate("document.activeElement.dataset.index") == "4"  # back on the die
    tab.keyboard.press("Enter")
    tab.keyboard.press("Escape")
    expect(tab.locator("#die-picker")).to_be_hidden()
    assert tab.evaluate("document.activeElement.dataset.index") == "4"

    tab.locator("#record-roll").focus()
    tab.keyboard.press("Enter")
    tab.wait_for_selector("text=Roll 1 of 3")
    tab.locator('.suggestion[data-box="yahtzee"]').focus()
    tab.keyboard.press("Enter")
    tab.wait_for_function("document.querySelector('#turn-title').textContent.includes('Ben')")
    assert state_of(tab, live_server, game)["cards"][0]["boxes"]["yahtzee"] == 50
    # The next player's roll starts where the focus now is: the first die.
    assert tab.evaluate("[document.activeElement.className, document.activeElement.dataset.index]"
                        ) == ["die", "0"]

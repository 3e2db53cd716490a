"""Hands-free mode with a fake camera: real frames read by the real server, rolls recorded.

Chromium's fake camera plays a Y4M video made here from a rendered sample photo: first the
five dice of sample_01 lying still, then the same table after one die (the 4) was thrown
again and landed elsewhere as a 5. The page must record roll 1 as read, then roll 2 with the
four dice that did not move kept; Undo takes roll 2 back and the unchanged table is not
proposed again.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.browser.conftest import SAMPLES

pytestmark = pytest.mark.browser

FPS = 5
FIRST_SECONDS = 8  # the first throw lies still this long, then the second for the rest
SECOND_SECONDS = 16
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}
TABLET = {"width": 1024, "height": 768}
# sample_01 at 640x480, read left to right: 1 4 1 5 5; the 4 is then thrown again as a 5.
FIRST_ROLL = [1, 4, 1, 5, 5]
SECOND_ROLL = [1, 5, 1, 5, 5]
KEPT = [0, 2, 3, 4]


def half_box(box: list[int]) -> tuple[int, int, int, int]:
    """Return a box of the 1280x960 sample in the 640x480 frame."""
    x1, y1, x2, y2 = (v // 2 for v in box)
    return x1, y1, x2, y2


def scenes() -> tuple[np.ndarray, np.ndarray]:
    """Return the two 640x480 pictures: sample_01, then its 4 rethrown as a 5 elsewhere."""
    photo = SAMPLES / "sample_01.jpg"
    boxes = json.loads(photo.with_suffix(".json").read_text())["boxes"]
    first = cv2.resize(cv2.imread(str(photo)), (640, 480), interpolation=cv2.INTER_AREA)
    second = first.copy()
    margin = 6
    x1, y1, x2, y2 = half_box(boxes[0])  # the 4: covered by the bare table just above it
    second[y1 - margin:y2 + margin, x1 - margin:x2 + margin] = (
        first[y1 - margin - 80:y2 + margin - 80, x1 - margin:x2 + margin])
    x1, y1, x2, y2 = half_box(boxes[2])  # a 5, copied to an empty part of the table
    five = first[y1 - margin:y2 + margin, x1 - margin:x2 + margin]
    second[314:314 + five.shape[0], 134:134 + five.shape[1]] = five
    return first, second


@pytest.fixture(scope="module")
def fake_video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Y4M video (I420, 5 fps) of the first throw, then the second."""
    path = tmp_path_factory.mktemp("camera") / "dice.y4m"
    first, second = scenes()
    with path.open("wb") as video:
        video.write(f"YUV4MPEG2 W640 H480 F{FPS}:1 Ip A1:1 C420jpeg\n".encode())
        for picture, seconds in ((first, FIRST_SECONDS), (second, SECOND_SECONDS)):
            frame = b"FRAME\n" + cv2.cvtColor(picture, cv2.COLOR_BGR2YUV_I420).tobytes()
            video.write(frame * (FPS * seconds))
    return path


def wait_for_state(context: Any, url: str, test: Any, seconds: float = 20) -> dict[str, Any]:
    """Poll the game's state until *test*(state) holds; return it (fail after *seconds*)."""
    deadline = time.monotonic() + seconds
    while True:
        state: dict[str, Any] = context.request.get(url).json()
        if test(state):
            return state
        assert time.monotonic() < deadline, f"no such state: roll {state['roll']}, {state['dice']}"
        time.sleep(0.2)


OpenGame = Callable[[dict[str, int]], tuple[Any, str]]


@pytest.fixture
def camera_game(launch: Any, live_server: str, fake_video: Path) -> Iterator[OpenGame]:
    """Return a function (viewport) -> (page, state URL): a new game of Ann, open on a page of
    that size in a Chromium whose camera plays *fake_video*. Script errors fail the test."""
    browser = launch("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
                     f"--use-file-for-fake-video-capture={fake_video}")
    errors: list[str] = []

    def open_game(viewport: dict[str, int]) -> tuple[Any, str]:
        context = browser.new_context(locale="en-GB", viewport=viewport)
        context.set_default_timeout(20_000)
        game = context.request.post(f"{live_server}/api/games",
                                    data={"rules": "yahtzee", "players": ["Ann"]}).json()
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{live_server}/games/{game['id']}")
        return page, f"{live_server}/api/games/{game['id']}"

    yield open_game
    browser.close()
    assert not errors, f"script errors on the page: {errors}"


def shown_dice(page: Any) -> list[int]:
    """Return the values in the page's dice row."""
    values: list[int] = page.locator(".die").evaluate_all(
        "ds => ds.map(d => Number(d.dataset.value))")
    return values


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_hands_free_records_settled_throws_and_keeps_the_dice_that_stayed(
    camera_game: OpenGame, viewport: dict[str, int]
) -> None:
    page, url = camera_game(viewport)
    context = page.context
    page.click("#handsfree")
    page.wait_for_selector(".live-die >> nth=4")  # the dice boxed live over the picture
    page.wait_for_selector("#live-proposal:not([hidden])")
    text = page.inner_text("#live-proposal-text").replace("\u2066", "").replace("\u2069", "")
    assert text == "Dice settled: 1 4 1 5 5. Recorded in a moment unless they move."
    assert page.locator("#live-record").is_visible()
    assert shown_dice(page) == FIRST_ROLL
    first = wait_for_state(context, url, lambda s: s["roll"] == 1)
    assert first["dice"] == FIRST_ROLL and first["kept"] == []

    second = wait_for_state(context, url, lambda s: s["roll"] == 2)
    assert second["dice"] == SECOND_ROLL and second["kept"] == KEPT
    assert page.locator(".die.kept").count() == len(KEPT)

    page.click("#undo")  # one tap takes the roll back; the table as it is stays handled
    wait_for_state(context, url, lambda s: s["roll"] == 1)
    page.wait_for_selector("#live-caption:has-text('Waiting for the next throw.')")
    time.sleep(2.5)
    assert context.request.get(url).json()["roll"] == 1
    assert page.locator("#live-proposal").is_hidden()

    page.click("#handsfree")  # off: the camera is released
    assert page.locator("#webcam").is_hidden()
    assert page.evaluate("document.querySelector('#webcam-video').srcObject") is None
    assert page.locator(".live-die").count() == 0


def test_hiding_the_page_stops_hands_free_and_releases_the_camera(
    camera_game: OpenGame,
) -> None:
    page, _ = camera_game(PHONE)
    page.click("#handsfree")
    page.wait_for_selector(".live-die")
    page.evaluate("""() => {
      Object.defineProperty(document, "hidden", { value: true, configurable: true });
      document.dispatchEvent(new Event("visibilitychange"));
    }""")
    assert not page.is_checked("#handsfree")
    assert page.locator("#webcam").is_hidden()
    assert page.evaluate("document.querySelector('#webcam-video').srcObject") is None
    assert "Hands-free stopped while the page was hidden" in page.inner_text("#messages")


def test_correct_by_hand_holds_the_proposal_back_for_the_record_button(
    camera_game: OpenGame,
) -> None:
    page, url = camera_game(TABLET)
    page.click("#handsfree")
    page.wait_for_selector("#live-proposal:not([hidden])")
    page.click("#live-hold")
    assert page.locator("#live-proposal").is_hidden()
    time.sleep(3)  # past the moment it would have been recorded
    assert page.context.request.get(url).json()["roll"] == 0
    assert shown_dice(page) == FIRST_ROLL  # left on screen to correct, then record by hand
    page.click("#record-roll")
    state = wait_for_state(page.context, url, lambda s: s["roll"] == 1)
    assert state["dice"] == FIRST_ROLL

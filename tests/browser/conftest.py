"""The production server and a real Chromium for the browser tests.

The app is `pipkeeper serve` itself, a child process on 127.0.0.1 and a free
port with a temporary database, as players run it. Chromium is Debian's
/usr/bin/chromium; where it is missing the tests are skipped, except under CI
(``CI`` set), where that is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import pytest

from tests.server import Server

CHROMIUM = os.environ.get("PIPKEEPER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]


def _chromium_or_skip() -> str:
    """Return the Chromium executable; skip (locally) or fail (CI) when it is missing."""
    found = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if found:
        return found
    message = f"Chromium not found at {CHROMIUM}: install it with `apt-get install chromium`"
    if os.environ.get("CI"):
        pytest.fail(f"{message} (CI must run the browser tests)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the app with `pipkeeper serve` on a free local port; yield its base URL."""
    folder = tmp_path_factory.mktemp("live")
    server = Server(folder / "pipkeeper.sqlite3")
    port = server.start("--games-per-minute", "100000")  # the tests start many games
    yield f"http://127.0.0.1:{port}"
    server.stop()


class CspBypassing:
    """A browser whose contexts bypass the pages' Content-Security-Policy: Playwright's
    ``wait_for_function`` evaluates strings in the page, which the policy refuses (no
    'unsafe-eval'). `test_csp` checks the pages under the policy on ``.strict``."""

    def __init__(self, strict: Any) -> None:
        self.strict = strict

    def new_context(self, **options: Any) -> Any:
        """Return a new context of the browser that bypasses the CSP."""
        return self.strict.new_context(bypass_csp=True, **options)

    def new_page(self, **options: Any) -> Any:
        """Return a page of a new context that bypasses the CSP."""
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.strict, name)


@pytest.fixture(scope="session")
def launch() -> Iterator[Any]:
    """Return a function launching a headless Chromium with the standard and *extra* flags."""
    executable = _chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:

        def start(*extra: str) -> Any:
            return CspBypassing(playwright.chromium.launch(executable_path=executable,
                                                           args=[*CHROMIUM_ARGS, *extra]))

        yield start


@pytest.fixture(scope="session")
def browser(launch: Any) -> Iterator[Any]:
    """A headless Chromium for the whole session (see CspBypassing)."""
    chromium = launch()
    yield chromium
    chromium.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser profile (cookies, storage) in English, laptop-sized."""
    ctx = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(10_000)
    yield ctx
    ctx.close()


PHONE, TABLET, PORTRAIT = (390, 844), (1024, 768), (768, 1024)


@pytest.fixture
def device(browser: Any) -> Iterator[Any]:
    """Return a function (size, scheme, locale) -> a fresh page of a touch device of that size
    ((width, height); PHONE is a mobile one), colour scheme ("light" or "dark") and browser
    language. A script error on any of them fails the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def make(size: tuple[int, int], scheme: str = "light", locale: str = "en-GB") -> Any:
        ctx = browser.new_context(locale=locale, viewport={"width": size[0], "height": size[1]},
                                  has_touch=True, is_mobile=size == PHONE, color_scheme=scheme)
        ctx.set_default_timeout(10_000)
        contexts.append(ctx)
        tab = ctx.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        return tab

    yield make
    for ctx in contexts:
        ctx.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def page(context: Any) -> Any:
    """A page that fails the test on any script error."""
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def new_game(context: Any, live_server: str) -> Any:
    """Return a function starting a game through the API: (players, rules) -> state."""

    def start(players: list[str], rules: str = "yahtzee") -> dict[str, Any]:
        response = context.request.post(f"{live_server}/api/games",
                                        data={"rules": rules, "players": players})
        assert response.status == 201, response.text()
        state: dict[str, Any] = response.json()
        return state

    return start


SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"


def five_dice_samples() -> list[Path]:
    """Return the sample photos whose sidecar JSON holds exactly five dice."""
    truths = {p: p.with_suffix(".json") for p in SAMPLES.glob("*.jpg")}
    return sorted(p for p, truth in truths.items()
                  if truth.is_file() and len(json.loads(truth.read_text())["values"]) == 5)


def truth_reading(photo: Path, low: int | None = None) -> dict[str, Any]:
    """Return a reading as the API sends it, built from the photo's true values and boxes."""
    truth = json.loads(photo.with_suffix(".json").read_text())
    height, width = cv2.imread(str(photo)).shape[:2]
    dice = [{"value": v, "box": box, "confidence": 0.4 if i == low else 0.97,
             "role": "thrown", "position": i, "doubtful": False, "check": i == low}
            for i, (v, box) in enumerate(zip(truth["values"], truth["boxes"], strict=True))]
    return {"width": width, "height": height, "values": truth["values"], "dice": dice}


def answer_photos_with(page: Any, reading: dict[str, Any]) -> None:
    """Make *page*'s photo uploads record *reading*'s values as a JSON roll, answered with it.

    This stands in for the camera pipeline, so the page's drawing of a reading is tested
    whether or not the vision model is there.
    """

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


@pytest.fixture
def five_dice_photo() -> Path:
    """The smallest sample photo with exactly five dice (skips when there is none)."""
    photos = five_dice_samples()
    if not photos:
        pytest.skip(f"no sample photo with five dice in {SAMPLES}")
    return min(photos, key=lambda photo: photo.stat().st_size)


@pytest.fixture
def fake_vision() -> Any:
    """Return a function (page, photo, low) installing `answer_photos_with` the photo's truth."""

    def install(page: Any, photo: Path, low: int | None = None) -> dict[str, Any]:
        reading = truth_reading(photo, low)
        answer_photos_with(page, reading)
        return reading

    return install


def play_out(request: Any, base: str, game: int) -> dict[str, Any]:
    """Play game *game*'s current game to its end through *request* (a browser context's API
    client): 2 3 4 5 6 each turn, scored in the first suggested box; return the final state."""
    while not (state := request.get(f"{base}/api/games/{game}").json())["finished"]:
        rolled = request.post(f"{base}/api/games/{game}/rolls",
                              data={"dice": [2, 3, 4, 5, 6], "version": state["version"]}).json()
        request.post(f"{base}/api/games/{game}/scores",
                     data={"box": rolled["suggestions"][0]["box"],
                           "version": rolled["state"]["version"]})
    return dict(state)


def shown(page: Any) -> list[int]:
    """Return the dice on screen."""
    values = page.locator("#dice .die").evaluate_all("ds => ds.map(d => d.dataset.value)")
    return [int(v) for v in values]

"""Checking a pad from a photo in a real browser at phone size: a rendered Hasbro pad with a
slip in the first game's Grand total is uploaded; the page reads every column, shows the
photo with the problem cell outlined and the first game in the typed grid; fixing the cell
there runs the audit again, and the problem is gone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser

SAMPLES = Path(__file__).resolve().parents[2] / "sample_images"
SAMPLE = SAMPLES / "pads" / "hasbro_24.jpg"
NO_PAD = SAMPLES / "sample_01.jpg"  # dice on a table


def test_a_photographed_pad_is_read_checked_and_fixed(device: Any, live_server: str) -> None:
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    first = truth["columns"][0]
    page = device(PHONE)
    page.goto(f"{live_server}/pad")
    page.select_option("#pad-layout", "hasbro")
    page.set_input_files("#pad-file", str(SAMPLE))
    page.wait_for_selector("#pad-photo-summary strong", timeout=30_000)
    assert page.inner_text("#pad-photo-summary strong").startswith(
        "Hasbro Yahtzee pad: 2 columns read. 1 problem found.")
    assert page.input_value("#pad-column") == "0"
    assert page.locator("#pad-column option").all_inner_texts()[:3] == [
        "Game #1", "Game #2", "Game #3 (blank)"]
    page.wait_for_selector("#pad-result strong")
    assert page.input_value("#pad-chance-lower") == str(first["chance"])
    assert page.input_value("#pad-grand_total-lower") == str(first["grand_total"])
    note = page.inner_text('#pad-grid tr[data-row="grand_total"] .problem-note')
    assert f"not {first['grand_total']}" in note
    outlined = page.locator('#pad-photo-marks polygon.problem')
    assert outlined.count() == 1 and outlined.get_attribute("data-key") == "grand_total"
    # The player fixes the Grand total: the audit runs again and finds nothing.
    right = int(note.split("should be ")[1].split(" ")[0])
    page.fill("#pad-grand_total-lower", str(right))
    page.dispatch_event("#pad-grand_total-lower", "change")
    page.wait_for_function(
        "document.querySelector('#pad-result strong')?.classList.contains('ok')")
    assert page.locator("#pad-photo-marks polygon.problem").count() == 0
    # Tapping a cell of the second game's column shows that game in the grid.
    page.select_option("#pad-column", "1")
    assert page.input_value("#pad-aces-upper") == str(truth["columns"][1]["aces"])
    # A second photo that shows no pad (dice on a table): its error stands alone, the
    # first photo's view is gone, and what the grid holds stays for the player.
    page.set_input_files("#pad-file", str(NO_PAD))
    page.wait_for_selector("#messages .message.error", timeout=30_000)
    assert "but a Hasbro Yahtzee pad has 22 rows" in page.inner_text("#messages .message.error")
    assert page.locator("#pad-photo-view").is_hidden()
    assert page.input_value("#pad-aces-upper") == str(truth["columns"][1]["aces"])


def test_the_printed_sheet_aligns_by_its_markers(page: Any, live_server: str,
                                                 new_game: Any) -> None:
    """The sheet the browser prints for a series, photographed flat: its four markers are
    found and every row and game column of its grid with them."""
    import cv2
    import numpy as np

    from scorekeeper import ruleset
    from scorekeeper.padlayouts import pad_layout
    from tests.browser.conftest import play_out
    from vision.pad import find_grid
    from vision.padread import grid_spec

    game = new_game(["Ann"])["id"]
    first = play_out(page.request, live_server, game)
    page.request.post(f"{live_server}/api/games/{game}/next",
                      data={"version": first["version"]})
    page.set_viewport_size({"width": 900, "height": 1200})
    page.goto(f"{live_server}/games/{game}")
    page.wait_for_selector('.print-player td[data-game="1"][data-row="grand_total"]:not(:empty)',
                           state="attached")
    page.emulate_media(media="print")
    assert page.locator(".print-player .pad-marker").count() == 4
    shot = page.locator('.print-player[data-player="0"] .print-grid').screenshot()
    photo = cv2.imdecode(np.frombuffer(shot, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert photo is not None
    photo = cv2.copyMakeBorder(photo, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=255)
    layout = pad_layout("pipkeeper")
    rows = layout.rows_for(ruleset("yahtzee"))
    grid = find_grid(photo, grid_spec(layout, rows))
    assert (grid.method, len(grid.cells), len(grid.cells[0])) == ("markers", 6, len(rows))
    table = page.locator('.print-player[data-player="0"] table').bounding_box()
    frame = page.locator('.print-player[data-player="0"] .print-grid').bounding_box()
    assert table is not None and frame is not None
    # The grid's corners found in the picture are the table's, within 3 px.
    left, top = table["x"] - frame["x"] + 40, table["y"] - frame["y"] + 40
    assert np.abs(grid.corners[0] - [left, top]).max() < 3

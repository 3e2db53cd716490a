"""A die the reader is not sure of is marked on the photo for the player to check, on a
phone, with the real reader: a smoky translucent six read as a four with 0.70 is counted
but highlighted, while the dice read surely are not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import PHONE
from tests.vision.vision_samples import SHARED, translucent_six_photo

pytestmark = pytest.mark.browser


def test_a_misread_die_read_without_certainty_is_highlighted(
    device: Any, live_server: str, tmp_path: Path
) -> None:
    photo = translucent_six_photo(tmp_path)
    if photo is None:
        pytest.skip(f"shared dice photos not found at {SHARED}")
    page = device(PHONE)
    game = page.request.post(f"{live_server}/api/games",
                             data={"rules": "maxi-yatzy", "players": ["Ann"]}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(photo))
    page.wait_for_selector(".photo-die >> nth=5", timeout=20_000)
    values = [v.strip() for v in page.locator(".photo-value").all_inner_texts()]
    assert sorted(values) == ["1", "2", "2", "2", "4", "5"]
    marked = page.locator(".photo-die.low .photo-value").all_inner_texts()
    assert sorted(v.strip() for v in marked) == ["1", "4"]  # the misread 4 among them
    assert "Check the highlighted dice" in page.inner_text("#photo-caption")
    state = page.request.get(f"{live_server}/api/games/{game['id']}").json()
    assert sorted(state["dice"]) == [1, 2, 2, 2, 4, 5]  # counted, and correctable

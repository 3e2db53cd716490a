"""The owner removes a device from a game on a phone: it is out at once, the others stay."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import PHONE

pytestmark = pytest.mark.browser


def test_the_owner_removes_one_device_on_a_phone(device: Any, live_server: str) -> None:
    owner, phone, tablet = device(PHONE), device(PHONE), device(PHONE)
    created = owner.request.post(f"{live_server}/api/games", data={"players": ["Ann", "Ben"]})
    game = created.json()
    for other in (phone, tablet):
        other.goto(f"{live_server}/join/{game['join_code']}")
        other.wait_for_selector(".card")
    owner.goto(f"{live_server}/games/{game['id']}")
    owner.locator("#devices summary").tap()
    items = owner.locator("#device-list .device")
    items.nth(2).wait_for()
    assert items.count() == 3
    assert "This device" in items.nth(0).inner_text()
    assert items.nth(0).locator(".remove-device").count() == 0
    box = items.nth(1).locator(".remove-device").bounding_box()
    assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE[0]
    items.nth(1).locator(".remove-device").tap()
    owner.wait_for_selector("#messages .ok")
    assert owner.inner_text("#messages").endswith("was removed from the game.")
    owner.wait_for_function("document.querySelectorAll('#device-list .device').length === 2")
    url = f"{live_server}/api/games/{game['id']}"
    assert phone.request.get(url).status == 403
    assert tablet.request.get(url).status == 200
    assert owner.evaluate("document.documentElement.scrollWidth") <= PHONE[0]


def test_a_player_sees_no_devices_panel(device: Any, live_server: str) -> None:
    owner, phone = device(PHONE), device(PHONE)
    game = owner.request.post(f"{live_server}/api/games", data={"players": ["Ann"]}).json()
    phone.goto(f"{live_server}/join/{game['join_code']}")
    phone.wait_for_selector(".card")
    assert phone.locator("#devices").count() == 0

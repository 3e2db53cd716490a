"""The devices that joined a game: its owner lists them and removes one, whose cookie and
live stream stop at once while every other device keeps its own."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from flask import Flask

from tests.conftest import AppFactory
from tests.web.conftest import Api
from tests.web.test_events import events_of, parse
from web import access, db, devices

IPHONE = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15"
          " (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")
ANDROID = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)"
           " Chrome/124.0.0.0 Mobile Safari/537.36")
WINDOWS_EDGE = ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)"
                " Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51")


def device(app: Flask, user_agent: str) -> Api:
    """A device of its own (its own cookies) whose browser says *user_agent*."""
    client = app.test_client()
    client.environ_base["HTTP_USER_AGENT"] = user_agent
    return Api(client)


@pytest.fixture
def table(app: Flask) -> tuple[Api, Api, Api, dict[str, object]]:
    """An owner on a Windows laptop, a phone and a tablet that joined its game, the state."""
    owner = device(app, WINDOWS_EDGE)
    state = owner.create(["Ann", "Ben"])
    phone = device(app, ANDROID).join(str(state["join_code"]))
    tablet = device(app, IPHONE).join(str(state["join_code"]))
    return owner, phone, tablet, state


def test_the_owner_lists_the_devices_that_joined(table: tuple[Api, Api, Api, dict]) -> None:
    owner, phone, _, state = table
    listed = owner.get(f"/api/games/{state['id']}/devices")["devices"]
    assert [(d["role"], d["label"], d["this"]) for d in listed] == [
        ("owner", "Edge · Windows", True), ("player", "Chrome · Android", False),
        ("player", "Safari · iPhone", False)]
    assert listed[0]["joined_at"] <= listed[1]["joined_at"] <= listed[2]["joined_at"]
    phone.join(str(state["join_code"]))  # the same device joining again is the same device
    assert len(owner.get(f"/api/games/{state['id']}/devices")["devices"]) == 3


def test_a_removed_device_is_out_at_once_and_the_others_stay(
        table: tuple[Api, Api, Api, dict]) -> None:
    owner, phone, tablet, state = table
    game = state["id"]
    phone_id = owner.get(f"/api/games/{game}/devices")["devices"][1]["id"]
    assert owner.client.delete(f"/api/games/{game}/devices/{phone_id}").status_code == 204
    refused = phone.get(f"/api/games/{game}", 403)
    assert refused["error"] == (f"this device has not joined game {game}: open its join link "
                                "or type its 6-letter join code")
    assert phone.get("/api/games")["games"][0]["joined"] is False
    assert tablet.roll(int(str(game)), [1, 2, 3, 4, 5])["state"]["version"] == 2
    assert [d["label"] for d in owner.get(f"/api/games/{game}/devices")["devices"]] == [
        "Edge · Windows", "Safari · iPhone"]


def test_a_removed_devices_stream_ends_and_the_others_go_on(
        table: tuple[Api, Api, Api, dict]) -> None:
    owner, phone, tablet, state = table
    game = int(str(state["id"]))
    phone_stream, tablet_stream = events_of(phone.client, game), events_of(tablet.client, game)
    next(phone_stream), next(tablet_stream)
    phone_id = owner.get(f"/api/games/{game}/devices")["devices"][1]["id"]
    started = time.monotonic()
    owner.client.delete(f"/api/games/{game}/devices/{phone_id}")
    assert list(phone_stream) == []
    assert time.monotonic() - started < 1.0  # ended, not run out (EVENTS_MAX_SECONDS is 3)
    owner.roll(game, [6, 6, 6, 6, 6])
    message = next(tablet_stream)
    while message.startswith(":"):  # keep-alives
        message = next(tablet_stream)
    assert parse(message)[1]["dice"] == [6, 6, 6, 6, 6]


def test_only_the_owner_sees_and_removes_devices(table: tuple[Api, Api, Api, dict]) -> None:
    owner, phone, tablet, state = table
    game = state["id"]
    only = f"only the device that started game {game} may do this"
    assert phone.get(f"/api/games/{game}/devices", 403) == {"error": only}
    listed = owner.get(f"/api/games/{game}/devices")["devices"]
    response = phone.client.delete(f"/api/games/{game}/devices/{listed[2]['id']}")
    assert (response.status_code, response.get_json()) == (403, {"error": only})
    assert tablet.state(int(str(game)))["id"] == game


def test_removing_the_owner_or_an_unknown_device_is_refused(
        app: Flask, table: tuple[Api, Api, Api, dict]) -> None:
    owner, _, _, state = table
    game = state["id"]
    mine = owner.get(f"/api/games/{game}/devices")["devices"][0]["id"]
    other = device(app, IPHONE)
    elsewhere = other.create(["Cem"])["id"]
    theirs = other.get(f"/api/games/{elsewhere}/devices")["devices"][0]["id"]
    response = owner.client.delete(f"/api/games/{game}/devices/{mine}")
    assert (response.status_code, response.get_json()["error"]) == (
        400, f"the device that started game {game} cannot be removed: delete the game instead")
    for missing in (theirs, 999):  # another game's device is not this game's
        response = owner.client.delete(f"/api/games/{game}/devices/{missing}")
        assert (response.status_code, response.get_json()) == (
            404, {"error": f"game {game} has no device {missing}"})
    assert other.state(elsewhere)["players"] == ["Cem"]


def test_a_new_join_code_keeps_only_the_owners_device(
        table: tuple[Api, Api, Api, dict]) -> None:
    owner, phone, _, state = table
    game = state["id"]
    fresh = owner.post(f"/api/games/{game}/join-code", {})
    assert [d["label"] for d in owner.get(f"/api/games/{game}/devices")["devices"]] == [
        "Edge · Windows"]
    phone.join(str(fresh["join_code"]))
    assert len(owner.get(f"/api/games/{game}/devices")["devices"]) == 2


def test_a_cookie_from_before_devices_holds_and_gets_its_device(
        tmp_path: Path, make_app: AppFactory) -> None:
    path = tmp_path / "old.sqlite3"
    app = make_app(path)
    owner = device(app, IPHONE)
    state = owner.create(["Ann"])
    game, code = int(str(state["id"])), str(state["join_code"])
    conn = sqlite3.connect(path)  # as a file of schema version 4 was: no devices
    conn.executescript("DROP TABLE devices; PRAGMA user_version = 4;")
    conn.close()
    migrated = make_app(path)
    assert db.schema_version(sqlite3.connect(path)) == len(db.migrations())
    owner = device(migrated, ANDROID)
    with migrated.test_request_context():
        legacy = f"owner.{access._mac(access._key(), 'owner', game, code, None)}"
    owner.client.set_cookie(f"{access.COOKIE_PREFIX}{game}", legacy)
    response = owner.client.get(f"/api/games/{game}")
    assert response.status_code == 200 and response.get_json()["players"] == ["Ann"]
    cookie = owner.client.get_cookie(f"{access.COOKIE_PREFIX}{game}")
    assert cookie is not None and cookie.value.startswith("owner.1.")
    listed = owner.get(f"/api/games/{game}/devices")["devices"]
    assert [(d["id"], d["role"], d["label"], d["this"]) for d in listed] == [
        (1, "owner", "Chrome · Android", True)]


@pytest.mark.parametrize(
    ("user_agent", "label"),
    [
        (IPHONE, "Safari · iPhone"),
        (ANDROID, "Chrome · Android"),
        (WINDOWS_EDGE, "Edge · Windows"),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
         "Firefox · Linux"),
        ("Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like "
         "Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
         "Samsung Internet · Android"),
        ("curl/8.5.0", ""),
        ("", ""),
    ],
)
def test_a_device_is_named_by_its_browser_and_system(user_agent: str, label: str) -> None:
    assert devices.short_name(user_agent) == label

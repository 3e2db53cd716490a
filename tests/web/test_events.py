"""The event stream: the state on connect, every change within a second, keep-alives, an end."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import AppFactory
from tests.web.conftest import Api
from web import store
from web.storage import storage


def events_of(client: FlaskClient, game_id: int) -> Iterator[str]:
    """Return the stream's messages (as text) one by one, as the server yields them."""
    response = client.get(f"/api/games/{game_id}/events")
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    assert response.headers["Cache-Control"] == "no-cache"
    return (chunk.decode() for chunk in response.response)  # type: ignore[union-attr]


def parse(message: str) -> tuple[str, Any]:
    """Return the event name and its JSON data."""
    fields = dict(line.split(": ", 1) for line in message.strip().splitlines())
    return fields["event"], json.loads(fields["data"])


def test_state_on_connect_then_after_each_change(client: FlaskClient, api: Api) -> None:
    game = api.create()["id"]
    stream = events_of(client, game)
    first = next(stream)
    assert first.startswith("retry: 1000\n")
    assert parse(first) == ("state", api.state(game))
    api.roll(game, [3, 3, 3, 5, 5])
    changed = time.monotonic()
    event, state = parse(next(stream))
    assert time.monotonic() - changed < 1.0
    assert event == "state"
    assert (state["version"], state["dice"], state["roll"]) == (2, [3, 3, 3, 5, 5], 1)
    api.score(game, "full_house")
    event, state = parse(next(stream))
    assert state["cards"][0]["boxes"]["full_house"] == 25 and state["current_player"] == 1


def test_change_from_another_process_is_seen(make_app: AppFactory, client: FlaskClient,
                                             api: Api) -> None:
    created = api.create()
    game = created["id"]
    stream = events_of(client, game)
    next(stream)
    other = Api(make_app().test_client()).join(created["join_code"])  # a second server
    other.roll(game, [1, 2, 3, 4, 5])
    changed = time.monotonic()
    event, state = parse(next(stream))
    assert time.monotonic() - changed < 1.0
    assert (event, state["dice"]) == ("state", [1, 2, 3, 4, 5])


def test_idle_stream_sends_keep_alives_and_ends(make_app: AppFactory) -> None:
    app: Flask = make_app(EVENTS_KEEPALIVE_SECONDS=0.2, EVENTS_MAX_SECONDS=0.7)
    api = Api(app.test_client())
    game = api.create()["id"]
    started = time.monotonic()
    messages = list(events_of(api.client, game))
    assert 0.6 < time.monotonic() - started < 2.0
    assert parse(messages[0])[0] == "state"
    assert messages[1:] and set(messages[1:]) == {": keep-alive\n\n"}


def test_stream_says_gone_when_the_game_is_removed(app: Flask, client: FlaskClient,
                                                   api: Api) -> None:
    game = api.create()["id"]
    stream = events_of(client, game)
    next(stream)
    conn = storage(app).open()  # another server process deletes it
    store.delete(conn, game)
    conn.close()
    assert parse(next(stream)) == ("gone", {"id": game})
    assert list(stream) == []


def test_closing_the_stream_releases_it(client: FlaskClient, api: Api) -> None:
    game = api.create()["id"]
    response = client.get(f"/api/games/{game}/events")
    chunks = iter(response.response)
    next(chunks)
    response.close()  # what the server does when the client goes away
    assert list(chunks) == []

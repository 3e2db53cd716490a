"""Every accepted action is on disk: a restarted app continues exactly where play stopped."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from flask import Flask

from tests.conftest import AppFactory
from tests.web.conftest import Api


def test_a_restarted_app_sees_the_same_game(make_app: AppFactory) -> None:
    before = Api(make_app().test_client())
    created = before.create(["Ann", "Ben"])
    game = created["id"]
    before.roll(game, [4, 4, 4, 1, 2])
    before.score(game, "fours")
    before.roll(game, [1, 2, 3, 4, 6])
    state = before.state(game)

    after = Api(make_app().test_client()).join(created["join_code"])  # same file, fresh app
    assert after.state(game) == state
    assert after.get("/api/games")["games"][0]["id"] == game
    reply = after.roll(game, [1, 2, 3, 4, 5], kept=[0, 1, 2, 3], version=state["version"])
    assert reply["state"]["version"] == state["version"] + 1
    assert reply["state"]["roll"] == 2


def test_a_rejected_action_changes_nothing(make_app: AppFactory) -> None:
    api = Api(make_app().test_client())
    created = api.create(["Ann"])
    game = created["id"]
    api.roll(game, [6, 6, 6, 6, 6])
    state = api.state(game)
    api.score(game, "jackpot", status=400)
    api.roll(game, [9], status=400)
    api.score(game, "yahtzee", version=state["version"] - 1, status=409)
    api.post(f"/api/games/{game}/next", {}, 409)
    assert Api(make_app().test_client()).join(created["join_code"]).state(game) == state


def test_simultaneous_actions_on_one_version_accept_exactly_one(app: Flask) -> None:
    created = Api(app.test_client()).create(["Ann", "Ben"])
    game = created["id"]
    start = threading.Barrier(6, timeout=10)

    def roll(value: int) -> int:
        client = Api(app.test_client()).join(created["join_code"]).client  # one device each
        start.wait()
        response = client.post(f"/api/games/{game}/rolls",
                               json={"dice": [value] * 5, "version": 1})
        return response.status_code

    with ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(roll, range(1, 7)))
    assert sorted(statuses) == [200] + [409] * 5
    state = Api(app.test_client()).join(created["join_code"]).state(game)
    assert (state["version"], state["roll"]) == (2, 1)

"""Helpers for the API tests: `api` posts JSON and checks the status it expects.

The storage and API test modules named in BOTH_ENGINES run each test twice: on
SQLite and on PostgreSQL (the ``engine`` fixture, tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from flask.testing import FlaskClient

BOTH_ENGINES = frozenset({
    "test_api_games.py", "test_api_play.py", "test_api_corrections.py",
    "test_api_stats_audit.py", "test_join.py", "test_access.py", "test_devices.py",
    "test_paging.py", "test_exchange.py", "test_persistence.py", "test_events.py",
    "test_series_cards.py",
})


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the tests of the modules in BOTH_ENGINES on SQLite and on PostgreSQL."""
    if "engine" in metafunc.fixturenames and metafunc.definition.path.name in BOTH_ENGINES:
        metafunc.parametrize("engine", ["sqlite", "postgresql"], indirect=True)


class Api:
    """A thin JSON client of the pipkeeper API over Flask's test client."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    def post(self, url: str, body: Any, status: int = 200) -> dict[str, Any]:
        """POST *body* as JSON; assert the status; return the JSON reply."""
        response = self.client.post(url, json=body)
        assert response.status_code == status, response.get_json()
        data: dict[str, Any] = response.get_json()
        return data

    def get(self, url: str, status: int = 200) -> dict[str, Any]:
        """GET *url*; assert the status; return the JSON reply."""
        response = self.client.get(url)
        assert response.status_code == status, response.get_data(as_text=True)
        data: dict[str, Any] = response.get_json()
        return data

    def create(self, players: Sequence[str] = ("Ann", "Ben"), rules: str = "yahtzee",
               **extra: Any) -> dict[str, Any]:
        """Start a game; return its state."""
        return self.post("/api/games", {"rules": rules, "players": list(players), **extra}, 201)

    def roll(self, game_id: int, dice: Any, status: int = 200, **fields: Any) -> dict[str, Any]:
        """Post a roll of *dice* (based on the current version unless *fields* name one);
        return the reply (reading, dice, suggestions, state)."""
        fields.setdefault("version", self.state(game_id)["version"])
        return self.post(f"/api/games/{game_id}/rolls", {"dice": dice, **fields}, status)

    def score(self, game_id: int, box: str, version: int | None = None,
              status: int = 200) -> dict[str, Any]:
        """Score *box* based on *version* (default: the current one); return the reply."""
        if version is None:
            version = self.state(game_id)["version"]
        return self.post(f"/api/games/{game_id}/scores", {"box": box, "version": version}, status)

    def join(self, code: str) -> Api:
        """Join the game of join code *code* as another device does; return this client."""
        response = self.client.get(f"/join/{code}")
        assert response.status_code == 302, response.get_data(as_text=True)
        return self

    def state(self, game_id: int) -> dict[str, Any]:
        """Return the game's state."""
        return self.get(f"/api/games/{game_id}")

    def play_out(self, game_id: int, dice: Sequence[int] = (2, 3, 4, 5, 6)) -> dict[str, Any]:
        """Play every remaining turn: roll *dice*, score the best suggestion; return the state."""
        state = self.state(game_id)
        while not state["finished"]:
            rolled = self.roll(game_id, list(dice))
            best = rolled["suggestions"][0]["box"]
            state = self.score(game_id, best, rolled["state"]["version"])
        return state


@pytest.fixture
def api(client: FlaskClient) -> Api:
    """An `Api` over the test client."""
    return Api(client)

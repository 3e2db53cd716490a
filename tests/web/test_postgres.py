"""PostgreSQL shared by several servers: one cookie key, ids that never collide, stale
writes refused across processes, changes told by NOTIFY to every process's streams even
after its listening connection was lost, 503 while the server is down or the pool is
full, no acknowledged write lost when a server process is killed, and a quick load of
tables spread over two processes."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.conftest import AppFactory
from tests.server import Server
from tests.threads import on_own_thread
from tests.web.conftest import Api
from tests.web.test_events import events_of, parse
from web.loadtest import QUICK
from web.loadtest.postgres import Cluster
from web.loadtest.spread import spread
from web.storage import storage


@pytest.fixture
def engine() -> str:
    """Every test of this module runs on PostgreSQL."""
    return "postgresql"


def test_every_process_signs_cookies_with_the_key_kept_in_the_database(
        make_app: AppFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PIPKEEPER_SECRET_KEY", raising=False)
    first, second = make_app(SECRET_KEY=None), make_app(SECRET_KEY=None)
    assert first.secret_key == second.secret_key and len(str(first.secret_key)) == 64
    owner = Api(first.test_client())
    game = owner.create()["id"]
    moved = Api(second.test_client())  # the same phone, its next request on another process
    moved.client.set_cookie(f"pk-game-{game}",
                            owner.client.get_cookie(f"pk-game-{game}").value)  # type: ignore[union-attr]
    assert moved.state(game)["id"] == game
    moved.get(f"/api/games/{game}/devices")  # an owner's right, on the other process


def test_ids_never_collide_between_processes(make_app: AppFactory) -> None:
    apps = [make_app() for _ in range(3)]
    made: list[int] = []

    def start(app: Flask) -> None:
        api = Api(app.test_client())
        made.extend(api.create()["id"] for _ in range(8))

    threads = [threading.Thread(target=start, args=(app,)) for app in apps]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(made) == list(range(1, 25))


def test_a_stale_write_on_one_process_is_refused(make_app: AppFactory) -> None:
    here, there = Api(make_app().test_client()), Api(make_app().test_client())
    created = here.create()
    there.join(created["join_code"])
    there.roll(created["id"], [1, 1, 2, 3, 4])
    refused = here.post(f"/api/games/{created['id']}/rolls",
                        {"dice": [6, 6, 6, 6, 6], "version": created["version"]}, 409)
    assert refused["state"]["version"] == 2 and refused["state"]["dice"] == [1, 1, 2, 3, 4]


def _listener_pids(app: Flask) -> list[int]:
    conn = storage(app).open()
    try:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%'"
                            " AND datname = current_database()").fetchall()
        return [int(row[0]) for row in rows]
    finally:
        conn.close()


def _wait_for(found: Any, seconds: float = 5.0) -> Any:
    deadline = time.monotonic() + seconds
    while not (value := found()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return value


def test_a_lost_listening_connection_reconnects_and_catches_up(make_app: AppFactory) -> None:
    app = make_app(EVENTS_MAX_SECONDS=15.0)
    api = Api(app.test_client())
    created = api.create()
    stream = events_of(api.client, created["id"])
    next(stream)
    pids = _wait_for(lambda: _listener_pids(app))
    assert len(pids) == 1  # one listening connection for the process, whatever the streams
    conn = storage(app).open()
    conn.execute("SELECT pg_terminate_backend(?)", (pids[0],))
    other = Api(make_app().test_client()).join(created["join_code"])
    other.roll(created["id"], [5, 5, 5, 2, 2])  # told while nobody listened
    event, state = parse(next(stream))
    assert (event, state["version"], state["dice"]) == ("state", 2, [5, 5, 5, 2, 2])
    assert _wait_for(lambda: _listener_pids(app)) not in ([], pids)
    other.score(created["id"], "full_house")
    assert parse(next(stream))[1]["cards"][0]["boxes"]["full_house"] == 25
    conn.close()


def test_a_restarted_server_gives_503_meanwhile_then_recovers(
        make_app: AppFactory, postgres: Cluster) -> None:
    api = Api(make_app(DATABASE_POOL_TIMEOUT=1.0).test_client())
    game = api.create()["id"]
    postgres.pause()
    try:
        response = api.client.get(f"/api/games/{game}")
        assert response.status_code == 503
        assert response.headers["Retry-After"] == "1"
        assert "nothing was changed" in response.get_json()["error"]
    finally:
        postgres.resume()
    recovered = _wait_for(lambda: api.client.get(f"/api/games/{game}").status_code == 200, 20)
    assert recovered
    assert api.roll(game, [4, 4, 4, 4, 1])["state"]["version"] == 2


@pytest.fixture
def servers(database: str) -> Iterator[list[Server]]:
    """Two `pipkeeper serve` processes on the test's database, stopped afterwards."""
    started = [Server(database) for _ in range(2)]  # type: ignore[arg-type]
    for server in started:
        server.start()
    yield started
    for server in started:
        if server.process is not None and server.process.poll() is None:
            server.stop()


def _request(port: int, method: str, path: str, body: Any = None,
             cookie: str = "") -> tuple[int, Any, str]:
    """Send one request; return its status, JSON and the cookie it set (if any)."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {"Content-Type": "application/json", "Cookie": cookie}
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    set_cookie = (response.headers.get("Set-Cookie") or "").split(";", 1)[0]
    raw = response.read()
    conn.close()
    return response.status, json.loads(raw) if raw else None, set_cookie


def test_a_killed_server_loses_no_acknowledged_write(servers: list[Server]) -> None:
    first, second = (server.port for server in servers)
    status, created, cookie = _request(first, "POST", "/api/games",
                                       {"rules": "yahtzee", "players": ["Ann", "Ben"]})
    assert status == 201
    game = created["id"]
    status, rolled, _ = _request(first, "POST", f"/api/games/{game}/rolls",
                                 {"dice": [3, 3, 3, 3, 3], "version": 1}, cookie)
    assert status == 200
    servers[0].kill()  # SIGKILL right after the reply
    status, state, _ = _request(second, "GET", f"/api/games/{game}", cookie=cookie)
    assert status == 200 and (state["version"], state["dice"]) == (2, [3, 3, 3, 3, 3])
    assert rolled["state"]["version"] == 2


def test_a_full_pool_gives_503_then_serves_again(make_app: AppFactory) -> None:
    app = make_app(DATABASE_POOL_SIZE=2, DATABASE_POOL_TIMEOUT=0.5)
    api = Api(app.test_client())
    game = api.create()["id"]
    held = [storage(app).borrow() for _ in range(2)]  # every connection of the pool busy
    try:
        response = api.client.get(f"/api/games/{game}")
        assert (response.status_code, response.headers["Retry-After"]) == (503, "1")
    finally:
        for conn in held:
            storage(app).give_back(conn)
    assert api.state(game)["id"] == game


def test_tables_spread_over_processes_get_every_event(database: str, tmp_path: Path) -> None:
    # Its own thread: a browser test run before may leave this thread's event loop set.
    result = on_own_thread(lambda: spread(QUICK, 2, database, tmp_path))
    assert result.events_expected > 0
    assert result.events_delivered == result.events_expected
    assert result.error is None
    assert not [s for s in result.setup.statuses + result.tally.statuses if s >= 500]

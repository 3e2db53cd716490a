"""Join-code guessing and game creation limited per address; the owner's new join code."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.conftest import AppFactory
from tests.web.conftest import Api
from web.limits import RateLimit


def join(client: FlaskClient, code: str, address: str = "10.0.0.7") -> tuple[int, dict[str, str]]:
    response = client.post("/api/join", json={"code": code},
                           environ_overrides={"REMOTE_ADDR": address})
    return response.status_code, dict(response.headers)


def test_wrong_join_codes_from_one_address_get_429(client: FlaskClient, api: Api) -> None:
    code = api.create()["join_code"]
    statuses = [join(client, "ZZZZZZ")[0] for _ in range(10)]
    status, headers = join(client, code)  # even the right code, while the address is held
    assert statuses == [404] * 10
    assert status == 429 and 1 <= int(headers["Retry-After"]) <= 60
    assert join(client, code, address="10.0.0.8")[0] == 200  # another address is not held
    page = client.get("/join/ZZZZZZ", environ_overrides={"REMOTE_ADDR": "10.0.0.7"})
    assert page.status_code == 429


def test_wrong_join_codes_from_all_addresses_together_get_429(make_app: AppFactory) -> None:
    client = make_app(JOIN_FAILURES_ALL_PER_MINUTE=5).test_client()
    statuses = [join(client, "ZZZZZZ", address=f"10.0.1.{i}")[0] for i in range(6)]
    assert statuses == [404] * 5 + [429]


def test_right_codes_are_never_counted(client: FlaskClient, api: Api) -> None:
    code = api.create()["join_code"]
    assert [join(client, code)[0] for _ in range(15)] == [200] * 15


def test_rate_limit_window_slides() -> None:
    now = [0.0]
    limit = RateLimit(2, 60, clock=lambda: now[0])
    limit.hit("a")
    now[0] = 30
    limit.hit("a")
    assert limit.retry_after("a") == 30 and limit.retry_after("b") is None
    now[0] = 60.5
    assert limit.retry_after("a") is None


def test_new_games_from_one_address_are_limited(make_app: AppFactory) -> None:
    client = make_app(GAMES_PER_MINUTE=3).test_client()
    statuses = [client.post("/api/games", json={"players": ["Ann"]}).status_code
                for _ in range(4)]
    assert statuses == [201, 201, 201, 429]
    refused = client.post("/api/games", json={"players": ["Ann"]})
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.get_json()["error"].startswith("too many new games from this address")


def test_the_owner_gives_a_new_join_code_and_other_devices_lose_access(
        app: object, client: FlaskClient, api: Api, make_app: AppFactory) -> None:
    state = api.create()
    game, old = state["id"], state["join_code"]
    phone = Api(make_app().test_client()).join(old)
    assert phone.get(f"/api/games/{game}")["id"] == game
    assert phone.client.post(f"/api/games/{game}/join-code", json={}).status_code == 403
    renewed = api.post(f"/api/games/{game}/join-code", {})
    assert renewed["join_code"] != old and renewed["version"] == state["version"] + 1
    assert api.state(game)["join_code"] == renewed["join_code"]  # the owner keeps access
    assert phone.client.get(f"/api/games/{game}").status_code == 403
    assert phone.client.post("/api/join", json={"code": old}).status_code == 404
    assert phone.client.post("/api/join", json={"code": renewed["join_code"]}).status_code == 200

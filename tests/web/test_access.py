"""Who may see and change a game on a LAN: devices that joined it; its owner deletes it."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import AppFactory
from tests.web.conftest import Api

NOT_JOINED = "this device has not joined game"


@pytest.fixture
def owner(client: FlaskClient) -> Api:
    """The device that starts the games."""
    return Api(client)


@pytest.fixture
def stranger(app: Flask) -> Api:
    """Another device on the same network that has not joined any game."""
    return Api(app.test_client())


def played(owner: Api) -> dict[str, object]:
    """Start a game and score one box; return its state."""
    game = owner.create(["Ann", "Ben"])["id"]
    owner.roll(game, [6, 6, 6, 6, 6])
    return owner.score(game, "yahtzee")


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/rolls", {"dice": [1, 2, 3, 4, 5]}),
        ("post", "/scores", {"box": "chance", "version": 3}),
        ("post", "/undo", {"version": 3}),
        ("post", "/next", {}),
        ("delete", "", None),
        ("get", "", None),
        ("get", "/events", None),
        ("get", "/hint", None),
        ("get", "/pad", None),
        ("get", "/qr.svg", None),
    ],
)
def test_a_stranger_can_neither_change_nor_read_a_game(
    owner: Api, stranger: Api, method: str, path: str, body: object
) -> None:
    state = played(owner)
    response = getattr(stranger.client, method)(f"/api/games/{state['id']}{path}", json=body)
    assert response.status_code == 403
    assert response.get_json()["error"].startswith(f"{NOT_JOINED} {state['id']}")
    assert owner.state(int(str(state["id"]))) == state


@pytest.mark.parametrize("page", ["", "/board"])
def test_a_strangers_game_page_asks_for_the_join_code(
    owner: Api, stranger: Api, page: str
) -> None:
    state = played(owner)
    response = stranger.client.get(f"/games/{state['id']}{page}")
    assert response.status_code == 403
    html = response.get_data(as_text=True)
    assert 'name="code"' in html and str(state["join_code"]) not in html
    assert "This game is open to the devices that joined it." in html


def test_the_list_shows_join_codes_only_to_devices_that_joined(
    owner: Api, stranger: Api
) -> None:
    state = played(owner)
    mine = owner.get("/api/games")["games"][0]
    theirs = stranger.get("/api/games")["games"][0]
    assert (mine["join_code"], mine["joined"], mine["owner"]) == (state["join_code"], True, True)
    assert "join_code" not in theirs and (theirs["joined"], theirs["owner"]) == (False, False)
    assert theirs["players"] == ["Ann", "Ben"]


def test_joining_by_link_or_code_lets_a_device_play(owner: Api, stranger: Api) -> None:
    state = played(owner)
    game = int(str(state["id"]))
    code = str(state["join_code"])
    stranger.join(code.lower())
    assert stranger.roll(game, [1, 2, 3, 4, 5])["state"]["roll"] == 1
    third = Api(stranger.client.application.test_client())
    reply = third.post("/api/join", {"code": f" {code} "})
    assert reply == {"id": game, "path": f"/games/{game}"}
    assert third.state(game)["roll"] == 1
    assert third.post("/api/join", {"code": "QQQQQQ"}, 404)["error"].startswith("no game")


def test_a_cookie_for_one_game_opens_no_other(owner: Api, app: Flask) -> None:
    first, second = played(owner), owner.create(["Cy"])
    device = Api(app.test_client()).join(str(first["join_code"]))
    cookie = device.client.get_cookie(f"pk-game-{first['id']}")
    assert cookie is not None
    device.client.set_cookie(f"pk-game-{second['id']}", cookie.value)
    device.get(f"/api/games/{second['id']}", 403)
    device.client.set_cookie(f"pk-game-{second['id']}", "owner.0123456789abcdef")
    device.get(f"/api/games/{second['id']}", 403)


def test_only_the_owner_deletes_and_the_game_is_gone(owner: Api, app: Flask) -> None:
    state = played(owner)
    game = int(str(state["id"]))
    player = Api(app.test_client()).join(str(state["join_code"]))
    refused = player.client.delete(f"/api/games/{game}")
    assert refused.status_code == 403
    assert refused.get_json()["error"] == f"only the device that started game {game} may do this"
    assert player.state(game) == state
    assert owner.client.delete(f"/api/games/{game}").status_code == 204
    assert owner.get(f"/api/games/{game}", 404)["error"] == f"no game with id {game}"
    assert owner.get("/api/games")["games"] == []


@pytest.mark.parametrize("host", ["evil.example", "attacker.test:8000", "192.168.1.9"])
def test_a_request_naming_another_host_is_refused(client: FlaskClient, host: str) -> None:
    response = client.get("/api/games", headers={"Host": host})
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("this server does not serve the host")


def test_served_lan_names_are_answered(make_app: AppFactory) -> None:
    client = make_app(SERVED_HOSTS=["localhost", "192.168.1.9", "pi.local"]).test_client()
    for host in ("192.168.1.9:8000", "pi.local", "PI.LOCAL:8000"):
        assert client.get("/api/games", headers={"Host": host}).status_code == 200


@pytest.mark.parametrize("origin", ["https://localhost", "http://localhost:9000",
                                    "http://evil.example", "null"])
def test_origin_must_match_scheme_host_and_port(client: FlaskClient, origin: str) -> None:
    response = client.post("/api/games", json={"players": ["Ann"]}, headers={"Origin": origin})
    assert response.status_code == 403
    assert response.get_json()["error"].startswith("cross-site request refused")
    assert client.get("/api/games").get_json()["games"] == []


def test_same_origin_post_is_accepted(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": ["Ann"]},
                           headers={"Origin": "http://localhost"})
    assert response.status_code == 201


@pytest.mark.parametrize("path", ["/", "/api/games", "/pad"])
def test_no_page_may_be_framed(client: FlaskClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["X-Frame-Options"] == "DENY"
    policy = dict(part.strip().split(" ", 1) for part in
                  headers["Content-Security-Policy"].split(";"))
    assert policy["default-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in headers["Content-Security-Policy"]
    assert headers["X-Content-Type-Options"] == "nosniff"

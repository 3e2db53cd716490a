"""Creating, listing and reading games; the JSON error path for bad requests."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import AppFactory
from tests.web.conftest import Api

YAHTZEE_SLUGS = ["aces", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
                 "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
                 "chance"]


def test_create_returns_the_new_state(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"rules": "yahtzee", "players": [" Ann ", "Ben"]})
    assert response.status_code == 201
    state = response.get_json()
    assert response.headers["Location"] == f"/api/games/{state['id']}"
    assert state["players"] == ["Ann", "Ben"]
    assert state["rules"] == "yahtzee"
    assert (state["phase"], state["current_player"], state["turn"], state["roll"]) == (
        "play", 0, 1, 0)
    assert (state["dice"], state["kept"], state["suggestions"]) == (None, [], [])
    assert state["version"] == 1
    assert state["finished"] is False and state["winners"] == []
    assert state["can_undo"] is False
    assert [b["slug"] for b in state["boxes"]] == YAHTZEE_SLUGS
    assert state["boxes"][6] == {"slug": "three_of_a_kind", "name": "3 of a Kind",
                                 "section": "lower"}
    assert state["cards"][1]["player"] == "Ben"
    assert state["cards"][1]["boxes"] == dict.fromkeys(YAHTZEE_SLUGS)
    assert state["cards"][1]["totals"]["grand_total"] == 0
    assert state["series"] == {"game_number": 1, "max_games": 6, "totals": [0, 0],
                               "games": [{"number": 1, "grand_totals": [0, 0],
                                          "finished": False, "winners": []}],
                               "can_play_again": False}
    assert len(state["join_code"]) == 6 and state["join_path"] == f"/join/{state['join_code']}"


def test_yacht_has_its_own_boxes(api: Api) -> None:
    state = api.create(["Anna"], rules="yacht")
    assert [b["slug"] for b in state["boxes"]][-3:] == ["big_straight", "choice", "yacht"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "poker", "players": ["Ann"]}, "unknown rule set 'poker'"),
        ({"players": []}, "1 to 8 players, got 0"),
        ({"players": [f"P{i}" for i in range(9)]}, "1 to 8 players, got 9"),
        ({"players": ["Ann", " ann "]}, "same name"),
        ({"players": ["  "]}, "cannot be empty"),
        ({"players": ["x" * 41]}, "at most 40 characters"),
        ({"players": "Ann"}, "'players' must be a list of names"),
        ({"players": [1, 2]}, "'players' must be a list of names"),
        ({"players": ["Ann"], "rules": 3}, "'rules' must be a rule set name"),
        ({"players": ["Ann"], "roll_for_first": "maybe"}, "'roll_for_first' must be true or false"),
        ([1, 2], "must be an object, got list"),
    ],
)
def test_bad_new_games_are_400(client: FlaskClient, body: Any, message: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert client.get("/api/games").get_json() == {"games": [], "more": False, "cursor": None,
                                                   "next": None}


def test_malformed_json_is_400(client: FlaskClient) -> None:
    response = client.post("/api/games", data="{players:", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {"error": "malformed JSON in the request body"}


def test_wrong_content_type_is_415(client: FlaskClient) -> None:
    with client.session_transaction() as session:
        session["csrf_token"] = "t"
    response = client.post("/api/games", data={"players": "Ann"}, headers={"X-CSRF-Token": "t"})
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("get", "/api/games/999", 404),
        ("get", "/api/no-such-thing", 404),
        ("delete", "/api/games", 405),
        ("put", "/api/games/1", 405),
    ],
)
def test_http_errors_are_json(client: FlaskClient, method: str, url: str, status: int) -> None:
    response = getattr(client, method)(url, json={})
    assert response.status_code == status
    assert response.is_json
    assert set(response.get_json()) == {"error"}
    assert "Traceback" not in response.get_data(as_text=True)
    if status == 405:
        assert "GET" in response.headers["Allow"]


def test_unknown_game_is_404_for_every_action(api: Api) -> None:
    for action in ("rolls", "scores", "undo", "next"):
        reply = api.post(f"/api/games/77/{action}", {"dice": [1, 2, 3, 4, 5], "box": "chance",
                                                     "version": 1}, 404)
        assert reply == {"error": "no game with id 77"}
    assert api.get("/api/games/77/events", 404) == {"error": "no game with id 77"}
    assert api.get("/api/games/77/qr.svg", 404) == {"error": "no game with id 77"}


def test_list_shows_unfinished_and_finished_games(api: Api) -> None:
    first = api.create(["Ann"], rules="yacht")
    api.play_out(first["id"])
    second = api.create(["Ann", "Ben"])
    api.roll(second["id"], [5, 5, 5, 2, 2])
    games = api.get("/api/games")["games"]
    assert [g["id"] for g in games] == [second["id"], first["id"]]  # latest change first
    latest, done = games
    assert latest["players"] == ["Ann", "Ben"] and latest["finished"] is False
    assert latest["phase"] == "play" and latest["current_player"] == 0
    assert latest["version"] == 2 and latest["totals"] == [0, 0] and latest["winners"] == []
    assert done["finished"] is True and done["phase"] == "over" and done["winners"] == [0]
    assert done["rules"] == "yacht" and done["game_number"] == 1
    assert done["totals"] == done["series_totals"] and done["totals"][0] > 0
    assert done["created_at"] <= done["updated_at"]


def test_rules_lists_every_rule_set(api: Api) -> None:
    rules = api.get("/api/rules")["rules"]
    assert [r["name"] for r in rules][:2] == ["yahtzee", "yahtzee+free-joker"]
    yacht = next(r for r in rules if r["name"] == "yacht")
    assert yacht["game"] == "yacht" and len(yacht["boxes"]) == 12


def test_a_bug_is_a_json_500_without_details(make_app: AppFactory,
                                             caplog: pytest.LogCaptureFixture) -> None:
    app = make_app()

    def broken() -> str:
        raise RuntimeError("secret detail")

    app.add_url_rule("/api/broken", view_func=broken)
    response = app.test_client().get("/api/broken")
    assert response.status_code == 500
    assert response.get_json() == {
        "error": "internal error: the server could not handle this request"}
    assert "secret detail" not in response.get_data(as_text=True)
    assert "secret detail" in caplog.text  # logged on the server for whoever runs it


def test_pages_can_render_their_own_error_page(make_app: AppFactory) -> None:
    app = make_app()
    app.extensions["html_error_page"] = lambda status, message: (f"<p>{message}</p>", status)
    client = app.test_client()
    response = client.get("/join/NOPE00")
    assert response.status_code == 404
    assert response.get_data(as_text=True) == "<p>no game with join code 'NOPE00'</p>"
    assert client.get("/api/games/5").get_json() == {"error": "no game with id 5"}


def test_a_plain_value_error_is_a_logged_bug_not_a_refusal(
    make_app: AppFactory, caplog: pytest.LogCaptureFixture
) -> None:
    from scorekeeper import RulesError

    app = make_app()

    @app.get("/api/broken/<kind>")
    def broken(kind: str) -> dict[str, str]:
        if kind == "rules":
            raise RulesError("a die shows 1..6, got 7")
        raise ValueError("invalid literal for int() with base 10: 'x'")

    client = app.test_client()
    refused = client.get("/api/broken/rules")
    assert (refused.status_code, refused.get_json()) == (400, {"error": "a die shows 1..6, got 7"})
    bug = client.get("/api/broken/bug")
    assert bug.status_code == 500
    assert bug.get_json() == {"error": "internal error: the server could not handle this request"}
    assert "invalid literal" in caplog.text and "GET /api/broken/bug" in caplog.text

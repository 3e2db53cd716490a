"""Cross-site request forgery checks, and the secret key kept next to the database."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from flask import Flask, render_template_string
from flask.testing import FlaskClient

from tests.conftest import AppFactory
from web import create_app

TOKEN = "token-from-the-session"
CSRF_ERROR = "missing or wrong CSRF token"


@pytest.fixture
def session_client(client: FlaskClient) -> FlaskClient:
    """A client whose session holds the CSRF token TOKEN."""
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return client


def test_json_posts_need_no_token(client: FlaskClient) -> None:
    assert client.post("/api/games", json={"players": ["Ann"]}).status_code == 201


@pytest.mark.parametrize(
    ("headers", "data"),
    [
        ({}, {"players": "Ann"}),  # a form post from any page
        ({"X-CSRF-Token": "guessed"}, {"players": "Ann"}),
        ({}, {"players": "Ann", "csrf_token": "guessed"}),
    ],
)
def test_form_posts_without_the_right_token_are_403(
    session_client: FlaskClient, headers: dict[str, str], data: dict[str, str]
) -> None:
    response = session_client.post("/api/games", data=data, headers=headers)
    assert response.status_code == 403
    assert response.get_json()["error"].startswith(CSRF_ERROR)


def test_plain_text_json_is_refused(session_client: FlaskClient) -> None:
    # text/plain is what a cross-site <form enctype="text/plain"> can send without preflight.
    response = session_client.post("/api/games", data='{"players": ["Ann"]}',
                                   content_type="text/plain")
    assert response.status_code == 403


@pytest.mark.parametrize(
    "headers", [{"X-CSRF-Token": TOKEN}, {}], ids=["header", "form-field"]
)
def test_the_session_token_passes(session_client: FlaskClient, headers: dict[str, str]) -> None:
    data = {"players": "Ann"} | ({} if headers else {"csrf_token": TOKEN})
    response = session_client.post("/api/games", data=data, headers=headers)
    assert response.status_code == 415  # past the CSRF check; the API wants JSON


@pytest.mark.parametrize(
    ("origin", "status"),
    [("http://evil.example", 403), ("null", 403), ("http://localhost:8000", 403),
     ("http://localhost", 201)],
)
def test_origin_must_be_this_host(client: FlaskClient, origin: str, status: int) -> None:
    response = client.post("/api/games", json={"players": ["Ann"]}, headers={"Origin": origin})
    assert response.status_code == status
    if status == 403:
        assert response.get_json()["error"].startswith(
            f"cross-site request refused: Origin {origin!r}")


def test_templates_get_the_session_token(app: Flask) -> None:
    with app.test_request_context("/"):
        from flask import session

        token = render_template_string("{{ csrf_token() }}")
        assert len(token) > 30 and session["csrf_token"] == token
        assert render_template_string("{{ csrf_token() }}") == token


def test_secret_key_is_made_once_and_private(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PIPKEEPER_SECRET_KEY", raising=False)
    database = tmp_path / "data" / "pipkeeper.sqlite3"
    first = create_app({"DATABASE": str(database)})
    key_file = database.parent / "secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert first.config["SECRET_KEY"] == key_file.read_text() and len(key_file.read_text()) == 64
    assert create_app({"DATABASE": str(database)}).config["SECRET_KEY"] == first.secret_key
    assert [p.name for p in database.parent.iterdir() if p.name.startswith(".")] == []


def test_secret_key_from_the_environment(make_app: AppFactory,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIPKEEPER_SECRET_KEY", "from-env")
    assert make_app(SECRET_KEY=None).secret_key == "from-env"

"""Bad input to the JSON API: a clear 400 that names the field, never a 500, nothing stored.

Each case posts raw bytes through the real app, so the JSON is exactly what a
client could send (1e400, lone surrogates, 1000 levels of brackets). A refused
input leaves the game as it was: the state after equals the state before.
Ids past SQLite's INTEGER are the URL converter's; tests/web/test_api_parsing.py
tests it on a route of its own.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import Api

MAX_ERROR = 200  # the longest error a refused input may get: its quote is cut to 80

DEEP_ARRAY = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000
MEGABYTE = "6" * 1_000_000


def short_id(value: object) -> str:
    """A test id of at most 40 characters: some bodies are a megabyte."""
    text = str(value)
    return text if len(text) <= 40 else f"{text[:30]}…({len(text)} chars)"


def post_raw(client: FlaskClient, url: str, raw: str) -> tuple[int, dict[str, Any]]:
    """POST *raw* as an application/json body; return the status and the JSON reply."""
    response = client.post(url, data=raw.encode("utf-8", "surrogatepass"),
                           content_type="application/json")
    return response.status_code, response.get_json()


@pytest.fixture
def game(api: Api) -> int:
    """A game where Ann has rolled and scored once and Ben has rolled: its id."""
    game_id: int = api.create(["Ann", "Ben"])["id"]
    api.roll(game_id, [6, 6, 4, 6, 6])
    api.score(game_id, "sixes")
    api.roll(game_id, [1, 2, 3, 4, 5])
    return game_id


def test_the_game_fixture_has_a_score(api: Api, game: int) -> None:
    state = api.state(game)
    assert (state["version"], state["current_player"], state["dice"]) == (4, 1, [1, 2, 3, 4, 5])
    assert state["cards"][0]["boxes"]["sixes"] == 24


@pytest.mark.parametrize(
    ("path", "body", "message"),
    [
        # 1. nesting: refused before the parser recurses
        ("rolls", DEEP_ARRAY, "JSON nested too deeply (more than 32 levels)"),
        ("rolls", DEEP_OBJECT, "JSON nested too deeply (more than 32 levels)"),
        ("scores", '{"box": "chance", "version": 4, "x": ' + DEEP_ARRAY + "}",
         "JSON nested too deeply (more than 32 levels)"),
        ("undo", '{"version": 4, "x": ' + "[" * 32 + "]" * 32 + "}",
         "JSON nested too deeply (more than 32 levels)"),
        # 4. numbers: ASCII digits only, at most 18 of them, not negative
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": "\u00b2"}',
         "'version' must be a whole number, got '\u00b2'"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": "\u0664"}',
         "'version' must be a whole number, got '\u0664'"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": "\uff14"}',
         "'version' must be a whole number, got '\uff14'"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": "1_0"}',
         "'version' must be a whole number, got '1_0'"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": 1e400}',
         "'version' must be a whole number, got inf"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": -4}',
         "'version' must be a whole number from 0 to 999999999999999999, got -4"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": 9223372036854775808}',
         "'version' must be a whole number from 0 to 999999999999999999, "
         "got 9223372036854775808"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "version": "' + "4" * 30 + '"}',
         "'version' must be a whole number of at most 18 digits"),
        ("scores", '{"box": "chance", "version": 4.0}',
         "'version' must be a whole number, got 4.0"),
        ("undo", '{"version": "\u0664"}', "'version' must be a whole number, got '\u0664'"),
        # dice: JSON lists of ints, or text of ASCII digits
        ("rolls", '{"dice": "\u0666\u0666\u0664\u0666\u0666"}',
         "cannot read dice from '\u0666\u0666\u0664\u0666\u0666'"),
        ("rolls", '{"dice": "\uff16\uff16\uff14\uff16\uff16"}',
         "cannot read dice from '\uff16\uff16\uff14\uff16\uff16'"),
        ("rolls", '{"dice": ["\u0663", 1, 1, 1, 1]}',
         "'dice' must be whole numbers 1..6, got '\u0663' in ['\u0663', 1, 1, 1, 1]"),
        ("rolls", '{"dice": [3.0, 1, 1, 1, 1]}',
         "'dice' must be whole numbers 1..6, got 3.0 in [3.0, 1, 1, 1, 1]"),
        ("rolls", '{"dice": [true, 1, 1, 1, 1]}',
         "'dice' must be whole numbers 1..6, got True in [True, 1, 1, 1, 1]"),
        ("rolls", '{"dice": [1e400, 1, 1, 1, 1]}',
         "'dice' must be whole numbers 1..6, got inf in [inf, 1, 1, 1, 1]"),
        ("rolls", '{"dice": [' + "9" * 40 + ", 1, 1, 1, 1]}",
         "'dice' must be whole numbers 1..6, got " + "9" * 40),
        ("rolls", '{"dice": "' + MEGABYTE + '"}',
         "'dice' must be a list of five values 1..6, got '666666"),
        # kept positions: the same numbers
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "kept": ["\u0663"]}',
         "'kept' must be a whole number, got '\u0663'"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "kept": "0,\u0663"}',
         "'kept' must be a whole number, got '\u0663'"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "kept": [1e400]}',
         "'kept' must be a whole number, got inf"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "kept": [' + "9" * 30 + "]}",
         "'kept' must be a whole number from 0 to 999999999999999999"),
        ("rolls", '{"dice": [1, 2, 3, 4, 6], "kept": "' + "0 " * 500_000 + '"}',
         "'kept' must be a list of positions 0..4, got '0 0 0"),
    ],
    ids=short_id,
)
def test_bad_input_to_a_game_is_refused_and_changes_nothing(
    client: FlaskClient, api: Api, game: int, path: str, body: str, message: str
) -> None:
    before = api.state(game)
    status, reply = post_raw(client, f"/api/games/{game}/{path}", body)
    assert (status, list(reply)) == (400, ["error"])
    assert message in reply["error"]
    assert len(reply["error"]) <= MAX_ERROR
    assert api.state(game) == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (DEEP_ARRAY, "JSON nested too deeply (more than 32 levels)"),
        (DEEP_OBJECT, "JSON nested too deeply (more than 32 levels)"),
        ('{"players": ["Ann"], "x": ' + "[" * 32 + "]" * 32 + "}",
         "JSON nested too deeply (more than 32 levels)"),
        # 3. names: no lone surrogates, no control characters, not only invisible ones
        ('{"players": ["Ann", "\\ud800"]}',
         "a player's name cannot contain lone surrogates: '\\ud800'"),
        ('{"players": ["Ann", "Ben\\udc00"]}',
         "a player's name cannot contain lone surrogates: 'Ben\\udc00'"),
        ('{"players": ["Ann", "A\\u0000B"]}',
         "a player's name cannot contain control characters: 'A\\x00B'"),
        ('{"players": ["Ann", "\\u0000"]}',
         "a player's name cannot contain control characters: '\\x00'"),
        ('{"players": ["Ann", "\\u0007\\u007f"]}',
         "a player's name cannot contain control characters: '\\x07\\x7f'"),
        ('{"players": ["Ann", "\\u200b"]}',
         "a player's name cannot be empty: '\\u200b' has no visible characters"),
        ('{"players": ["Ann", "\\u200c\\u200d\\u2060\\ufeff"]}',
         "a player's name cannot be empty: '\\u200c\\u200d\\u2060\\ufeff' has no visible"),
        ('{"players": ["Ann", 7]}', "'players' must be a list of names, got 7 in ['Ann', 7]"),
        ('{"players": ["' + "x" * 1_000_000 + '"]}',
         "'players' must be names of at most 1000 characters in all, got 1000000: ['xxx"),
        ('{"players": ["' + "x" * 900 + '"]}', "a name has at most 40 characters: 'xxx"),
    ],
    ids=short_id,
)
def test_bad_new_game_is_refused_and_stores_nothing(
    client: FlaskClient, api: Api, game: int, body: str, message: str
) -> None:
    before = api.get("/api/games")
    status, reply = post_raw(client, "/api/games", body)
    assert (status, list(reply)) == (400, ["error"])
    assert message in reply["error"]
    assert len(reply["error"]) <= MAX_ERROR
    assert api.get("/api/games") == before


@pytest.mark.parametrize(
    "body",
    [
        '{"players": ["Ann"], "x": ' + "[" * 31 + "]" * 31 + "}",  # 32 levels in all
        '{"players": ["' + "[" * 35 + '"]}',  # brackets inside a string do not nest
        '{"players": ["\\"' + "{" * 35 + '"]}',  # nor after an escaped quote
    ],
)
def test_json_up_to_32_levels_is_read(client: FlaskClient, body: str) -> None:
    status, _ = post_raw(client, "/api/games", body)
    assert status == 201


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family emoji: ZWJ sequence
         "\U0001f468\u200d\U0001f469\u200d\U0001f467"),
        ("\u0915\u094d\u200d\u0937", "\u0915\u094d\u200d\u0937"),  # Devanagari with a ZWJ
        ("  Ann \t Lee ", "Ann Lee"),
    ],
)
def test_names_with_joiners_inside_are_kept(api: Api, name: str, kept: str) -> None:
    state = api.create([name, "Ben"])
    assert kept in json.dumps(state, ensure_ascii=False)
    assert api.client.get(f"/games/{state['id']}").status_code == 200


def test_ascii_dice_text_still_rolls(api: Api, game: int) -> None:
    assert api.roll(game, "6 6 4 6 6", version=4)["dice"] == [6, 6, 4, 6, 6]


@pytest.mark.parametrize("path", [
    "/api/games/9223372036854775808", "/api/games/9223372036854775808/events",
    "/api/games/99999999999999999999999/rolls", "/games/9223372036854775808/board",
])
def test_a_game_id_past_sqlite_integers_is_not_found(client: FlaskClient, path: str) -> None:
    method = client.post if path.endswith("/rolls") else client.get
    response = method(path, json={"dice": [1, 2, 3, 4, 5]} if path.endswith("/rolls") else None)
    assert response.status_code == 404

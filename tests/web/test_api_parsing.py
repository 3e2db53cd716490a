"""How the API reads fields from JSON bodies and from multipart forms (photo uploads)."""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.routing import ValidationError

from scorekeeper import Dice, DiceCountError, DiceSyntaxError, DieValueError
from web.errors import ApiError
from web.parsing import (
    MAX_GAME_ID,
    GameIdConverter,
    dice_of,
    flag_of,
    kept_of,
    nested_deeper_than,
    players_of,
    quote,
    version_of,
    whole_number,
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), ("", None), (7, 7), ("7", 7), (" 12 ", 12), (0, 0)],
)
def test_whole_number(value: object, expected: int | None) -> None:
    assert whole_number(value, "version") == expected


@pytest.mark.parametrize("value", [True, 1.5, "seven", "-1", [1], {}])
def test_not_a_whole_number(value: object) -> None:
    with pytest.raises(ApiError, match="'version' must be a whole number"):
        whole_number(value, "version")


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, ()), ("", ()), ([], ()), ([1, 2], (1, 2)), ("1,2", (1, 2)), ("0, 4", (0, 4)),
     ("3 1", (3, 1))],
)
def test_kept(value: object, expected: tuple[int, ...]) -> None:
    assert kept_of(value) == expected


@pytest.mark.parametrize("value", [7, "a,b", [None], [True], {"0": 1}])
def test_bad_kept(value: object) -> None:
    with pytest.raises(ApiError, match="'kept' must be"):
        kept_of(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, False), (True, True), (False, False), ("true", True), ("1", True),
     ("false", False), ("0", False), ("", False), ("TRUE", True)],
)
def test_flag(value: object, expected: bool) -> None:
    assert flag_of(value, "replace") is expected


@pytest.mark.parametrize("value", ["yes", 1, [], "on"])
def test_bad_flag(value: object) -> None:
    with pytest.raises(ApiError, match="'replace' must be true or false"):
        flag_of(value, "replace")


def test_version_required_or_not() -> None:
    assert version_of({}, required=False) is None
    assert version_of({"version": "3"}, required=True) == 3
    with pytest.raises(ApiError, match="'version' is required"):
        version_of({"version": ""}, required=True)


@pytest.mark.parametrize("value", [[6, 6, 4, 6, 6], "6 6 4 6 6", "66466", "6,6,4,6,6"])
def test_dice(value: object) -> None:
    assert dice_of(value) == Dice((6, 6, 4, 6, 6))


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([1, 2, 3, 4, "5"], "'dice' must be whole numbers 1..6, got '5' in [1, 2, 3, 4, '5']"),
        (["\u0663", 1, 1, 1, 1],
         "'dice' must be whole numbers 1..6, got '\u0663' in ['\u0663', 1, 1, 1, 1]"),
        ([3.0, 1, 1, 1, 1], "'dice' must be whole numbers 1..6, got 3.0 in [3.0, 1, 1, 1, 1]"),
        ([True, 1, 1, 1, 1], "'dice' must be whole numbers 1..6, got True in [True, 1, 1, 1, 1]"),
        ([float("inf"), 1, 1, 1, 1],
         "'dice' must be whole numbers 1..6, got inf in [inf, 1, 1, 1, 1]"),
        ([None, 1, 1, 1, 1], "'dice' must be whole numbers 1..6, got None in [None, 1, 1, 1, 1]"),
        ([10**30, 1, 1, 1, 1], f"'dice' must be whole numbers 1..6, got {10**30} in "
                               f"[{10**30}, 1, 1, 1, 1]"),
        ({"a": 1}, "'dice' must be a list of five values 1..6, got {'a': 1}"),
        (None, "'dice' must be a list of five values 1..6, got None"),
        (66466, "'dice' must be a list of five values 1..6, got 66466"),
        ([1] * 21, f"'dice' must be a list of five values 1..6, got {[1] * 21}"),
        ([1] * 40, f"'dice' must be a list of five values 1..6, got {repr([1] * 40)[:79]}…"),
        ("6" * 101, f"'dice' must be a list of five values 1..6, got '{'6' * 78}…"),
    ],
)
def test_bad_dice(value: object, message: str) -> None:
    with pytest.raises(ApiError) as caught:
        dice_of(value)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "error", "message"),
    [
        ("\u0666\u0666\u0664\u0666\u0666", DiceSyntaxError,
         "cannot read dice from '\u0666\u0666\u0664\u0666\u0666': use e.g. '6 6 4 6 6'"),
        ("\uff16\uff16\uff14\uff16\uff16", DiceSyntaxError,
         "cannot read dice from '\uff16\uff16\uff14\uff16\uff16': use e.g. '6 6 4 6 6'"),
        ("6 6 4 6 \u00b2", DiceSyntaxError,
         "cannot read dice from '6 6 4 6 \u00b2': use e.g. '6 6 4 6 6'"),
        ([1, 2, 3, 4, 7], DieValueError, "a die shows 1..6, got 7 in 1 2 3 4 7"),
        ([1, 2, 3], DiceCountError, "expected 5 dice, got 3: 1 2 3"),
        ("6" * 100, DiceCountError, "expected 5 dice, got 100"),
    ],
)
def test_dice_scorekeeper_refuses(value: object, error: type[ValueError], message: str) -> None:
    with pytest.raises(error) as caught:
        dice_of(value)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("999999999999999999", 10**18 - 1), (10**18 - 1, 10**18 - 1), ("007", 7), ("\t3\n", 3)],
)
def test_whole_number_up_to_18_digits(value: object, expected: int) -> None:
    assert whole_number(value, "version") == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("\u00b2", "'version' must be a whole number, got '\u00b2'"),  # isdigit() says yes
        ("\u0663", "'version' must be a whole number, got '\u0663'"),  # int() says 3
        ("\uff13", "'version' must be a whole number, got '\uff13'"),
        ("1_0", "'version' must be a whole number, got '1_0'"),
        ("+1", "'version' must be a whole number, got '+1'"),
        ("1e3", "'version' must be a whole number, got '1e3'"),
        (float("inf"), "'version' must be a whole number, got inf"),
        (float("nan"), "'version' must be a whole number, got nan"),
        (3.0, "'version' must be a whole number, got 3.0"),
        ("9" * 19, f"'version' must be a whole number of at most 18 digits, got '{'9' * 19}'"),
        pytest.param("1" * 1_000_000,
                     f"'version' must be a whole number of at most 18 digits, got '{'1' * 78}…",
                     id="a-megabyte-of-digits"),
        pytest.param("x" * 1_000_000, f"'version' must be a whole number, got '{'x' * 78}…",
                     id="a-megabyte-of-text"),
        (-1, "'version' must be a whole number from 0 to 999999999999999999, got -1"),
        (10**18, f"'version' must be a whole number from 0 to 999999999999999999, got {10**18}"),
        (2**63, f"'version' must be a whole number from 0 to 999999999999999999, got {2**63}"),
    ],
)
def test_whole_number_refuses(value: object, message: str) -> None:
    with pytest.raises(ApiError) as caught:
        whole_number(value, "version")
    assert str(caught.value) == message
    assert caught.value.status == 400


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("\u0663", "'kept' must be a whole number, got '\u0663'"),
        (["\u0663"], "'kept' must be a whole number, got '\u0663'"),
        ("0,\uff11", "'kept' must be a whole number, got '\uff11'"),
        ([float("inf")], "'kept' must be a whole number, got inf"),
        ([10**30], f"'kept' must be a whole number from 0 to 999999999999999999, got {10**30}"),
        ([-1], "'kept' must be a whole number from 0 to 999999999999999999, got -1"),
        ("0 " * 51, f"'kept' must be a list of positions 0..4, got '{'0 ' * 39}…"),
        ([0] * 21, f"'kept' must be a list of positions 0..4, got {[0] * 21}"),
        ([0] * 40, f"'kept' must be a list of positions 0..4, got {repr([0] * 40)[:79]}…"),
    ],
)
def test_kept_refuses(value: object, message: str) -> None:
    with pytest.raises(ApiError) as caught:
        kept_of(value)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (["Ann", " Ben "], ["Ann", "Ben"]),
        (["x" * 500, "y" * 500], ["x" * 500, "y" * 500]),  # 1000 characters: scorekeeper says
        ([], []),
    ],
)
def test_players(value: object, expected: list[str]) -> None:
    assert players_of(value) == expected


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("Ann", "'players' must be a list of names, got 'Ann'"),
        (["Ann", 2], "'players' must be a list of names, got 2 in ['Ann', 2]"),
        (["Ann", None], "'players' must be a list of names, got None in ['Ann', None]"),
        (["x" * 1001], f"'players' must be names of at most 1000 characters in all, got 1001: "
                       f"['{'x' * 77}…"),
        (["x" * 600, "y" * 600], "'players' must be names of at most 1000 characters in all, "
                                 f"got 1200: ['{'x' * 77}…"),
        (["P"] * 101, f"'players' must be a list of names, got {repr(['P'] * 101)[:79]}…"),
    ],
)
def test_players_refused(value: object, message: str) -> None:
    with pytest.raises(ApiError) as caught:
        players_of(value)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Ann", "'Ann'"),
        ("x" * 78, "'" + "x" * 78 + "'"),  # 80 characters with the quotes: whole
        ("x" * 79, "'" + "x" * 78 + "…"),
        pytest.param("x" * 1_000_000, "'" + "x" * 78 + "…", id="a-megabyte"),
        ("A\x00B", "'A\\x00B'"),
        ("\ud800", "'\\ud800'"),
        pytest.param(10**5000, "<a number of 16610 bits>", id="int-too-long-for-repr"),
        (float("inf"), "inf"),
        ([1, "2"], "[1, '2']"),
        (None, "None"),
    ],
)
def test_quote(value: object, expected: str) -> None:
    assert quote(value) == expected
    assert len(quote(value)) <= 80


@pytest.mark.parametrize(
    ("raw", "limit", "deeper"),
    [
        (b"{}", 1, False),
        (b"[[]]", 1, True),
        (b"[[]]", 2, False),
        (b"[" * 33 + b"]" * 33, 32, True),
        (b"[" * 32 + b"]" * 32, 32, False),
        pytest.param(b"[]" * 100_000, 32, False, id="many-brackets-none-deep"),
        (b'{"a": {"a": {"a": 1}}}', 2, True),
        (b'{"a": {"a": {"a": 1}}}', 3, False),
        (b'["' + b"[" * 100 + b'"]', 1, False),  # brackets in a string do not count
        (b'["\\"' + b"[" * 100 + b'"]', 1, False),  # nor after an escaped quote
        (b'["\\\\", [[[]]]]', 3, True),  # an escaped backslash ends the string
        (b'["\\\\", [[[]]]]', 4, False),
        (b'["' + b"{" * 100, 1, False),  # a string that never ends
        pytest.param(b"[" * 1_000_000, 32, True, id="a-megabyte-of-brackets"),
        (b"", 32, False),
        (b"7", 0, False),
    ],
)
def test_nested_deeper_than(raw: bytes, limit: int, deeper: bool) -> None:
    assert nested_deeper_than(raw, limit) is deeper


def converter_app() -> Flask:
    """A tiny app with one route through GameIdConverter, as the real app registers it."""
    app = Flask(__name__)
    app.url_map.converters["game_id"] = GameIdConverter

    @app.get("/games/<game_id:game_id>")
    def show(game_id: int) -> str:
        return f"game {game_id}"

    return app


@pytest.mark.parametrize(
    ("path", "status", "body"),
    [
        ("/games/1", 200, "game 1"),
        ("/games/0", 200, "game 0"),  # matches: the store says 404 for an unknown id
        ("/games/999", 200, "game 999"),
        ("/games/9223372036854775807", 200, "game 9223372036854775807"),
        ("/games/9223372036854775808", 404, None),
        ("/games/99999999999999999999", 404, None),
        pytest.param("/games/" + "9" * 5000, 404, None, id="5000-digits"),
        ("/games/%D9%A3", 404, None),  # Arabic-Indic three, which int() reads
        ("/games/%EF%BC%93", 404, None),  # fullwidth three
        ("/games/-1", 404, None),
        ("/games/1.5", 404, None),
        ("/games/1_0", 404, None),
    ],
)
def test_game_id_converter_routes(path: str, status: int, body: str | None) -> None:
    response = converter_app().test_client().get(path)
    assert response.status_code == status
    if body is not None:
        assert response.get_data(as_text=True) == body


@pytest.mark.parametrize(
    ("text", "expected"),
    [("1", 1), ("0", 0), ("9223372036854775807", MAX_GAME_ID)],
)
def test_game_id_converter_to_python(text: str, expected: int) -> None:
    converter = GameIdConverter(converter_app().url_map)
    assert converter.to_python(text) == expected
    assert converter.to_url(expected) == text


@pytest.mark.parametrize("text", ["9223372036854775808", str(2**64)])
def test_game_id_converter_refuses_ids_past_sqlite(text: str) -> None:
    with pytest.raises(ValidationError):
        GameIdConverter(converter_app().url_map).to_python(text)

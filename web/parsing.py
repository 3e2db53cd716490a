"""How the API reads its input: JSON bodies, form fields, numbers, dice, kept dice, names.

Each reader returns a plain value or raises ApiError (400 unless said) whose
message names the field and quotes what was sent, cut to MAX_QUOTE characters:
a megabyte of bad input is never echoed back. Numbers are ASCII digits only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from flask import request
from werkzeug.exceptions import BadRequest
from werkzeug.routing import IntegerConverter, Map

from scorekeeper import Dice
from scorekeeper.dice import DICE_COUNT
from web.errors import ApiError

MAX_QUOTE = 80
MAX_JSON_DEPTH = 32
MAX_DIGITS = 18  # below 2**63, so any whole number fits an SQLite INTEGER
MAX_WHOLE = 10**MAX_DIGITS - 1
MAX_ITEMS = 20  # entries of a "dice" or "kept" list: five or six dice, as many positions
MAX_TEXT = 100  # characters of "dice" or "kept" text such as "6, 6, 4, 6, 6"
MAX_PLAYERS = 100  # entries of "players": scorekeeper says how many a game may have
MAX_PLAYERS_TEXT = 1000  # characters of all the names together
MAX_GAME_ID = 2**63 - 1  # the largest SQLite INTEGER
_COUNT_WORDS = {5: "five", 6: "six"}  # a roll's dice in words, in English messages

# A JSON string with its escapes ("a\"b"), or an unterminated one up to the end.
_JSON_STRING = re.compile(rb'"(?:[^"\\]+|\\.)*"?', re.DOTALL)
# Brackets become +1 / -1 as signed bytes, every other byte is dropped.
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def quote(value: object) -> str:
    """Return repr(value), cut to MAX_QUOTE characters ending in "…"."""
    if isinstance(value, str):
        value = value[: MAX_QUOTE + 1]  # no need to repr a megabyte to show 80 characters
    try:
        text = repr(value)
    except ValueError:  # an int of more than 4300 digits has no repr
        text = f"<a number of {value.bit_length() if isinstance(value, int) else '?'} bits>"
    return text if len(text) <= MAX_QUOTE else text[: MAX_QUOTE - 1] + "…"


def nested_deeper_than(raw: bytes, limit: int) -> bool:
    """Return whether arrays and objects in the JSON text *raw* nest more than *limit* deep.

    Brackets inside strings do not count. For malformed text the answer may be
    either: the JSON parser refuses that text afterwards anyway.
    """
    steps = _JSON_STRING.sub(b"", raw).translate(_BRACKET_STEPS, _NOT_BRACKETS)
    if len(steps) <= limit:  # too few brackets to nest that deep
        return False
    # The running sum of +1/-1 is the depth after each bracket; all of it runs in C.
    return max(accumulate(memoryview(steps).cast("b"))) > limit


def json_body() -> dict[str, Any]:
    """Return the request's JSON object.

    Raises ApiError: 415 when the body is not JSON, 400 when it is malformed, nested
    more than MAX_JSON_DEPTH deep, or not an object.
    """
    if not request.is_json:
        raise ApiError("send a JSON body with Content-Type: application/json", 415,
                       code="json_needed")
    too_deep = f"JSON nested too deeply (more than {MAX_JSON_DEPTH} levels)"
    # Checked before parsing: the parser recurses, and a body of 1000 "[" overflows it.
    if nested_deeper_than(request.get_data(cache=True), MAX_JSON_DEPTH):
        raise ApiError(too_deep, code="json_bad")
    try:
        data = request.get_json()
    except BadRequest:
        raise ApiError("malformed JSON in the request body", code="json_bad") from None
    except RecursionError:  # should the scan above ever miss a way of nesting
        raise ApiError(too_deep, code="json_bad") from None
    if not isinstance(data, dict):
        raise ApiError(f"the JSON body must be an object, got {type(data).__name__}",
                       code="json_bad")
    return data


def whole_number(value: object, name: str) -> int | None:
    """Return *value* (an int, or ASCII digits from a form) as an int; None when absent.

    Raises ApiError(400) for anything else, negative numbers, and numbers of more
    than MAX_DIGITS digits.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str):
        digits = value.strip()
        # isdigit() alone takes "²", and int() takes "٣", "３" and "1_0".
        if not (digits.isascii() and digits.isdigit()):
            raise ApiError(f"{name!r} must be a whole number, got {quote(value)}",
                           code="field_number", params={"field": name})
        if len(digits) > MAX_DIGITS:
            raise ApiError(f"{name!r} must be a whole number of at most {MAX_DIGITS} digits, "
                           f"got {quote(value)}", code="field_number", params={"field": name})
        return int(digits)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{name!r} must be a whole number, got {quote(value)}",
                       code="field_number", params={"field": name})
    if not 0 <= value <= MAX_WHOLE:
        raise ApiError(f"{name!r} must be a whole number from 0 to {MAX_WHOLE}, "
                       f"got {quote(value)}", code="field_number", params={"field": name})
    return value


def version_of(data: Mapping[str, Any], required: bool) -> int | None:
    """Return the ``version`` the action is based on. Raises ApiError(400) when required."""
    version = whole_number(data.get("version"), "version")
    if version is None and required:
        raise ApiError("'version' is required: the version of the state this action is based on",
                       code="field_required", params={"field": "version"})
    return version


def _small_int(value: object) -> bool:
    """Whether *value* is a JSON integer (not true/false) short enough to quote in full."""
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_WHOLE


def dice_of(value: object, count: int = DICE_COUNT) -> Dice:
    """Return *count* dice from a list of ints or text like "1 3 3 5 6" (five; six in Maxi
    Yatzy: the game's `RuleSet.dice_count`).

    Raises ApiError(400) for other types, long input and list entries that are not
    whole numbers; scorekeeper's DiceError for values outside 1..6 or a wrong count.
    """
    if isinstance(value, str) and len(value) <= MAX_TEXT:
        return Dice.parse(value, count)
    if isinstance(value, list) and len(value) <= MAX_ITEMS:
        wrong = [v for v in value if not _small_int(v)]
        if wrong:
            raise ApiError(f"'dice' must be whole numbers 1..6, got {quote(wrong[0])} "
                           f"in {quote(value)}", code="field_dice", params={"expected": count})
        return Dice.of(value, count)
    raise ApiError(f"'dice' must be a list of {_COUNT_WORDS.get(count, count)} values 1..6, "
                   f"got {quote(value)}", code="field_dice", params={"expected": count})


def box_of(value: object, name: str = "box") -> str:
    """Return a box slug as sent (the rules check it). Raises ApiError(400) for non-text."""
    if not isinstance(value, str) or not value or len(value) > 40:
        raise ApiError(f"{name!r} must be a box slug, got {quote(value)}", code="field_text",
                       params={"field": name})
    return value


def kept_of(value: object, count: int = 5) -> tuple[int, ...]:
    """Return kept positions from a list of ints or text like "0,2" (a form field); the
    error names the positions a roll of *count* dice has (0 to count - 1)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str) and len(value) <= MAX_TEXT:
        value = value.replace(",", " ").split()
    positions = [whole_number(v, "kept") for v in value] \
        if isinstance(value, list) and len(value) <= MAX_ITEMS else [None]
    if None in positions:
        raise ApiError(f"'kept' must be a list of positions 0..{count - 1}, "
                       f"got {quote(value)}", code="field_kept", params={"most": count - 1})
    return tuple(p for p in positions if p is not None)


def flag_of(value: object, name: str) -> bool:
    """Return a boolean field: JSON true/false, or "true"/"1"/"false"/"0" from a form."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.lower() in {"true", "1", "false", "0", ""}:
        return value.lower() in {"true", "1"}
    raise ApiError(f"{name!r} must be true or false, got {quote(value)}", code="field_flag",
                   params={"field": name})


def players_of(value: object) -> list[str]:
    """Return the player names (strings, stripped); scorekeeper checks the names themselves.

    Raises ApiError(400) for anything but a list of strings, and for more than
    MAX_PLAYERS names or MAX_PLAYERS_TEXT characters of them.
    """
    if not isinstance(value, list) or len(value) > MAX_PLAYERS:
        raise ApiError(f"'players' must be a list of names, got {quote(value)}",
                       code="field_players")
    wrong = [v for v in value if not isinstance(v, str)]
    if wrong:
        raise ApiError(f"'players' must be a list of names, got {quote(wrong[0])} "
                       f"in {quote(value)}", code="field_players")
    length = sum(len(name) for name in value)
    if length > MAX_PLAYERS_TEXT:
        raise ApiError(f"'players' must be names of at most {MAX_PLAYERS_TEXT} characters "
                       f"in all, got {length}: {quote(value)}", code="field_players")
    return [name.strip() for name in value]


class GameIdConverter(IntegerConverter):
    """URL converter of game ids: ASCII digits, at most MAX_GAME_ID (2**63 - 1).

    A larger id, or "٣" where werkzeug's ``int`` takes any Unicode digit, does not
    match the route: 404, where SQLite would overflow on it. Registered as
    ``app.url_map.converters["game_id"]``; routes say ``<game_id:game_id>``.
    """

    regex = r"[0-9]{1,19}"

    def __init__(self, map: Map) -> None:
        super().__init__(map, min=0, max=MAX_GAME_ID)

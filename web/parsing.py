"""How the API reads its input: JSON bodies, form fields, numbers, dice, kept dice, names.

Each reader returns a plain value or raises ApiError (400 unless said) whose
message names the field and quotes what was sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request
from werkzeug.exceptions import BadRequest

from scorekeeper import Dice
from web.errors import ApiError


def json_body() -> dict[str, Any]:
    """Return the request's JSON object.

    Raises ApiError: 415 when the body is not JSON, 400 when it is malformed or not an object.
    """
    if not request.is_json:
        raise ApiError("send a JSON body with Content-Type: application/json", 415)
    try:
        data = request.get_json()
    except BadRequest:
        raise ApiError("malformed JSON in the request body") from None
    if not isinstance(data, dict):
        raise ApiError(f"the JSON body must be an object, got {type(data).__name__}")
    return data


def whole_number(value: object, name: str) -> int | None:
    """Return *value* (an int, or digits from a form) as an int; None when absent.

    Raises ApiError(400) for anything else.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{name!r} must be a whole number, got {value!r}")
    return value


def version_of(data: Mapping[str, Any], required: bool) -> int | None:
    """Return the ``version`` the action is based on. Raises ApiError(400) when required."""
    version = whole_number(data.get("version"), "version")
    if version is None and required:
        raise ApiError("'version' is required: the version of the state this action is based on")
    return version


def dice_of(value: object) -> Dice:
    """Return dice from a list of five ints or text like "1 3 3 5 6" (scorekeeper's errors)."""
    if isinstance(value, str):
        return Dice.parse(value)
    if isinstance(value, list):
        return Dice.of(value)
    raise ApiError(f"'dice' must be a list of five values 1..6, got {value!r}")


def kept_of(value: object) -> tuple[int, ...]:
    """Return kept positions 0..4 from a list of ints or text like "0,2" (a form field)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list):
        raise ApiError(f"'kept' must be a list of positions 0..4, got {value!r}")
    positions = [whole_number(v, "kept") for v in value]
    if None in positions:
        raise ApiError(f"'kept' must be a list of positions 0..4, got {value!r}")
    return tuple(p for p in positions if p is not None)


def flag_of(value: object, name: str) -> bool:
    """Return a boolean field: JSON true/false, or "true"/"1"/"false"/"0" from a form."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.lower() in {"true", "1", "false", "0", ""}:
        return value.lower() in {"true", "1"}
    raise ApiError(f"{name!r} must be true or false, got {value!r}")


def players_of(value: object) -> list[str]:
    """Return the player names (strings, stripped). Raises ApiError(400)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ApiError(f"'players' must be a list of names, got {value!r}")
    return [name.strip() for name in value]

"""Who may see and change a game: the devices that joined it, by a per-game cookie.

Opening a game's join link (``/join/<code>``, the QR code on its scoreboard) or
typing its code gives the device a cookie for that game; starting a game gives
its creator the owner's cookie, which also allows deleting it. A cookie is a
MAC of the game's id and join code under the app's secret key, so it cannot be
made up, proves nothing for another game, and holds for no later game that
reuses the id (the MAC is keyed BLAKE2b). Every route of one game loads it
through `load_game`, which says 403 to a device without the cookie; the game
list shows strangers no join code.
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Callable
from typing import Literal, TypeVar

from flask import Flask, current_app, request
from werkzeug.wrappers import Response

from web import limits, store
from web.actions import Change
from web.db import get_db
from web.errors import ApiError

Role = Literal["player", "owner"]
COOKIE_PREFIX = "pk-game-"
COOKIE_DAYS = 60
CACHE = "pipkeeper.records"
R = TypeVar("R", bound=Response)


def _mac(key: bytes, role: str, game_id: int, join_code: str) -> str:
    """Return the keyed BLAKE2b MAC (a MAC by design, no HMAC construction needed) of a grant."""
    text = f"{role}:{game_id}:{join_code}".encode()
    return hashlib.blake2b(text, key=key, digest_size=16).hexdigest()


def _key() -> bytes:
    return hashlib.sha256(str(current_app.secret_key).encode()).digest()


def role_reader() -> Callable[[int, str], Role | None]:
    """Return a function telling, for this request, its role in a game (id, join code).

    The cookies are parsed once, for lists of thousands of games.
    """
    cookies = {name: value for name, value in request.cookies.items()
               if name.startswith(COOKIE_PREFIX)}
    key = _key()

    def role(game_id: int, join_code: str) -> Role | None:
        cookie = cookies.get(f"{COOKIE_PREFIX}{game_id}")
        if not cookie:
            return None
        held, _, mac = cookie.partition(".")
        if held not in ("owner", "player"):
            return None
        if not hmac.compare_digest(mac, _mac(key, held, game_id, join_code)):
            return None
        return "owner" if held == "owner" else "player"

    return role


def joined_games(conn: sqlite3.Connection) -> dict[int, tuple[Role, str]]:
    """Return {game id: (role, join code)} of every game this request's cookies rightly claim."""
    claimed: dict[int, str] = {}
    for name, value in request.cookies.items():
        number = name.removeprefix(COOKIE_PREFIX)
        if name.startswith(COOKIE_PREFIX) and number.isascii() and number.isdigit():
            claimed[int(number)] = value
    role = role_reader()
    found = {game_id: (role(game_id, code), code)
             for game_id, code in store.join_codes(conn, claimed).items()}
    return {game_id: (held, code) for game_id, (held, code) in found.items() if held}


def role_of(game_id: int, join_code: str) -> Role | None:
    """Return what this request's cookie allows in game *game_id*: owner, player or None."""
    return role_reader()(game_id, join_code)


def grant(response: R, game_id: int, join_code: str, role: Role) -> R:
    """Give the device *role* in game *game_id* (never lowering an owner); return *response*."""
    if role_of(game_id, join_code) == "owner":
        role = "owner"
    response.set_cookie(f"{COOKIE_PREFIX}{game_id}",
                        f"{role}.{_mac(_key(), role, game_id, join_code)}",
                        max_age=COOKIE_DAYS * 24 * 3600, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


def forget(response: R, game_id: int) -> R:
    """Remove the device's cookie for game *game_id*; return *response*."""
    response.delete_cookie(f"{COOKIE_PREFIX}{game_id}", httponly=True, samesite="Lax")
    return response


def records() -> store.RecordCache:
    """Return this app's cache of parsed games."""
    cache: store.RecordCache = current_app.extensions[CACHE]
    return cache


def _require(record: store.Record, role: Role) -> store.Record:
    held = role_of(record.id, record.join_code)
    if held is None:
        raise ApiError(f"this device has not joined game {record.id}: open its join link "
                       "or type its 6-letter join code", 403, join=True, code="not_joined",
                       params={"game": record.id})
    if role == "owner" and held != "owner":
        raise ApiError(f"only the device that started game {record.id} may do this", 403,
                       code="owner_only", params={"game": record.id})
    return record


def find_by_code(code: str) -> store.Record:
    """Return the game of join code *code*, counting a wrong code against the address.

    Raises ApiError(429) while this address or everyone is past the wrong codes
    allowed a minute, GameNotFoundError (404) for a wrong code.
    """
    limits.check_join()
    try:
        return store.find_by_code(get_db(), code)
    except store.GameNotFoundError:
        limits.failed_join()
        raise


def load_game(game_id: int, role: Role = "player") -> store.Record:
    """Return game *game_id* for a device holding *role* in it.

    Raises GameNotFoundError (404) or ApiError (403).
    """
    return _require(store.load(get_db(), game_id, records()), role)


def change_game(game_id: int, version: int | None, change: Change) -> store.Record:
    """Apply *change* to game *game_id* for a device that joined it; return the new record.

    Raises GameNotFoundError, ApiError (403), StaleVersionError or what *change* raises.
    """
    return store.update(get_db(), game_id, version, change, records(),
                        check=lambda record: _require(record, "player"))


def init_app(app: Flask) -> None:
    """Give *app* its cache of parsed games."""
    app.extensions[CACHE] = store.RecordCache()

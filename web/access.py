"""Who may see and change a game: the devices that joined it, by a per-game cookie.

Opening a game's join link (``/join/<code>``, the QR code on its scoreboard) or
typing its code gives the device a cookie for that game; starting a game gives
its creator the owner's cookie, which also allows deleting it. A cookie is an
HMAC of the game's id and join code under the app's secret key, so it cannot be
made up, proves nothing for another game, and holds for no later game that
reuses the id. Every route of one game loads it through `load_game`, which says
403 to a device without the cookie; the game list shows strangers no join code.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Literal, TypeVar

from flask import Flask, current_app, request
from werkzeug.wrappers import Response

from web import store
from web.actions import Change
from web.db import get_db
from web.errors import ApiError

Role = Literal["player", "owner"]
COOKIE_PREFIX = "pk-game-"
COOKIE_DAYS = 60
CACHE = "pipkeeper.records"
R = TypeVar("R", bound=Response)


def _mac(role: Role, game_id: int, join_code: str) -> str:
    key = str(current_app.secret_key).encode()
    text = f"{role}:{game_id}:{join_code}".encode()
    return hmac.new(key, text, hashlib.sha256).hexdigest()[:32]


def role_of(game_id: int, join_code: str) -> Role | None:
    """Return what this request's cookie allows in game *game_id*: owner, player or None."""
    cookie = request.cookies.get(f"{COOKIE_PREFIX}{game_id}", "")
    role, _, mac = cookie.partition(".")
    for known in ("owner", "player"):
        if role == known and hmac.compare_digest(mac, _mac(known, game_id, join_code)):
            return known
    return None


def grant(response: R, game_id: int, join_code: str, role: Role) -> R:
    """Give the device *role* in game *game_id* (never lowering an owner); return *response*."""
    if role_of(game_id, join_code) == "owner":
        role = "owner"
    response.set_cookie(f"{COOKIE_PREFIX}{game_id}", f"{role}.{_mac(role, game_id, join_code)}",
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
                       "or type its 6-letter join code", 403, join=True)
    if role == "owner" and held != "owner":
        raise ApiError(f"only the device that started game {record.id} may do this", 403)
    return record


def load_game(game_id: int, role: Role = "player") -> store.Record:
    """Return game *game_id* for a device holding *role* in it.

    Raises GameNotFoundError (404) or ApiError (403).
    """
    return _require(store.load(get_db(), game_id, records()), role)


def change_game(game_id: int, version: int | None, change: Change) -> store.Record:
    """Apply *change* to game *game_id* for a device that joined it; return the new record.

    Raises GameNotFoundError, ApiError (403), StaleVersionError or what *change* raises.
    """
    conn = get_db()
    _require(store.load(conn, game_id, records()), "player")
    return store.update(conn, game_id, version, change, records())


def init_app(app: Flask) -> None:
    """Give *app* its cache of parsed games."""
    app.extensions[CACHE] = store.RecordCache()

"""Who may see and change a game: the devices that joined it, by a per-game cookie.

Opening a game's join link (``/join/<code>``, the QR code on its scoreboard) or
typing its code gives the device a cookie for that game; starting a game gives
its creator the owner's cookie, which also allows deleting it. Each device that
joins is a row of `web.devices`, and its cookie names that row: a cookie is
``role.device.MAC``, the MAC of the role, the game's id, its join code and the
device under the app's secret key (keyed BLAKE2b), so it cannot be made up,
proves nothing for another game, holds for no later game, and stops holding
once the owner removes the device or gives the game a new join code. A cookie
from before devices were kept (``role.MAC``) still holds; the device gets its
row and a new cookie with its next request to the game. Every route of one game
loads it through `load_game`, which says 403 to a device without the cookie; the
game list shows strangers no join code.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypeVar

from flask import Flask, after_this_request, current_app, g, request
from werkzeug.wrappers import Response

from web import devices, limits, store
from web.actions import Change
from web.errors import ApiError
from web.storage import Connection, get_db

Role = Literal["player", "owner"]
COOKIE_PREFIX = "pk-game-"
COOKIE_DAYS = 60
CACHE = "pipkeeper.records"
R = TypeVar("R", bound=Response)


@dataclass(frozen=True)
class Grant:
    """What a device's cookie for one game holds: its role and its device (None: a cookie
    from before devices were kept)."""

    role: Role
    device: int | None


def _mac(key: bytes, role: str, game_id: int, join_code: str, device: int | None) -> str:
    """Return the keyed BLAKE2b MAC (a MAC by design, no HMAC construction needed) of a grant."""
    text = f"{role}:{game_id}:{join_code}" + ("" if device is None else f":{device}")
    return hashlib.blake2b(text.encode(), key=key, digest_size=16).hexdigest()


def _key() -> bytes:
    return hashlib.sha256(str(current_app.secret_key).encode()).digest()


def _parse(cookie: str) -> tuple[Role, int | None, str] | None:
    """Return (role, device, MAC) of a cookie's value, None for anything else."""
    parts = cookie.split(".")
    device: int | None = None
    if len(parts) == 3:
        number = parts[1]
        if not (number.isascii() and number.isdigit() and len(number) <= 18):
            return None
        device = int(number)
    elif len(parts) != 2:
        return None
    role = parts[0]
    if role not in ("owner", "player"):
        return None
    return ("owner" if role == "owner" else "player"), device, parts[-1]


def grant_reader() -> Callable[[int, str], Grant | None]:
    """Return a function telling what this request's cookie for a game (id, join code)
    rightly claims, by its MAC alone (whether its device is still there is not asked).

    The cookies are parsed once, for lists of thousands of games.
    """
    cookies = {name: value for name, value in request.cookies.items()
               if name.startswith(COOKIE_PREFIX)}
    key = _key()

    def read(game_id: int, join_code: str) -> Grant | None:
        found = _parse(cookies.get(f"{COOKIE_PREFIX}{game_id}", ""))
        if found is None:
            return None
        role, device, mac = found
        if not hmac.compare_digest(mac, _mac(key, role, game_id, join_code, device)):
            return None
        return Grant(role, device)

    return read


def joined_games(conn: Connection) -> dict[int, tuple[Role, str]]:
    """Return {game id: (role, join code)} of every game this request's cookies rightly claim."""
    claimed: dict[int, str] = {}
    for name, value in request.cookies.items():
        number = name.removeprefix(COOKIE_PREFIX)
        if name.startswith(COOKIE_PREFIX) and number.isascii() and number.isdigit():
            claimed[int(number)] = value
    read = grant_reader()
    grants = {game_id: (read(game_id, code), code)
              for game_id, code in store.join_codes(conn, claimed).items()}
    present = devices.present(conn, [held.device for held, _ in grants.values()
                                     if held is not None and held.device is not None])
    return {game_id: (held.role, code) for game_id, (held, code) in grants.items()
            if held is not None and (held.device is None or present.get(held.device) == game_id)}


def grant_of(game_id: int, join_code: str) -> Grant | None:
    """Return what this request's cookie allows in game *game_id*, None when nothing: a
    cookie of a removed device allows nothing."""
    held = grant_reader()(game_id, join_code)
    if held is None or held.device is None:
        return held
    return held if devices.exists(get_db(), game_id, held.device) else None


def role_of(game_id: int, join_code: str) -> Role | None:
    """Return what this request's cookie allows in game *game_id*: owner, player or None."""
    held = grant_of(game_id, join_code)
    return held.role if held else None


def current_device(game_id: int) -> int | None:
    """Return the device of this request in game *game_id*, once `load_game` let it in
    (None for a cookie from before devices were kept, until its next request)."""
    found: dict[int, int | None] = g.get("pipkeeper_devices", {})
    return found.get(game_id)


def _set_cookie(response: R, game_id: int, join_code: str, held: Grant) -> R:
    response.set_cookie(f"{COOKIE_PREFIX}{game_id}",
                        f"{held.role}.{held.device}."
                        f"{_mac(_key(), held.role, game_id, join_code, held.device)}",
                        max_age=COOKIE_DAYS * 24 * 3600, httponly=True, samesite="Lax",
                        secure=request.is_secure)
    return response


def _new_device(game_id: int, role: Role) -> int:
    label = devices.short_name(request.headers.get("User-Agent", ""))
    return devices.add(get_db(), game_id, role, label)


def grant(response: R, game_id: int, join_code: str, role: Role,
          device: int | None = None) -> R:
    """Give the device *role* in game *game_id* (never lowering an owner); return *response*.

    The device keeps its row when it holds one in the game (or is *device*), else it
    gets a new one.
    """
    held = grant_of(game_id, join_code)
    if held is not None:
        role = "owner" if held.role == "owner" else role
        device = device or held.device
    if device is None:
        device = _new_device(game_id, role)
    return _set_cookie(response, game_id, join_code, Grant(role, device))


def forget(response: R, game_id: int) -> R:
    """Remove the device's cookie for game *game_id*; return *response*."""
    response.delete_cookie(f"{COOKIE_PREFIX}{game_id}", httponly=True, samesite="Lax")
    return response


def records() -> store.RecordCache:
    """Return this app's cache of parsed games."""
    cache: store.RecordCache = current_app.extensions[CACHE]
    return cache


def _give_row(record: store.Record, role: Role) -> None:
    """Give a device holding a cookie from before devices were kept its row and a new
    cookie, once this request's reply is made (a change's check runs inside its write)."""
    upgraded: set[int] = g.setdefault("pipkeeper_upgraded", set())
    if record.id in upgraded:
        return
    upgraded.add(record.id)

    @after_this_request
    def upgrade(response: Response) -> Response:
        name = f"{COOKIE_PREFIX}{record.id}="
        if any(value.startswith(name) for value in response.headers.getlist("Set-Cookie")):
            return response  # the view gave or took the cookie itself (a new code, a delete)
        device = _new_device(record.id, role)
        return _set_cookie(response, record.id, record.join_code, Grant(role, device))


def _require(record: store.Record, role: Role) -> store.Record:
    held = grant_of(record.id, record.join_code)
    if held is None:
        raise ApiError(f"this device has not joined game {record.id}: open its join link "
                       "or type its 6-letter join code", 403, join=True, code="not_joined",
                       params={"game": record.id})
    if role == "owner" and held.role != "owner":
        raise ApiError(f"only the device that started game {record.id} may do this", 403,
                       code="owner_only", params={"game": record.id})
    g.setdefault("pipkeeper_devices", {})[record.id] = held.device
    if held.device is None:
        _give_row(record, held.role)
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

"""The devices that joined each game, kept so that its owner can see them and remove one.

A row is added when a device is given a game's cookie (`web.access.grant`) and
its id is part of the cookie; removing the row is what shuts that device out.
The label is the browser and system the device's User-Agent names ("Chrome ·
Android"), short enough for a list on a phone; never the whole header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from scorekeeper.errors import Coded
from web.storage import Connection, Row

Role = Literal["player", "owner"]
MAX_DEVICES = 200  # rows listed for one game

# First match wins: Edge and Opera say "Chrome" too, Chrome says "Safari" too.
BROWSERS = (
    ("Edge", re.compile(r"\bEdg(e|A|iOS)?/")),
    ("Opera", re.compile(r"\bOPR/|\bOpera\b")),
    ("Samsung Internet", re.compile(r"\bSamsungBrowser/")),
    ("Firefox", re.compile(r"\bFirefox/|\bFxiOS/")),
    ("Chrome", re.compile(r"\bChrome/|\bCriOS/|\bChromium/")),
    ("Safari", re.compile(r"\bSafari/")),
)
SYSTEMS = (
    ("iPhone", re.compile(r"\biPhone\b")),
    ("iPad", re.compile(r"\biPad\b")),
    ("Android", re.compile(r"\bAndroid\b")),
    ("ChromeOS", re.compile(r"\bCrOS\b")),
    ("Windows", re.compile(r"\bWindows\b")),
    ("Mac", re.compile(r"\bMacintosh\b|\bMac OS X\b")),
    ("Linux", re.compile(r"\bLinux\b")),
)


class DeviceNotFoundError(Coded, LookupError):
    """No device with this id in this game."""


@dataclass(frozen=True)
class Device:
    """One device that joined a game."""

    id: int
    game_id: int
    role: Role
    joined_at: str
    label: str

    def to_dict(self) -> dict[str, Any]:
        """Return the device as the API lists it."""
        return {"id": self.id, "role": self.role, "joined_at": self.joined_at,
                "label": self.label}


def short_name(user_agent: str) -> str:
    """Return "browser · system" named by *user_agent*, either part alone, or "" for none."""
    head = user_agent[:512]
    found = [next((name for name, pattern in table if pattern.search(head)), "")
             for table in (BROWSERS, SYSTEMS)]
    return " · ".join(part for part in found if part)


def _device(row: Row) -> Device:
    return Device(row["id"], row["game_id"], row["role"], row["joined_at"], row["label"])


def add(conn: Connection, game_id: int, role: Role, label: str) -> int:
    """Store a new device of game *game_id*; return its id (never one given before)."""
    now = datetime.now(UTC).isoformat(timespec="milliseconds")
    with conn.transaction():
        return conn.insert("INSERT INTO devices (game_id, role, joined_at, label)"
                           " VALUES (?, ?, ?, ?)", (game_id, role, now, label[:80]))


def exists(conn: Connection, game_id: int, device_id: int) -> bool:
    """True when device *device_id* of game *game_id* is stored (was not removed)."""
    row = conn.execute("SELECT 1 FROM devices WHERE id = ? AND game_id = ?",
                       (device_id, game_id)).fetchone()
    return row is not None


def present(conn: Connection, device_ids: list[int]) -> dict[int, int]:
    """Return {device id: its game} of those of *device_ids* that are stored, in one query."""
    condition, ids = conn.among("id", device_ids)
    rows = conn.execute(f"SELECT id, game_id FROM devices WHERE {condition}", (ids,))
    return {int(row["id"]): int(row["game_id"]) for row in rows}


def of_game(conn: Connection, game_id: int) -> list[Device]:
    """Return the devices of game *game_id*, in the order they joined (at most MAX_DEVICES)."""
    rows = conn.execute("SELECT * FROM devices WHERE game_id = ? ORDER BY id LIMIT ?",
                        (game_id, MAX_DEVICES))
    return [_device(row) for row in rows]


def remove(conn: Connection, game_id: int, device_id: int) -> Device:
    """Remove device *device_id* of game *game_id*; return it. Raises DeviceNotFoundError."""
    with conn.transaction():
        row = conn.execute("SELECT * FROM devices WHERE id = ? AND game_id = ?",
                           (device_id, game_id)).fetchone()
        if row is None:
            raise DeviceNotFoundError(f"game {game_id} has no device {device_id}",
                                      code="no_device", game=game_id, device=device_id)
        conn.execute("DELETE FROM devices WHERE id = ?", (device_id,))
    return _device(row)


def keep_only(conn: Connection, game_id: int, device_id: int | None) -> None:
    """Remove every device of game *game_id* but *device_id* (a new join code: they are out)."""
    kept = "" if device_id is None else " AND id != ?"
    with conn.transaction():
        conn.execute("DELETE FROM devices WHERE game_id = ?" + kept,
                     (game_id,) if device_id is None else (game_id, device_id))

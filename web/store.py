"""Games kept in SQLite: create, load, list, and change with optimistic concurrency.

Each row holds one series (up to six games at one table) as `Series.to_dict()`
JSON plus a ``version`` that grows by one with every accepted change. A change
names the version it was based on; the ``UPDATE … WHERE id = ? AND version = ?``
only succeeds for the current version, so a stale write from a second device
never overwrites a newer one.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from scorekeeper.game import Game
from scorekeeper.series import Series
from web.db import transaction

# No O/0, I/1/L, B/8, S or Z: what is left cannot be misread when typed from a tablet.
JOIN_ALPHABET = "ACDEFGHJKMNPQRTUVWXY2345679"
JOIN_CODE_LENGTH = 6


class GameNotFoundError(LookupError):
    """No game with this id or join code."""


class StaleVersionError(RuntimeError):
    """A change based on an older version of the game; `.current` is the game as stored."""

    def __init__(self, current: Record, given: int) -> None:
        super().__init__(
            f"the game changed meanwhile: version {given} was given, the current one is "
            f"{current.version}; reload and try again"
        )
        self.current = current


@dataclass(frozen=True)
class Record:
    """One stored series with its bookkeeping columns."""

    id: int
    join_code: str
    version: int
    series: Series
    created_at: str
    updated_at: str

    @property
    def game(self) -> Game:
        """The series' current game."""
        return self.series.current


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def new_join_code() -> str:
    """Return a random join code of unambiguous characters."""
    return "".join(secrets.choice(JOIN_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def _record(row: sqlite3.Row) -> Record:
    return Record(
        id=row["id"],
        join_code=row["join_code"],
        version=row["version"],
        series=Series.from_dict(json.loads(row["series"])),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def create(conn: sqlite3.Connection, series: Series) -> Record:
    """Store a new series under a fresh id and join code; return it (version 1)."""
    game = series.current
    for _ in range(20):
        now = _now()
        try:
            with transaction(conn):
                cursor = conn.execute(
                    "INSERT INTO games (join_code, rules, players, status, version, series,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                    (new_join_code(), game.rules.name, json.dumps(list(game.players)),
                     game.phase, json.dumps(series.to_dict()), now, now),
                )
        except sqlite3.IntegrityError:  # join code taken: draw another
            continue
        assert cursor.lastrowid is not None
        return load(conn, cursor.lastrowid)
    raise RuntimeError("could not find a free join code")


def load(conn: sqlite3.Connection, game_id: int) -> Record:
    """Return the game *game_id*; raise GameNotFoundError."""
    row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game with id {game_id}")
    return _record(row)


def find_by_code(conn: sqlite3.Connection, code: str) -> Record:
    """Return the game whose join code is *code* (any case); raise GameNotFoundError."""
    row = conn.execute(
        "SELECT * FROM games WHERE join_code = ?", (code.strip().upper(),)
    ).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game with join code {code!r}")
    return _record(row)


def current_version(conn: sqlite3.Connection, game_id: int) -> int | None:
    """Return the stored version of game *game_id*, or None when there is no such game."""
    row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row["version"])


def all_records(conn: sqlite3.Connection) -> list[Record]:
    """Return every stored series, most recently changed first."""
    rows = conn.execute("SELECT * FROM games ORDER BY updated_at DESC, id DESC").fetchall()
    return [_record(row) for row in rows]


def update(
    conn: sqlite3.Connection,
    game_id: int,
    version: int | None,
    change: Callable[[Series], Series],
) -> Record:
    """Apply *change* to the stored series and store the result; return the new record.

    *version* is the version the change was based on (None: whatever is current).
    All of it happens in one write transaction: a change that raises leaves the
    stored game exactly as it was.
    Raises GameNotFoundError, StaleVersionError, or whatever *change* raises.
    """
    with transaction(conn):
        record = load(conn, game_id)
        if version is not None and version != record.version:
            raise StaleVersionError(record, version)
        series = change(record.series)
        now = _now()
        cursor = conn.execute(
            "UPDATE games SET series = ?, status = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ?",
            (json.dumps(series.to_dict()), series.current.phase, now, game_id, record.version),
        )
        if cursor.rowcount != 1:  # cannot happen inside BEGIN IMMEDIATE; never overwrite
            raise StaleVersionError(load(conn, game_id), record.version)
    return replace(record, version=record.version + 1, series=series, updated_at=now)

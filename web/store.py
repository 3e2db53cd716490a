"""Games kept in the database (`web.storage`): create, load, list, and change with
optimistic concurrency.

Each row holds one series (up to six games at one table) as `Series.to_dict()`
JSON plus a ``version`` that grows by one with every accepted change, and the
series' summary (`web.listing`) for lists. A change names the version it was
based on; the ``UPDATE … WHERE id = ? AND version = ?`` only succeeds for the
current version, so a stale write from a second device never overwrites a newer
one. A `RecordCache` keeps the parsed series of recent games, so a request
reads two small columns to learn that its cached game is current and replays nothing.

Ids are never reused (SQLite's ``AUTOINCREMENT``, migration 0003; PostgreSQL's identity
sequence): a deleted game's id, its cookies and whatever another server process still
caches of it never name a later game.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from flask import Flask

from scorekeeper.errors import Coded
from scorekeeper.game import Game
from scorekeeper.series import Series
from web.listing import write_summary
from web.storage import Conflict, Connection, Row, storage
from web.summary import result

# No O/0, I/1/L, B/8, S or Z: what is left cannot be misread when typed from a tablet.
JOIN_ALPHABET = "ACDEFGHJKMNPQRTUVWXY2345679"
JOIN_CODE_LENGTH = 6


class GameNotFoundError(Coded, LookupError):
    """No game with this id or join code."""


class StaleVersionError(Coded, RuntimeError):
    """A change based on an older version of the game; `.current` is the game as stored."""

    def __init__(self, current: Record, given: int) -> None:
        super().__init__(
            f"the game changed meanwhile: version {given} was given, the current one is "
            f"{current.version}; reload and try again", code="stale", given=given,
            current=current.version
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


def _record(row: Row) -> Record:
    return Record(
        id=row["id"],
        join_code=row["join_code"],
        version=row["version"],
        series=Series.from_dict(json.loads(row["series"])),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def create(conn: Connection, series: Series) -> Record:
    """Store a new series under a fresh id and join code; return it (version 1)."""
    game = series.current
    for _ in range(20):
        now = _now()
        try:
            with conn.transaction():
                game_id = conn.insert(
                    "INSERT INTO games (join_code, rules, players, status, version, series,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                    (new_join_code(), game.rules.name, json.dumps(list(game.players)),
                     game.phase, json.dumps(series.to_dict()), now, now),
                )
                write_summary(conn, game_id, 1, series, now, now)
                conn.changed(game_id, 1)
        except Conflict:  # join code taken: draw another
            continue
        return load(conn, game_id)
    raise RuntimeError("could not find a free join code")


class RecordCache:
    """The parsed records of the most recently used games (thread-safe, bounded)."""

    def __init__(self, size: int = 512) -> None:
        self._size = size
        self._records: OrderedDict[int, Record] = OrderedDict()
        self._finished: OrderedDict[int, tuple[Game, str, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int, created_at: str) -> Record | None:
        """Return the cached record of *game_id* if it is at *version* of the game created
        at *created_at* (never a deleted game's record under a reused id)."""
        with self._lock:
            record = self._records.get(game_id)
            if record is None or (record.version, record.created_at) != (version, created_at):
                return None
            self._records.move_to_end(game_id)
            return record

    def put(self, record: Record) -> Record:
        """Keep *record* (dropping the least recently used beyond the size); return it."""
        with self._lock:
            self._records[record.id] = record
            self._records.move_to_end(record.id)
            while len(self._records) > self._size:
                self._records.popitem(last=False)
        return record

    def drop(self, game_id: int) -> None:
        """Forget game *game_id*."""
        with self._lock:
            self._records.pop(game_id, None)

    def game_text(self, game: Game) -> str:
        """Return *game* as JSON text, kept for finished games (they never change).

        A write then serializes only the game being played, not the whole series.
        """
        return self._finished_game(game)[0] if game.is_over else json.dumps(game.to_dict())

    def game_result(self, game: Game) -> dict[str, Any]:
        """Return a finished game's result (`web.summary.result`), computed once."""
        return self._finished_game(game)[1]

    def _finished_game(self, game: Game) -> tuple[str, dict[str, Any]]:
        with self._lock:
            kept = self._finished.get(id(game))
            if kept is not None and kept[0] is game:
                return kept[1], kept[2]
        text, found = json.dumps(game.to_dict()), result(game)
        with self._lock:
            self._finished[id(game)] = (game, text, found)
            while len(self._finished) > 6 * self._size:
                self._finished.popitem(last=False)
        return text, found


def load(conn: Connection, game_id: int, cache: RecordCache | None = None,
         lock: bool = False) -> Record:
    """Return the game *game_id* (from *cache* when it holds the stored version); with
    *lock*, inside a transaction about to change it, other writers of the game wait.

    Raises GameNotFoundError.
    """
    locking = conn.for_update if lock else ""
    if cache is not None:
        row = conn.execute("SELECT version, created_at FROM games WHERE id = ?" + locking,
                           (game_id,)).fetchone()
        if row is None:
            raise GameNotFoundError(f"no game with id {game_id}", code="no_game_id", game=game_id)
        if (record := cache.get(game_id, row["version"], row["created_at"])) is not None:
            return record
    row = conn.execute("SELECT * FROM games WHERE id = ?" + locking, (game_id,)).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game with id {game_id}", code="no_game_id", game=game_id)
    record = _record(row)
    return cache.put(record) if cache is not None else record


def find_by_code(conn: Connection, code: str) -> Record:
    """Return the game whose join code is *code* (any case); raise GameNotFoundError."""
    row = conn.execute(
        "SELECT * FROM games WHERE join_code = ?", (code.strip().upper(),)
    ).fetchone()
    if row is None:
        raise GameNotFoundError(f"no game with join code {code!r}", code="no_game_code",
                                text=code)
    return _record(row)


def current_version(conn: Connection, game_id: int) -> int | None:
    """Return the stored version of game *game_id*, or None when there is no such game."""
    row = conn.execute("SELECT version FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None else int(row["version"])


def versions(conn: Connection, game_ids: Iterable[int]) -> dict[int, int]:
    """Return {id: version} of those of *game_ids* that exist, in one query."""
    condition, ids = conn.among("id", game_ids)
    rows = conn.execute(f"SELECT id, version FROM games WHERE {condition}", (ids,))
    return {int(row["id"]): int(row["version"]) for row in rows}


def join_codes(conn: Connection, game_ids: Iterable[int]) -> dict[int, str]:
    """Return {id: join code} of those of *game_ids* that exist, in one query."""
    condition, ids = conn.among("id", game_ids)
    rows = conn.execute(f"SELECT id, join_code FROM games WHERE {condition}", (ids,))
    return {int(row["id"]): str(row["join_code"]) for row in rows}


def delete(conn: Connection, game_id: int) -> None:
    """Delete game *game_id*. Raises GameNotFoundError."""
    with conn.transaction():
        if conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount != 1:
            raise GameNotFoundError(f"no game with id {game_id}", code="no_game_id", game=game_id)
        conn.changed(game_id, 0)


def new_code(conn: Connection, game_id: int, cache: RecordCache | None = None) -> Record:
    """Give game *game_id* a fresh join code (a new version); return the new record.

    Every grant of the old code (`web.access`) stops holding. Raises GameNotFoundError.
    """
    for _ in range(20):
        code = new_join_code()
        try:
            with conn.transaction():
                record = load(conn, game_id, cache, lock=True)
                now = _now()
                conn.execute("UPDATE games SET join_code = ?, version = version + 1,"
                             " updated_at = ? WHERE id = ?", (code, now, game_id))
                write_summary(conn, game_id, record.version + 1, record.series,
                              record.created_at, now)
                conn.changed(game_id, record.version + 1)
        except Conflict:  # join code taken: draw another
            continue
        changed = replace(record, join_code=code, version=record.version + 1, updated_at=now)
        return cache.put(changed) if cache is not None else changed
    raise RuntimeError("could not find a free join code")


def _series_text(series: Series, cache: RecordCache | None) -> str:
    """Return `Series.to_dict` as JSON text, finished games from *cache* when it has them."""
    games = [cache.game_text(g) if cache else json.dumps(g.to_dict()) for g in series.games]
    return '{"games": [' + ", ".join(games) + "]}"


def update(
    conn: Connection,
    game_id: int,
    version: int | None,
    change: Callable[[Series], Series],
    cache: RecordCache | None = None,
    check: Callable[[Record], object] | None = None,
) -> Record:
    """Apply *change* to the stored series and store the result; return the new record.

    *check* sees the stored record first and may refuse the change by raising (who
    may change it). *version* is the version the change was based on (None:
    whatever is current).
    All of it happens in one write transaction: a change that raises leaves the
    stored game exactly as it was.
    Raises GameNotFoundError, StaleVersionError, or whatever *check* or *change* raises.
    """
    with conn.transaction():
        record = load(conn, game_id, cache, lock=True)
        if check is not None:
            check(record)
        if version is not None and version != record.version:
            raise StaleVersionError(record, version)
        series = change(record.series)
        now = _now()
        cursor = conn.execute(
            "UPDATE games SET series = ?, status = ?, version = version + 1, updated_at = ?"
            " WHERE id = ? AND version = ?",
            (_series_text(series, cache), series.current.phase, now, game_id, record.version),
        )
        if cursor.rowcount != 1:  # cannot happen with the row locked; never overwrite
            raise StaleVersionError(load(conn, game_id), record.version)
        write_summary(conn, game_id, record.version + 1, series, record.created_at, now,
                      cache.game_result if cache is not None else result)
        conn.changed(game_id, record.version + 1)
    changed = replace(record, version=record.version + 1, series=series, updated_at=now)
    return cache.put(changed) if cache is not None else changed


def init_app(app: Flask) -> None:
    """Fill the summaries of games stored before there were summaries."""
    conn = storage(app).open()
    try:
        for row in conn.execute("SELECT games.id FROM games LEFT JOIN summaries USING (id)"
                                " WHERE summaries.id IS NULL").fetchall():
            record = load(conn, row["id"])
            with conn.transaction():
                write_summary(conn, record.id, record.version, record.series,
                              record.created_at, record.updated_at)
    finally:
        conn.close()

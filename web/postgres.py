"""PostgreSQL, the shared engine of `web.storage`: several server processes, on several
machines, on one database.

Requests borrow connections from psycopg's pool; each is checked before it is lent,
so connections broken by a restarted server are replaced by themselves. Writers of
one game take turns on its row (``SELECT … FOR UPDATE``); ids come from identity
sequences, never handed out twice. Every committed change sends ``NOTIFY pipkeeper``
with ``game:version`` (0: deleted); each process keeps one listening connection
(`PostgresStorage.follow`) that wakes its own streams, and after a lost connection
it reconnects and catches up by comparing versions, so no stream misses a change.

The schema is the numbered ``*.sql`` files in ``web/migrations/postgresql/`` (the
same steps as SQLite's, in this dialect); the version is a row of
``pipkeeper_schema``. Processes starting together migrate one at a time (an
advisory lock).
"""

from __future__ import annotations

import logging
import os
import secrets
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import tuple_row
from psycopg_pool import ConnectionPool, PoolTimeout

from web.storage import Check, Conflict, Connection, Storage, Watched, read_migrations

CHANNEL = "pipkeeper"
MIGRATION_LOCK = 7_340_116  # advisory lock key: one migrating process at a time
RECONNECT_SECONDS = 0.5
# Keep-alives: a listening connection to a machine that vanished is noticed in ~25 s.
CONNECT: dict[str, Any] = {"connect_timeout": 5, "keepalives": 1, "keepalives_idle": 10,
           "keepalives_interval": 5, "keepalives_count": 3}
BUSY = (PoolTimeout, pg_errors.LockNotAvailable, pg_errors.QueryCanceled,
        pg_errors.DeadlockDetected, pg_errors.SerializationFailure,
        pg_errors.TooManyConnections)
PROBLEMS = (
    (PoolTimeout, "every database connection stayed busy"),
    (pg_errors.DiskFull, "the database server's disk is full"),
    (pg_errors.ReadOnlySqlTransaction, "the database is read-only"),
    (pg_errors.InsufficientPrivilege, "the database refuses pipkeeper's user"),
    (pg_errors.UndefinedTable, "the database lacks pipkeeper's tables"),
    (BUSY, "the database is busy"),
    (psycopg.OperationalError, "the database server cannot be reached"),
)
log = logging.getLogger(__name__)


class PostgresRow(tuple[Any, ...]):
    """A row read by position or by column name."""

    names: dict[str, int]

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return tuple.__getitem__(self, self.names[key])
        return tuple.__getitem__(self, key)


def named_rows(cursor: Any) -> Any:
    """psycopg row factory: `PostgresRow`s named by the cursor's columns."""
    names = {column.name: i for i, column in enumerate(cursor.description or ())}

    def make(values: Sequence[Any]) -> PostgresRow:
        row = PostgresRow(values)
        row.names = names
        return row

    return make


@lru_cache(maxsize=256)
def dialect(sql: str) -> str:
    """Return *sql* with psycopg's parameter marks (``%s``) for ``?``."""
    return sql.replace("%", "%%").replace("?", "%s")


class PostgresConnection(Connection):
    """A `web.storage.Connection` on one psycopg connection (autocommit outside
    transactions)."""

    for_update = " FOR UPDATE"

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run *sql*; return its cursor. Raises Conflict for a duplicate, psycopg.Error."""
        try:
            return self.raw.execute(dialect(sql), params)
        except pg_errors.UniqueViolation as error:
            raise Conflict(str(error)) from error

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Return the rows of *sql* as plain tuples."""
        with self.raw.cursor(row_factory=tuple_row) as cursor:
            return cursor.execute(dialect(sql), params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[PostgresConnection]:
        """Run the block in one transaction, rolled back on any error; yield this connection."""
        with self.raw.transaction():
            yield self

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run the ``INSERT`` *sql*; return the new row's id. Raises Conflict, psycopg.Error."""
        return int(self.execute(sql + " RETURNING id", params).fetchone()[0])

    def among(self, column: str, values: Iterable[int]) -> tuple[str, Any]:
        """Return "*column* is one of *values*" as SQL and its one parameter (an array)."""
        return f"{column} = ANY(?::bigint[])", list(values)

    def changed(self, game_id: int, version: int) -> None:
        """Notify every process, at commit, that game *game_id* is at *version*."""
        self.raw.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{version}"))

    def close(self) -> None:
        """Close the connection."""
        self.raw.close()


def _configure(raw: psycopg.Connection[Any]) -> None:
    """A writer waits at most 5 s for another's lock (then 503, try again)."""
    raw.execute("SET lock_timeout = '5s'")


def connect(url: str) -> psycopg.Connection[Any]:
    """Return a new autocommit connection to *url*. Raises psycopg.OperationalError."""
    raw = psycopg.connect(url, autocommit=True, row_factory=named_rows, **CONNECT)
    _configure(raw)
    return raw


def public_name(url: str) -> str:
    """Return *url* without its password (for logs and messages)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def migrate(raw: psycopg.Connection[Any]) -> int:
    """Apply every migration newer than the database in one transaction; return the
    resulting version. Raises RuntimeError for a database newer than this code,
    psycopg.Error when a step fails (nothing of it stays)."""
    steps = read_migrations("migrations/postgresql")
    with raw.transaction():
        raw.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        raw.execute("CREATE TABLE IF NOT EXISTS pipkeeper_schema (version INTEGER NOT NULL)")
        row = raw.execute("SELECT max(version) FROM pipkeeper_schema").fetchone()
        current = int(row[0] or 0) if row else 0
        if current > len(steps):
            raise RuntimeError(f"database schema version {current} is newer than this "
                               f"pipkeeper ({len(steps)})")
        for _, sql in steps[current:]:
            raw.execute(sql.encode())
        raw.execute("DELETE FROM pipkeeper_schema")
        raw.execute("INSERT INTO pipkeeper_schema VALUES (%s)", (len(steps),))
    return len(steps)


def _moved(payloads: list[str], games: dict[int, int]) -> dict[int, int]:
    """Return {game: version seen} of the watched *games* that the notifications'
    ``game:version`` *payloads* say moved on or were deleted (version 0)."""
    moved: dict[int, int] = {}
    for payload in payloads:
        game, _, version = payload.partition(":")
        seen = games.get(int(game))
        if seen is not None and (int(version) == 0 or int(version) > seen):
            moved[int(game)] = seen
    return moved


class PostgresStorage(Storage):
    """A PostgreSQL database named by a URL, shared by every process serving it."""

    errors = (psycopg.Error,)

    def __init__(self, url: str, pool_size: int = 20, pool_timeout: float = 5.0,
                 poll_seconds: float = 0.25, **unused: Any) -> None:
        del unused
        self.url = url
        self._wait = poll_seconds  # how soon a newly followed game is compared
        self.name = public_name(url)
        self._size = max(2, int(pool_size))
        self._timeout = float(pool_timeout)
        self._pool: ConnectionPool[Any] | None = None

    def prepare(self) -> None:
        """Migrate the database, check it can be written, open the pool.

        Raises psycopg.Error (e.g. the server cannot be reached), RuntimeError.
        """
        with connect(self.url) as raw:
            migrate(raw)
            with raw.transaction():
                raw.execute("UPDATE games SET version = version WHERE false")
        self._pool = ConnectionPool(
            self.url, min_size=1, max_size=self._size, timeout=self._timeout,
            kwargs={"autocommit": True, "row_factory": named_rows, **CONNECT},
            configure=_configure, check=ConnectionPool.check_connection,
            name="pipkeeper", open=True)

    def open(self) -> PostgresConnection:
        """Return a new connection of its own. Raises psycopg.Error."""
        return PostgresConnection(connect(self.url))

    def borrow(self) -> PostgresConnection:
        """Return a pooled connection, waiting for one at most the pool's timeout.

        Raises PoolTimeout (a psycopg.OperationalError) when none came free in time.
        """
        assert self._pool is not None, "prepare() opens the pool"
        return PostgresConnection(self._pool.getconn())

    def give_back(self, conn: Connection) -> None:
        """Return *conn* to the pool (rolled back if a transaction was left open)."""
        assert self._pool is not None and isinstance(conn, PostgresConnection)
        self._pool.putconn(conn.raw)

    def describe(self, error: BaseException) -> str:
        """Return what *error* means for a person, in a few words."""
        text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        for kind, meaning in PROBLEMS:
            if isinstance(error, kind):
                return f"{meaning} ({text})"
        return f"the database failed ({text})"

    def is_busy(self, error: BaseException) -> bool:
        """True for a passing trouble: a busy database, or a server restarting."""
        return isinstance(error, (*BUSY, psycopg.OperationalError))

    def secret_key(self) -> str:
        """Return $PIPKEEPER_SECRET_KEY, else the key kept in the database (drawn by the
        first process that asks), the same for every process. Raises psycopg.Error."""
        from_env = os.environ.get("PIPKEEPER_SECRET_KEY")
        if from_env:
            return from_env
        with connect(self.url) as raw:
            raw.execute("INSERT INTO settings (name, value) VALUES ('secret_key', %s)"
                        " ON CONFLICT (name) DO NOTHING", (secrets.token_hex(32),))
            row = raw.execute("SELECT value FROM settings WHERE name = 'secret_key'").fetchone()
        assert row is not None  # inserted above unless already there
        return str(row[0])

    def follow(self, watched: Watched, check: Check) -> None:
        """Wake the watched games' streams on each notification until none is watched;
        a lost listening connection is opened again and catches up by version."""
        while True:
            try:
                self._listen(watched, check)
                return
            except Exception as error:  # the server restarted or went away: try again
                log.warning("change listener on %s: %s", self.name, error)
                time.sleep(RECONNECT_SECONDS)
                if not watched():
                    return

    def _listen(self, watched: Watched, check: Check) -> None:
        """Listen on one connection; check with a pooled one the games named by each
        notification, and each game newly watched (whatever changed before its stream
        was followed; after a reconnection, every game). Returns when no game is watched;
        raises psycopg.Error when the connection is lost."""
        with connect(self.url) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            known: set[int] = set()
            while games := watched():
                self._check({g: v for g, v in games.items() if g not in known}, check)
                known = set(games)
                told = [note.payload for note in
                        listener.notifies(timeout=self._wait, stop_after=1)]
                if not (games := watched()):  # the hub let this watcher go: end it
                    return
                self._check(_moved(told, games), check)

    def _check(self, games: dict[int, int], check: Check) -> None:
        """Run *check* on *games* with a pooled connection (nothing for no games)."""
        if not games:
            return
        conn = self.borrow()
        try:
            check(conn, games)
        finally:
            self.give_back(conn)

    def close(self) -> None:
        """Close the pool and its connections."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None

"""SQLite, the embedded engine of `web.storage`: a connection per worker thread; WAL;
migrations; other processes on the same file found by polling.

Connections stay open between requests (`Pool`): opening one costs little, but
closing the last one checkpoints the WAL and deletes it, a cost that grows with
the writes before it. Each request first checks that the file is still there,
so a deleted database is an error (503), not writes into a file nobody can see.

The schema version is SQLite's own ``PRAGMA user_version``; the migrations are
the numbered ``*.sql`` files in ``web/migrations/``, applied in order, each in
its own transaction together with the version bump, so a crash mid-migration
leaves the previous version intact.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

from web.storage import Check, Conflict, Storage, Watched, read_migrations
from web.storage import Connection as StorageConnection

log = logging.getLogger(__name__)


def default_database() -> Path:
    """Return the default database file in the user's data directory (created if missing)."""
    folder = Path(platformdirs.user_data_dir("pipkeeper", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "pipkeeper.sqlite3"


class Connection(sqlite3.Connection):
    """A connection that knows the lock serializing this process's writes to its file."""

    write_lock: threading.Lock


_WRITE_LOCKS: dict[str, threading.Lock] = {}
_WRITE_LOCKS_GUARD = threading.Lock()


def _write_lock(path: Path) -> threading.Lock:
    """Return the one lock of this process for writes to the file *path*."""
    key = os.path.normcase(str(path.absolute()))
    with _WRITE_LOCKS_GUARD:
        return _WRITE_LOCKS.setdefault(key, threading.Lock())


def connect(path: str | Path, create: bool = False) -> Connection:
    """Return a new connection to *path*: autocommit mode (transactions are explicit),
    rows as `sqlite3.Row`, foreign keys on, WAL journal synced at each commit, waiting
    up to 5 s for another process's lock.

    Only with *create* is a missing file made: a database deleted while the server
    runs is an error, not a new empty one. Raises sqlite3.Error.
    """
    path = Path(path)
    target = path.absolute().as_uri() + ("?mode=rwc" if create else "?mode=rw")
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False,
                           timeout=5.0, uri=True, factory=Connection)
    assert isinstance(conn, Connection)
    conn.write_lock = _write_lock(path)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    # FULL: each commit is on disk before the reply (a power cut loses no accepted action);
    # costs a few milliseconds an action.
    conn.execute("PRAGMA synchronous = FULL")
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block in one write transaction: committed on success, rolled back on any error.

    Writers of this process take turns on the file's lock, so they never spin on
    SQLite's busy handler; only another process's writer can make this wait, for up
    to the connection's timeout. Raises sqlite3.OperationalError ("database is locked")
    after that.
    """
    lock = getattr(conn, "write_lock", None) or threading.Lock()
    with lock:
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")


def migrations() -> list[tuple[int, str]]:
    """Return (number, SQL) of every SQLite migration, in order (see `read_migrations`)."""
    return read_migrations("migrations")


def schema_version(conn: sqlite3.Connection) -> int:
    """Return the schema version stored in the database file (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration newer than the database; return the resulting version.

    Idempotent: a database already at the latest version is left alone.
    Raises RuntimeError for a database newer than this code.
    """
    steps = migrations()
    current = schema_version(conn)
    if current > len(steps):
        raise RuntimeError(
            f"database schema version {current} is newer than this pipkeeper ({len(steps)})"
        )
    for number, sql in steps[current:]:
        # executescript() would commit on its own; one explicit script keeps the
        # migration and its version bump in a single transaction.
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return schema_version(conn)


STORAGE_PROBLEMS = (
    ("database or disk is full", "the disk is full"),
    ("readonly database", "the database is read-only"),
    ("read-only", "the database is read-only"),
    ("database is locked", "the database is busy"),
    ("unable to open database file", "the database file or its folder is missing"),
    ("no such table", "the database file was replaced by an empty one"),
    ("file is not a database", "the file is not a pipkeeper database"),
    ("disk i/o error", "the disk failed"),
)


def describe(error: BaseException) -> str:
    """Return what a storage *error* means for a person, in a few words."""
    text = str(error)
    for key, meaning in STORAGE_PROBLEMS:
        if key in text.lower():
            return f"{meaning} ({text})"
    return f"the database failed ({text})"


def is_busy(error: BaseException) -> bool:
    """True when *error* only means another writer held the database too long."""
    return "database is locked" in str(error).lower()


def check_writable(conn: sqlite3.Connection) -> None:
    """Raise sqlite3.Error unless *conn* may write (a read-only file or folder fails here)."""
    with transaction(conn):
        conn.execute("UPDATE games SET id = id WHERE 0")


class Pool:
    """One open connection to one database file per thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()

    def connection(self) -> Connection:
        """Return this thread's connection, opening it on first use.

        Raises sqlite3.OperationalError when the file is gone (its connection is
        closed, so a database put back later is opened afresh).
        """
        conn: Connection | None = getattr(self._local, "conn", None)
        if not self.path.exists():
            self.discard()
            raise sqlite3.OperationalError(f"unable to open database file: {self.path} is gone")
        if conn is None:
            conn = self._local.conn = connect(self.path)
        return conn

    def release(self) -> None:
        """End whatever transaction a failed request left open on this thread's connection."""
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is not None and conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                self.discard()

    def discard(self) -> None:
        """Close and forget this thread's connection."""
        conn: Connection | None = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            conn.close()


class SqliteConnection(StorageConnection):
    """A `web.storage.Connection` on one SQLite connection."""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        """Run *sql*; return its cursor (rows are `sqlite3.Row`).

        Raises Conflict for a duplicate in a unique column, sqlite3.Error otherwise.
        """
        try:
            return self.raw.execute(sql, params)
        except sqlite3.IntegrityError as error:
            if "UNIQUE constraint failed" in str(error):
                raise Conflict(str(error)) from error
            raise

    def tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Return the rows of *sql* as plain tuples."""
        cursor = self.raw.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[SqliteConnection]:
        """Run the block in one write transaction (see `transaction`); yield this connection."""
        with transaction(self.raw):
            yield self

    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run the ``INSERT`` *sql*; return the new row's id. Raises Conflict, sqlite3.Error."""
        row_id = self.execute(sql, params).lastrowid
        assert row_id is not None
        return row_id

    def among(self, column: str, values: Iterable[int]) -> tuple[str, Any]:
        """Return "*column* is one of *values*" as SQL and its one parameter (JSON text)."""
        return f"{column} IN (SELECT value FROM json_each(?))", json.dumps(list(values))

    def close(self) -> None:
        """Close the connection."""
        self.raw.close()


class SqliteStorage(Storage):
    """A database file: a connection per worker thread; other processes found by polling."""

    errors = (sqlite3.Error,)

    def __init__(self, path: str | Path, poll_seconds: float = 0.25, **unused: Any) -> None:
        del unused  # pool settings of a database server
        self.path = Path(path)
        self.name = str(path)
        self._poll = poll_seconds
        self._pool = Pool(self.path)

    def prepare(self) -> None:
        """Create or migrate the file and check it can be written. Raises sqlite3.Error,
        OSError, RuntimeError (a file newer than this code)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = connect(self.path, create=True)
        try:
            migrate(conn)
            check_writable(conn)
        finally:
            conn.close()

    def open(self) -> SqliteConnection:
        """Return a new connection to the file. Raises sqlite3.Error."""
        return SqliteConnection(connect(self.path))

    def borrow(self) -> SqliteConnection:
        """Return this thread's connection. Raises sqlite3.OperationalError (file gone)."""
        return SqliteConnection(self._pool.connection())

    def give_back(self, conn: StorageConnection) -> None:
        """End whatever transaction a failed request left open."""
        del conn
        self._pool.release()

    def discard(self) -> None:
        """Close this thread's connection."""
        self._pool.discard()

    def describe(self, error: BaseException) -> str:
        """Return what *error* means for a person, in a few words."""
        return describe(error)

    def is_busy(self, error: BaseException) -> bool:
        """True when *error* only means another writer held the file too long."""
        return is_busy(error)

    def secret_key(self) -> str:
        """Return $PIPKEEPER_SECRET_KEY, else the key kept in a file beside the database."""
        from web.security import load_secret_key

        return load_secret_key(self.path.parent)

    def follow(self, watched: Watched, check: Check) -> None:
        """Ask for the versions of the watched games every poll interval until none is
        watched; a failed poll is logged and tried again at the next one."""
        conn: SqliteConnection | None = None
        try:
            while True:
                time.sleep(self._poll)
                if not (games := watched()):
                    return
                try:
                    conn = conn or self.open()
                    check(conn, games)
                except Exception as error:  # a bad row or a lost file: the next poll tries
                    log.warning("event watcher: %s", error)
                    if conn is not None:
                        conn.close()
                    conn = None
        finally:
            if conn is not None:
                conn.close()

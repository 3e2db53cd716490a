"""SQLite: a connection per worker thread, lent to each request on `g`; WAL; migrations.

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

import os
import re
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import platformdirs
from flask import Flask, current_app, g

MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


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
    """Return (number, SQL) of every migration file, in order.

    Raises RuntimeError when the numbers are not 1, 2, 3, … without gaps.
    """
    folder = resources.files("web") / "migrations"
    found = sorted(
        (int(m.group(1)), entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if (m := MIGRATION_NAME.match(entry.name))
    )
    if [number for number, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001, 0002, … without gaps: {found}")
    return found


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


def describe(error: sqlite3.Error) -> str:
    """Return what a storage *error* means for a person, in a few words."""
    text = str(error)
    for key, meaning in STORAGE_PROBLEMS:
        if key in text.lower():
            return f"{meaning} ({text})"
    return f"the database failed ({text})"


def is_busy(error: sqlite3.Error) -> bool:
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


POOL = "pipkeeper.db_pool"


def get_db() -> sqlite3.Connection:
    """Return this request's connection to the app's database (this thread's, kept open)."""
    if "db" not in g:
        pool: Pool = current_app.extensions[POOL]
        g.db = pool.connection()
    conn: sqlite3.Connection = g.db
    return conn


def close_db(error: BaseException | None = None) -> None:
    """Hand this request's connection back to its thread, no transaction left open."""
    del error
    if g.pop("db", None) is not None:
        pool: Pool = current_app.extensions[POOL]
        pool.release()


def init_app(app: Flask) -> None:
    """Create or migrate the app's database now; lend connections to requests from a pool."""
    path = Path(app.config["DATABASE"])
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = connect(path, create=True)
    try:
        migrate(conn)
        check_writable(conn)
    finally:
        conn.close()
    app.extensions[POOL] = Pool(path)
    app.teardown_appcontext(close_db)

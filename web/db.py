"""SQLite: one connection per request on `g`, WAL mode, and versioned migrations.

The schema version is SQLite's own ``PRAGMA user_version``; the migrations are
the numbered ``*.sql`` files in ``web/migrations/``, applied in order, each in
its own transaction together with the version bump, so a crash mid-migration
leaves the previous version intact.
"""

from __future__ import annotations

import re
import sqlite3
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


def connect(path: str | Path) -> sqlite3.Connection:
    """Return a new connection to *path*: autocommit mode (transactions are explicit),
    rows as `sqlite3.Row`, foreign keys on, WAL journal synced at each commit, waiting
    up to 5 s for a lock.
    """
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    # FULL: each commit is on disk before the reply (a power cut loses no accepted action);
    # costs a few milliseconds an action.
    conn.execute("PRAGMA synchronous = FULL")
    return conn


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """Run the block in one write transaction: committed on success, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
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


def get_db() -> sqlite3.Connection:
    """Return this request's connection to the app's database, opening it on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    conn: sqlite3.Connection = g.db
    return conn


def close_db(error: BaseException | None = None) -> None:
    """Close this request's connection, if one was opened."""
    del error
    conn = g.pop("db", None)
    if conn is not None:
        conn.close()


def init_app(app: Flask) -> None:
    """Create or migrate the app's database now, and close connections after each request."""
    path = Path(app.config["DATABASE"])
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = connect(path)
    try:
        migrate(conn)
    finally:
        conn.close()
    app.teardown_appcontext(close_db)

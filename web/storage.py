"""Storage: the one interface the views and the live hub speak to, whatever the engine.

A database is named by ``DATABASE``: a file path (SQLite, `web.db`, the embedded
default) or a ``postgresql://`` URL (`web.postgres`). Each engine module gives a
`Storage` (connections, migrations, its errors, how changes reach other
processes) whose `Connection` runs the same SQL in both dialects: ``?`` marks a
parameter, and the few phrases the dialects spell differently are methods
(`Connection.insert`, `Connection.among`, `Connection.changed`).
"""

from __future__ import annotations

import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from importlib import resources
from typing import Any, Protocol

from flask import Flask, current_app, g

EXTENSION = "pipkeeper.storage"
log = logging.getLogger(__name__)
MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class Conflict(Exception):
    """A write that would break a unique column (a join code drawn twice)."""


class Row(Protocol):
    """A row read by name or by position."""

    def __getitem__(self, key: str | int) -> Any: ...


class Cursor(Protocol):
    """What a statement gives back: its rows and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


Watched = Callable[[], dict[int, int]]
Check = Callable[["Connection", dict[int, int]], None]


class Connection(ABC):
    """One connection to the database, in autocommit mode outside `transaction`."""

    # Ends a SELECT of rows about to be changed in the same transaction: other writers of
    # those rows wait (SQLite's writers take turns on the whole file anyway).
    for_update = ""

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """Run *sql* (``?`` for each parameter); return its cursor (rows by name or position).

        Raises Conflict for a duplicate in a unique column, the engine's errors otherwise.
        """

    @abstractmethod
    def tuples(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """Return the rows of *sql* as plain tuples (for long lists)."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Connection]:
        """Return a context running its block as one write transaction: committed on
        success, rolled back on any error. Writers of one game take turns."""

    @abstractmethod
    def insert(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run the ``INSERT`` *sql* into a table with an ``id`` column; return the new id
        (never one given before). Raises Conflict for a duplicate."""

    @abstractmethod
    def among(self, column: str, values: Iterable[int]) -> tuple[str, Any]:
        """Return the condition "*column* is one of *values*" and its one parameter."""

    def changed(self, game_id: int, version: int) -> None:
        """Tell other processes, once the transaction commits, that game *game_id* is at
        *version* (0: deleted). Engines whose processes look for changes need not."""
        del game_id, version

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""


class Storage(ABC):
    """One database: connections lent to requests, its errors, its change notification."""

    name: str  # what a person calls the database (a path, a URL without its password)
    errors: tuple[type[Exception], ...]

    @abstractmethod
    def prepare(self) -> None:
        """Create or migrate the database and check that it can be written.

        Raises the engine's errors, or RuntimeError for a database newer than this code.
        """

    @abstractmethod
    def open(self) -> Connection:
        """Return a new connection of its own (the caller closes it)."""

    @abstractmethod
    def borrow(self) -> Connection:
        """Return a connection for this thread's request, until `give_back`."""

    @abstractmethod
    def give_back(self, conn: Connection) -> None:
        """Take back a borrowed connection, no transaction left open."""

    @abstractmethod
    def describe(self, error: BaseException) -> str:
        """Return what a storage *error* means for a person, in a few words."""

    @abstractmethod
    def is_busy(self, error: BaseException) -> bool:
        """True when *error* only means the database was too busy for a moment."""

    @abstractmethod
    def secret_key(self) -> str:
        """Return the key the cookies are signed with, the same for every process serving
        this database."""

    @abstractmethod
    def follow(self, watched: Watched, check: Check) -> None:
        """Find changes made by other processes until *watched* is empty.

        *watched* returns {game: version} of the games someone follows; *check* is
        called with a connection and those of them that may have changed.
        """

    def close(self) -> None:  # noqa: B027  # an engine without open connections has none
        """Close every connection kept open."""


def read_migrations(folder: str) -> list[tuple[int, str]]:
    """Return (number, SQL) of every migration file in *folder* of the package, in order.

    Raises RuntimeError when the numbers are not 1, 2, 3, … without gaps.
    """
    found = sorted(
        (int(m.group(1)), entry.read_text(encoding="utf-8"))
        for entry in (resources.files("web") / folder).iterdir()
        if (m := MIGRATION_NAME.match(entry.name))
    )
    if [number for number, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 0001, 0002, … without gaps: {found}")
    return found


def open_storage(database: str, **options: Any) -> Storage:
    """Return the storage of *database*: a ``postgresql://`` URL or an SQLite file path.

    Raises RuntimeError when PostgreSQL is named but psycopg is not installed.
    """
    if is_url(database):
        try:
            from web.postgres import PostgresStorage
        except ImportError as error:
            raise RuntimeError("PostgreSQL needs psycopg: pip install 'pipkeeper[postgresql]'"
                               f" ({error})") from None
        return PostgresStorage(database, **options)
    from web.db import SqliteStorage

    return SqliteStorage(database, **options)


def is_url(database: str) -> bool:
    """True when *database* names a PostgreSQL server rather than an SQLite file."""
    return database.startswith(("postgresql://", "postgres://"))


def storage(app: Flask | None = None) -> Storage:
    """Return the storage of *app* (default: this request's app)."""
    found: Storage = (app or current_app).extensions[EXTENSION]
    return found


def get_db() -> Connection:
    """Return this request's connection (borrowed on first use, given back at its end)."""
    if "db" not in g:
        g.db = storage().borrow()
    conn: Connection = g.db
    return conn


def close_db(error: BaseException | None = None) -> None:
    """Give this request's connection back, no transaction left open."""
    del error
    conn = g.pop("db", None)
    if conn is not None:
        storage().give_back(conn)


def init_app(app: Flask) -> None:
    """Open the app's database (``DATABASE``), migrated; lend connections to requests."""
    options = {key: app.config[name] for key, name in
               (("poll_seconds", "EVENTS_POLL_SECONDS"), ("pool_size", "DATABASE_POOL_SIZE"),
                ("pool_timeout", "DATABASE_POOL_TIMEOUT")) if name in app.config}
    found = open_storage(str(app.config["DATABASE"]), **options)
    try:
        found.prepare()
    except BaseException:
        found.close()
        raise
    app.extensions[EXTENSION] = found
    app.teardown_appcontext(close_db)

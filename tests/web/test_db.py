"""The database: migrations from an empty file, idempotent re-init, WAL, refusing the future."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import AppFactory
from web import db


def test_migrations_are_numbered_from_one() -> None:
    numbers = [number for number, _ in db.migrations()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert numbers[0] == 1


def test_empty_file_is_migrated_to_the_latest_version(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "new.sqlite3", create=True)
    assert db.schema_version(conn) == 0
    assert db.migrate(conn) == len(db.migrations())
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "games" in tables
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    conn.close()


def test_init_twice_keeps_schema_and_data(make_app: AppFactory, database: Path) -> None:
    first = make_app()
    client = first.test_client()
    created = client.post("/api/games", json={"players": ["Ann"]}).get_json()
    second = make_app()  # a restart: init_app runs again on the same file
    conn = db.connect(database)
    assert db.schema_version(conn) == len(db.migrations())
    assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    conn.close()
    second_client = second.test_client()
    second_client.get(f"/join/{created['join_code']}")
    again = second_client.get(f"/api/games/{created['id']}").get_json()
    assert again == created


def test_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "future.sqlite3", create=True)
    conn.execute(f"PRAGMA user_version = {len(db.migrations()) + 1}")
    with pytest.raises(RuntimeError, match="newer than this pipkeeper"):
        db.migrate(conn)
    conn.close()


def test_failed_migration_leaves_the_version(tmp_path: Path) -> None:
    conn = db.connect(tmp_path / "broken.sqlite3", create=True)
    conn.execute("CREATE TABLE games (id INTEGER)")  # in the way of migration 1
    with pytest.raises(Exception, match="already exists"):
        db.migrate(conn)
    assert db.schema_version(conn) == 0
    assert not conn.in_transaction
    conn.close()

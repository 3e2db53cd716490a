"""The database: migrations from an empty file, idempotent re-init, WAL, refusing the future,
summaries filled for games stored before they existed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper import Dice
from scorekeeper.series import Series
from tests.conftest import AppFactory
from tests.web.conftest import Api
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


def test_games_stored_before_summaries_get_them_at_start(make_app: AppFactory,
                                                         database: Path) -> None:
    conn = db.connect(database, create=True)
    first = db.migrations()[0][1]
    conn.executescript(f"BEGIN IMMEDIATE;\n{first}\nPRAGMA user_version = 1;\nCOMMIT;")
    series = Series.new("yacht", ["Ann", "Ben"])
    for _ in range(24):  # a whole game of Yacht for two, then a second one started
        game = series.current
        series = series.with_current(game.roll(Dice.parse("12345")).score(
            next(c.slug for c in game.rules.categories
                 if game.cards[game.current_player or 0].box(c.slug) is None)))
    series = series.play_again()
    when = "2026-01-01T00:00:00.000+00:00"
    conn.execute("INSERT INTO games (join_code, rules, players, status, version, series,"
                 " created_at, updated_at) VALUES ('ACDEFG', 'yacht', '[\"Ann\",\"Ben\"]',"
                 " 'play', 49, ?, ?, ?)", (json.dumps(series.to_dict()), when, when))
    conn.close()
    api = Api(make_app().test_client())
    listed = api.get("/api/games")["games"]
    assert listed == [{
        "id": 1, "joined": False, "owner": False, "version": 49,
        "created_at": "2026-01-01T00:00:00.000+00:00",
        "updated_at": "2026-01-01T00:00:00.000+00:00", "rules": "yacht",
        "players": ["Ann", "Ben"], "phase": "play", "finished": False, "winners": [],
        "current_player": 0, "turn": 1, "totals": [0, 0], "game_number": 2,
        "series_totals": list(series.totals()),
        "results": [{"totals": [60, 60], "winners": [0, 1], "yahtzees": [0, 0]}],
    }]
    stats = api.get("/api/stats")["players"]
    assert [(s["player"], s["games"]) for s in stats] == [("Ann", 1), ("Ben", 1)]
    finished = series.games[0]
    assert [s["best"] for s in stats] == [card.grand_total for card in finished.cards]

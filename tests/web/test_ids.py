"""Game ids are never reused, in new and in migrated databases, across server processes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.conftest import AppFactory
from tests.web.conftest import Api
from web import db


def test_a_deleted_games_id_is_never_given_again(api: Api) -> None:
    first, second = api.create()["id"], api.create()["id"]
    assert api.client.delete(f"/api/games/{second}").status_code == 204
    third = api.create()["id"]
    assert (first, second, third) == (1, 2, 3)


def test_a_second_server_never_serves_a_deleted_game(make_app: AppFactory) -> None:
    one, two = Api(make_app().test_client()), Api(make_app().test_client())
    state = one.create(["Ann", "Ben"])
    two.join(state["join_code"])
    assert two.state(state["id"])["cards"][0]["player"] == "Ann"  # now in two's cache
    one.client.delete(f"/api/games/{state['id']}")
    fresh = one.create(["Cat", "Dan"])
    assert fresh["id"] != state["id"]
    assert two.client.get(f"/api/games/{state['id']}").status_code == 404
    assert two.client.get(f"/api/games/{fresh['id']}").status_code == 403


def test_a_cached_game_is_not_served_for_another_game_under_its_id(
        make_app: AppFactory, database: Path) -> None:
    one, two = Api(make_app().test_client()), Api(make_app().test_client())
    state = one.create(["Ann", "Ben"])
    two.join(state["join_code"])
    two.state(state["id"])
    conn = sqlite3.connect(database)  # another program puts a different game under the id
    conn.execute("UPDATE games SET created_at = '2030-01-01T00:00:00.000+00:00',"
                 " series = replace(series, 'Ann', 'Eve') WHERE id = ?", (state["id"],))
    conn.commit()
    conn.close()
    assert two.state(state["id"])["cards"][0]["player"] == "Eve"


def test_an_old_database_migrates_keeping_its_games(tmp_path: Path,
                                                    make_app: AppFactory) -> None:
    path = tmp_path / "old.sqlite3"
    old = Api(make_app(path).test_client())
    kept = old.create(["Ann"])
    old.create(["Ben"])
    conn = sqlite3.connect(path)  # as a file of schema version 2 was: no AUTOINCREMENT
    conn.executescript("DROP TABLE devices; DROP TABLE summaries; DROP TABLE games;"
                       " PRAGMA user_version = 0;")
    for _, sql in db.migrations()[:2]:
        conn.executescript(sql)
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO games SELECT * FROM (SELECT 1, 'AAAAAA', 'yahtzee', '[\"Ann\"]',"
                 " 'play', 1, ?, 'x', 'x')", (_series_of(kept),))
    conn.commit()
    conn.close()
    migrated = Api(make_app(path).test_client())
    assert migrated.create(["Cat"])["id"] == 2
    schema = sqlite3.connect(path).execute(
        "SELECT sql FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    assert "AUTOINCREMENT" in schema
    listed = migrated.get("/api/games")["games"]
    assert sorted(game["id"] for game in listed) == [1, 2]


def _series_of(state: dict[str, object]) -> str:
    import json

    from scorekeeper.series import Series
    players = [card["player"] for card in state["cards"]]  # type: ignore[attr-defined]
    return json.dumps(Series.new("yahtzee", players, False).to_dict())

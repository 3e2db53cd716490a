"""The game list in pages: a limit, a cursor to the next page, finished and unfinished
games apart, bad paging parameters refused naming the bad value."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import AppFactory
from tests.web.conftest import Api
from web import db, paging


@pytest.fixture
def api(make_app: AppFactory) -> Api:
    """A device of a server that lets it start many games a minute."""
    return Api(make_app(GAMES_PER_MINUTE=1000).test_client())


def pages(api: Api, url: str) -> list[dict[str, object]]:
    """Return every page from *url* on, following each page's ``next``."""
    found = []
    while url:
        page = api.get(url)
        found.append(page)
        assert page["more"] is (page["next"] is not None) is (page["cursor"] is not None)
        url = str(page["next"] or "")
    return found


def test_the_list_comes_in_pages_that_follow_each_other(api: Api) -> None:
    ids = [api.create([f"P{n}"])["id"] for n in range(7)]
    found = pages(api, "/api/games?limit=3")
    assert [[g["id"] for g in p["games"]] for p in found] == [ids[6:3:-1], ids[3:0:-1], ids[:1]]
    assert [p["more"] for p in found] == [True, True, False]
    assert found[0]["next"] == f"/api/games?limit=3&cursor={found[0]['cursor']}"


def test_a_game_started_meanwhile_pushes_nothing_onto_the_next_page(api: Api) -> None:
    ids = [api.create([f"P{n}"])["id"] for n in range(4)]
    first = api.get("/api/games?limit=2")
    api.create(["New"])
    second = api.get(str(first["next"]))
    assert [g["id"] for g in second["games"]] == [ids[1], ids[0]]


def test_the_default_page_is_fifty_games(api: Api) -> None:
    for n in range(paging.DEFAULT_LIMIT + 1):
        api.create([f"P{n}"])
    page = api.get("/api/games")
    assert (len(page["games"]), page["more"]) == (50, True)
    assert [g["players"] for g in api.get(str(page["next"]))["games"]] == [["P0"]]


def test_finished_and_unfinished_games_are_listed_apart(api: Api) -> None:
    done = api.create(["Ann"], rules="yacht")["id"]
    api.play_out(done)
    playing = [api.create([f"P{n}"])["id"] for n in range(3)]
    finished = api.get("/api/games?finished=true")
    unfinished = pages(api, "/api/games?finished=false&limit=2")
    assert [g["id"] for g in finished["games"]] == [done] and finished["more"] is False
    assert [g["id"] for p in unfinished for g in p["games"]] == playing[::-1]
    assert str(unfinished[0]["next"]).endswith("&finished=false")


def test_a_series_playing_on_after_a_finished_game_is_in_both_lists(api: Api) -> None:
    series = api.create(["Ann", "Ben"], rules="yacht")["id"]
    first = api.play_out(series, dice=(6, 6, 6, 6, 6))
    api.post(f"/api/games/{series}/next", {"version": first["version"]})
    finished = api.get("/api/games?finished=true")["games"]
    unfinished = api.get("/api/games?finished=false")["games"]
    assert [g["id"] for g in finished] == [series] == [g["id"] for g in unfinished]
    entry = finished[0]
    assert (entry["finished"], entry["game_number"], entry["totals"]) == (False, 2, [0, 0])
    total = first["cards"][0]["totals"]["grand_total"]
    assert entry["results"] == [{"totals": [total, total], "winners": [0, 1],
                                 "yahtzees": [1, 1]}]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("limit=0", "'limit' must be a whole number from 1 to 200, got '0'"),
        ("limit=201", "'limit' must be a whole number from 1 to 200, got '201'"),
        ("limit=ten", "'limit' must be a whole number, got 'ten'"),
        ("limit=-3", "'limit' must be a whole number, got '-3'"),
        ("cursor=zzz", "'cursor' must be the cursor of an earlier page of the list, got 'zzz'"),
        (f"cursor={paging.encode(('yesterday', 3))}",
         "'cursor' must be the cursor of an earlier page of the list, got 'eWVzdGVyZGF5fDM'"),
        ("finished=maybe", "'finished' must be true or false, got 'maybe'"),
        ("page=2", "unknown parameter 'page': the game list takes limit, cursor and finished"),
    ],
)
def test_bad_paging_parameters_are_400_naming_the_value(api: Api, query: str,
                                                        message: str) -> None:
    api.create(["Ann"])
    assert api.get(f"/api/games?{query}", 400) == {"error": message}


def test_a_database_of_schema_3_lists_its_finished_games_apart(
        tmp_path: Path, make_app: AppFactory) -> None:
    path = tmp_path / "old.sqlite3"
    old = Api(make_app(path).test_client())
    done = old.create(["Ann"], rules="yacht")["id"]
    old.play_out(done)
    playing = old.create(["Ben"])["id"]
    conn = sqlite3.connect(path)  # as a file of schema version 3 was: no finished column
    conn.executescript("DROP TABLE devices; DROP INDEX summaries_by_finished;"
                       " ALTER TABLE summaries DROP COLUMN finished; PRAGMA user_version = 3;")
    conn.close()
    migrated = Api(make_app(path).test_client())
    assert db.schema_version(sqlite3.connect(path)) == len(db.migrations())
    assert [g["id"] for g in migrated.get("/api/games?finished=true")["games"]] == [done]
    assert [g["id"] for g in migrated.get("/api/games?finished=false")["games"]] == [playing]

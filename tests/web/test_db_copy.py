"""`pipkeeper db copy`: every game, series and statistic of an SQLite file copied into
PostgreSQL, counted, and never copied twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipkeeper.cli import main
from tests.conftest import AppFactory
from tests.web.conftest import Api
from web.loadtest.postgres import Cluster


def test_copy_moves_every_game_once(make_app: AppFactory, database: Path, postgres: Cluster,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    api = Api(make_app().test_client())
    finished = api.create(["Ann", "Ben"], rules="yacht")["id"]
    api.play_out(finished)
    playing = api.create(["Cy"])["id"]
    api.roll(playing, [6, 6, 6, 6, 6])
    stats = api.get("/api/stats")["players"]
    target = postgres.create()
    try:
        assert main(["db", "copy", str(database), target]) == 0
        assert capsys.readouterr().out == "2 games copied, 0 already there (2 in " \
            f"{database})\n"
        assert main(["db", "copy", str(database), target]) == 0
        assert capsys.readouterr().out.startswith("0 games copied, 2 already there")
        moved = Api(make_app(target).test_client())
        assert moved.get("/api/stats")["players"] == stats
        listed = moved.get("/api/games")["games"]
        assert sorted((g["rules"], g["players"], g["finished"]) for g in listed) == [
            ("yacht", ["Ann", "Ben"], True), ("yahtzee", ["Cy"], False)]
    finally:
        postgres.drop(target)


def test_copy_from_a_missing_file_says_so(tmp_path: Path, postgres: Cluster,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite3"
    assert main(["db", "copy", str(missing), postgres.url()]) == 2
    assert capsys.readouterr().err == f"pipkeeper db copy: no database at {missing}\n"

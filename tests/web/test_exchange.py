"""`pipkeeper export` and `import`: a finished series comes back exactly, never twice."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Api

from pipkeeper.cli import main
from scorekeeper import ruleset
from scorekeeper.layout import printed_pad
from tests.conftest import AppFactory


def exported(database: Path, capsys: pytest.CaptureFixture[str], *ids: str) -> dict[str, Any]:
    assert main(["export", "--db", str(database), *ids]) == 0
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    return document


def played_series(api: Api) -> int:
    """Return a game whose first game is finished and whose second has begun."""
    game = api.create(["Ann", "Ben"])["id"]
    api.play_out(game)
    api.post(f"/api/games/{game}/next", {})
    api.roll(game, [1, 1, 1, 1, 1])
    return int(game)


def test_a_series_round_trips_exactly_and_is_never_imported_twice(
        api: Api, database: Path, tmp_path: Path, make_app: AppFactory,
        capsys: pytest.CaptureFixture[str]) -> None:
    game = played_series(api)
    api.create(["Cy"], rules="yacht")
    document = exported(database, capsys, str(game))
    assert document["format"] == "pipkeeper-games" and len(document["games"]) == 1
    file = tmp_path / "games.json"
    file.write_text(json.dumps(document))
    other = tmp_path / "other.sqlite3"
    assert main(["import", "--db", str(other), str(file)]) == 0
    assert capsys.readouterr().out == f"{file}: 1 game imported, 0 already there\n"
    assert main(["import", "--db", str(other), str(file)]) == 0
    assert capsys.readouterr().out == f"{file}: 0 games imported, 1 already there\n"
    again = exported(other, capsys)
    assert [g["series"] for g in again["games"]] == [document["games"][0]["series"]]
    assert again["games"][0]["created_at"] == document["games"][0]["created_at"]
    listed = Api(make_app(other).test_client()).get("/api/games?finished=false")["games"]
    assert [entry["players"] for entry in listed] == [api.state(game)["players"]]


def test_import_into_the_database_it_came_from_adds_nothing(
        api: Api, database: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played_series(api)
    file = tmp_path / "all.json"
    file.write_text(json.dumps(exported(database, capsys)))
    assert main(["import", "--db", str(database), str(file)]) == 0
    assert capsys.readouterr().out == f"{file}: 0 games imported, 1 already there\n"


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "is not JSON"),
    ('{"format": "something else", "games": []}', "not a pipkeeper export"),
    ('{"format": "pipkeeper-games", "version": 9, "games": []}', "export version 9"),
    ('{"format": "pipkeeper-games", "version": 1, "games": [{"series": {}}]}',
     "game 1 of the file lacks series, created_at or updated_at"),
    ('{"format": "pipkeeper-games", "version": 1, "games": [{"series": {"games": 3},'
     ' "created_at": "x", "updated_at": "y"}]}', "game 1 of the file is not a valid series"),
])
def test_a_bad_file_says_why_and_stores_nothing(api: Api, database: Path, tmp_path: Path,
                                                content: str, message: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    api.create(["Ann"])
    before = exported(database, capsys)
    file = tmp_path / "bad.json"
    file.write_text(content)
    assert main(["import", "--db", str(database), str(file)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pipkeeper import: ") and message in err
    assert exported(database, capsys) == before


def test_export_of_an_unknown_game_names_it(api: Api, database: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    api.create(["Ann"])
    assert main(["export", "--db", str(database), "77"]) == 2
    assert capsys.readouterr().err == "pipkeeper export: no game 77 in this database\n"


def test_csv_has_a_row_per_player_and_printed_row_with_the_cards_values(
        api: Api, database: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played_series(api)
    assert main(["export", "--db", str(database), "--format", "csv", str(game)]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    first = [r for r in rows if r["game"] == "1" and r["player"] == "Ann"]
    assert [r["row"] for r in first][:7] == ["aces", "twos", "threes", "fours", "fives",
                                            "sixes", "upper_subtotal"]
    assert len(first) == len(printed_pad(ruleset("yahtzee")))
    grand = next(r for r in first if r["row"] == "grand_total")
    boxes = [int(r["value"]) for r in first if r["row"] in {c.slug for c in
                                                           ruleset("yahtzee").categories}]
    upper_bonus = next(int(r["value"]) for r in first if r["row"] == "upper_bonus")
    yahtzee_bonus = next(int(r["value"]) for r in first if r["row"] == "yahtzee_bonus")
    assert int(grand["value"]) == sum(boxes) + upper_bonus + yahtzee_bonus > 0
    second = [r for r in rows if r["game"] == "2" and r["player"] == "Ann"]
    assert {r["value"] for r in second if r["row"] == "chance"} == {""}  # still open
    assert {r["player"] for r in rows} == {"Ann", "Ben"}

"""Downloads from the pages: a game's series and the device's finished games, as CSV and
JSON files, to the devices that may see them."""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import Api
from flask import Flask

from pipkeeper.cli import main
from scorekeeper import ruleset
from scorekeeper.layout import printed_pad

KINDS = ("csv", "json")


def download(api: Api, url: str, status: int = 200) -> Any:
    """GET *url* with the client of *api*; assert the status; return the response."""
    response = api.client.get(url)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    return response


def series_in_its_second_game(api: Api) -> int:
    """Return a game whose first game is over and whose second has a box filled."""
    game = int(api.create(["Ann", "Şule"])["id"])
    api.play_out(game, (6, 6, 6, 6, 6))
    api.post(f"/api/games/{game}/next", {})
    rolled = api.roll(game, [3, 3, 3, 4, 4])
    api.score(game, "full_house", rolled["state"]["version"])
    return game


def csv_rows(response: Any) -> list[dict[str, str]]:
    """Return the rows of a downloaded CSV file (which starts with a byte order mark)."""
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")
    return list(csv.DictReader(io.StringIO(text[1:])))


def test_the_json_of_a_game_imports_back_exactly(api: Api, database: Path, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    game = series_in_its_second_game(api)
    response = download(api, f"/games/{game}/export.json")
    assert response.mimetype == "application/json"
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=pipkeeper-game-{game}.json")
    assert response.headers["Cache-Control"] == "no-store"
    assert main(["export", "--db", str(database), str(game)]) == 0
    assert response.get_data(as_text=True) == capsys.readouterr().out
    file = tmp_path / "downloaded.json"
    file.write_bytes(response.get_data())
    other = tmp_path / "other.sqlite3"
    assert main(["import", "--db", str(other), str(file)]) == 0
    assert capsys.readouterr().out == f"{file}: 1 game imported, 0 already there\n"
    assert main(["export", "--db", str(other)]) == 0
    again = json.loads(capsys.readouterr().out)["games"]
    sent = json.loads(response.get_data())["games"]
    assert [g["series"] for g in again] == [sent[0]["series"]]
    assert (again[0]["created_at"], again[0]["updated_at"]) == (sent[0]["created_at"],
                                                                sent[0]["updated_at"])


def test_the_csv_of_a_game_has_the_rows_of_its_scorecards(api: Api) -> None:
    game = series_in_its_second_game(api)
    state = api.state(game)
    response = download(api, f"/games/{game}/export.csv")
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=pipkeeper-game-{game}.csv")
    rows = csv_rows(response)
    pad = [row.key for row in printed_pad(ruleset("yahtzee"))]
    for card in state["cards"]:
        mine = [r for r in rows if r["game"] == "2" and r["player"] == card["player"]]
        assert [r["row"] for r in mine] == pad
        values = {**card["totals"], **card["boxes"]}
        assert {r["row"]: r["value"] for r in mine} == {
            key: "" if values[key] is None else str(values[key]) for key in pad}
        assert {r["game_id"] for r in mine} == {str(game)}
    first = {r["player"]: int(r["value"]) for r in rows
             if r["game"] == "1" and r["row"] == "grand_total"}
    assert first == dict(zip(state["players"], state["series"]["games"][0]["grand_totals"],
                             strict=True))
    assert first["Şule"] > 0 and len(rows) == 2 * 2 * len(pad)


@pytest.mark.parametrize("kind", KINDS)
def test_a_device_that_has_not_joined_may_not_download_the_game(
        api: Api, app: Flask, kind: str) -> None:
    game = api.create(["Ann"])
    stranger = Api(app.test_client())
    refused = download(stranger, f"/games/{game['id']}/export.{kind}", 403)
    assert "Content-Disposition" not in refused.headers
    assert game["join_code"] not in refused.get_data(as_text=True)
    assert "This game is open to the devices that joined it." in refused.get_data(as_text=True)
    download(stranger.join(game["join_code"]), f"/games/{game['id']}/export.{kind}")
    download(api, f"/games/{game['id'] + 1}/export.{kind}", 404)


def test_a_game_downloaded_by_a_player_who_joined_is_the_same_file(api: Api, app: Flask) -> None:
    game = series_in_its_second_game(api)
    player = Api(app.test_client()).join(api.state(game)["join_code"])
    for kind in KINDS:
        url = f"/games/{game}/export.{kind}"
        assert download(player, url).get_data() == download(api, url).get_data()


def finished_for(api: Api, kind: str) -> Any:
    return download(api, f"/games/finished.{kind}")


def test_the_finished_games_are_those_this_device_joined(api: Api, app: Flask) -> None:
    done = api.create(["Ann"])["id"]
    api.play_out(done)
    api.create(["Ben"])  # unfinished
    other = Api(app.test_client())
    theirs = other.create(["Cy"])["id"]
    other.play_out(theirs)
    joined_later = other.create(["Dee"])
    other.play_out(joined_later["id"])
    api.join(joined_later["join_code"])

    response = finished_for(api, "json")
    assert response.headers["Content-Disposition"] == (
        f"attachment; filename=pipkeeper-finished-games-{date.today().isoformat()}.json")
    games = json.loads(response.get_data())["games"]
    assert [g["id"] for g in games] == [done, joined_later["id"]]
    rows = csv_rows(finished_for(api, "csv"))
    assert {(r["game_id"], r["player"]) for r in rows} == {(str(done), "Ann"),
                                                           (str(joined_later["id"]), "Dee")}
    assert [g["id"] for g in json.loads(finished_for(other, "json").get_data())["games"]] == [
        theirs, joined_later["id"]]


def test_a_device_with_no_finished_game_gets_a_file_of_none_and_no_links(
        api: Api, app: Flask) -> None:
    stranger = Api(app.test_client())
    finished = api.create(["Ann"])["id"]
    api.play_out(finished)
    assert json.loads(finished_for(stranger, "json").get_data()) == {
        "format": "pipkeeper-games", "version": 1, "games": []}
    assert csv_rows(finished_for(stranger, "csv")) == []
    assert finished_for(stranger, "csv").get_data(as_text=True) == (
        "\ufeffgame_id,game,rules,player,row,name,value,checks\n")
    assert "/games/finished.csv" not in stranger.client.get("/").get_data(as_text=True)
    home = api.client.get("/").get_data(as_text=True)
    assert 'href="/games/finished.csv" download' in home
    assert 'href="/games/finished.json" download' in home


def test_the_game_page_links_its_downloads_in_the_page_language(api: Api) -> None:
    game = api.create(["Ann"])["id"]
    page = api.client.get(f"/games/{game}").get_data(as_text=True)
    assert f'href="/games/{game}/export.csv" download>Spreadsheet (CSV)</a>' in page
    assert f'href="/games/{game}/export.json" download>Backup (JSON)</a>' in page
    api.client.set_cookie("pipkeeper_lang", "tr")
    page = api.client.get(f"/games/{game}").get_data(as_text=True)
    assert "Bu oyunu indir:" in page and ">Elektronik tablo (CSV)</a>" in page

"""`pipkeeper backup`: a whole copy of the games, made while another connection writes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from conftest import Api

from pipkeeper.cli import main
from web.backup import BackupError, backup
from web.db import connect


def game_rows(path: Path) -> list[tuple[int, str, int, str]]:
    conn = sqlite3.connect(path)
    try:
        return [(int(r[0]), str(r[1]), int(r[2]), str(r[3])) for r in conn.execute(
            "SELECT id, rules, version, series FROM games ORDER BY id")]
    finally:
        conn.close()


def test_backup_copies_every_game_and_its_state(api: Api, database: Path, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    first = api.create(["Ann", "Ben"])
    api.roll(first["id"], [6, 6, 4, 6, 6])
    api.score(first["id"], "sixes")
    api.create(["Cy"], rules="yacht")
    target = tmp_path / "copy.sqlite3"
    assert main(["backup", "--db", str(database), str(target)]) == 0
    assert capsys.readouterr().out == f"{target}: 2 games backed up from {database}\n"
    rows = game_rows(target)
    assert rows == game_rows(database) and [r[1] for r in rows] == ["yahtzee", "yacht"]
    assert rows[0][2] == api.state(first["id"])["version"] and '"sixes"' in rows[0][3]
    copy = sqlite3.connect(target)
    assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_backup_while_a_write_is_open_holds_what_was_committed(api: Api, database: Path,
                                                              tmp_path: Path) -> None:
    api.create(["Ann"])
    writer = connect(database)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE games SET series = '{}', version = version + 1")  # not committed
    try:
        assert backup(database, tmp_path / "copy.sqlite3") == 1
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert game_rows(tmp_path / "copy.sqlite3") == game_rows(database)
    assert game_rows(database)[0][3] != "{}"


@pytest.mark.parametrize(("setup", "message"), [
    ("missing", "no database at"),
    ("exists", "already exists; name a new file"),
    ("not a database", "cannot back up"),
])
def test_bad_backups_say_why_and_leave_no_file(tmp_path: Path, database: Path, api: Api,
                                               setup: str, message: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    api.create(["Ann"])
    source, target = database, tmp_path / "copy.sqlite3"
    if setup == "missing":
        source = tmp_path / "nowhere.sqlite3"
    elif setup == "exists":
        target.write_text("keep me")
    else:
        source = tmp_path / "notes.txt"
        source.write_text("not a database, just text " * 100)
    assert main(["backup", "--db", str(source), str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pipkeeper backup: ") and message in err
    assert (target.read_text() == "keep me") if setup == "exists" else not target.exists()
    assert not target.with_name(target.name + ".partial").exists()
    with pytest.raises(BackupError, match=message):
        backup(source, target)

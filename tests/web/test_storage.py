"""Storage faults: a clear one-line refusal at start-up, a 503 while running, nothing lost.

The faults are real: a file that is no database, a folder in the way, an
immutable file (``chattr +i``, read-only even for root), a full disk (a small
tmpfs), a data folder deleted under a running server, another writer holding
the database.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from tests.conftest import AppFactory
from tests.server import Server, call
from tests.web.conftest import Api
from web.storage import storage


def refused(server: Server) -> str:
    """Run the server expecting it to refuse to start; return its one line of error."""
    result = server.run()
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_file_that_is_not_a_database_is_refused_at_start(tmp_path: Path) -> None:
    database = tmp_path / "notes.txt"
    database.write_bytes(b"shopping list: dice, pad, pencils\n" * 100)
    line = refused(Server(database))
    assert line.startswith(f"pipkeeper serve: error: cannot use the database {database}: ")
    assert "not a pipkeeper database" in line
    assert database.read_bytes().startswith(b"shopping list")


def test_a_folder_that_cannot_be_made_is_refused_at_start(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("in the way")
    line = refused(Server(tmp_path / "file" / "games.sqlite3"))
    assert line.startswith("pipkeeper serve: error: cannot use the database ")


def _chattr(flag: str, path: Path) -> None:
    if shutil.which("chattr") is None:
        pytest.skip("chattr is not installed: cannot make a file read-only for root")
    result = subprocess.run(["chattr", flag, str(path)], capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"chattr {flag} is not allowed here: {result.stderr.strip()}")


@pytest.fixture
def immutable(tmp_path: Path, make_app: AppFactory) -> Iterator[tuple[Path, int]]:
    """A database holding one game, made read-only; yields its path and the game's id."""
    database = tmp_path / "locked.sqlite3"
    app = make_app(database)
    game = Api(app.test_client()).create(["Ann"])["id"]
    storage(app).discard()  # type: ignore[attr-defined]  # no mapping of the -shm file may outlive its write bit
    for path in tmp_path.iterdir():
        _chattr("+i", path)
    yield database, game
    for path in tmp_path.iterdir():
        subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_read_only_database_is_refused_at_start(immutable: tuple[Path, int]) -> None:
    database, _ = immutable
    line = refused(Server(database))
    assert line.startswith(f"pipkeeper serve: error: cannot use the database {database}: ")
    assert "read-only" in line


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs folder (a disk that fills up), unmounted afterwards."""
    folder = tmp_path / "small"
    folder.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(folder)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {result.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)


def test_a_full_disk_gives_503_and_loses_no_acknowledged_game(small_disk: Path,
                                                               tmp_path: Path) -> None:
    server = Server(small_disk / "games.sqlite3")
    port = server.start()
    created: list[dict[str, object]] = []
    statuses: set[int] = set()
    filler = small_disk / "filler"
    filler.write_bytes(b"\0" * 900_000)  # most of the disk, taken by something else
    try:
        for n in range(2000):
            status, body = call(port, "POST", "/api/games", {"players": [f"P{n}", "Q"]})
            statuses.add(status)
            if status == 503:
                assert body["error"].startswith(("the disk is full", "the disk failed"))
                assert "nothing was changed" in body["error"]
                break
            assert status == 201, body
            created.append(body)
    finally:
        server.kill()
    assert statuses == {201, 503} and created
    filler.unlink()
    copy = tmp_path / "copy.sqlite3"
    # Closed before the tmpfs goes: SQLite maps the -shm file of a WAL database.
    with closing(sqlite3.connect(small_disk / "games.sqlite3")) as source, \
            closing(sqlite3.connect(copy)) as target:
        source.backup(target)
    with closing(sqlite3.connect(copy)) as stored_copy:
        stored = {row[0] for row in stored_copy.execute("SELECT id FROM games")}
    assert {game["id"] for game in created} <= stored


def test_a_deleted_data_folder_gives_503_not_a_new_database(make_app: AppFactory,
                                                            tmp_path: Path) -> None:
    folder = tmp_path / "data"
    api = Api(make_app(folder / "games.sqlite3").test_client())
    game = api.create(["Ann"])["id"]
    shutil.rmtree(folder)
    for response in (api.client.get(f"/api/games/{game}"),
                     api.client.post("/api/games", json={"players": ["Ben"]}),
                     api.client.get("/api/games")):
        assert response.status_code == 503
        assert response.get_json()["error"].startswith(
            "the database file or its folder is missing")
    assert not folder.exists()


def test_a_writer_holding_the_database_too_long_gives_503_retry_after(
    make_app: AppFactory, database: Path
) -> None:
    api = Api(make_app().test_client())
    state = api.create(["Ann"])
    other = sqlite3.connect(database, timeout=0)  # another program, not this server
    other.execute("BEGIN IMMEDIATE")
    try:
        response = api.client.post(f"/api/games/{state['id']}/rolls",
                                   json={"dice": [1, 2, 3, 4, 5], "version": 1})
    finally:
        other.rollback()
        other.close()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "1"
    assert response.get_json()["error"].startswith("the database is busy")
    assert api.state(state["id"]) == state

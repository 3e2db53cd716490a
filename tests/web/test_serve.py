"""`pipkeeper serve`: arguments, the LAN banner, and a real server surviving a kill."""

from __future__ import annotations

import http.client
import io
import ipaddress
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import segno

from pipkeeper.cli import build_parser
from pipkeeper.commands import serve
from tests.server import ROOT, Server, call, cookie_header


@pytest.mark.parametrize(
    ("argv", "host", "port", "db"),
    [
        (["serve"], "127.0.0.1", 8000, None),
        (["serve", "--host", "0.0.0.0", "--port", "9000", "--db", "x.sqlite3"],
         "0.0.0.0", 9000, Path("x.sqlite3")),
    ],
)
def test_arguments(argv: list[str], host: str, port: int, db: Path | None) -> None:
    args = build_parser().parse_args(argv)
    assert (args.host, args.port, args.db) == (host, port, db)
    assert args.handler is serve.run
    assert args.threads == serve.DEFAULT_THREADS


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1"])
def test_bad_port_exits_2(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["serve", "--port", port])
    assert exit_info.value.code == 2
    assert f"a port is a number 1..65535, got {port!r}" in capsys.readouterr().err


def test_lan_banner_prints_the_url_and_its_qr_code() -> None:
    out = io.StringIO()
    url = serve.print_lan_banner("192.168.1.5", 8000, out)
    assert url == "http://192.168.1.5:8000/"
    expected = io.StringIO()
    segno.make(url, error="m").terminal(out=expected, compact=True)
    assert out.getvalue() == f"On this network, open {url} or scan:\n" + expected.getvalue()
    assert len(expected.getvalue().splitlines()) > 10


def test_lan_address_is_a_lan_ipv4_or_none() -> None:
    address = serve.lan_address()
    if address is not None:
        ip = ipaddress.IPv4Address(address)
        assert not ip.is_loopback and not ip.is_unspecified


# --- a real server -------------------------------------------------------------------


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    """A server on a temporary database, killed after the test."""
    running = Server(tmp_path / "served.sqlite3")
    yield running
    if running.process is not None and running.process.poll() is None:
        running.kill()


def read_event(response: http.client.HTTPResponse) -> tuple[str, Any]:
    """Read one SSE message (skipping comments and the retry line)."""
    fields: dict[str, str] = {}
    while True:
        line = response.readline().decode().rstrip("\n")
        if not line:
            if "event" in fields:
                return fields["event"], json.loads(fields["data"])
            continue
        if not line.startswith((":", "retry")):
            key, value = line.split(": ", 1)
            fields[key] = value


def test_served_game_streams_and_survives_a_kill(server: Server) -> None:
    port = server.start()
    status, state = call(port, "POST", "/api/games", {"players": ["Ann", "Ben"]})
    assert status == 201
    game = state["id"]
    stream = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    stream.request("GET", f"/api/games/{game}/events", headers={"Cookie": cookie_header()})
    events = stream.getresponse()
    assert events.getheader("Content-Type", "").startswith("text/event-stream")
    assert read_event(events) == ("state", state)
    status, reply = call(port, "POST", f"/api/games/{game}/rolls", {"dice": [5, 5, 5, 5, 5],
                                                                     "version": 1})
    changed = time.monotonic()
    assert status == 200
    event, streamed = read_event(events)
    assert time.monotonic() - changed < 1.0
    assert (event, streamed) == ("state", reply["state"])
    stream.close()

    status, before = call(port, "POST", f"/api/games/{game}/scores",
                          {"box": "yahtzee", "version": 2})
    assert status == 200
    printed = server.kill()
    assert f"Open http://127.0.0.1:{port}/ on this machine." in printed
    assert f"serving {server.database}" in printed
    port = server.start()
    status, after = call(port, "GET", f"/api/games/{game}")
    assert (status, after) == (200, before)
    assert after["cards"][0]["boxes"]["yahtzee"] == 50


def test_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "pipkeeper", "serve", "--port", str(port),
             "--db", str(tmp_path / "db.sqlite3")],
            cwd=ROOT, capture_output=True, text=True, timeout=30,
        )
    assert result.returncode == 2
    assert result.stderr.startswith("pipkeeper serve: error: ")
    assert "Traceback" not in result.stderr


def test_the_listening_socket_says_tcp_so_replies_are_not_held_by_nagle() -> None:
    sock = serve.listen("127.0.0.1", 0)
    try:
        assert sock.proto == socket.IPPROTO_TCP
        client = socket.create_connection(sock.getsockname())
        accepted, _ = sock.accept()
        assert accepted.proto == socket.IPPROTO_TCP  # what asyncio checks before TCP_NODELAY
        accepted.close()
        client.close()
    finally:
        sock.close()


def test_help_names_the_server_it_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Serve the web app with uvicorn" in text and "waitress" not in text
    assert "--games-per-minute N" in text

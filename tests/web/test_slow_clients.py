"""Stalled, trickling, oversized and malformed requests against the real server stack.

The app runs under uvicorn with `pipkeeper serve`'s configuration on a thread of
this process, with short deadlines, and is spoken to over real sockets.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
import uvicorn

from pipkeeper.commands.serve import listen, server_config
from web import create_app
from web.connection import Limits

FAST = Limits(head_seconds=0.6, body_idle_seconds=0.6, body_grace_seconds=1.0,
              body_rate=8 * 1024, keep_alive_seconds=1.0)


class Running:
    """A server on 127.0.0.1 run on a thread; `port` is where it listens."""

    def __init__(self, tmp_path: Path, limits: Limits, threads: int) -> None:
        app = create_app({"DATABASE": str(tmp_path / "slow.sqlite3"), "TESTING": True})
        self.sock = listen("127.0.0.1", 0)
        self.port = int(self.sock.getsockname()[1])
        self.server = uvicorn.Server(server_config(app, threads, limits))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]})

    def __enter__(self) -> Running:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()

    def connect(self) -> socket.socket:
        """Return a new connection to the server."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=5)


def serve(tmp_path: Path, limits: Limits = FAST, threads: int = 2) -> Running:
    return Running(tmp_path, limits, threads)


def reply(conn: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Read one whole reply that ends with the connection: status, headers, body."""
    data = b""
    while chunk := conn.recv(65536):
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def get(port: int, path: str) -> tuple[int, float]:
    """GET *path* on a new connection; return the status and the seconds it took."""
    started = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=5) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
                     .encode())
        status = reply(conn)[0]
    return status, time.perf_counter() - started


STALLED = (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
           b"\r\nContent-Length: 50\r\n\r\n")


@pytest.fixture
def fast(tmp_path: Path) -> Iterator[Running]:
    with serve(tmp_path) as running:
        yield running


def test_stalled_bodies_hold_no_worker_thread(tmp_path: Path) -> None:
    slow = replace(FAST, body_idle_seconds=30, body_grace_seconds=30)
    with serve(tmp_path, slow, threads=2) as running:
        stalled = [running.connect() for _ in range(8)]  # four times the worker threads
        for conn in stalled:
            conn.sendall(STALLED)
        time.sleep(0.3)
        answers = [get(running.port, "/api/rules") for _ in range(3)]
        for conn in stalled:
            conn.close()
    assert [status for status, _ in answers] == [200, 200, 200]
    assert max(seconds for _, seconds in answers) < 1.0


def test_a_stalled_body_is_answered_408_in_json(fast: Running) -> None:
    with fast.connect() as conn:
        conn.sendall(STALLED + b'{"players": [')
        started = time.perf_counter()
        status, headers, body = reply(conn)
    assert status == 408
    assert 0.5 < time.perf_counter() - started < 2.0
    assert headers["content-type"] == "application/json"
    assert json.loads(body)["error"].startswith("the request body stopped arriving (13 bytes")


def test_a_stalled_body_is_answered_in_the_language_of_the_request(fast: Running) -> None:
    with fast.connect() as conn:
        conn.sendall(STALLED.replace(b"\r\n\r\n", b"\r\nAccept-Language: tr-TR,tr\r\n"
                                     b"\r\n") + b'{"players": [')
        status, _, body = reply(conn)
    assert (status, json.loads(body)["error"]) == (
        408, "istek gövdesinin gelişi durdu (13 bayt geldi): yeniden gönder; bir gövde en çok "
             "0.6 sn duraklayabilir ve ilk 1 sn'den sonra 8 kB/s hızı tutturmalı")


def test_a_trickled_body_misses_its_deadline(fast: Running) -> None:
    with fast.connect() as conn:
        conn.sendall(STALLED)
        started = time.perf_counter()
        status = 0
        for _ in range(20):  # a byte every 0.3 s: never idle 0.6 s, far below 8 kB/s
            try:
                conn.sendall(b" ")
            except OSError:
                break
            time.sleep(0.3)
            conn.settimeout(0.01)
            try:
                if conn.recv(12).startswith(b"HTTP/1.1 408"):
                    status = 408
                    break
            except TimeoutError:
                pass
            conn.settimeout(5)
    assert status == 408
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize(("sent", "status"), [
    (b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", 408),  # head begun, not ended
    (b"", None),  # nothing sent: closed without a reply
])
def test_a_slow_head_is_cut_off(fast: Running, sent: bytes, status: int | None) -> None:
    with fast.connect() as conn:
        conn.sendall(sent)
        started = time.perf_counter()
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    assert 0.5 < time.perf_counter() - started < 2.0
    if status is None:
        assert data == b""
    else:
        assert data.startswith(b"HTTP/1.1 408")
        assert json.loads(data.partition(b"\r\n\r\n")[2])["error"].startswith(
            "the request head did not arrive within 0.6 s")


def test_an_idle_kept_alive_connection_closes(fast: Running) -> None:
    with fast.connect() as conn:
        conn.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        started = time.perf_counter()
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    assert data.startswith(b"HTTP/1.1 200")
    assert 0.9 < time.perf_counter() - started < 2.5


def _chunked(size: int) -> bytes:
    piece = b"x" * 4096
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(size // 4096))
    return (b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + chunks + b"0\r\n\r\n")


@pytest.mark.parametrize("request_bytes", [
    _chunked(64 * 1024),
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 999999\r\n\r\n",
])
def test_every_oversized_body_gets_413(tmp_path: Path, request_bytes: bytes) -> None:
    with serve(tmp_path, replace(FAST, max_body=16 * 1024)) as running, \
            running.connect() as conn:
        conn.sendall(request_bytes)
        status, headers, body = reply(conn)
    assert (status, headers["content-type"]) == (413, "application/json")
    assert json.loads(body)["error"].startswith("the request body is over")


def test_a_chunked_body_reaches_the_view_whole(fast: Running) -> None:
    text = json.dumps({"players": ["Ann", "Ben"]}).encode()
    with fast.connect() as conn:
        conn.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                     b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     + b"%x\r\n%s\r\n0\r\n\r\n" % (len(text), text))
        status, _, body = reply(conn)
    assert status == 201
    assert [card["player"] for card in json.loads(body)["cards"]] == ["Ann", "Ben"]


def test_bodies_past_the_budget_get_503_with_retry_after(tmp_path: Path) -> None:
    with serve(tmp_path, replace(FAST, buffered_bodies=100)) as running, \
            running.connect() as conn:
        conn.sendall(STALLED.replace(b"50", b"200") + b"{" * 150)
        status, headers, body = reply(conn)
    assert (status, headers["retry-after"]) == (503, "2")
    assert "holds as many uploads" in json.loads(body)["error"]


@pytest.mark.parametrize("garbage", [
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n",
])
def test_a_malformed_request_is_answered_in_json(fast: Running, garbage: bytes) -> None:
    with fast.connect() as conn:
        conn.sendall(garbage)
        status, headers, body = reply(conn)
    assert (status, headers["content-type"]) == (400, "application/json")
    assert json.loads(body)["error"] == "malformed HTTP request: invalid http request received"

"""`pipkeeper serve` as a child process, and a tiny HTTP client of it, for tests."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """Return a TCP port that is free on 127.0.0.1 now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(database: Path, port: int, *options: str) -> subprocess.Popen[str]:
    """Start `pipkeeper serve` (with *options*) and wait until it accepts connections (at
    most 60 s: on a loaded machine the imports alone can take many seconds)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "pipkeeper", "serve", "--port", str(port), "--db", str(database),
         *options],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return process
        except OSError:
            assert process.poll() is None, process.communicate()[0]
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start within 60 s")


class Server:
    """`pipkeeper serve` on one database and port, as a child process that can be killed."""

    def __init__(self, database: Path) -> None:
        self.database, self.port = database, free_port()
        self.process: subprocess.Popen[str] | None = None

    def run(self, *extra: str) -> subprocess.CompletedProcess[str]:
        """Run `pipkeeper serve` expecting it to stop by itself (e.g. refusing to start)."""
        return subprocess.run(
            [sys.executable, "-m", "pipkeeper", "serve", "--port", str(self.port),
             "--db", str(self.database), *extra],
            cwd=ROOT, capture_output=True, text=True, timeout=30)

    def start(self, *options: str) -> int:
        """Start the server with *options*; return its port."""
        self.process = start_server(self.database, self.port, *options)
        return self.port

    def stop(self) -> str:
        """Stop the server as Ctrl+C does (SIGINT), killing it after 10 s; return its output."""
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.communicate(timeout=10)[0]
        except subprocess.TimeoutExpired:
            return self.kill()

    def kill(self) -> str:
        """Kill the server at once (SIGKILL: no clean shutdown); return what it printed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        return self.process.communicate()[0]


COOKIES: dict[str, str] = {}


def call(port: int, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """Send one request as one device (keeping its cookies); return the status and JSON."""
    status, data, _ = call_with_headers(port, method, path, body)
    return status, data


def cookie_header() -> str:
    """Return the Cookie header of the device `call` plays."""
    return "; ".join(f"{k}={v}" for k, v in COOKIES.items())


def call_with_headers(port: int, method: str, path: str,
                      body: Any = None) -> tuple[int, Any, http.client.HTTPMessage]:
    """Like `call`, also returning the response headers."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if COOKIES:
        headers["Cookie"] = cookie_header()
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    for header in response.headers.get_all("Set-Cookie") or []:
        name, _, value = header.split(";", 1)[0].partition("=")
        COOKIES[name] = value
    raw = response.read()
    conn.close()
    return response.status, json.loads(raw) if raw else None, response.headers

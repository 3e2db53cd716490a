"""The server under test as a child process, and what /proc says about it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from urllib.parse import urlsplit

from web.loadtest.client import Target

LOOPBACK = "127.0.0.1"
START_SECONDS = 30.0
STOP_SECONDS = 5.0


class ServerError(RuntimeError):
    """The server did not start, or died; the message ends with its log's last lines."""


@dataclass(frozen=True)
class ProcessFigures:
    """Open file descriptors, threads and resident memory of a process."""

    fds: int
    threads: int
    rss_kib: int


def process_figures(pid: int) -> ProcessFigures | None:
    """Return *pid*'s figures from /proc; None where /proc cannot tell (not Linux, gone)."""
    try:
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        status = Path(f"/proc/{pid}/status").read_text(encoding="ascii")
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    try:
        threads = int(fields["Threads"].strip())
        rss = int(fields.get("VmRSS", "0 kB").split()[0])
    except (KeyError, ValueError):
        return None
    return ProcessFigures(fds, threads, rss)


def free_port() -> int:
    """Return a TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


def parse_target(url: str) -> Target:
    """Return the target of an ``http://127.0.0.1:PORT`` URL.

    Raises ValueError for another scheme, or a host that is not this machine's loopback.
    """
    parts = urlsplit(url if "//" in url else f"//{url}", scheme="http")
    if parts.scheme != "http":
        raise ValueError(f"only http:// URLs are supported, got {url!r}")
    host = parts.hostname or ""
    if host == "localhost":
        host = LOOPBACK
    if host != LOOPBACK:
        raise ValueError(f"the load goes to {LOOPBACK} only, got host {host!r} in {url!r}")
    return Target(host, parts.port or 80)


def accepts(target: Target, timeout: float = 0.5) -> bool:
    """True when a TCP connection to *target* succeeds."""
    try:
        with socket.create_connection((target.host, target.port), timeout=timeout):
            return True
    except OSError:
        return False


class Server:
    """`pipkeeper serve` on a free loopback port with its own database in *folder* (or on
    *database*, a file or URL other servers may share), given *options* besides."""

    def __init__(self, folder: Path, *options: str, database: str | None = None) -> None:
        self.folder = folder
        self.options = options
        self.database = database or str(folder / "load.sqlite3")
        self.log_path = folder / "server.log"
        self.target = Target(LOOPBACK, free_port())
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        """Return the server's process id. Raises ServerError when it is not running."""
        if self._process is None or self._process.poll() is not None:
            raise ServerError(f"the server is not running\n{self.log_tail()}")
        return self._process.pid

    @property
    def running(self) -> bool:
        """True while the server process is alive."""
        return self._process is not None and self._process.poll() is None

    def start(self) -> Target:
        """Start the server; return its target once it accepts connections.

        Raises ServerError when it exits or does not listen within START_SECONDS.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pipkeeper", "serve", "--host", LOOPBACK,
                   "--port", str(self.target.port), "--db", self.database,
                   *self.options]
        with self.log_path.open("wb") as log:
            self._process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                             stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise ServerError(f"the server exited with {self._process.returncode}\n"
                                  f"{self.log_tail()}")
            if accepts(self.target):
                return self.target
            time.sleep(0.1)
        self.stop()
        raise ServerError(f"the server did not listen within {START_SECONDS:g} s\n"
                          f"{self.log_tail()}")

    def stop(self) -> int | None:
        """Kill the server and wait for it; return its exit status (None if never started)."""
        if self._process is None:
            return None
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(STOP_SECONDS)
        return self._process.returncode

    def log_tail(self, lines: int = 20) -> str:
        """Return the last *lines* lines the server printed."""
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def __enter__(self) -> Server:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

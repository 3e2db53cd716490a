"""A PostgreSQL cluster of a test session's or a load run's own: ``initdb`` in a temporary
folder, started with ``pg_ctl`` on a free port, as an unprivileged user (PostgreSQL
refuses to run as root), one fresh database per test, stopped at the end."""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from web.loadtest.server import free_port

UNPRIVILEGED = "nobody"


def binaries() -> Path | None:
    """Return the folder holding initdb and pg_ctl (the newest Debian one first), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda path: int(Path(path).parent.parent.name), reverse=True)
    if found:
        return Path(found[0]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


class Cluster:
    """A running cluster: `url` names one of its databases, `create` makes a new one."""

    def __init__(self, bin_dir: Path, durable: bool = False) -> None:
        self.bin_dir = bin_dir
        self.durable = durable  # each commit flushed to disk (off: faster tests)
        self.folder = Path(tempfile.mkdtemp(prefix="pipkeeper-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._numbers = itertools.count(1)
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam(UNPRIVILEGED)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as_user = ["runuser", "-u", UNPRIVILEGED, "--"]

    def _run(self, *command: str) -> None:
        """Run a PostgreSQL program as the cluster's user. Raises RuntimeError with its output."""
        result = subprocess.run([*self._as_user, str(self.bin_dir / command[0]), *command[1:]],
                                capture_output=True, text=True, timeout=120, cwd=self.folder)
        if result.returncode != 0:
            raise RuntimeError(f"{command[0]} failed: {result.stdout}{result.stderr}")

    def start(self) -> Cluster:
        """Make the cluster and start it; return it. Raises RuntimeError."""
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--locale=C", "-E", "UTF8", "--no-sync")
        self.resume()
        return self

    def resume(self) -> None:
        """Start the (stopped) server and wait until it accepts connections."""
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   f"-c fsync={'on' if self.durable else 'off'} -c synchronous_commit=on "
                   "-c max_connections=400 -c shared_buffers=32MB")
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l",
                  str(self.folder / "server.log"), "-w", "-t", "60", "start")

    def pause(self) -> None:
        """Stop the server at once (as a restart or a crash does); the data stays."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        """Return the URL of *database* on this cluster."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create(self) -> str:
        """Make a new empty database; return its URL."""
        import psycopg

        name = f"test_{next(self._numbers)}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop(self, url: str) -> None:
        """Remove the database of *url*, ending whatever connections it still has."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        with contextlib.suppress(RuntimeError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

"""``python -m web.loadtest.spread``: the table scenario with its servers spread out.

Four `pipkeeper serve` processes on one PostgreSQL (a cluster of the run's own, or
``--db URL``): each table's players write to one process while its streams are
spread over the others, so every event crosses processes (NOTIFY). Beside it, the
same scenario on SQLite with one process. Prints each figure with its target; exits
1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from web.loadtest.postgres import Cluster, binaries
from web.loadtest.report import Figure, missed, render, table_figures, verdict_line
from web.loadtest.server import Server, ServerError
from web.loadtest.sizes import DEFAULT, QUICK, Sizes
from web.loadtest.suite import SEEDING
from web.loadtest.tables import TableResult, table_scale


def spread(sizes: Sizes, processes: int, database: str, folder: Path) -> TableResult:
    """Return the table figures of *processes* servers on *database*.

    Raises ServerError when a server does not start.
    """
    servers = [Server(folder / f"server-{i}", *SEEDING, database=database)
               for i in range(processes)]
    try:
        for server in servers:
            server.start()
        return asyncio.run(table_scale([server.target for server in servers], sizes))
    finally:
        for server in servers:
            if server.running:
                server.stop()


def labelled(label: str, result: TableResult) -> list[Figure]:
    """Return the table figures of *result* under the scenario name *label*."""
    return [dataclasses.replace(f, scenario=label) for f in table_figures(result)]


def _postgres(sizes: Sizes, processes: int, url: str | None, folder: Path) -> list[Figure]:
    """Return the figures on PostgreSQL: on *url*, else on a cluster of this run's own."""
    label = f"tables, PostgreSQL, {processes} processes"
    if url is not None:
        return labelled(label, spread(sizes, processes, url, folder))
    bin_dir = binaries()
    if bin_dir is None:
        return [Figure(label, "skipped", "PostgreSQL is not installed")]
    cluster = Cluster(bin_dir, durable=True).start()
    try:
        return labelled(label, spread(sizes, processes, cluster.create(), folder))
    finally:
        cluster.stop()


def main(argv: Sequence[str] | None = None) -> int:
    """Run both scenarios; return 0 when every target was met, else 1."""
    parser = argparse.ArgumentParser(prog="python -m web.loadtest.spread",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=4, help="server processes (default 4)")
    parser.add_argument("--db", help="a postgresql:// URL to use instead of a cluster of "
                        "the run's own")
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke test")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else DEFAULT
    with tempfile.TemporaryDirectory(prefix="pipkeeper-spread-") as scratch:
        folder = Path(scratch)
        try:
            figures = _postgres(sizes, args.processes, args.db, folder / "postgresql")
            one = spread(sizes, 1, str(folder / "one.sqlite3"), folder / "sqlite")
            figures += labelled("tables, SQLite, 1 process", one)
        except ServerError as error:
            figures = [Figure("spread", "servers started", str(error)[:60], "started", False)]
    print(render(figures))
    print(verdict_line(figures))
    return 1 if missed(figures) else 0


if __name__ == "__main__":
    sys.exit(main())

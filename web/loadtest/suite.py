"""A whole load run: the scenarios on a fresh server (or a given one), and their figures."""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from web.loadtest.abuse import (
    GuessResult,
    HeavyResult,
    StallResult,
    guessing,
    heavy_images,
    stalled_bodies,
)
from web.loadtest.client import Target
from web.loadtest.costs import CostResult, costs
from web.loadtest.report import (
    Figure,
    churn_figures,
    cost_figures,
    guess_figures,
    heavy_figures,
    list_figures,
    slowloris_figures,
    stall_figures,
    table_figures,
    writer_figures,
)
from web.loadtest.scenarios import (
    ChurnResult,
    ListResult,
    SlowlorisResult,
    WriterResult,
    churn,
    game_list,
    slowloris,
    writers,
)
from web.loadtest.server import Server, ServerError, parse_target
from web.loadtest.sizes import Sizes
from web.loadtest.tables import TableResult, table_scale

Progress = Callable[[str], None]
Scenarios = Callable[[Target, int | None], Coroutine[Any, Any, None]]


@dataclass
class SuiteResult:
    """Each scenario's result (None where it did not run) and the servers' fates."""

    churn: ChurnResult | None = None
    slowloris: SlowlorisResult | None = None
    writers: WriterResult | None = None
    tables: TableResult | None = None
    games_list: ListResult | None = None
    costs: CostResult | None = None
    stalled: StallResult | None = None
    heavy: HeavyResult | None = None
    guessing: GuessResult | None = None
    servers_alive: bool | None = None
    error: str | None = None
    duration: float = 0.0


def _quiet(_: str) -> None:
    pass


# The scenarios start more games a minute from 127.0.0.1 than one address may.
SEEDING = ("--games-per-minute", "1000000")


def _on_server(folder: Path, scenarios: Scenarios, *options: str) -> bool:
    """Run *scenarios* on a fresh server in *folder* started with *options*; return True
    when it outlived them.

    Raises ServerError when the server does not start.
    """
    server = Server(folder, *options)
    server.start()
    try:
        asyncio.run(scenarios(server.target, server.pid))
        return server.running
    finally:
        server.stop()


def run_suite(sizes: Sizes, url: str | None = None, folder: Path | None = None,
              progress: Progress = _quiet) -> SuiteResult:
    """Return the results of every scenario at *sizes*.

    Without *url*, three servers are started in turn, each with a fresh database in
    *folder* (a temporary one by default): one for churn, slow clients, writers
    and table scale, one for the game list (both allowing any number of new games
    a minute), and one with the default limits for stalled bodies, heavy images and
    guessing. Raises ValueError for a *url* that is
    not on 127.0.0.1.
    """
    result = SuiteResult()
    started = time.perf_counter()

    async def main_scenarios(target: Target, pid: int | None) -> None:
        progress(f"loadtest: churn, {sizes.churn} streams")
        result.churn = await churn(target, sizes, pid)
        progress(f"loadtest: slowloris, {sizes.slowloris} slow connections")
        result.slowloris = await slowloris(target, sizes)
        progress(f"loadtest: writers, {sizes.writers} on {sizes.writer_games} games")
        result.writers = await writers(target, sizes)
        progress(f"loadtest: table scale, {sizes.tables} tables x {sizes.devices} streams, "
                 f"{sizes.players} players each")
        result.tables = await table_scale(target, sizes)
        progress(f"loadtest: action cost, a series of {sizes.series_players} players, "
                 f"{sizes.watchers} streams")
        result.costs = await costs(target, sizes)

    async def list_scenario(target: Target, pid: int | None) -> None:
        progress(f"loadtest: game list, {sizes.list_games} games")
        result.games_list = await game_list(target, sizes)

    async def abuse_scenarios(target: Target, pid: int | None) -> None:
        progress(f"loadtest: stalled bodies, {sizes.stalled} stalled and "
                 f"{sizes.stalled} trickling")
        result.stalled = await stalled_bodies(target, sizes)
        progress(f"loadtest: heavy images, {sizes.heavy_images} at once")
        result.heavy = await heavy_images(target, sizes, pid)
        progress(f"loadtest: guessing, {sizes.guesses} wrong join codes")
        result.guessing = await guessing(target, sizes)

    if url is not None:
        target = parse_target(url)
        asyncio.run(main_scenarios(target, None))
        asyncio.run(list_scenario(target, None))
        asyncio.run(abuse_scenarios(target, None))
    else:
        with tempfile.TemporaryDirectory(prefix="pipkeeper-load-") as scratch:
            base = folder or Path(scratch)
            try:
                alive = _on_server(base / "main", main_scenarios, *SEEDING)
                alive = _on_server(base / "list", list_scenario, *SEEDING) and alive
                result.servers_alive = _on_server(base / "abuse", abuse_scenarios) and alive
            except ServerError as e:
                result.error = str(e)
    result.duration = time.perf_counter() - started
    return result


def suite_figures(result: SuiteResult) -> list[Figure]:
    """Return every figure of *result*, scenario by scenario."""
    figures: list[Figure] = []
    if result.error is not None:
        first = result.error.splitlines()[0] if result.error else "?"
        figures.append(Figure("server", "started", first[:60], "started", False))
    scenarios: list[tuple[Any, Callable[[Any], list[Figure]]]] = [
        (result.churn, churn_figures), (result.slowloris, slowloris_figures),
        (result.writers, writer_figures), (result.tables, table_figures),
        (result.costs, cost_figures), (result.games_list, list_figures),
        (result.stalled, stall_figures), (result.heavy, heavy_figures),
        (result.guessing, guess_figures)]
    for scenario, describe in scenarios:
        if scenario:
            figures += describe(scenario)
    if result.servers_alive is not None:
        figures.append(Figure("server", "alive after the load",
                              "yes" if result.servers_alive else "no", "yes",
                              result.servers_alive))
    figures.append(Figure("all", "duration", f"{result.duration:.1f} s"))
    return figures

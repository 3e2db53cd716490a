"""Table scale: many tables, each watched by several event streams while its players play."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from web.loadtest.client import Device, RequestFailed, Tally, Target
from web.loadtest.play import State, act, create_game, join, load, next_action
from web.loadtest.sizes import Sizes
from web.loadtest.sse import EventStream

MAX_RECONNECTS = 5
DRAIN_SECONDS = 5.0
READ_SECONDS = 30.0


@dataclass
class TableResult:
    """Figures of the table-scale scenario; times in seconds.

    *setup* counts the burst of creating, joining and opening streams (and stream
    reconnects); *tally* the requests of the players while they play.
    """

    tables: int
    streams_wanted: int
    joins_wanted: int
    streams_open: int = 0
    reconnects: int = 0
    joins_ok: int = 0
    games_finished: int = 0
    posts: int = 0
    events_expected: int = 0
    events_delivered: int = 0
    event_latencies: list[float] = field(default_factory=list)
    setup: Tally = field(default_factory=Tally)
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


def version_of(data: str) -> int | None:
    """Return the ``version`` of a state event's JSON data; None when it has none."""
    try:
        state = json.loads(data)
    except ValueError:
        return None
    version = state.get("version") if isinstance(state, dict) else None
    return version if isinstance(version, int) else None


class Watcher:
    """One device watching a game's event stream, reconnecting as EventSource does."""

    def __init__(self, device: Device, game_id: int, sizes: Sizes, deadline: float) -> None:
        self.device = device
        self.path = f"/api/games/{game_id}/events"
        self.sizes = sizes
        self.deadline = deadline
        self.arrivals: dict[int, float] = {}
        self.ready = asyncio.Event()
        self.reconnects = 0
        self.failure: str | None = None

    async def run(self) -> None:
        """Watch until cancelled, the deadline, or MAX_RECONNECTS broken streams."""
        for attempt in range(MAX_RECONNECTS + 1):
            if time.perf_counter() >= self.deadline:
                return
            if attempt:
                self.reconnects += 1
            retry = await self._watch_once()
            await asyncio.sleep(retry)

    async def _watch_once(self) -> float:
        """Return the seconds to wait before reconnecting, after the stream ended or broke."""
        stream = EventStream(self.device, self.path)
        try:
            status = await stream.open(self.sizes.stream_open_seconds)
            if status != 200:
                self.failure = f"events answered {status}"
                return 1.0
            while (left := self.deadline - time.perf_counter()) > 0:
                message = await stream.next_message(min(READ_SECONDS, left))
                if message is None:
                    self.failure = "the stream ended"
                    break
                version = version_of(message.data) if message.event == "state" else None
                if version is not None:
                    self.arrivals.setdefault(version, message.arrived)
                    self.ready.set()
        except RequestFailed as e:
            self.failure = str(e)
        finally:
            stream.abort()
        return (stream.retry_ms or 1000) / 1000


@dataclass
class Table:
    """One game with its watching devices, its players and the versions their actions made."""

    state: State
    players: list[Device]
    watchers: list[Watcher] = field(default_factory=list)
    produced: dict[int, float] = field(default_factory=dict)
    finished: bool = False

    @property
    def game_id(self) -> int:
        """Return the game's id."""
        return int(self.state["id"])


def _placed(targets: Sequence[Target], index: int, watcher: int | None = None) -> Target:
    """Return the server of table *index*'s players, or of its *watcher*-th stream: with
    several servers, the players write to one and the streams are spread over the others."""
    if watcher is None or len(targets) == 1:
        return targets[index % len(targets)]
    return targets[(index + 1 + watcher % (len(targets) - 1)) % len(targets)]


async def _set_up(targets: Sequence[Target], sizes: Sizes, result: TableResult, index: int,
                  deadline: float) -> Table:
    """Return a created table whose players and watchers have joined it."""
    tally = result.setup
    rng = random.Random(sizes.seed * 7919 + index)
    await asyncio.sleep(index * sizes.table_gap)
    players = [Device(_placed(targets, index), tally, sizes.timeout)
               for _ in range(sizes.players)]
    names = [f"T{index}P{seat}" for seat in range(sizes.players)]
    state = await create_game(players[0], names)
    table = Table(state, players)
    watching = [Device(_placed(targets, index, k), tally, sizes.timeout)
                for k in range(sizes.devices)]
    joined = await asyncio.gather(*(
        _arrive(d, state["join_code"], rng.uniform(0, sizes.arrival_seconds))
        for d in [*players, *watching]))
    result.joins_ok += sum(joined)
    table.watchers = [Watcher(d, table.game_id, sizes, deadline) for d in watching]
    for player in players:
        player.tally = result.tally
    return table


async def _open(targets: Sequence[Target], sizes: Sizes, result: TableResult, index: int,
                deadline: float, tasks: list[asyncio.Task[None]]) -> Table:
    """Return a table set up, its watchers' streams opening (their tasks added to *tasks*)."""
    table = await _set_up(targets, sizes, result, index, deadline)
    tasks.extend(asyncio.create_task(w.run()) for w in table.watchers)
    return table


async def _arrive(device: Device, code: str, after: float) -> bool:
    """Join the table with *code* after *after* seconds; return True when it was let in."""
    await asyncio.sleep(after)
    return await join(device, code)


async def _play_seat(table: Table, seat: int, sizes: Sizes, rng: random.Random,
                     deadline: float) -> bool:
    """Play *seat*'s turns until the game ends or the deadline; return True when it ended."""
    device = table.players[seat]
    state = table.state
    for _ in range(100 * (sizes.players + 2)):
        if state.get("finished") or time.perf_counter() >= deadline:
            break
        await asyncio.sleep(rng.uniform(sizes.think_min, sizes.think_max))
        action = next_action(state, rng) if state.get("current_player") == seat else None
        if action is None:
            state = await load(device, table.game_id) or state
            continue
        outcome = await act(device, table.game_id, *action)
        if outcome.accepted and outcome.state is not None:
            table.produced[int(outcome.state["version"])] = outcome.sent
        state = outcome.state or await load(device, table.game_id) or state
    return bool(state.get("finished"))


async def _play(table: Table, sizes: Sizes, seed: int, deadline: float) -> None:
    seats = [_play_seat(table, seat, sizes, random.Random(seed * 1000 + seat), deadline)
             for seat in range(sizes.players)]
    table.finished = any(await asyncio.gather(*seats))


async def _drain(tables: list[Table], tasks: list[asyncio.Task[None]]) -> None:
    """Wait (at most DRAIN_SECONDS) until every live watcher has its table's last version."""
    end = time.perf_counter() + DRAIN_SECONDS
    while time.perf_counter() < end:
        if all(max(t.produced, default=0) in w.arrivals
               for t in tables for w in t.watchers) or all(task.done() for task in tasks):
            return
        await asyncio.sleep(0.05)


def _count(result: TableResult, tables: list[Table]) -> None:
    for table in tables:
        result.games_finished += table.finished
        result.posts += len(table.produced)
        for watcher in table.watchers:
            result.streams_open += watcher.ready.is_set()
            result.reconnects += watcher.reconnects
            result.events_expected += len(table.produced)
            for version, sent in table.produced.items():
                if version in watcher.arrivals:
                    result.events_delivered += 1
                    result.event_latencies.append(watcher.arrivals[version] - sent)


async def _wait_ready(tables: list[Table], seconds: float) -> None:
    waits = [w.ready.wait() for t in tables for w in t.watchers]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.gather(*waits), seconds)


async def table_scale(target: Target | Sequence[Target], sizes: Sizes) -> TableResult:
    """Return the figures of *sizes.tables* games played while their streams watch, on
    one server or spread over several (*target* a list) serving one database."""
    targets = [target] if isinstance(target, Target) else list(target)
    result = TableResult(sizes.tables, sizes.tables * sizes.devices,
                         sizes.tables * (sizes.devices + sizes.players))
    started = time.perf_counter()
    deadline = started + sizes.table_seconds
    tables: list[Table] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        tables = list(await asyncio.gather(
            *(_open(targets, sizes, result, i, deadline, tasks) for i in range(sizes.tables))))
        await _wait_ready(tables, sizes.stream_open_seconds)
        await asyncio.gather(*(_play(t, sizes, sizes.seed + i, deadline)
                               for i, t in enumerate(tables)))
        await _drain(tables, tasks)
    except RequestFailed as e:
        result.error = str(e)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for table in tables:
            await asyncio.gather(*(d.close() for d in table.players),
                                 *(w.device.close() for w in table.watchers))
    _count(result, tables)
    result.duration = time.perf_counter() - started
    return result

"""Stream churn, slow clients, concurrent writers and a long game list."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from web.loadtest.client import Device, RequestFailed, Tally, Target, abort, open_stream
from web.loadtest.play import State, act, create_game, join, load, next_action
from web.loadtest.server import ProcessFigures, process_figures
from web.loadtest.sizes import Sizes
from web.loadtest.sse import EventStream
from web.loadtest.tables import version_of

STREAM_SECONDS = 5.0
EVENT_SECONDS = 5.0
LIST_TIMEOUT = 30.0
LIST_PAGE = 200  # games a page of the list, the most the server gives


@dataclass
class ChurnResult:
    """Event streams opened, read and reset, and the server process before and after."""

    wanted: int
    completed: int = 0
    before: ProcessFigures | None = None
    after: ProcessFigures | None = None
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


@dataclass
class SlowlorisResult:
    """Normal requests and one event delivery while slow clients hold connections."""

    connections: int
    requests_wanted: int
    opened: int = 0
    held: int = 0
    requests_ok: int = 0
    times: list[float] = field(default_factory=list)
    event_latency: float | None = None
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


@dataclass
class WriterResult:
    """Concurrent writers on a few games, retrying on 409 with the state it returns."""

    writers: int
    games: int
    writes_wanted: int
    writes_done: int = 0
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


@dataclass
class ListResult:
    """Games seeded through the API, then the time to list them all, page by page."""

    wanted: int
    requests_wanted: int
    walks: int = 0  # lists read to their last page
    seeded: int = 0
    expected: int | None = None
    listed: int | None = None
    seed_duration: float = 0.0
    times: list[float] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


def _left(deadline: float, most: float) -> float:
    """Return the seconds to wait: *most*, or less where the deadline is nearer (>= 0.1)."""
    return max(0.1, min(most, deadline - time.perf_counter()))


async def _joined_game(device: Device, players: list[str]) -> State:
    state = await create_game(device, players)
    await join(device, state["join_code"])
    return state


# --- churn -------------------------------------------------------------------------


async def _churn_once(device: Device, path: str, deadline: float) -> bool:
    """Return True when a stream opened and its first state arrived before the reset."""
    stream = EventStream(device, path)
    try:
        if await stream.open(_left(deadline, STREAM_SECONDS)) != 200:
            return False
        message = await stream.next_message(_left(deadline, STREAM_SECONDS))
        return message is not None and message.event == "state"
    except RequestFailed:
        return False
    finally:
        stream.abort()


async def churn(target: Target, sizes: Sizes, pid: int | None) -> ChurnResult:
    """Return the figures of opening and resetting *sizes.churn* streams one after another.

    The process figures are taken only when *pid* (the server's) is given.
    """
    result = ChurnResult(sizes.churn)
    started = time.perf_counter()
    device = Device(target, result.tally, sizes.timeout)
    try:
        state = await _joined_game(device, ["C1", "C2"])
        await device.close()
        await asyncio.sleep(0.5)
        result.before = process_figures(pid) if pid else None
        path = f"/api/games/{state['id']}/events"
        deadline = time.perf_counter() + sizes.churn_seconds
        for _ in range(sizes.churn):
            if time.perf_counter() >= deadline:
                break
            result.completed += await _churn_once(device, path, deadline)
        await asyncio.sleep(sizes.settle_seconds)
        result.after = process_figures(pid) if pid else None
    except RequestFailed as e:
        result.error = str(e)
    finally:
        await device.close()
    result.duration = time.perf_counter() - started
    return result


# --- slowloris ---------------------------------------------------------------------


async def _slow_client(target: Target, path: str, stop: asyncio.Event,
                       result: SlowlorisResult) -> None:
    """Send a request line, then one header byte a second until *stop*; count it if held."""
    try:
        reader, writer = await asyncio.wait_for(open_stream(target), STREAM_SECONDS)
    except (OSError, TimeoutError):
        return
    result.opened += 1
    answered = asyncio.create_task(reader.read(65536))
    try:
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {target.authority}\r\n".encode())
        while not stop.is_set() and not answered.done():
            try:
                await asyncio.wait_for(stop.wait(), 1.0)
            except TimeoutError:
                writer.write(b"X")
                await asyncio.wait_for(writer.drain(), STREAM_SECONDS)
        result.held += not answered.done()
    except (OSError, TimeoutError):
        pass
    finally:
        answered.cancel()
        abort(writer)


async def _normal_request(joined: Device, path: str, sizes: Sizes,
                          result: SlowlorisResult) -> None:
    """GET *path* on a new connection with the cookies of the *joined* device."""
    device = Device(joined.target, result.tally, sizes.timeout, joined.jar.copy())
    try:
        response = await device.get(path)
        if response.status == 200:
            result.requests_ok += 1
            result.times.append(response.elapsed)
    except RequestFailed:
        pass
    finally:
        await device.close()


async def _event_delivery(poster: Device, watcher: Device, state: State,
                          sizes: Sizes) -> float | None:
    """Return the seconds from sending a roll to its event arriving; None if it never did."""
    game_id = int(state["id"])
    stream = EventStream(watcher, f"/api/games/{game_id}/events")
    try:
        if await stream.open(sizes.timeout) != 200:
            return None
        await stream.next_message(sizes.timeout)
        await asyncio.sleep(sizes.slowloris_seconds / 2)
        fresh = await load(poster, game_id) or state
        action = next_action(fresh, random.Random(sizes.seed))
        if action is None:
            return None
        outcome = await act(poster, game_id, *action)
        if not outcome.accepted or outcome.state is None:
            return None
        wanted = int(outcome.state["version"])
        deadline = time.perf_counter() + EVENT_SECONDS
        while time.perf_counter() < deadline:
            message = await stream.next_message(_left(deadline, EVENT_SECONDS))
            if message is None:
                return None
            if message.event == "state" and (version_of(message.data) or 0) >= wanted:
                return message.arrived - outcome.sent
        return None
    except RequestFailed:
        return None
    finally:
        stream.abort()


async def slowloris(target: Target, sizes: Sizes) -> SlowlorisResult:
    """Return the figures of normal requests made while slow clients hold connections."""
    result = SlowlorisResult(sizes.slowloris, sizes.slow_requests)
    started = time.perf_counter()
    poster = Device(target, result.tally, sizes.timeout)
    watcher = Device(target, result.tally, sizes.timeout)
    stop = asyncio.Event()
    slow: list[asyncio.Task[None]] = []
    try:
        state = await _joined_game(poster, ["S1", "S2"])
        await join(watcher, state["join_code"])
        path = f"/api/games/{state['id']}"
        slow = [asyncio.create_task(_slow_client(target, path, stop, result))
                for _ in range(sizes.slowloris)]
        await asyncio.sleep(1.0)
        event = asyncio.create_task(_event_delivery(poster, watcher, state, sizes))
        normal = []
        for _ in range(sizes.slow_requests):
            normal.append(asyncio.create_task(_normal_request(watcher, path, sizes, result)))
            await asyncio.sleep(sizes.slowloris_seconds / max(1, sizes.slow_requests))
        await asyncio.gather(*normal)
        result.event_latency = await event
    except RequestFailed as e:
        result.error = str(e)
    finally:
        stop.set()
        await asyncio.gather(*slow, return_exceptions=True)
        await asyncio.gather(poster.close(), watcher.close())
    result.duration = time.perf_counter() - started
    return result


# --- writers -------------------------------------------------------------------------


async def _write(device: Device, game_id: int, sizes: Sizes, rng: random.Random,
                 start: asyncio.Event, deadline: float) -> int:
    """Return how many of *sizes.writes* actions one writer got accepted."""
    state = await load(device, game_id)
    await start.wait()
    done = 0
    for _ in range(50 * sizes.writes):
        if done >= sizes.writes or time.perf_counter() >= deadline:
            break
        if state is None:
            await asyncio.sleep(0.1)
            state = await load(device, game_id)
            continue
        action = next_action(state, rng)
        if action is None:
            break
        outcome = await act(device, game_id, *action)
        done += outcome.accepted
        state = outcome.state or await load(device, game_id)
    return done


async def writers(target: Target, sizes: Sizes) -> WriterResult:
    """Return the statuses met by *sizes.writers* clients writing to *sizes.writer_games* games."""
    result = WriterResult(sizes.writers, sizes.writer_games, sizes.writers * sizes.writes)
    started = time.perf_counter()
    devices = [Device(target, result.tally, sizes.timeout) for _ in range(sizes.writers)]
    try:
        games = [await create_game(devices[i], [f"W{i}a", f"W{i}b"])
                 for i in range(sizes.writer_games)]
        await asyncio.gather(*(join(d, games[i % len(games)]["join_code"])
                               for i, d in enumerate(devices)))
        start = asyncio.Event()
        deadline = time.perf_counter() + sizes.writer_seconds
        tasks = [asyncio.create_task(_write(d, int(games[i % len(games)]["id"]), sizes,
                                            random.Random(sizes.seed * 7919 + i), start, deadline))
                 for i, d in enumerate(devices)]
        await asyncio.sleep(0.5)
        start.set()
        result.writes_done = sum(await asyncio.gather(*tasks))
    except RequestFailed as e:
        result.error = str(e)
    finally:
        await asyncio.gather(*(d.close() for d in devices))
    result.duration = time.perf_counter() - started
    return result


# --- game list -----------------------------------------------------------------------


async def _count_games(device: Device, result: ListResult) -> int | None:
    """Return how many games ``GET /api/games`` lists, its pages of the most games each
    followed to the end; None without a 200 page. Each page's time is one of the times."""
    url: str | None = f"/api/games?limit={LIST_PAGE}"
    count = 0
    while url:
        try:
            response = await device.get(url, LIST_TIMEOUT)
        except RequestFailed:
            return None
        body = response.json()
        games = body.get("games") if isinstance(body, dict) else None
        if response.status != 200 or not isinstance(games, list):
            return None
        result.times.append(response.elapsed)
        count += len(games)
        url = body.get("next")
    result.walks += 1
    return count


async def _seed(device: Device, numbers: list[int], result: ListResult, deadline: float) -> None:
    while numbers and time.perf_counter() < deadline:
        n = numbers.pop()
        try:
            await create_game(device, [f"L{n}a", f"L{n}b"])
            result.seeded += 1
        except RequestFailed:
            pass


async def game_list(target: Target, sizes: Sizes) -> ListResult:
    """Return the figures of seeding *sizes.list_games* games, then listing them."""
    result = ListResult(sizes.list_games, sizes.list_requests)
    started = time.perf_counter()
    devices = [Device(target, result.tally, sizes.timeout)
               for _ in range(max(1, sizes.seed_connections))]
    try:
        before = await _count_games(devices[0], result)
        result.times.clear()
        result.walks = 0
        numbers = list(range(sizes.list_games, 0, -1))
        deadline = time.perf_counter() + sizes.seed_seconds
        await asyncio.gather(*(_seed(d, numbers, result, deadline) for d in devices))
        result.seed_duration = time.perf_counter() - started
        result.expected = None if before is None else before + result.seeded
        deadline = time.perf_counter() + sizes.list_seconds
        for _ in range(sizes.list_requests):
            if time.perf_counter() >= deadline:
                break
            listed = await _count_games(devices[0], result)
            result.listed = result.listed if listed is None else listed
    finally:
        await asyncio.gather(*(d.close() for d in devices))
    result.duration = time.perf_counter() - started
    return result

"""What one action costs as a series grows and as more devices watch the game.

Two measurements on a quiet server: the response time of every action while
one table of eight plays a whole series (six games), game by game; and the
response time of actions on a game with no stream open, then with many, the
actions a moment apart as a player makes them.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field

from web.loadtest.client import Device, RequestFailed, Tally, Target
from web.loadtest.play import State, act, create_game, join, next_action
from web.loadtest.sizes import Sizes
from web.loadtest.sse import EventStream

SERIES_GAMES = 6
ACTIONS = 16  # timed actions on the watched game, before and after its streams open
PAUSE = 0.2  # seconds between those actions, as a player takes; the fan-out runs meanwhile


@dataclass
class CostResult:
    """Action times (seconds) per game of a series, and without and with watching streams."""

    by_game: dict[int, list[float]] = field(default_factory=dict)
    unwatched: list[float] = field(default_factory=list)
    watched: list[float] = field(default_factory=list)
    streams: int = 0
    tally: Tally = field(default_factory=Tally)
    error: str | None = None
    duration: float = 0.0


async def _play(device: Device, state: State, rng: random.Random, times: list[float],
                limit: int = 2000, pause: float = 0.0) -> State:
    """Play up to *limit* actions (a roll, then the best box) or to the game's end,
    *pause* seconds apart (a player's moment of thought).

    Each action's response time goes into *times*; returns the last state.
    Raises RequestFailed when an action is not accepted.
    """
    game_id = int(state["id"])
    for _ in range(limit):
        action = next_action(state, random.Random(0))  # no rerolls: one roll, then score
        if action is None:
            break
        kind, body = action
        if kind == "rolls":
            body = {**body, "dice": [rng.randint(1, 6) for _ in range(5)]}
        await asyncio.sleep(pause)
        started = time.perf_counter()
        outcome = await act(device, game_id, kind, body)
        if not outcome.accepted or outcome.state is None:
            raise RequestFailed(f"{kind} answered {outcome.status}")
        times.append(time.perf_counter() - started)
        state = outcome.state
    return state


async def series_costs(device: Device, players: int, result: CostResult) -> None:
    """Play a whole series of *players*, recording each action's time by game number."""
    rng = random.Random(42)
    state = await create_game(device, [f"S{n}" for n in range(players)])
    game_id = int(state["id"])
    for number in range(1, SERIES_GAMES + 1):
        times = result.by_game.setdefault(number, [])
        state = await _play(device, state, rng, times)
        if number < SERIES_GAMES:
            response = await device.post(f"/api/games/{game_id}/next", {})
            if response.status != 200:
                raise RequestFailed(f"play again answered {response.status}")
            state = response.json()


async def subscriber_costs(target: Target, device: Device, streams: int,
                           result: CostResult) -> None:
    """Time a few turns with no stream open on the game, then with *streams* open."""
    state = await create_game(device, ["W1", "W2"])
    rng = random.Random(7)
    state = await _play(device, state, rng, result.unwatched, ACTIONS, PAUSE)
    opened: list[EventStream] = []
    try:
        for _ in range(streams):
            watcher = Device(target, result.tally)
            await join(watcher, str(state["join_code"]))
            stream = EventStream(watcher, f"/api/games/{state['id']}/events")
            if await stream.open() == 200:
                opened.append(stream)
        result.streams = len(opened)
        await _play(device, state, rng, result.watched, ACTIONS, PAUSE)
    finally:
        for stream in opened:
            stream.abort()
            with contextlib.suppress(Exception):
                await stream.device.close()


async def costs(target: Target, sizes: Sizes) -> CostResult:
    """Return what actions cost through a series and under many watching streams."""
    result = CostResult()
    started = time.perf_counter()
    device = Device(target, result.tally, sizes.timeout)
    try:
        await asyncio.wait_for(series_costs(device, sizes.series_players, result),
                               sizes.cost_seconds)
        await asyncio.wait_for(subscriber_costs(target, device, sizes.watchers, result),
                               sizes.cost_seconds)
    except (RequestFailed, TimeoutError) as e:
        result.error = str(e) or type(e).__name__
    finally:
        await device.close()
    result.duration = time.perf_counter() - started
    return result

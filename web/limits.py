"""Limits on how often one client address may do a thing: failed joins, new games.

A `RateLimit` counts events per key (a client address, or one key for everyone)
over a sliding window; once a key has *limit* events in the window, `retry_after`
says how many seconds until the oldest leaves it. Memory is bounded: at most
MAX_KEYS keys are remembered, the least recently used forgotten first.

The app's limits (`init_app`), each per minute, from the config:

- ``JOIN_FAILURES_PER_MINUTE`` (10): wrong join codes from one address;
- ``JOIN_FAILURES_ALL_PER_MINUTE`` (100): wrong join codes from all addresses together,
  so guessing from many addresses gains little (27^6 codes: a guess in 3.9e8);
- ``GAMES_PER_MINUTE`` (30): games started from one address.

Past a limit the answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from flask import Flask, current_app, request

from web.errors import ApiError

MAX_KEYS = 10_000
EVERYONE = "*"
LIMITS = "pipkeeper.limits"


class RateLimit:
    """At most *limit* events per key in any *seconds* (thread-safe)."""

    def __init__(self, limit: int, seconds: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.seconds, self.clock = limit, seconds, clock
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self._events.setdefault(key, deque())
        self._events.move_to_end(key)
        while events and events[0] <= now - self.seconds:
            events.popleft()
        while len(self._events) > MAX_KEYS:
            self._events.popitem(last=False)
        return events

    def retry_after(self, key: str) -> int | None:
        """Return the whole seconds until *key* may act again, None when it may now."""
        with self._lock:
            now = self.clock()
            events = self._recent(key, now)
            if len(events) < self.limit:
                return None
            return max(1, math.ceil(events[0] + self.seconds - now))

    def hit(self, key: str) -> None:
        """Count one event of *key* now."""
        with self._lock:
            now = self.clock()
            self._recent(key, now).append(now)


def client() -> str:
    """Return the address this request came from."""
    return request.remote_addr or "?"


def _limits() -> dict[str, RateLimit]:
    found: dict[str, RateLimit] = current_app.extensions[LIMITS]
    return found


def check(name: str, key: str, what: str, code: str) -> None:
    """Refuse with 429 (Retry-After) when *key* is past limit *name*; *what* says what,
    *code* names the message in other languages (`web.messages`).

    Raises ApiError(429).
    """
    limit = _limits()[name]
    wait = limit.retry_after(key)
    if wait is not None:
        who = "from all addresses" if key == EVERYONE else "from this address"
        raise ApiError(f"too many {what} {who}: at most {limit.limit} a minute; try again in "
                       f"{wait} s", 429, retry_after=wait, code=code,
                       params={"most": limit.limit, "wait": wait})


def check_join() -> None:
    """Before a join by code: 429 when this address, or everyone, failed too often."""
    check("join", client(), "wrong join codes", "too_many_joins")
    check("join_all", EVERYONE, "wrong join codes", "too_many_joins_all")


def failed_join() -> None:
    """Count a join with a wrong code, for this address and for everyone."""
    _limits()["join"].hit(client())
    _limits()["join_all"].hit(EVERYONE)


def check_create() -> None:
    """Before a new game: 429 when this address started too many; else count this one."""
    check("create", client(), "new games", "too_many_games")
    _limits()["create"].hit(client())


def init_app(app: Flask) -> None:
    """Give *app* its rate limits, from its config (see the module's docstring)."""
    app.config.setdefault("JOIN_FAILURES_PER_MINUTE", 10)
    app.config.setdefault("JOIN_FAILURES_ALL_PER_MINUTE", 100)
    app.config.setdefault("GAMES_PER_MINUTE", 30)
    app.extensions[LIMITS] = {
        "join": RateLimit(int(app.config["JOIN_FAILURES_PER_MINUTE"])),
        "join_all": RateLimit(int(app.config["JOIN_FAILURES_ALL_PER_MINUTE"])),
        "create": RateLimit(int(app.config["GAMES_PER_MINUTE"])),
    }

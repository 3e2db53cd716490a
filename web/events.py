"""Live updates: one hub per app fans every change of a game out to its open event streams.

A change is rendered once, by the request that made it (`Hub.publish`), and the
same SSE text goes to every stream of that game. Changes made by another
process on the same database are found by one watcher thread per hub, run by the
storage (`Storage.follow`: SQLite is asked for the versions of the watched games
in one query per poll interval, PostgreSQL tells of each change on one listening
connection), whatever the number of streams. A stream is a `Subscriber`: a
small bounded queue, fed from any thread. Under `pipkeeper serve` the streams
run on the event loop (`web.asgi`) and hold no thread; elsewhere (Flask's test
client, a plain WSGI server) `thread_stream` serves one from the request thread.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask, Response, current_app, request

from web import store
from web.state import render_state
from web.storage import Connection, Storage, storage

EXTENSION = "pipkeeper.hub"
RETRY_MS = 1000
KEEPALIVE = ": keep-alive\n\n"
OFFLOAD_READY = "pipkeeper.offload_ready"  # in an ASGI scope: the server can run streams
OFFLOAD = "pipkeeper.offload"  # in an ASGI scope: the stream the view asked for
AFTER_REPLY = "pipkeeper.after_reply"  # in an ASGI scope: what to run once the reply is out
QUEUE_LIMIT = 64  # a stream this far behind is closed; its browser reconnects and catches up
log = logging.getLogger(__name__)


def compact(data: Any) -> str:
    """Return *data* as JSON text on one line, without spaces (as replies and events send it)."""
    return json.dumps(data, separators=(",", ":"))


def format_event(event: str, data: Any) -> str:
    """Return one SSE message: ``event: NAME`` and the JSON *data* on one line."""
    return state_event(event, compact(data))


def state_event(event: str, text: str) -> str:
    """Return one SSE message of JSON *text* already encoded (it holds no newline)."""
    return f"event: {event}\ndata: {text}\n\n"


def gone_event(game_id: int) -> str:
    """Return the message that ends a stream whose game was deleted."""
    return format_event("gone", {"id": game_id})


class Subscriber(Protocol):
    """One open stream: takes messages from any thread; None means the stream must end."""

    def deliver(self, message: str | None) -> None:
        """Queue *message* (or the end) for the stream, without blocking."""


@dataclass
class _Game:
    """What the hub knows of one watched game."""

    version: int
    message: str | None
    subscribers: set[Subscriber]
    devices: dict[Subscriber, int] = field(default_factory=dict)  # whose stream is whose


class Hub:
    """Subscribers per game, the last message of each, and the watcher for other processes."""

    def __init__(self, source: Storage | None, render: Callable[[store.Record], str]) -> None:
        self._source = source  # None: no other process writes
        self._render = render
        self._games: dict[int, _Game] = {}
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None

    def subscribe(self, game_id: int, subscriber: Subscriber, seen: int,
                  device: int | None = None) -> None:
        """Add *subscriber* (a stream of *device*, when known) to game *game_id*, whose
        state it has at version *seen*.

        A newer message already published is delivered at once.
        """
        with self._lock:
            entry = self._games.setdefault(game_id, _Game(seen, None, set()))
            entry.subscribers.add(subscriber)
            if device is not None:
                entry.devices[subscriber] = device
            if entry.version > seen and entry.message is not None:
                subscriber.deliver(entry.message)
            self._start_watcher()

    def unsubscribe(self, game_id: int, subscriber: Subscriber) -> None:
        """Remove *subscriber*; a game without subscribers is forgotten."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                return
            entry.subscribers.discard(subscriber)
            entry.devices.pop(subscriber, None)
            if not entry.subscribers:
                del self._games[game_id]

    def subscribers(self) -> int:
        """Return the number of open streams."""
        with self._lock:
            return sum(len(entry.subscribers) for entry in self._games.values())

    def cached(self, record: store.Record) -> str:
        """Return the message for *record*: the one already rendered when it is current."""
        with self._lock:
            entry = self._games.get(record.id)
            if entry is not None and entry.version == record.version and entry.message:
                return entry.message
        return self._render(record)

    def publish(self, game_id: int, version: int, message: str) -> None:
        """Send *message* (the game at *version*) to the game's streams, unless they have newer."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None or version <= entry.version:
                return
            entry.version, entry.message = version, message
            deliver_all(entry.subscribers, message)

    def end_streams(self, game_id: int) -> None:
        """End every stream of game *game_id* (its join code changed: each must join anew)."""
        with self._lock:
            entry = self._games.pop(game_id, None)
        for subscriber in entry.subscribers if entry else ():
            subscriber.deliver(None)

    def end_device(self, game_id: int, device: int) -> None:
        """End the streams of *device* in game *game_id* (it was removed); the others go on."""
        with self._lock:
            entry = self._games.get(game_id)
            ended = [s for s, d in entry.devices.items() if d == device] if entry else []
            for subscriber in ended:
                assert entry is not None
                entry.subscribers.discard(subscriber)
                del entry.devices[subscriber]
        for subscriber in ended:
            subscriber.deliver(None)

    def publish_gone(self, game_id: int) -> None:
        """End every stream of game *game_id*: it was deleted."""
        with self._lock:
            entry = self._games.pop(game_id, None)
        for subscriber in entry.subscribers if entry else ():
            subscriber.deliver(gone_event(game_id))
            subscriber.deliver(None)

    # --- the watcher -------------------------------------------------------------

    def _start_watcher(self) -> None:
        """Start the watcher unless it runs (called with the lock held)."""
        if self._watcher is None and self._source is not None:
            self._watcher = threading.Thread(target=self._watch, name="pipkeeper-watcher",
                                             daemon=True)
            self._watcher.start()

    def _watched(self) -> dict[int, int]:
        """Return {game: version} of the watched games; with none, the watcher ends."""
        with self._lock:
            watched = {game_id: entry.version for game_id, entry in self._games.items()}
            if not watched:
                self._watcher = None
            return watched

    def _watch(self) -> None:
        """Follow the changes of other processes until no game is watched."""
        assert self._source is not None
        try:
            self._source.follow(self._watched, self._check)
        finally:
            with self._lock:
                if self._watcher is threading.current_thread():  # it ended unasked
                    self._watcher = None
                    if self._games:
                        self._start_watcher()

    def _check(self, conn: Connection, watched: dict[int, int]) -> None:
        """Publish each watched game whose stored version moved on; end the deleted ones."""
        versions = store.versions(conn, list(watched))
        for game_id, seen in watched.items():
            version = versions.get(game_id)
            if version is None:
                self.publish_gone(game_id)
            elif version > seen:
                record = store.load(conn, game_id)
                self.publish(game_id, record.version, self._render(record))


def render_message(record: store.Record) -> str:
    """Return the SSE message of *record*'s whole state."""
    return format_event("state", render_state(record))


def hub() -> Hub:
    """Return this app's hub."""
    found: Hub = current_app.extensions[EXTENSION]
    return found


def publish(record: store.Record, text: str) -> None:
    """Send a committed change, its state already encoded as JSON *text*, to its streams.

    Under `web.asgi` this happens right after the reply to the device that made the
    change is written, so that device never waits behind the fan-out.
    """
    the_hub, message = hub(), state_event("state", text)
    scope = request.environ.get("asgi.scope")
    if isinstance(scope, dict) and scope.get(OFFLOAD_READY):
        scope.setdefault(AFTER_REPLY, []).append(
            lambda: the_hub.publish(record.id, record.version, message))
    else:
        the_hub.publish(record.id, record.version, message)


# --- a stream served from a request thread ------------------------------------------


class ThreadSubscriber:
    """A subscriber read by a blocking thread."""

    def __init__(self) -> None:
        self._queue: queue.Queue[str | None] = queue.Queue(QUEUE_LIMIT)
        self._lock = threading.Lock()
        self._ended = False

    def deliver(self, message: str | None) -> None:
        """Queue *message*; a full queue ends the stream (its browser reconnects)."""
        with self._lock:
            if not self._ended:
                self._ended = _enqueue(self._queue, message)

    def get(self, timeout: float) -> str | None:
        """Return the next message, KEEPALIVE after *timeout* seconds, or None at the end."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return KEEPALIVE


def _enqueue(waiting: queue.Queue[str | None] | asyncio.Queue[str | None],
             message: str | None) -> bool:
    """Put *message* in *waiting*, or the end when it is full; return True once ended."""
    if waiting.full():
        while not waiting.empty():  # nothing older matters to a stream that is ended
            waiting.get_nowait()
        message = None
    waiting.put_nowait(message)
    return message is None


class LoopSubscriber:
    """A subscriber read by a coroutine on *loop*; deliveries from threads are handed over."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(QUEUE_LIMIT)
        self._ended = False

    def deliver(self, message: str | None) -> None:
        """Queue *message* from any thread; a full queue ends the stream."""
        self.loop.call_soon_threadsafe(self._put, message)

    def _put(self, message: str | None) -> None:
        if not self._ended:
            self._ended = _enqueue(self._queue, message)

    async def get(self, timeout: float) -> str | None:
        """Return the next message, KEEPALIVE after *timeout* seconds, or None at the end."""
        try:
            async with asyncio.timeout(timeout):
                return await self._queue.get()
        except TimeoutError:
            return KEEPALIVE

    def end(self) -> None:
        """End the stream (on the loop's thread): its client has gone."""
        self._put(None)


def deliver_all(subscribers: Iterable[Subscriber], message: str) -> None:
    """Give *message* to every subscriber: one hand-over per event loop, not one per stream."""
    by_loop: dict[asyncio.AbstractEventLoop, list[LoopSubscriber]] = {}
    for subscriber in subscribers:
        if isinstance(subscriber, LoopSubscriber):
            by_loop.setdefault(subscriber.loop, []).append(subscriber)
        else:
            subscriber.deliver(message)
    for loop, waiting in by_loop.items():
        loop.call_soon_threadsafe(_put_each, waiting, message)


def _put_each(subscribers: list[LoopSubscriber], message: str) -> None:
    for subscriber in subscribers:
        subscriber._put(message)


@dataclass(frozen=True)
class Offload:
    """A stream the ASGI server (`web.asgi`) runs on its event loop after the view returns."""

    hub: Hub
    game_id: int
    version: int
    first: str
    keepalive: float
    max_seconds: float
    device: int | None = None


STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def stream_response(record: store.Record, device: int | None = None) -> Response:
    """Return the event-stream response of *record*'s game for *device*: its state now, then
    each change, until the game is deleted or the device removed.

    Under `web.asgi` the view only marks the request (the stream then holds no
    thread); elsewhere the response body is `thread_stream`.
    """
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    the_hub: Hub = app.extensions[EXTENSION]
    first = the_hub.cached(record)
    scope = request.environ.get("asgi.scope")
    if isinstance(scope, dict) and scope.get(OFFLOAD_READY):
        scope[OFFLOAD] = Offload(the_hub, record.id, record.version, first,
                                 float(app.config["EVENTS_KEEPALIVE_SECONDS"]),
                                 float(app.config["EVENTS_MAX_SECONDS"]), device)
        return Response(b"", mimetype="text/event-stream", headers=STREAM_HEADERS)
    return Response(thread_stream(app, record, first, device), mimetype="text/event-stream",
                    headers=STREAM_HEADERS)


def thread_stream(app: Flask, record: store.Record, first: str,
                  device: int | None = None) -> Iterator[str]:
    """Yield the SSE text of one stream from the request thread: *first*, then every change."""
    config = app.config
    keepalive = float(config["EVENTS_KEEPALIVE_SECONDS"])
    deadline = time.monotonic() + float(config["EVENTS_MAX_SECONDS"])
    the_hub: Hub = app.extensions[EXTENSION]
    subscriber = ThreadSubscriber()
    the_hub.subscribe(record.id, subscriber, record.version, device)
    try:
        yield f"retry: {RETRY_MS}\n" + first
        while (left := deadline - time.monotonic()) > 0:
            message = subscriber.get(min(keepalive, left))
            if message is None:
                return
            yield message
    finally:
        the_hub.unsubscribe(record.id, subscriber)


def init_app(app: Flask) -> None:
    """Give *app* its hub (following its storage) and the event-stream defaults."""
    app.config.setdefault("EVENTS_POLL_SECONDS", 0.25)
    app.config.setdefault("EVENTS_KEEPALIVE_SECONDS", 15.0)
    app.config.setdefault("EVENTS_MAX_SECONDS", 300.0)
    app.extensions[EXTENSION] = Hub(storage(app), render_message)

"""Server-Sent Events: a game's state, streamed on connect and after every change.

Each stream polls the game's ``version`` column with its own SQLite connection,
so a change made by any process (or a second server on the same file) is seen
within one poll interval. Changes made in this process also wake the streams
at once through a shared `threading.Condition`. Streams send a keep-alive
comment when idle (so a vanished client is noticed at the next write, which
ends the generator) and end after ``EVENTS_MAX_SECONDS``; browsers' EventSource
reconnects by itself after the ``retry`` delay.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flask import Flask, current_app

from web import store
from web.db import connect
from web.state import render_state

EXTENSION = "pipkeeper.notifier"
RETRY_MS = 1000


class Notifier:
    """Wakes every waiting stream of this process when any game changes."""

    def __init__(self) -> None:
        self._condition = threading.Condition()

    def notify(self) -> None:
        """Tell every waiting stream that something changed."""
        with self._condition:
            self._condition.notify_all()

    def wait(self, timeout: float) -> None:
        """Block until `notify` or *timeout* seconds, whichever comes first."""
        with self._condition:
            self._condition.wait(timeout)


def notify_change() -> None:
    """Wake this app's streams after a committed change."""
    notifier: Notifier = current_app.extensions[EXTENSION]
    notifier.notify()


def format_event(event: str, data: Any) -> str:
    """Return one SSE message: ``event: NAME`` and the JSON *data* on one line."""
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def stream_states(app: Flask, game_id: int) -> Iterator[str]:
    """Yield SSE text for game *game_id*: its state now and after every change.

    Ends with an ``event: gone`` if the game disappears, and after the
    configured maximum duration.
    """
    config = app.config
    notifier: Notifier = app.extensions[EXTENSION]
    poll = float(config["EVENTS_POLL_SECONDS"])
    keepalive = float(config["EVENTS_KEEPALIVE_SECONDS"])
    conn = connect(Path(config["DATABASE"]))
    try:
        try:
            record = store.load(conn, game_id)
        except store.GameNotFoundError:  # removed since the view looked
            yield format_event("gone", {"id": game_id})
            return
        yield f"retry: {RETRY_MS}\n" + format_event("state", render_state(record))
        seen, last_write = record.version, time.monotonic()
        deadline = last_write + float(config["EVENTS_MAX_SECONDS"])
        while time.monotonic() < deadline:
            notifier.wait(poll)
            version = store.current_version(conn, game_id)
            if version is None:
                yield format_event("gone", {"id": game_id})
                return
            if version != seen:
                record = store.load(conn, game_id)
                seen, last_write = record.version, time.monotonic()
                yield format_event("state", render_state(record))
            elif time.monotonic() - last_write >= keepalive:
                last_write = time.monotonic()
                yield ": keep-alive\n\n"
    finally:
        conn.close()


def init_app(app: Flask) -> None:
    """Give *app* its notifier and the event-stream defaults."""
    app.config.setdefault("EVENTS_POLL_SECONDS", 0.25)
    app.config.setdefault("EVENTS_KEEPALIVE_SECONDS", 15.0)
    app.config.setdefault("EVENTS_MAX_SECONDS", 300.0)
    app.extensions[EXTENSION] = Notifier()

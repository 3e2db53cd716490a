"""The app as `pipkeeper serve` runs it: Flask's views on a thread pool, streams on the loop.

`LiveApp` is an ASGI app around the Flask app (through a2wsgi). Ordinary
requests run the view in a worker thread. An event-stream view only marks the
request (`web.events.Offload`) and returns at once; `LiveApp` then keeps the
connection open on the event loop and writes whatever the hub delivers, so a
phone watching a game costs a queue and a socket, not a thread. A change is
handed to the hub once its reply has been written (``AFTER_REPLY``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask

from web.events import AFTER_REPLY, OFFLOAD, OFFLOAD_READY, RETRY_MS, LoopSubscriber, Offload

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class LiveApp:
    """The ASGI app: *app*'s views on *workers* threads, its event streams on the loop."""

    def __init__(self, app: Flask, workers: int) -> None:
        self.flask = app
        self.wsgi = WSGIMiddleware(app, workers=workers)  # type: ignore[arg-type]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]
            return
        scope[OFFLOAD_READY] = True
        try:
            await self.wsgi(scope, receive, _held_body(scope, send))  # type: ignore[arg-type]
        finally:
            for callback in scope.get(AFTER_REPLY, ()):
                callback()
        offload = scope.get(OFFLOAD)
        if isinstance(offload, Offload):
            await run_stream(offload, receive, send)


def _held_body(scope: Scope, send: Send) -> Send:
    """Return *send* that, for a request whose view offloaded a stream, sends only the head.

    The head loses its Content-Length (the stream's length is unknown: chunked).
    """

    async def forward(message: Message) -> None:
        if not isinstance(scope.get(OFFLOAD), Offload):
            await send(message)
        elif message["type"] == "http.response.start":
            headers = [(k, v) for k, v in message.get("headers", []) if k != b"content-length"]
            await send({**message, "headers": headers})

    return forward


async def _disconnected(receive: Receive) -> None:
    """Return when the client has gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def run_stream(offload: Offload, receive: Receive, send: Send) -> None:
    """Write *offload*'s first message and then every delivered one until the end or a hang-up."""
    loop = asyncio.get_running_loop()
    subscriber = LoopSubscriber(loop)
    offload.hub.subscribe(offload.game_id, subscriber, offload.version)
    gone = asyncio.ensure_future(_disconnected(receive))
    gone.add_done_callback(lambda _: subscriber.end())
    deadline = loop.time() + offload.max_seconds
    try:
        await _write(send, f"retry: {RETRY_MS}\n" + offload.first)
        while (left := deadline - loop.time()) > 0:
            message = await subscriber.get(min(offload.keepalive, left))
            if message is None:
                break
            await _write(send, message)
        if not gone.done():
            await send({"type": "http.response.body", "body": b"", "more_body": False})
    except OSError:  # the client went away mid-write
        pass
    finally:
        offload.hub.unsubscribe(offload.game_id, subscriber)
        gone.cancel()


async def _write(send: Send, text: str) -> None:
    await send({"type": "http.response.body", "body": text.encode(), "more_body": True})


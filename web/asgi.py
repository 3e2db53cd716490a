"""The app as `pipkeeper serve` runs it: Flask's views on a thread pool, streams on the loop.

`LiveApp` is an ASGI app around the Flask app (through a2wsgi). Ordinary
requests run the view in a worker thread. An event-stream view only marks the
request (`web.events.Offload`) and returns at once; `LiveApp` then keeps the
connection open on the event loop and writes whatever the hub delivers, so a
phone watching a game costs a queue and a socket, not a thread. A change is
handed to the hub once its reply has been written (``AFTER_REPLY``).

A request's body is read on the event loop, under the deadlines and the size
limit of `web.connection.Limits`, before any worker thread sees the request: a
stalled or trickling upload holds a socket and its bytes, never a thread. The
view gets the complete body with its Content-Length (a chunked one too). A body
too slow is answered 408, one too large 413 (whatever its framing), and when the
bodies held at once would pass ``Limits.buffered_bodies``, 503 with Retry-After.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from a2wsgi import WSGIMiddleware
from flask import Flask

from scorekeeper.errors import Coded
from web.connection import Limits, error_body, error_headers
from web.events import AFTER_REPLY, OFFLOAD, OFFLOAD_READY, RETRY_MS, LoopSubscriber, Offload
from web.messages import message_of

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class BodyRefused(Coded):
    """A request body not read: its status, English message, extra headers for the reply,
    and the `code` and `params` of its message in other languages (`web.messages`)."""

    def __init__(self, status: int, message: str, *headers: tuple[bytes, bytes],
                 code: str = "", **params: object) -> None:
        super().__init__(message, code=code, **params)
        self.status = status
        self.headers = headers


class ClientGone(Exception):
    """The client hung up before its body was complete."""


class LiveApp:
    """The ASGI app: *app*'s views on *workers* threads, its event streams on the loop."""

    def __init__(self, app: Flask, workers: int, limits: Limits | None = None) -> None:
        self.flask = app
        self.wsgi = WSGIMiddleware(app, workers=workers)  # type: ignore[arg-type]
        self.limits = limits or Limits()
        self.buffered = 0  # bytes of bodies read or being handled now (on the loop only)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]
            return
        held = [0]
        try:
            try:
                body = await self.read_body(scope, receive, held)
            except BodyRefused as refusal:
                await send_error(send, refusal.status, self.translated(scope, refusal),
                                 *refusal.headers)
                return
            except ClientGone:
                return
            await self._serve(scope, _replay(body, receive), receive, send)
        finally:
            self.buffered -= held[0]

    async def _serve(self, scope: Scope, replay: Receive, receive: Receive, send: Send) -> None:
        scope[OFFLOAD_READY] = True
        started = _Started(send)
        try:
            await self.wsgi(scope, replay, _held_body(scope, started))  # type: ignore[arg-type]
        except Exception:
            if started.done:
                raise
            await send_error(send, 500, "internal error: the server could not handle this "
                             "request")
            return
        finally:
            for callback in scope.get(AFTER_REPLY, ()):
                callback()
        offload = scope.get(OFFLOAD)
        if isinstance(offload, Offload):
            await run_stream(offload, receive, send)

    async def read_body(self, scope: Scope, receive: Receive, held: list[int]) -> bytes:
        """Return the whole body of the request, read under the limits; give the scope its
        Content-Length (for a chunked body too). *held*[0] counts the bytes taken from the
        budget of buffered bodies.

        Raises BodyRefused (408, 413, 503) or ClientGone.
        """
        limits = self.limits
        declared = _content_length(scope)
        if declared is not None and declared > limits.max_body:
            raise _too_large(limits)
        loop = asyncio.get_running_loop()
        started, parts, received, more = loop.time(), [], 0, True
        while more:
            left = min(limits.body_idle_seconds,
                       limits.body_deadline(started, received) - loop.time())
            try:
                message = await asyncio.wait_for(receive(), max(0.0, left))
            except TimeoutError:
                raise _too_slow(limits, received) from None
            if message["type"] == "http.disconnect":
                raise ClientGone
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > limits.max_body:
                raise _too_large(limits)
            self._hold(len(chunk), held)
            parts.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(parts)
        scope["headers"] = [*((k, v) for k, v in scope["headers"]
                              if k not in (b"content-length", b"transfer-encoding")),
                            (b"content-length", str(len(body)).encode())]
        return body

    def translated(self, scope: Scope, refusal: BodyRefused) -> str:
        """Return what *refusal* says in the language of the request of *scope* (its
        language cookie or Accept-Language; the view never saw the request)."""
        wanted = {b"accept-language": "Accept-Language", b"cookie": "Cookie"}
        headers = {wanted[k]: v.decode("latin-1") for k, v in scope["headers"] if k in wanted}
        with self.flask.test_request_context("/", headers=headers):
            return message_of(refusal)

    def _hold(self, size: int, held: list[int]) -> None:
        """Count *size* more bytes of bodies held; raise BodyRefused(503) past the budget."""
        if self.buffered + size > self.limits.buffered_bodies:
            raise BodyRefused(503, "the server holds as many uploads as it can: try again in "
                              "a moment", (b"retry-after", b"2"), code="uploads_busy")
        self.buffered += size
        held[0] += size


class _Started:
    """A *send* that remembers whether the response has begun."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.done = False

    async def __call__(self, message: Message) -> None:
        self.done = True
        await self.send(message)


def _content_length(scope: Scope) -> int | None:
    """Return the request's Content-Length (h11 has checked it is digits), None if absent."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value)
    return None


def _too_large(limits: Limits) -> BodyRefused:
    return BodyRefused(413, f"the request body is over {limits.max_body // (1024 * 1024)} MB: "
                       "send a smaller photo", code="too_large")


def _too_slow(limits: Limits, received: int) -> BodyRefused:
    return BodyRefused(408, f"the request body stopped arriving ({received} bytes came): send "
                       f"it again; a body may pause at most {limits.body_idle_seconds:g} s and "
                       f"must keep up {limits.body_rate // 1024} kB/s after its first "
                       f"{limits.body_grace_seconds:g} s", code="body_too_slow",
                       received=received, idle=f"{limits.body_idle_seconds:g}",
                       rate=limits.body_rate // 1024, grace=f"{limits.body_grace_seconds:g}")


def _replay(body: bytes, receive: Receive) -> Receive:
    """Return a *receive* that gives the whole *body* first, then what *receive* gives."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def send_error(send: Send, status: int, message: str,
                     *headers: tuple[bytes, bytes]) -> None:
    """Send the JSON error reply ``{"error": message}`` that closes the connection."""
    body = error_body(message)
    await send({"type": "http.response.start", "status": status,
                "headers": error_headers(body, *headers)})
    await send({"type": "http.response.body", "body": body, "more_body": False})


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
    offload.hub.subscribe(offload.game_id, subscriber, offload.version, offload.device)
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


"""The HTTP/1.1 connection as `pipkeeper serve` runs it: deadlines for every phase, JSON errors.

uvicorn's h11 protocol, with what it lacks for phones on a weak network and
strangers on the same one:

- a request head (request line and headers) must be complete within
  ``Limits.head_seconds`` of the connection opening, or of its first byte on a
  kept-alive connection, so a client that sends nothing, or a header byte a
  second, holds a socket for that long only (uvicorn's own keep-alive timer
  restarts at every byte);
- an idle kept-alive connection closes after ``Limits.keep_alive_seconds``;
- what uvicorn answers by itself (a malformed request, a head too slow) is JSON,
  ``{"error": ...}``, like every other error of the app.

The body's deadlines are `web.asgi`'s: it reads the body on the event loop.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol


@dataclass(frozen=True)
class Limits:
    """How long each phase of a request may take, and how large a body may be.

    A body must arrive within ``body_grace_seconds`` plus one second per
    ``body_rate`` bytes received (a trickle of a byte every few seconds misses it,
    a photo over a slow phone link does not), and never pause ``body_idle_seconds``.
    """

    head_seconds: float = 10.0
    body_idle_seconds: float = 10.0
    body_grace_seconds: float = 20.0
    body_rate: int = 8 * 1024
    keep_alive_seconds: float = 15.0
    max_body: int = 15 * 1024 * 1024
    buffered_bodies: int = 256 * 1024 * 1024

    def body_deadline(self, started: float, received: int) -> float:
        """Return the loop time by which a body begun at *started* with *received* bytes
        so far must be complete."""
        return started + self.body_grace_seconds + received / self.body_rate


def error_body(message: str) -> bytes:
    """Return the JSON error document ``{"error": message}`` as bytes."""
    return json.dumps({"error": message}).encode()


def error_headers(body: bytes, *extra: tuple[bytes, bytes]) -> list[tuple[bytes, bytes]]:
    """Return the headers of a JSON error reply of *body* that closes the connection."""
    return [(b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"), *extra]


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head and JSON errors."""

    limits = Limits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_timer: asyncio.TimerHandle | None = None
        self.head_started = False  # a byte of the awaited request head has arrived

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if data and self.conn.their_state is h11.IDLE:
            if self.head_timer is None:  # the first byte of a head on a kept-alive connection
                self._await_head()
            self.head_started = True
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # the head is in: the body's deadlines now
            self._cancel_head_timer()

    def _await_head(self) -> None:
        self._cancel_head_timer()
        self.head_started = False
        self.head_timer = self.loop.call_later(self.limits.head_seconds, self._head_too_slow)

    def _cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def _head_too_slow(self) -> None:
        """Close a connection whose request head did not arrive in time (408 if it began)."""
        self.head_timer = None
        if self.transport.is_closing():
            return
        if self.head_started and self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            seconds = f"{self.limits.head_seconds:g}"
            self._send_error(408, f"the request head did not arrive within {seconds} s")
        self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """Answer a malformed request with a JSON 400 and close (uvicorn's is plain text)."""
        self._send_error(400, f"malformed HTTP request: {msg.rstrip('.').lower()}")
        self.transport.close()

    def _send_error(self, status: int, message: str) -> None:
        body = error_body(message)
        try:
            self.transport.write(self.conn.send(h11.Response(
                status_code=status, headers=error_headers(body))) or b"")
            self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
            self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        except h11.LocalProtocolError:  # h11 cannot answer in this state: write it raw
            head = (f"HTTP/1.1 {status} {'Bad Request' if status == 400 else 'Request Timeout'}"
                    "\r\n").encode()
            fields = b"".join(name + b": " + value + b"\r\n" for name, value in
                              error_headers(body))
            self.transport.write(head + fields + b"\r\n" + body)


def guarded_protocol(limits: Limits) -> type[GuardedH11Protocol]:
    """Return the protocol class uvicorn is given (``Config(http=...)``) for *limits*."""
    return type("GuardedH11Protocol", (GuardedH11Protocol,), {"limits": limits})

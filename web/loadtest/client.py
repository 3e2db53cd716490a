"""A small HTTP/1.1 client on asyncio streams: devices with cookie jars, JSON, event streams."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import struct
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

DEFAULT_TIMEOUT = 10.0
STREAM_LIMIT = 1 << 20
MAX_503_RETRIES = 5
MAX_RETRY_AFTER = 5.0
CHUNK = 65536


class RequestFailed(Exception):
    """A request that got no complete response: timed out, refused or cut off."""


class StaleConnection(Exception):
    """A reused keep-alive connection closed before any byte of the response."""


@dataclass(frozen=True)
class Target:
    """Where the server listens."""

    host: str
    port: int

    @property
    def authority(self) -> str:
        """Return ``host:port`` for the Host header."""
        return f"{self.host}:{self.port}"


@dataclass(frozen=True)
class Response:
    """A complete response and how long it took from sending to its last byte."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    elapsed: float

    def header(self, name: str) -> str | None:
        """Return the first header called *name* (any case), or None."""
        wanted = name.lower()
        return next((v for k, v in self.headers if k == wanted), None)

    def json(self) -> Any:
        """Return the body parsed as JSON; None for an empty or malformed body."""
        try:
            return json.loads(self.body) if self.body else None
        except ValueError:
            return None


@dataclass
class Tally:
    """Every response's status and time, failed requests by kind, 503s with Retry-After."""

    statuses: Counter[int] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)
    overloaded: int = 0

    def record(self, response: Response) -> None:
        """Count *response*; a 503 with Retry-After counts as overload, not as an error."""
        self.statuses[response.status] += 1
        self.times.append(response.elapsed)
        if response.status == 503 and response.header("retry-after") is not None:
            self.overloaded += 1

    def merged(self, other: Tally) -> Tally:
        """Return a tally of this one's responses and *other*'s together."""
        return Tally(self.statuses + other.statuses, self.times + other.times,
                     self.errors + other.errors, self.overloaded + other.overloaded)

    @property
    def server_errors(self) -> int:
        """Return the count of 5xx responses other than 503s with Retry-After."""
        return sum(n for s, n in self.statuses.items() if s >= 500) - self.overloaded

    @property
    def failures(self) -> int:
        """Return the count of requests that got no complete response."""
        return sum(self.errors.values())


class CookieJar:
    """The cookies one device holds for one server (every path, no domains)."""

    def __init__(self) -> None:
        self._cookies: dict[str, str] = {}

    def update(self, headers: Iterable[tuple[str, str]]) -> None:
        """Store or delete cookies named by the ``set-cookie`` headers among *headers*."""
        for name, value in headers:
            if name == "set-cookie":
                self._set(value)

    def _set(self, text: str) -> None:
        pair, *attributes = (part.strip() for part in text.split(";"))
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            return
        if _expired(attributes):
            self._cookies.pop(name.strip(), None)
        else:
            self._cookies[name.strip()] = value.strip()

    def header(self) -> str | None:
        """Return the Cookie header value, or None when the jar is empty."""
        if not self._cookies:
            return None
        return "; ".join(f"{k}={v}" for k, v in self._cookies.items())

    def copy(self) -> CookieJar:
        """Return a jar holding the same cookies."""
        jar = CookieJar()
        jar._cookies = dict(self._cookies)
        return jar

    def as_dict(self) -> dict[str, str]:
        """Return a copy of the cookies held."""
        return dict(self._cookies)


def _expired(attributes: Iterable[str]) -> bool:
    """True when a cookie's Max-Age is 0 or less, or its Expires date has passed."""
    for attribute in attributes:
        key, _, value = attribute.partition("=")
        key = key.strip().lower()
        if key == "max-age":
            try:
                return int(value.strip()) <= 0
            except ValueError:
                continue
        if key == "expires":
            try:
                when = parsedate_to_datetime(value.strip())
            except (TypeError, ValueError):
                continue
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            if when <= datetime.now(UTC):
                return True
    return False


async def open_stream(target: Target) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Return a reader and writer connected to *target*."""
    return await asyncio.open_connection(target.host, target.port, limit=STREAM_LIMIT)


def abort(writer: asyncio.StreamWriter) -> None:
    """Close the connection at once with a reset, sending nothing more."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def encode_request(method: str, path: str, target: Target, body: bytes | None,
                   headers: dict[str, str]) -> bytes:
    """Return the bytes of an HTTP/1.1 request with a Content-Length body when given one."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {target.authority}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body is not None or method in {"POST", "PUT", "PATCH"}:
        lines.append(f"Content-Length: {len(body or b'')}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")


async def read_head(reader: asyncio.StreamReader) -> tuple[int, tuple[tuple[str, str], ...]]:
    """Return the status and headers (names in lower case) of a response.

    Raises StaleConnection when the connection closes before the status line,
    RequestFailed when the head is malformed or cut off.
    """
    line = await reader.readline()
    if not line:
        raise StaleConnection
    parts = line.decode("latin-1").split(None, 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise RequestFailed(f"malformed status line {line!r}")
    headers: list[tuple[str, str]] = []
    while True:
        line = await reader.readline()
        if not line:
            raise RequestFailed("connection closed inside the response head")
        text = line.decode("latin-1").rstrip("\r\n")
        if not text:
            return int(parts[1]), tuple(headers)
        name, _, value = text.partition(":")
        headers.append((name.strip().lower(), value.strip()))


class BodyReader:
    """Reads a response body piece by piece: chunked, by Content-Length, or to the close."""

    def __init__(self, reader: asyncio.StreamReader, headers: tuple[tuple[str, str], ...],
                 status: int, method: str) -> None:
        self._reader = reader
        values = {k: v.lower() for k, v in headers}
        self.chunked = "chunked" in values.get("transfer-encoding", "")
        length = values.get("content-length")
        self._left = int(length) if length and length.isdigit() and not self.chunked else None
        self.to_close = not self.chunked and self._left is None
        self.done = method == "HEAD" or status in {204, 304} or 100 <= status < 200
        if self._left == 0:
            self.done = True

    async def read(self) -> bytes:
        """Return the next piece of the body; b"" once it is complete.

        Raises RequestFailed when the connection ends before the body does.
        """
        if self.done:
            return b""
        if self.chunked:
            return await self._read_chunked()
        data = await self._reader.read(CHUNK if self._left is None else min(CHUNK, self._left))
        if not data:
            if self._left is None:
                self.done = True
                return b""
            raise RequestFailed("connection closed inside the body")
        if self._left is not None:
            self._left -= len(data)
            self.done = self._left == 0
        return data

    async def _read_chunked(self) -> bytes:
        if not self._left:
            line = await self._reader.readline()
            size_text = line.split(b";")[0].strip()
            if not line or not size_text:
                raise RequestFailed("connection closed inside a chunked body")
            try:
                size = int(size_text, 16)
            except ValueError:
                raise RequestFailed(f"malformed chunk size {line!r}") from None
            if size == 0:
                while (await self._reader.readline()).strip():
                    pass
                self.done = True
                return b""
            self._left = size
        data = await self._reader.read(min(CHUNK, self._left))
        if not data:
            raise RequestFailed("connection closed inside a chunk")
        self._left -= len(data)
        if self._left == 0:
            await self._reader.readexactly(2)
        return data

    async def read_all(self) -> bytes:
        """Return the rest of the body."""
        pieces = []
        while piece := await self.read():
            pieces.append(piece)
        return b"".join(pieces)


def _keeps_alive(headers: tuple[tuple[str, str], ...], body: BodyReader) -> bool:
    connection = ",".join(v.lower() for k, v in headers if k == "connection")
    return "close" not in connection and not body.to_close


class Device:
    """One simulated phone or tablet: its cookies and one keep-alive connection."""

    def __init__(self, target: Target, tally: Tally, timeout: float = DEFAULT_TIMEOUT,
                 jar: CookieJar | None = None) -> None:
        self.target = target
        self.tally = tally
        self.timeout = timeout
        self.jar = jar or CookieJar()
        self._conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
        self._lock = asyncio.Lock()

    async def get(self, path: str, timeout: float | None = None) -> Response:
        """Return the response to GET *path*."""
        return await self.request("GET", path, None, timeout)

    async def post(self, path: str, data: Any, timeout: float | None = None) -> Response:
        """Return the response to POST *path* with *data* as its JSON body."""
        return await self.request("POST", path, data, timeout)

    async def request(self, method: str, path: str, data: Any = None,
                      timeout: float | None = None) -> Response:
        """Return the response, after waiting out up to MAX_503_RETRIES 503s with Retry-After.

        Raises RequestFailed when no complete response came within the timeout.
        """
        for _ in range(MAX_503_RETRIES):
            response = await self._exchange(method, path, data, timeout or self.timeout)
            delay = _retry_after(response)
            if delay is None:
                return response
            await asyncio.sleep(delay)
        return response

    async def _exchange(self, method: str, path: str, data: Any, timeout: float) -> Response:
        body = None if data is None else json.dumps(data).encode()
        headers = {"Accept": "application/json"}
        if body is not None:
            headers["Content-Type"] = "application/json"
        async with self._lock:
            try:
                response = await asyncio.wait_for(
                    self._send(method, path, body, headers), timeout)
            except TimeoutError:
                self._drop()
                self.tally.errors["timeout"] += 1
                raise RequestFailed(f"{method} {path}: no response in {timeout:g} s") from None
            except (OSError, asyncio.IncompleteReadError, RequestFailed, StaleConnection) as e:
                self._drop()
                self.tally.errors[type(e).__name__] += 1
                raise RequestFailed(f"{method} {path}: {e!r}") from None
        self.tally.record(response)
        return response

    async def _send(self, method: str, path: str, body: bytes | None,
                    headers: dict[str, str]) -> Response:
        started = time.perf_counter()
        reused = self._conn is not None
        try:
            return await self._send_once(method, path, body, headers, started)
        except (StaleConnection, ConnectionResetError, BrokenPipeError):
            if not reused:
                raise
            self._drop()
            return await self._send_once(method, path, body, headers, started)

    async def _send_once(self, method: str, path: str, body: bytes | None,
                         headers: dict[str, str], started: float) -> Response:
        if self._conn is None:
            self._conn = await open_stream(self.target)
        reader, writer = self._conn
        cookie = self.jar.header()
        sent = dict(headers, Cookie=cookie) if cookie else headers
        writer.write(encode_request(method, path, self.target, body, sent))
        await writer.drain()
        status, head = await read_head(reader)
        reader_body = BodyReader(reader, head, status, method)
        content = await reader_body.read_all()
        self.jar.update(head)
        if not _keeps_alive(head, reader_body):
            self._drop()
        return Response(status, head, content, time.perf_counter() - started)

    def _drop(self) -> None:
        if self._conn is not None:
            self._conn[1].transport.abort()
            self._conn = None

    async def close(self) -> None:
        """Close the device's connection."""
        if self._conn is not None:
            writer = self._conn[1]
            self._conn = None
            writer.close()
            try:
                await asyncio.wait_for(writer.wait_closed(), 1.0)
            except (TimeoutError, OSError):
                writer.transport.abort()


def _retry_after(response: Response) -> float | None:
    """Return the seconds to wait before retrying a 503 with Retry-After; None otherwise."""
    if response.status != 503:
        return None
    value = response.header("retry-after")
    if value is None:
        return None
    try:
        return min(max(float(value), 0.0), MAX_RETRY_AFTER)
    except ValueError:
        return 1.0

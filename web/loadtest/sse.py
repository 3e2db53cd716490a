"""Event streams (text/event-stream) read message by message, every read with a timeout."""

from __future__ import annotations

import asyncio
import codecs
import time
from dataclasses import dataclass

from web.loadtest.client import (
    DEFAULT_TIMEOUT,
    BodyReader,
    Device,
    RequestFailed,
    StaleConnection,
    abort,
    encode_request,
    open_stream,
    read_head,
)


@dataclass(frozen=True)
class Message:
    """One server-sent event: its name, data and when its last line arrived."""

    event: str
    data: str
    arrived: float


class SseParser:
    """Turns the bytes of a text/event-stream into messages as they complete."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._buffer = ""
        self.retry: int | None = None

    def feed(self, data: bytes, arrived: float) -> list[Message]:
        """Return the messages completed by *data*; comments and retry lines make none."""
        self._buffer += self._decoder.decode(data).replace("\r\n", "\n").replace("\r", "\n")
        *blocks, self._buffer = self._buffer.split("\n\n")
        messages = []
        for block in blocks:
            message = self._parse(block, arrived)
            if message is not None:
                messages.append(message)
        return messages

    def _parse(self, block: str, arrived: float) -> Message | None:
        event, data = "message", []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)
            elif name == "retry" and value.isdigit():
                self.retry = int(value)
        return Message(event, "\n".join(data), arrived) if data else None


class EventStream:
    """A text/event-stream response read message by message, every read with a timeout."""

    def __init__(self, device: Device, path: str) -> None:
        self.device = device
        self.path = path
        self.status: int | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._body: BodyReader | None = None
        self._parser = SseParser()
        self._pending: list[Message] = []

    @property
    def retry_ms(self) -> int | None:
        """Return the reconnection delay the stream asked for, in milliseconds."""
        return self._parser.retry

    async def open(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        """Send the request and read the response head; return the status.

        Raises RequestFailed when no head came within *timeout*.
        """
        try:
            await asyncio.wait_for(self._open(), timeout)
        except TimeoutError:
            self.abort()
            self.device.tally.errors["stream timeout"] += 1
            raise RequestFailed(f"GET {self.path}: no response head in {timeout:g} s") from None
        except (OSError, asyncio.IncompleteReadError, RequestFailed, StaleConnection) as e:
            self.abort()
            self.device.tally.errors[type(e).__name__] += 1
            raise RequestFailed(f"GET {self.path}: {e!r}") from None
        assert self.status is not None
        return self.status

    async def _open(self) -> None:
        started = time.perf_counter()
        reader, self._writer = await open_stream(self.device.target)
        headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
        cookie = self.device.jar.header()
        if cookie:
            headers["Cookie"] = cookie
        self._writer.write(encode_request("GET", self.path, self.device.target, None, headers))
        await self._writer.drain()
        self.status, head = await read_head(reader)
        self.device.jar.update(head)
        self._body = BodyReader(reader, head, self.status, "GET")
        self.device.tally.statuses[self.status] += 1
        self.device.tally.times.append(time.perf_counter() - started)

    async def next_message(self, timeout: float) -> Message | None:
        """Return the next message; None when the stream ended.

        Raises RequestFailed when none came within *timeout* or the connection broke.
        """
        if self._body is None:
            raise RequestFailed("the stream is not open")
        deadline = time.perf_counter() + timeout
        while not self._pending:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise RequestFailed(f"no event in {timeout:g} s")
            try:
                data = await asyncio.wait_for(self._body.read(), left)
            except TimeoutError:
                raise RequestFailed(f"no event in {timeout:g} s") from None
            except (OSError, asyncio.IncompleteReadError) as e:
                raise RequestFailed(f"stream broke: {e!r}") from None
            if not data:
                return None
            self._pending.extend(self._parser.feed(data, time.perf_counter()))
        return self._pending.pop(0)

    def abort(self) -> None:
        """Close the connection at once with a reset."""
        if self._writer is not None:
            abort(self._writer)
            self._writer = None

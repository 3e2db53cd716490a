"""What a weak network and a stranger on it do: stalled and trickling bodies, heavy images,
join-code guessing."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from web.loadtest.client import (
    Device,
    RequestFailed,
    Tally,
    Target,
    abort,
    encode_request,
    open_stream,
    read_head,
)
from web.loadtest.play import create_game
from web.loadtest.server import ProcessFigures, process_figures
from web.loadtest.sizes import Sizes

CONNECT_SECONDS = 5.0
HEAVY_SIDE = 7000  # the 16-bit RGBA PNG of the report: 49 MP in a few hundred kB
WRONG_CODE = "ZZZZZZ"  # Z is not in the join alphabet: never a game's code


@dataclass
class StallResult:
    """Normal requests made while stalled and trickling bodies hold connections."""

    stalled: int
    trickling: int
    requests_wanted: int
    opened: int = 0
    answered_408: int = 0
    requests_ok: int = 0
    times: list[float] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


@dataclass
class HeavyResult:
    """Heavy images posted at once, their answers, and the server's memory."""

    images: int
    statuses: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    before: ProcessFigures | None = None
    peak_rss_kib: int = 0
    image_bytes: int = 0
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


@dataclass
class GuessResult:
    """Wrong join codes sent from one address: how many were looked up before 429."""

    guesses: int
    not_found: int = 0
    limited: int = 0
    retry_after: str | None = None
    creates_wanted: int = 0
    creates_limited: int = 0
    tally: Tally = field(default_factory=Tally)
    duration: float = 0.0
    error: str | None = None


# --- stalled and trickling bodies ------------------------------------------------------


def _stalled_head(target: Target) -> bytes:
    return (f"POST /api/games HTTP/1.1\r\nHost: {target.authority}\r\nContent-Type: "
            "application/json\r\nContent-Length: 50\r\n\r\n").encode()


async def _hold_body(target: Target, trickle: bool, stop: asyncio.Event,
                     result: StallResult) -> None:
    """Send a head promising 50 bytes, then nothing (or a byte every 2 s) until *stop*."""
    try:
        reader, writer = await asyncio.wait_for(open_stream(target), CONNECT_SECONDS)
    except (OSError, TimeoutError):
        return
    result.opened += 1
    answer = asyncio.create_task(reader.read(12))
    try:
        writer.write(_stalled_head(target))
        while not stop.is_set() and not answer.done():
            try:
                await asyncio.wait_for(stop.wait(), 2.0)
            except TimeoutError:
                if trickle:
                    writer.write(b" ")
        if answer.done() and answer.result().startswith(b"HTTP/1.1 408"):
            result.answered_408 += 1
    except OSError:
        pass
    finally:
        answer.cancel()
        abort(writer)


async def stalled_bodies(target: Target, sizes: Sizes) -> StallResult:
    """Return the figures of normal requests made while bodies stall and trickle."""
    result = StallResult(sizes.stalled, sizes.stalled, sizes.slow_requests)
    started = time.perf_counter()
    device = Device(target, result.tally, sizes.timeout)
    stop = asyncio.Event()
    held: list[asyncio.Task[None]] = []
    try:
        held = [asyncio.create_task(_hold_body(target, trickle, stop, result))
                for trickle in (False, True) for _ in range(sizes.stalled)]
        await asyncio.sleep(1.0)
        for _ in range(sizes.slow_requests):
            other = Device(target, result.tally, sizes.timeout)
            try:
                response = await other.get("/api/rules")
                if response.status == 200:
                    result.requests_ok += 1
                    result.times.append(response.elapsed)
            except RequestFailed:
                pass
            finally:
                await other.close()
            await asyncio.sleep(sizes.stall_seconds / max(1, sizes.slow_requests))
    finally:
        stop.set()
        await asyncio.gather(*held, return_exceptions=True)
        await device.close()
    result.duration = time.perf_counter() - started
    return result


# --- heavy images ----------------------------------------------------------------------


def heavy_png(side: int = HEAVY_SIDE) -> bytes:
    """Return a *side* x *side* 16-bit RGBA PNG: tens of MP in a few hundred kB."""
    pixels = np.zeros((side, side, 4), np.uint16)
    pixels[::97] = 40000
    pixels[..., 3] = 65535
    return cv2.imencode(".png", pixels)[1].tobytes()


def multipart(field_name: str, data: bytes, fields: dict[str, str]) -> tuple[bytes, str]:
    """Return a multipart/form-data body of *data* as file *field_name* and *fields*."""
    boundary = "pipkeeper-load-boundary"
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
             .encode() for k, v in fields.items()]
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{field_name}"; '
                 'filename="heavy.png"\r\nContent-Type: image/png\r\n\r\n'.encode() + data
                 + f"\r\n--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


async def _post_image(target: Target, path: str, body: bytes, headers: dict[str, str],
                      timeout: float) -> tuple[int, float]:
    """POST *body* to *path* on a connection of its own; return the status and seconds."""
    sent = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(open_stream(target), CONNECT_SECONDS)
    except (OSError, TimeoutError):
        return 0, time.perf_counter() - sent
    try:
        writer.write(encode_request("POST", path, target, body, headers))
        status, _ = await asyncio.wait_for(read_head(reader), timeout)
        return status, time.perf_counter() - sent
    except (OSError, TimeoutError, RequestFailed):
        return 0, time.perf_counter() - sent
    finally:
        abort(writer)


async def _watch_rss(pid: int | None, stop: asyncio.Event, result: HeavyResult) -> None:
    while pid and not stop.is_set():
        figures = process_figures(pid)
        if figures is not None:
            result.peak_rss_kib = max(result.peak_rss_kib, figures.rss_kib)
        await asyncio.sleep(0.05)


async def heavy_images(target: Target, sizes: Sizes, pid: int | None) -> HeavyResult:
    """Return what *sizes.heavy_images* heavy PNGs posted at once as photos cost."""
    result = HeavyResult(sizes.heavy_images)
    started = time.perf_counter()
    device = Device(target, result.tally, sizes.timeout)
    stop = asyncio.Event()
    try:
        state = await create_game(device, ["H1", "H2"])
        page = await device.get("/")
        token = re.search(rb'name="csrf-token" content="([^"]+)"', page.body)
        image = await asyncio.to_thread(heavy_png, sizes.heavy_side)
        result.image_bytes = len(image)
        body, kind = multipart("photo", image, {"version": str(state["version"])})
        headers = {"Content-Type": kind, "Cookie": device.jar.header() or "",
                   "X-CSRF-Token": token.group(1).decode() if token else ""}
        result.before = process_figures(pid) if pid else None
        watcher = asyncio.create_task(_watch_rss(pid, stop, result))
        answers = await asyncio.gather(*(
            _post_image(target, f"/api/games/{state['id']}/rolls", body, headers,
                        sizes.heavy_seconds) for _ in range(sizes.heavy_images)))
        stop.set()
        await watcher
        result.statuses = [status for status, _ in answers]
        result.seconds = [seconds for _, seconds in answers]
    except RequestFailed as e:
        result.error = str(e)
    finally:
        stop.set()
        await device.close()
    result.duration = time.perf_counter() - started
    return result


# --- guessing join codes ---------------------------------------------------------------


async def guessing(target: Target, sizes: Sizes) -> GuessResult:
    """Return how *sizes.guesses* wrong join codes, then too many new games, were answered."""
    result = GuessResult(sizes.guesses, creates_wanted=sizes.guess_creates)
    started = time.perf_counter()
    device = Device(target, result.tally, sizes.timeout)
    try:
        for _ in range(sizes.guesses):
            response = await device.post("/api/join", {"code": WRONG_CODE})
            result.not_found += response.status == 404
            if response.status == 429:
                result.limited += 1
                result.retry_after = result.retry_after or response.header("retry-after")
        for n in range(sizes.guess_creates):
            response = await device.post("/api/games", {"players": [f"G{n}"]})
            result.creates_limited += response.status == 429
    except RequestFailed as e:
        result.error = str(e)
    finally:
        await device.close()
    result.duration = time.perf_counter() - started
    return result

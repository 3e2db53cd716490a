"""Run code on a thread of its own: Playwright's sync API keeps an event loop running on
the main thread for the whole session, and asyncio.run() refuses to start beside it."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


def on_own_thread(work: Callable[[], T]) -> T:
    """Return what *work* returns, run on a new thread (its exceptions are raised here)."""
    with ThreadPoolExecutor(1, thread_name_prefix="test-loop") as pool:
        return pool.submit(work).result()

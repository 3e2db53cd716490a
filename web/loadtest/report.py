"""Figures with their targets, and the table the load script prints."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from web.loadtest.abuse import GuessResult, HeavyResult, StallResult
from web.loadtest.client import Tally
from web.loadtest.costs import CostResult
from web.loadtest.scenarios import ChurnResult, ListResult, SlowlorisResult, WriterResult
from web.loadtest.server import ProcessFigures
from web.loadtest.tables import TableResult
from web.photos import HEAVY_DECODES

EVENT_P95_MS = 250.0
REQUEST_P95_MS = 150.0
LIST_P95_MS = 50.0
GROWTH_LIMIT = 1.5  # an action may cost at most this much more late in a series, or watched
GROWTH_ALLOWED = 5
HEAVY_RSS_MIB = 300  # an accepted image's decode may take this much at its peak, and
# at most HEAVY_DECODES of them run at once


@dataclass(frozen=True)
class Figure:
    """One measured figure; *passed* is None for a figure without a target."""

    scenario: str
    name: str
    value: str
    target: str = ""
    passed: bool | None = None

    @property
    def verdict(self) -> str:
        """Return PASS, FAIL, or "" for a figure without a target."""
        return "" if self.passed is None else "PASS" if self.passed else "FAIL"


def percentile(values: Sequence[float], q: float) -> float | None:
    """Return the nearest-rank *q*-th percentile (0..100) of *values*; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def ms(seconds: float | None) -> str:
    """Return *seconds* as milliseconds text, or "-" for None."""
    return "-" if seconds is None else f"{seconds * 1000:.1f} ms"


def _all(scenario: str, name: str, got: int, wanted: int) -> Figure:
    return Figure(scenario, name, f"{got}/{wanted}", "all", got == wanted)


def _zero(scenario: str, name: str, count: int) -> Figure:
    return Figure(scenario, name, str(count), "0", count == 0)


def _info(scenario: str, name: str, value: str) -> Figure:
    return Figure(scenario, name, value)


def _times(scenario: str, name: str, times: Sequence[float], limit_ms: float) -> list[Figure]:
    p95 = percentile(times, 95)
    return [
        _info(scenario, f"{name} p50", ms(percentile(times, 50))),
        Figure(scenario, f"{name} p95", ms(p95), f"<= {limit_ms:g} ms",
               p95 is not None and p95 * 1000 <= limit_ms),
    ]


def statuses(counts: Counter[int]) -> str:
    """Return the response counts by status, e.g. ``200: 30, 409: 2``."""
    return ", ".join(f"{s}: {n}" for s, n in sorted(counts.items())) or "none"


def _health(scenario: str, tally: Tally, duration: float, error: str | None) -> list[Figure]:
    figures = [
        _zero(scenario, "5xx responses", tally.server_errors),
        _zero(scenario, "requests without a response", tally.failures),
        _info(scenario, "503s with Retry-After (retried)", str(tally.overloaded)),
        _info(scenario, "duration", f"{duration:.1f} s"),
    ]
    if error is not None:
        figures.append(Figure(scenario, "stopped early", error[:60], "ran to the end", False))
    return figures


def table_figures(r: TableResult) -> list[Figure]:
    """Return the table-scale figures."""
    s = "table scale"
    return [
        _all(s, "devices joined", r.joins_ok, r.joins_wanted),
        _all(s, "streams open", r.streams_open, r.streams_wanted),
        _all(s, "games finished", r.games_finished, r.tables),
        Figure(s, "events delivered", f"{r.events_delivered}/{r.events_expected}", "all",
               r.events_delivered == r.events_expected > 0),
        *_times(s, "POST to event", r.event_latencies, EVENT_P95_MS),
        _info(s, "POST to event max", ms(max(r.event_latencies, default=None))),
        *_times(s, "request time, all", [*r.setup.times, *r.tally.times], REQUEST_P95_MS),
        _info(s, "request time while arriving p95", ms(percentile(r.setup.times, 95))),
        _info(s, "request time in play p95", ms(percentile(r.tally.times, 95))),
        _info(s, "accepted actions", str(r.posts)),
        _info(s, "responses", statuses(r.setup.statuses + r.tally.statuses)),
        _info(s, "stream reconnects", str(r.reconnects)),
        *_health(s, r.setup.merged(r.tally), r.duration, r.error),
    ]


def _growth(scenario: str, name: str, before: int, after: int) -> Figure:
    return Figure(scenario, name, f"{before} -> {after} ({after - before:+d})",
                  f"<= +{GROWTH_ALLOWED}", after - before <= GROWTH_ALLOWED)


def process_growth(scenario: str, before: ProcessFigures | None,
                   after: ProcessFigures | None) -> list[Figure]:
    """Return the fd, thread and memory figures; none when either reading is missing."""
    if before is None or after is None:
        return []
    return [
        _growth(scenario, "open fds", before.fds, after.fds),
        _growth(scenario, "threads", before.threads, after.threads),
        _info(scenario, "RSS", f"{before.rss_kib / 1024:.1f} -> {after.rss_kib / 1024:.1f} MiB"),
    ]


def churn_figures(r: ChurnResult) -> list[Figure]:
    """Return the stream-churn figures."""
    s = "churn"
    return [
        _all(s, "streams opened, read, reset", r.completed, r.wanted),
        *process_growth(s, r.before, r.after),
        _info(s, "responses", statuses(r.tally.statuses)),
        _zero(s, "5xx responses", r.tally.server_errors),
        _info(s, "duration", f"{r.duration:.1f} s"),
        *([Figure(s, "stopped early", r.error[:60], "ran to the end", False)] if r.error else []),
    ]


def slowloris_figures(r: SlowlorisResult) -> list[Figure]:
    """Return the slow-client figures."""
    s = "slowloris"
    delivered = r.event_latency is not None
    return [
        _info(s, "slow connections held", f"{r.held} of {r.opened} opened ({r.connections})"),
        _all(s, "normal requests answered", r.requests_ok, r.requests_wanted),
        *_times(s, "normal request", r.times, REQUEST_P95_MS),
        Figure(s, "roll to event", ms(r.event_latency) if delivered else "not delivered",
               "delivered", delivered),
        _info(s, "responses", statuses(r.tally.statuses)),
        *_health(s, r.tally, r.duration, r.error),
    ]


def writer_figures(r: WriterResult) -> list[Figure]:
    """Return the concurrent-writer figures."""
    s = "writers"
    five_hundreds = r.tally.statuses[500]
    return [
        _info(s, "writers on games", f"{r.writers} on {r.games}"),
        _all(s, "writes accepted", r.writes_done, r.writes_wanted),
        _info(s, "responses", statuses(r.tally.statuses)),
        _zero(s, "500 responses", five_hundreds),
        _zero(s, "other 5xx (not 503 + Retry-After)", r.tally.server_errors - five_hundreds),
        _zero(s, "requests without a response", r.tally.failures),
        _info(s, "503s with Retry-After (retried)", str(r.tally.overloaded)),
        _info(s, "duration", f"{r.duration:.1f} s"),
        *([Figure(s, "stopped early", r.error[:60], "ran to the end", False)] if r.error else []),
    ]


def _ratio(scenario: str, name: str, base: Sequence[float], later: Sequence[float]) -> Figure:
    """Return the figure of median(*later*) / median(*base*), whose target is GROWTH_LIMIT."""
    first, last = percentile(base, 50), percentile(later, 50)
    if not first or last is None:
        return Figure(scenario, name, "-", f"<= {GROWTH_LIMIT:g}x", False)
    ratio = last / first
    return Figure(scenario, name, f"{ratio:.2f}x", f"<= {GROWTH_LIMIT:g}x",
                  ratio <= GROWTH_LIMIT)


def cost_figures(r: CostResult) -> list[Figure]:
    """Return what an action costs through a series and with streams watching."""
    s = "action cost"
    games = sorted(r.by_game)
    first, last = (r.by_game[games[0]], r.by_game[games[-1]]) if games else ([], [])
    return [
        *(_info(s, f"series game {n} action p50 ({len(r.by_game[n])} actions)",
                ms(percentile(r.by_game[n], 50))) for n in games),
        _ratio(s, f"game {games[-1] if games else '-'} / game 1", first, last),
        _info(s, "action p50, no stream open", ms(percentile(r.unwatched, 50))),
        _info(s, f"action p50, {r.streams} streams open", ms(percentile(r.watched, 50))),
        _ratio(s, f"{r.streams} streams / none", r.unwatched, r.watched),
        *_health(s, r.tally, r.duration, r.error),
    ]


def list_figures(r: ListResult) -> list[Figure]:
    """Return the game-list figures."""
    s = "game list"
    rate = r.seeded / r.seed_duration if r.seed_duration else 0.0
    listed = "-" if r.listed is None else str(r.listed)
    expected = "?" if r.expected is None else str(r.expected)
    return [
        _all(s, "games seeded", r.seeded, r.wanted),
        _info(s, "seeding", f"{r.seed_duration:.1f} s ({rate:.0f} games/s)"),
        Figure(s, "games listed", listed, f"= {expected}",
               r.listed is not None and r.listed == r.expected),
        _all(s, "lists read to their last page", r.walks, r.requests_wanted),
        *_times(s, "GET /api/games (a page)", r.times, LIST_P95_MS),
        *_health(s, r.tally, r.duration, r.error),
    ]


def stall_figures(r: StallResult) -> list[Figure]:
    """Return the figures of requests made while bodies stall and trickle."""
    s = "stalled bodies"
    return [
        _info(s, "stalled + trickling bodies held", f"{r.opened} of {r.stalled + r.trickling}"),
        _info(s, "answered 408 by the end", str(r.answered_408)),
        _all(s, "other requests answered", r.requests_ok, r.requests_wanted),
        *_times(s, "other request", r.times, REQUEST_P95_MS),
        *_health(s, r.tally, r.duration, r.error),
    ]


def heavy_figures(r: HeavyResult) -> list[Figure]:
    """Return the figures of heavy images posted at once."""
    s = "heavy images"
    answered = sum(400 <= status < 500 or status in (200, 503) for status in r.statuses)
    grown = (r.peak_rss_kib - r.before.rss_kib) / 1024 if r.before and r.peak_rss_kib else None
    limit = HEAVY_RSS_MIB * min(max(1, r.images), HEAVY_DECODES)
    return [
        _info(s, "images posted at once", f"{r.images} of {r.image_bytes // 1024} kB"),
        _info(s, "answers", statuses(Counter(r.statuses))),
        _all(s, "answered 200, 4xx or 503", answered, r.images),
        _info(s, "slowest answer", f"{max(r.seconds, default=0.0):.1f} s"),
        Figure(s, "server memory growth", "-" if grown is None else f"{grown:.0f} MiB",
               f"<= {limit} MiB", grown is None or grown <= limit),
        *([Figure(s, "stopped early", r.error[:60], "ran to the end", False)] if r.error else []),
    ]


def guess_figures(r: GuessResult) -> list[Figure]:
    """Return the figures of join-code guessing and game creation from one address."""
    s = "guessing"
    return [
        Figure(s, "wrong codes looked up before 429", f"{r.not_found} of {r.guesses}",
               "<= 10", r.not_found <= 10),
        Figure(s, "guesses answered 429", str(r.limited), "the rest",
               r.limited == r.guesses - r.not_found),
        _info(s, "Retry-After", r.retry_after or "-"),
        Figure(s, "new games refused 429", f"{r.creates_limited} of {r.creates_wanted}",
               "> 0", r.creates_limited > 0),
        _info(s, "duration", f"{r.duration:.1f} s"),
        *([Figure(s, "stopped early", r.error[:60], "ran to the end", False)] if r.error else []),
    ]


def render(figures: Sequence[Figure]) -> str:
    """Return *figures* as an aligned text table with a header row."""
    rows = [("scenario", "figure", "value", "target", "result")]
    rows += [(f.scenario, f.name, f.value, f.target, f.verdict) for f in figures]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
             for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def missed(figures: Sequence[Figure]) -> int:
    """Return how many figures missed their target."""
    return sum(f.passed is False for f in figures)


def verdict_line(figures: Sequence[Figure]) -> str:
    """Return the last line: all targets met, or how many were missed."""
    count = missed(figures)
    if count == 0:
        return "loadtest: all targets met"
    return f"loadtest: {count} target{'s' if count != 1 else ''} missed"

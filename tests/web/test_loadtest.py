"""The load script: its HTTP pieces on canned bytes, and a quick run against a real server."""

from __future__ import annotations

import asyncio
import random
import re
import sys
from pathlib import Path

import pytest

from tests.threads import on_own_thread
from web.loadtest import QUICK, run_suite, suite_figures
from web.loadtest.__main__ import build_parser, sizes_of
from web.loadtest.client import BodyReader, CookieJar, Target
from web.loadtest.play import next_action
from web.loadtest.report import Figure, percentile, render, verdict_line
from web.loadtest.server import parse_target
from web.loadtest.sse import SseParser


@pytest.mark.parametrize(
    ("set_cookies", "sent"),
    [
        (["a=1; Path=/; HttpOnly"], "a=1"),
        (["a=1", "b=2; Max-Age=60; SameSite=Lax"], "a=1; b=2"),
        (["a=1", "a=3"], "a=3"),
        (["a=1", "b=2", "a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/"], "b=2"),
        (["a=1", "a=; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], None),
        (["pk-game-7=player.ab12; Max-Age=5184000"], "pk-game-7=player.ab12"),
        (["no equals sign", "=nameless"], None),
    ],
)
def test_cookie_jar(set_cookies: list[str], sent: str | None) -> None:
    jar = CookieJar()
    jar.update([("content-type", "text/html"), *(("set-cookie", c) for c in set_cookies)])
    assert jar.header() == sent


def test_cookie_jar_copy_is_independent() -> None:
    jar = CookieJar()
    jar.update([("set-cookie", "a=1")])
    copy = jar.copy()
    copy.update([("set-cookie", "b=2")])
    assert (jar.as_dict(), copy.as_dict()) == ({"a": "1"}, {"a": "1", "b": "2"})


def _read_body(raw: bytes, headers: tuple[tuple[str, str], ...]) -> tuple[bytes, bytes]:
    """Return the body read from *raw* and the bytes left after it."""
    async def read() -> tuple[bytes, bytes]:
        reader = asyncio.StreamReader()
        reader.feed_data(raw)
        reader.feed_eof()
        body = await BodyReader(reader, headers, 200, "GET").read_all()
        return body, await reader.read()
    return on_own_thread(lambda: asyncio.run(read()))


@pytest.mark.parametrize(
    ("raw", "headers", "body", "rest"),
    [
        (b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\nNEXT", (("transfer-encoding", "chunked"),),
         b"hello world", b"NEXT"),
        (b"3;ext=1\r\nabc\r\n0\r\nTrailer: x\r\n\r\n", (("transfer-encoding", "Chunked"),),
         b"abc", b""),
        (b"hello worldNEXT", (("content-length", "11"),), b"hello world", b"NEXT"),
        (b"NEXT", (("content-length", "0"),), b"", b"NEXT"),
        (b"until the close", (), b"until the close", b""),
    ],
)
def test_body_reader(raw: bytes, headers: tuple[tuple[str, str], ...], body: bytes,
                     rest: bytes) -> None:
    assert _read_body(raw, headers) == (body, rest)


def test_sse_parser_across_pieces() -> None:
    parser = SseParser()
    text = ('retry: 1000\r\nevent: state\r\ndata: {"version":1}\r\n\r\n: keep-alive\n\n'
            'event: state\ndata: {"version":2,\ndata: "é":1}\n\nevent: gone\ndata: {}\n\n')
    pieces = [text.encode()[i:i + 7] for i in range(0, len(text.encode()), 7)]
    messages = [m for i, p in enumerate(pieces) for m in parser.feed(p, float(i))]
    assert [(m.event, m.data) for m in messages] == [
        ("state", '{"version":1}'), ("state", '{"version":2,\n"é":1}'), ("gone", "{}")]
    assert parser.retry == 1000
    assert messages[0].arrived < messages[1].arrived


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [([], 50, None), ([3.0], 95, 3.0), ([1.0, 2.0, 3.0, 4.0], 50, 2.0),
     ([float(i) for i in range(1, 101)], 95, 95.0), ([5.0, 1.0, 3.0], 100, 5.0)],
)
def test_percentile(values: list[float], q: float, expected: float | None) -> None:
    assert percentile(values, q) == expected


@pytest.mark.parametrize(
    ("url", "target"),
    [("http://127.0.0.1:8123", Target("127.0.0.1", 8123)),
     ("http://localhost:9000/", Target("127.0.0.1", 9000)),
     ("127.0.0.1:8000", Target("127.0.0.1", 8000))],
)
def test_parse_target(url: str, target: Target) -> None:
    assert parse_target(url) == target


@pytest.mark.parametrize(
    ("url", "message"),
    [("http://192.168.1.5:8000", "the load goes to 127.0.0.1 only, got host '192.168.1.5'"),
     ("http://example.com", "the load goes to 127.0.0.1 only, got host 'example.com'"),
     ("https://127.0.0.1:8000", "only http:// URLs are supported, got 'https://127.0.0.1:8000'")],
)
def test_parse_target_refuses_other_hosts(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_target(url)


def test_sizes_from_the_command_line() -> None:
    args = build_parser().parse_args(["--quick", "--tables", "3", "--list-games", "70"])
    sizes = sizes_of(args)
    assert (sizes.tables, sizes.devices, sizes.list_games) == (3, QUICK.devices, 70)
    assert sizes_of(build_parser().parse_args([])).tables == 16


@pytest.mark.parametrize(
    ("state", "kind"),
    [({"phase": "play", "version": 4, "roll": 0, "dice": None, "suggestions": []}, "rolls"),
     ({"phase": "play", "version": 4, "roll": 3, "max_rolls": 3, "dice": [1, 2, 3, 4, 5],
       "suggestions": [{"box": "large_straight"}, {"box": "chance"}]}, "scores"),
     ({"phase": "over", "finished": True, "version": 9}, None)],
)
def test_next_action(state: dict[str, object], kind: str | None) -> None:
    action = next_action(state, random.Random(1))
    assert (action[0] if action else None) == kind
    if action:
        assert action[1]["version"] == 4
    if kind == "scores":
        assert action == ("scores", {"box": "large_straight", "version": 4})


def test_report_table_and_verdict() -> None:
    figures = [Figure("a", "x", "1", "0", False), Figure("a", "long name", "2"),
               Figure("b", "y", "3", "all", True)]
    lines = render(figures).splitlines()
    assert lines[0].split() == ["scenario", "figure", "value", "target", "result"]
    assert lines[2].split() == ["a", "x", "1", "0", "FAIL"]
    assert lines[3].split() == ["a", "long", "name", "2"]
    column = lines[0].index("value")
    assert lines[2].index("1") == lines[3].index("2") == lines[4].index("3") == column
    assert verdict_line(figures) == "loadtest: 1 target missed"
    assert verdict_line(figures[1:]) == "loadtest: all targets met"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_quick_run_against_a_real_server(tmp_path: Path) -> None:
    result = on_own_thread(lambda: run_suite(QUICK, folder=tmp_path))
    assert result.error is None and result.servers_alive

    tables = result.tables
    assert tables is not None and tables.error is None
    assert tables.joins_ok == tables.joins_wanted == 2 * (3 + 1)
    assert tables.streams_open == tables.streams_wanted == 6
    assert tables.games_finished == 2
    assert tables.events_delivered == tables.events_expected == 3 * tables.posts > 0
    everything = tables.setup.merged(tables.tally)
    assert everything.server_errors == everything.failures == 0
    assert tables.setup.statuses[302] == 8 and tables.tally.statuses[302] == 0

    churn = result.churn
    assert churn is not None and churn.completed == 20
    assert churn.before is not None and churn.after is not None
    assert churn.after.fds - churn.before.fds <= 5
    assert churn.tally.server_errors == 0

    slow = result.slowloris
    assert slow is not None and slow.opened == 10
    assert slow.requests_ok == slow.requests_wanted == 10
    assert slow.event_latency is not None
    assert slow.tally.server_errors == 0

    writers = result.writers
    assert writers is not None
    assert writers.writes_done == writers.writes_wanted == 8 * 3
    assert sum(n for s, n in writers.tally.statuses.items() if s >= 500) == 0

    listing = result.games_list
    assert listing is not None and listing.seeded == 50
    assert listing.listed == listing.expected == 50
    assert len(listing.times) == listing.requests_wanted

    stalled = result.stalled
    assert stalled is not None and stalled.opened == 2 * QUICK.stalled
    assert stalled.requests_ok == stalled.requests_wanted
    assert stalled.tally.server_errors == 0

    heavy = result.heavy
    assert heavy is not None and len(heavy.statuses) == QUICK.heavy_images
    assert all(400 <= s < 500 or s in (200, 503) for s in heavy.statuses)

    guessed = result.guessing
    assert guessed is not None and guessed.not_found == 10
    assert guessed.limited == QUICK.guesses - 10 and guessed.retry_after is not None
    assert guessed.creates_limited == QUICK.guess_creates - 30 + 1  # heavy images made one

    names = [(f.scenario, f.name) for f in suite_figures(result)]
    assert ("table scale", "events delivered") in names
    assert ("churn", "open fds") in names

"""``python -m web.loadtest``: load a pipkeeper server, print the figures, exit 1 on a miss."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Sequence

from web.loadtest.report import missed, render, verdict_line
from web.loadtest.sizes import DEFAULT, QUICK, Sizes
from web.loadtest.suite import run_suite, suite_figures


def count(text: str) -> int:
    """Return *text* as a whole number >= 1; raise argparse.ArgumentTypeError."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a count is a whole number >= 1, got {text!r}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    """Return the command line parser."""
    parser = argparse.ArgumentParser(
        prog="python -m web.loadtest",
        description="Start `pipkeeper serve` on a free 127.0.0.1 port with a fresh database, "
        "load it with event streams, players, slow clients and writers, and print each "
        "figure with its target. Exits 1 when a target is missed.",
    )
    parser.add_argument("--tables", type=count, help=f"tables (default {DEFAULT.tables})")
    parser.add_argument("--devices", type=count,
                        help=f"event streams per table (default {DEFAULT.devices})")
    parser.add_argument("--players", type=count,
                        help=f"players per table, 1..8 (default {DEFAULT.players})")
    parser.add_argument("--list-games", type=count,
                        help=f"games seeded for the game list (default {DEFAULT.list_games})")
    parser.add_argument("--seed", type=int, help="seed of the random dice and think times")
    parser.add_argument("--quick", action="store_true", help="small sizes, a smoke test")
    parser.add_argument("--url", help="load this running server (http://127.0.0.1:PORT) "
                        "instead of starting one; skips the server-process figures")
    return parser


def sizes_of(args: argparse.Namespace) -> Sizes:
    """Return the sizes asked for: --quick or the defaults, with the counts given."""
    given = {name: getattr(args, name) for name in ("tables", "devices", "players", "seed")}
    given["list_games"] = args.list_games
    return dataclasses.replace(QUICK if args.quick else DEFAULT,
                               **{k: v for k, v in given.items() if v is not None})


def main(argv: Sequence[str] | None = None) -> int:
    """Run the load; return 0 when every target was met, 1 otherwise, 2 for bad arguments."""
    parser = build_parser()
    args = parser.parse_args(argv)
    sizes = sizes_of(args)
    if sizes.players > 8:
        parser.error(f"a game has 1 to 8 players, got --players {sizes.players}")
    try:
        result = run_suite(sizes, args.url, progress=lambda m: print(m, file=sys.stderr,
                                                                      flush=True))
    except ValueError as e:
        parser.error(str(e))
    figures = suite_figures(result)
    print(render(figures))
    print(verdict_line(figures))
    return 1 if missed(figures) else 0


if __name__ == "__main__":
    sys.exit(main())

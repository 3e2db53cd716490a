"""`pipkeeper db copy`: every game of one database copied into another (SQLite up to
PostgreSQL), never twice."""

from __future__ import annotations

import argparse
import sys
from typing import Any

EXIT_BAD_INPUT = 2


def register(subparsers: Any) -> None:
    """Add the ``db`` sub-command (``db copy``) to *subparsers*."""
    group = subparsers.add_parser("db", help="move games between databases",
                                  description="Move games between databases.")
    actions = group.add_subparsers(dest="action", metavar="ACTION", required=True,
                                   parser_class=type(group))
    copying = actions.add_parser(
        "copy", help="copy every game of one database into another",
        description="Copy every game, series and statistic of SOURCE (an SQLite file or a "
        "postgresql:// URL) into TARGET (made or migrated first), each under a new id and "
        "join code. A game already in TARGET is not copied again, so running it twice "
        "copies nothing twice. Devices are not copied: players join again.")
    copying.add_argument("source", metavar="SOURCE")
    copying.add_argument("target", metavar="TARGET")
    copying.set_defaults(handler=run_copy)


def run_copy(args: argparse.Namespace) -> int:
    """Copy the games and say how many; return the exit code."""
    from pathlib import Path

    from pipkeeper.commands.data import store_games
    from web.exchange import ExchangeError, export_games
    from web.storage import is_url, open_storage

    if not is_url(args.source) and not Path(args.source).is_file():
        return _fail(f"no database at {args.source}")
    try:
        source = open_storage(args.source)
    except RuntimeError as error:
        return _fail(str(error))
    try:
        conn = source.open()
        try:
            document = export_games(conn)
        finally:
            conn.close()
        copied, present = store_games(args.target, document)
    except (ExchangeError, RuntimeError) as error:
        return _fail(str(error))
    except source.errors as error:
        return _fail(f"cannot read {source.name}: {source.describe(error)}")
    print(f"{copied} game{'s' if copied != 1 else ''} copied, {present} already there "
          f"({len(document['games'])} in {source.name})")
    return 0


def _fail(message: str) -> int:
    print(f"pipkeeper db copy: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT

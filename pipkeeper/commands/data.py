"""`pipkeeper backup`: a copy of the games database, safe while the server runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

EXIT_BAD_INPUT = 2


def register(subparsers: Any) -> None:
    """Add the ``backup`` sub-command to *subparsers*."""
    parser = subparsers.add_parser(
        "backup", help="copy the games database to a new file (safe while serving)",
        description="Copy every game, series and statistic to a new SQLite file with "
        "SQLite's online backup: consistent even while `pipkeeper serve` writes.")
    parser.add_argument("--db", type=Path, default=None, metavar="PATH",
                        help="the database (default: pipkeeper.sqlite3 in the user data "
                        "directory)")
    parser.add_argument("file", type=Path, help="the new file to write")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the backup and say how many games it holds; return the exit code."""
    from web.backup import BackupError, backup
    from web.db import default_database

    source = args.db or default_database()
    try:
        games = backup(source, args.file)
    except BackupError as error:
        print(f"pipkeeper backup: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{args.file}: {games} game{'s' if games != 1 else ''} backed up from {source}")
    return 0

"""`pipkeeper backup`, `export` and `import`: the games database copied, written out and
read back."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

EXIT_BAD_INPUT = 2


def game_id(text: str) -> int:
    """Return *text* as a game id; raise argparse.ArgumentTypeError."""
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a game id is a whole number >= 1, got {text!r}")
    return int(text)


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", default=None, metavar="PATH|URL",
                        help="the database (default: pipkeeper.sqlite3 in the user data "
                        "directory), or a postgresql:// URL")


def _database(args: argparse.Namespace) -> str:
    """Return the database the command names (the default file when none)."""
    from web.db import default_database

    return str(args.db) if args.db else str(default_database())


def register(subparsers: Any) -> None:
    """Add the ``backup``, ``export`` and ``import`` sub-commands to *subparsers*."""
    exporting = subparsers.add_parser(
        "export", help="write games as JSON to standard output (every game by default)",
        description="Write the games (every event, roll and box) as one JSON document that "
        "`pipkeeper import` reads back.")
    _db_option(exporting)
    exporting.add_argument("--format", choices=["json", "csv"], default="json",
                           help="json (re-importable) or csv (one row per player and box, "
                           "in the printed pad's order)")
    exporting.add_argument("ids", nargs="*", type=game_id, metavar="GAME_ID")
    exporting.set_defaults(handler=run_export)
    importing = subparsers.add_parser(
        "import", help="store the games of an export file that are not stored yet",
        description="Store every game of a `pipkeeper export` file under a new id and join "
        "code; games already stored are not stored twice.")
    _db_option(importing)
    importing.add_argument("file", type=Path)
    importing.set_defaults(handler=run_import)
    parser = subparsers.add_parser(
        "backup", help="copy the games database to a new file (safe while serving)",
        description="Copy every game, series and statistic to a new SQLite file with "
        "SQLite's online backup: consistent even while `pipkeeper serve` writes.")
    _db_option(parser)
    parser.add_argument("file", type=Path, help="the new file to write")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Write the backup and say how many games it holds; return the exit code."""
    from web.backup import BackupError, backup
    from web.storage import is_url

    source = Path(_database(args))
    if is_url(str(args.db or "")):
        return _fail("backup", "a PostgreSQL database is backed up with pg_dump "
                     "(see docs/deploy.md)")
    try:
        games = backup(source, args.file)
    except BackupError as error:
        print(f"pipkeeper backup: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{args.file}: {games} game{'s' if games != 1 else ''} backed up from {source}")
    return 0


def _fail(command: str, message: str) -> int:
    print(f"pipkeeper {command}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run_export(args: argparse.Namespace) -> int:
    """Print the export of the chosen games; return the exit code."""
    from web.exchange import ExchangeError, export_games, export_text
    from web.storage import is_url, open_storage

    source = _database(args)
    if not is_url(source) and not Path(source).is_file():
        return _fail("export", f"no database at {source}")
    try:
        engine = open_storage(source)
    except RuntimeError as error:
        return _fail("export", str(error))
    caught: tuple[type[Exception], ...] = (ExchangeError, *engine.errors)
    try:
        conn = engine.open()
        try:
            document = export_games(conn, args.ids or None)
        finally:
            conn.close()
    except caught as error:
        return _fail("export", str(error))
    sys.stdout.write(export_text(document, args.format))
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Store the file's new games and say how many; return the exit code."""
    from web.exchange import ExchangeError

    try:
        document = json.loads(args.file.read_text(encoding="utf-8"))
    except OSError as error:
        return _fail("import", f"cannot read {args.file}: {error.strerror}")
    except (ValueError, UnicodeDecodeError) as error:
        return _fail("import", f"{args.file} is not JSON: {error}")
    try:
        imported, present = store_games(_database(args), document)
    except ExchangeError as error:
        return _fail("import", f"{args.file}: {error}")
    print(f"{args.file}: {imported} game{'s' if imported != 1 else ''} imported, "
          f"{present} already there")
    return 0


def store_games(database: str, document: Any) -> tuple[int, int]:
    """Store the new games of an export *document* in *database* (made or migrated first);
    return (imported, already there). Raises ExchangeError, with the database's own
    troubles said in it too."""
    from web.exchange import ExchangeError, import_games
    from web.storage import open_storage

    try:
        engine = open_storage(database)
    except RuntimeError as error:
        raise ExchangeError(str(error)) from None
    caught: tuple[type[Exception], ...] = (RuntimeError, *engine.errors)
    try:
        engine.prepare()
        conn = engine.open()
        try:
            return import_games(conn, document)
        finally:
            conn.close()
    except caught as error:
        raise ExchangeError(f"{engine.name}: {engine.describe(error)}") from None
    finally:
        engine.close()

"""A copy of the database made while the server may be running (SQLite's online backup)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from web.db import connect


class BackupError(ValueError):
    """The database cannot be copied, or the copy cannot be written where asked."""


def backup(source: Path, target: Path) -> int:
    """Copy the database *source* to a new file *target*; return how many games it holds.

    The copy is SQLite's online backup, page by page, consistent even while another
    process writes; it is written beside *target* and renamed into place only when
    whole, so a failed backup leaves no half file. Raises BackupError when *source* is
    not a pipkeeper database or *target* exists or cannot be written.
    """
    if not source.is_file():
        raise BackupError(f"no database at {source}")
    if target.exists():
        raise BackupError(f"{target} already exists; name a new file")
    partial = target.with_name(target.name + ".partial")
    try:
        games = _copy(source, partial)
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up {source} to {target}: {error}") from None
    except OSError as error:
        raise BackupError(f"cannot write {target}: {error.strerror}") from None
    finally:
        partial.unlink(missing_ok=True)
    return games


def _copy(source: Path, target: Path) -> int:
    """Write the backup of *source* to *target*; return its number of games."""
    origin = connect(source)
    try:
        copy = sqlite3.connect(target)
        try:
            origin.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            games = int(copy.execute("SELECT count(*) FROM games").fetchone()[0])
        finally:
            copy.close()
    finally:
        origin.close()
    return games

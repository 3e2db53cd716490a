"""Games written out as JSON and read back in: export, and import that never doubles a game.

The file holds each series as the scorekeeper stores it (``Series.to_dict``), so every
event, roll and box comes back exactly. A game is the same game when its creation time
and its series are: importing a file twice, or into the database it came from, adds
nothing.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from scorekeeper import Series
from scorekeeper.layout import printed_pad
from web.listing import write_summary
from web.storage import Connection
from web.store import new_join_code

FORMAT = "pipkeeper-games"
FORMAT_VERSION = 1


class ExchangeError(ValueError):
    """An export file that pipkeeper cannot read, quoting what is wrong."""


def export_games(conn: Connection, ids: Iterable[int] | None = None) -> dict[str, Any]:
    """Return the games *ids*, in that order (None: every game, by id), as one JSON-ready
    document.

    Raises ExchangeError naming an id that is not stored.
    """
    columns = "SELECT id, series, created_at, updated_at FROM games"
    if ids is None:
        rows = conn.execute(f"{columns} ORDER BY id").fetchall()
    else:
        wanted = list(ids)
        condition, param = conn.among("id", wanted)
        found = conn.execute(f"{columns} WHERE {condition}", (param,)).fetchall()
        by_id = {row["id"]: row for row in found}
        missing = [i for i in wanted if i not in by_id]
        if missing:
            raise ExchangeError(f"no game {missing[0]} in this database")
        rows = [by_id[i] for i in wanted]
    games = [{"id": row["id"], "created_at": row["created_at"], "updated_at": row["updated_at"],
              "series": json.loads(row["series"])} for row in rows]
    return {"format": FORMAT, "version": FORMAT_VERSION, "games": games}


def finished_ids(conn: Connection, ids: Iterable[int]) -> list[int]:
    """Return those of the games *ids* whose series is finished (its current game is over,
    as the game list shows it), in ascending order."""
    condition, param = conn.among("id", ids)
    rows = conn.execute(f"SELECT id FROM summaries WHERE finished = 1 AND {condition}"
                        " ORDER BY id", (param,))
    return [int(row[0]) for row in rows]


def export_text(document: dict[str, Any], kind: str) -> str:
    """Return an export (see export_games) as the text of a file of *kind*: "csv"
    (export_csv) or "json" (the document itself, non-ASCII letters kept, one line).

    Raises ValueError for another kind.
    """
    if kind == "csv":
        return export_csv(document)
    if kind == "json":
        return json.dumps(document, ensure_ascii=False) + "\n"
    raise ValueError(f"an export is csv or json, not {kind!r}")


CSV_COLUMNS = ("game_id", "game", "rules", "player", "row", "name", "value", "checks")


def export_csv(document: dict[str, Any]) -> str:
    """Return an export (see export_games) as CSV: one row per game of each series, player
    and row of the printed pad, top to bottom (a blank value for an open box; ``checks``
    is the count on a row of checks)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in document["games"]:
        series = Series.from_dict(entry["series"])
        for number, game in enumerate(series.games, start=1):
            for player, card in zip(game.players, game.cards, strict=True):
                totals, boxes = card.totals(), card.boxes()
                for row in printed_pad(game.rules):
                    value = boxes[row.key] if row.kind == "box" else totals[row.key]
                    checks = totals[row.count_key] if row.count_key else ""
                    writer.writerow((entry["id"], number, game.rules.name, player, row.key,
                                     row.name, "" if value is None else value, checks))
    return out.getvalue()


def _series(entry: Any, index: int) -> tuple[Series, str, str]:
    """Return the series and times of the *index*-th game of a file, checked."""
    if not isinstance(entry, dict) or not {"series", "created_at", "updated_at"} <= set(entry):
        raise ExchangeError(f"game {index + 1} of the file lacks series, created_at or "
                            "updated_at")
    try:
        series = Series.from_dict(entry["series"])
    except (ValueError, KeyError, TypeError) as error:
        raise ExchangeError(f"game {index + 1} of the file is not a valid series: {error}"
                            ) from None
    return series, str(entry["created_at"]), str(entry["updated_at"])


def import_games(conn: Connection, document: Any) -> tuple[int, int]:
    """Store the games of an exported *document* that are not stored yet, each under a
    new id and join code; return (imported, already there).

    Every game is checked before any is stored: a bad file stores nothing. Raises
    ExchangeError for a document that is not a pipkeeper export.
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ExchangeError(f"not a pipkeeper export (its \"format\" is not {FORMAT!r})")
    if document.get("version") != FORMAT_VERSION:
        raise ExchangeError(f"export version {document.get('version')!r} is not "
                            f"{FORMAT_VERSION}")
    games = document.get("games")
    if not isinstance(games, list):
        raise ExchangeError("the export has no list of games")
    checked = [_series(entry, i) for i, entry in enumerate(games)]
    imported = 0
    with conn.transaction():
        for series, created, updated in checked:
            plain = series.to_dict()
            text = json.dumps(plain)
            same_time = conn.execute("SELECT series FROM games WHERE created_at = ?", (created,))
            if any(json.loads(row["series"]) == plain for row in same_time.fetchall()):
                continue
            game = series.current
            game_id = conn.insert(
                "INSERT INTO games (join_code, rules, players, status, version, series,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)",
                (new_join_code(), game.rules.name, json.dumps(list(game.players)),
                 game.phase, text, created, updated))
            write_summary(conn, game_id, 1, series, created, updated)
            imported += 1
    return imported, len(checked) - imported

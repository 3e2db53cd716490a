"""The game list and the statistics, read from the summaries table, never from a series.

Every create and change writes the series' summary row in the same transaction
(`write_summary`): the list entry as JSON members, and the results of its
finished games. A list of thousands of games reads these short rows and joins
their texts; only the few games the device joined get their join code.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Mapping
from typing import Any, Literal

from scorekeeper.game import Game
from scorekeeper.series import Series
from web.summary import result, summarize

STRANGER = '"joined":false,"owner":false,'


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def write_summary(conn: sqlite3.Connection, game_id: int, version: int, series: Series,
                  created_at: str, updated_at: str,
                  result_of: Callable[[Game], dict[str, Any]] = result) -> None:
    """Store the summary of game *game_id* at *version* (inside the caller's transaction).

    *result_of* gives a finished game's result (a cache may know it already).
    """
    entry = {"version": version, "created_at": created_at, "updated_at": updated_at,
             **summarize(series)}
    found = [result_of(game) for game in series.games if game.is_over]
    conn.execute("INSERT OR REPLACE INTO summaries (id, updated, entry, results)"
                 " VALUES (?, ?, ?, ?)",
                 (game_id, updated_at, _compact(entry)[1:-1], _compact(found)))


def _head(role: Literal["player", "owner"], join_code: str) -> str:
    return (f'"joined":true,"owner":{"true" if role == "owner" else "false"},'
            f'"join_code":{json.dumps(join_code)},')


def listing_json(conn: sqlite3.Connection,
                 joined: Mapping[int, tuple[Literal["player", "owner"], str]]) -> str:
    """Return every stored game as the game list shows it, latest change first, as JSON text.

    Each entry: id, joined, owner, join_code (only of the *joined* games: id ->
    (role, join code)), version, created_at, updated_at, and the summary
    (`web.summary.summarize`).
    """
    heads = {game_id: _head(role, code) for game_id, (role, code) in joined.items()}
    cursor = conn.cursor()
    cursor.row_factory = None  # thousands of rows: plain tuples
    rows = cursor.execute("SELECT id, entry FROM summaries ORDER BY updated DESC, id DESC")
    return "[" + ",".join(f'{{"id":{game_id},{heads.get(game_id, STRANGER)}{entry}}}'
                          for game_id, entry in rows) + "]"


def finished_results(conn: sqlite3.Connection) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """Return (players, results of the finished games) of every series with a finished game."""
    rows = conn.execute("SELECT games.players, summaries.results FROM summaries"
                        " JOIN games USING (id) WHERE summaries.results != '[]'")
    return [(json.loads(players), json.loads(found)) for players, found in rows]

"""The game list and the statistics, read from the summaries table, never from a series.

Every create and change writes the series' summary row in the same transaction
(`write_summary`): the list entry as JSON members, whether its current game is
over, and the results of its finished games. A page of the list (`web.paging`)
reads these short rows along their index and joins their texts; only the few
games the device joined get their join code. The finished games are those of
every series with a finished game, though its next game may be being played.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from scorekeeper.game import Game
from scorekeeper.series import Series
from web.storage import Connection
from web.summary import result, summarize

if TYPE_CHECKING:  # web.paging reads requests; the storage side needs only its types
    from web.paging import PageQuery, Place

STRANGER = '"joined":false,"owner":false,'


def _compact(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def write_summary(conn: Connection, game_id: int, version: int, series: Series,
                  created_at: str, updated_at: str,
                  result_of: Callable[[Game], dict[str, Any]] = result) -> None:
    """Store the summary of game *game_id* at *version* (inside the caller's transaction).

    *result_of* gives a finished game's result (a cache may know it already).
    """
    entry = {"version": version, "created_at": created_at, "updated_at": updated_at,
             **summarize(series)}
    found = [result_of(game) for game in series.games if game.is_over]
    conn.execute("INSERT INTO summaries (id, updated, finished, entry, results)"
                 " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                 " updated = excluded.updated, finished = excluded.finished,"
                 " entry = excluded.entry, results = excluded.results",
                 (game_id, updated_at, int(series.current.is_over), _compact(entry)[1:-1],
                  _compact(found)))


def _head(role: Literal["player", "owner"], join_code: str) -> str:
    return (f'"joined":true,"owner":{"true" if role == "owner" else "false"},'
            f'"join_code":{json.dumps(join_code)},')


def _page_rows(conn: Connection, page: PageQuery) -> list[tuple[Any, ...]]:
    """Return (id, updated, entry, results) of the page's games and of one more, in list
    order."""
    where: list[str] = []
    values: list[object] = []
    if page.finished is not None:
        where.append("results != '[]'" if page.finished else "finished = 0")
    if page.after is not None:
        where.append("(updated < ? OR (updated = ? AND id < ?))")
        values += [page.after[0], page.after[0], page.after[1]]
    sql = ("SELECT id, updated, entry, results FROM summaries"
           + (" WHERE " + " AND ".join(where) if where else "")
           + " ORDER BY updated DESC, id DESC LIMIT ?")
    return conn.tuples(sql, (*values, page.limit + 1))


def listing_json(conn: Connection,
                 joined: Mapping[int, tuple[Literal["player", "owner"], str]],
                 page: PageQuery) -> tuple[str, Place | None]:
    """Return one page of the stored games as the game list shows it, latest change first,
    as JSON text, and the place of its last game when more games follow (else None).

    Each entry: id, joined, owner, join_code (only of the *joined* games: id ->
    (role, join code)), version, created_at, updated_at, the summary
    (`web.summary.summarize`) and results: each finished game's `web.summary.result`,
    game #1 first.
    """
    heads = {game_id: _head(role, code) for game_id, (role, code) in joined.items()}
    rows = _page_rows(conn, page)
    shown = rows[:page.limit]
    text = "[" + ",".join(
        f'{{"id":{game_id},{heads.get(game_id, STRANGER)}{entry},"results":{results}}}'
        for game_id, _, entry, results in shown) + "]"
    more = len(rows) > page.limit
    return text, (shown[-1][1], shown[-1][0]) if more else None


def finished_results(conn: Connection) -> list[tuple[list[str], list[dict[str, Any]]]]:
    """Return (players, results of the finished games) of every series with a finished game."""
    rows = conn.tuples("SELECT games.players, summaries.results FROM summaries"
                       " JOIN games USING (id) WHERE summaries.results != '[]'")
    return [(json.loads(players), json.loads(found)) for players, found in rows]

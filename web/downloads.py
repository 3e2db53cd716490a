"""Downloads from the pages: a game's whole series, or every finished game this device
joined, as CSV (for a spreadsheet) or JSON (for `pipkeeper import`), written by
`web.exchange`.

A game is downloaded by the devices that may see it (`web.access`): any other gets
the same 403 page as for the game itself. The finished games are those of the home
page's list that this device joined, the others being strangers' games.
"""

from __future__ import annotations

from datetime import date

from flask import Blueprint, Response

from web import access
from web.exchange import export_games, export_text, finished_ids
from web.storage import get_db

bp = Blueprint("downloads", __name__)

KINDS = {"csv": "text/csv", "json": "application/json"}
# A spreadsheet opening a CSV file reads it as UTF-8 (players' names in any script) only
# when it begins with the byte order mark.
BOM = "\ufeff"


def attachment(text: str, kind: str, stem: str) -> Response:
    """Return *text* as a download of *kind* ("csv" or "json") named *stem*.<kind>."""
    body = BOM + text if kind == "csv" else text
    response = Response(body, mimetype=KINDS[kind])
    response.headers.set("Content-Disposition", "attachment", filename=f"{stem}.{kind}")
    response.headers["Cache-Control"] = "no-store"
    return response


def finished_of_device() -> list[int]:
    """Return the ids of the finished games this request's device joined, ascending."""
    conn = get_db()
    return finished_ids(conn, access.joined_games(conn))


@bp.get("/games/<game_id:game_id>/export.<any(csv, json):kind>")
def game(game_id: int, kind: str) -> Response:
    """Return the series of game *game_id* (every game of its pad) as a CSV or JSON file.

    Raises GameNotFoundError (404) or ApiError (403 to a device that has not joined it).
    """
    access.load_game(game_id)
    document = export_games(get_db(), [game_id])
    return attachment(export_text(document, kind), kind, f"pipkeeper-game-{game_id}")


@bp.get("/games/finished.<any(csv, json):kind>")
def finished(kind: str) -> Response:
    """Return every finished game this device joined as a CSV or JSON file (a file of no
    game when there is none)."""
    document = export_games(get_db(), finished_of_device())
    stem = f"pipkeeper-finished-games-{date.today().isoformat()}"
    return attachment(export_text(document, kind), kind, stem)

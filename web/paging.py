"""How `GET /api/games` reads its paging parameters and writes its cursors.

A page is at most ``limit`` games (DEFAULT_LIMIT unless asked, at most MAX_LIMIT)
in list order, latest change first; ``finished`` keeps only the series with a
finished game (true: its next game may be being played) or only those whose
current game is being played (false); ``cursor`` is the page's start: the
``cursor`` an earlier page's reply gave. A cursor names the place of the last
game listed (its change time and id), not a count of games, so a game started
meanwhile never pushes a game of the last page onto the next one.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from web.errors import ApiError
from web.parsing import MAX_GAME_ID, quote, whole_number

DEFAULT_LIMIT = 50
MAX_LIMIT = 200
PARAMETERS = frozenset({"limit", "cursor", "finished"})
# games.updated_at as the store writes it: ISO 8601 with milliseconds and an offset.
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?")

Place = tuple[str, int]
"""Where a game sits in the list: its last change (summaries.updated) and id."""


@dataclass(frozen=True)
class PageQuery:
    """One page asked for: how many games, after which place, which games."""

    limit: int = DEFAULT_LIMIT
    after: Place | None = None
    finished: bool | None = None

    def next_url(self, path: str, last: Place) -> str:
        """Return the URL of the page after this one, whose last game sits at *last*."""
        query = {"limit": self.limit, "cursor": encode(last)}
        if self.finished is not None:
            query["finished"] = "true" if self.finished else "false"
        return f"{path}?{urlencode(query)}"


def encode(place: Place) -> str:
    """Return the cursor of *place*: URL-safe base64 of "updated|id", without padding."""
    text = f"{place[0]}|{place[1]}".encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def decode(cursor: str) -> Place:
    """Return the place a cursor names. Raises ApiError(400) naming a cursor that is not one."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        text = ""
    updated, _, number = text.rpartition("|")
    if _TIME.fullmatch(updated) and number.isascii() and number.isdigit() \
            and len(number) <= 19 and int(number) <= MAX_GAME_ID:
        return updated, int(number)
    raise ApiError(f"'cursor' must be the cursor of an earlier page of the list, got "
                   f"{quote(cursor)}", code="field_cursor", params={"text": cursor})


def _limit(value: str | None) -> int:
    limit = whole_number(value, "limit")
    if limit is None:
        return DEFAULT_LIMIT
    if not 1 <= limit <= MAX_LIMIT:
        raise ApiError(f"'limit' must be a whole number from 1 to {MAX_LIMIT}, got "
                       f"{quote(value)}", code="field_range",
                       params={"field": "limit", "least": 1, "most": MAX_LIMIT})
    return limit


def _finished(value: str | None) -> bool | None:
    if value is None or value == "":
        return None
    if value in ("true", "false"):
        return value == "true"
    raise ApiError(f"'finished' must be true or false, got {quote(value)}",
                   code="field_flag", params={"field": "finished"})


def page_query(args: Mapping[str, str]) -> PageQuery:
    """Return the page the query string *args* asks for.

    Raises ApiError(400) naming a parameter this route does not take, or quoting a
    bad ``limit``, ``cursor`` or ``finished``.
    """
    unknown = sorted(set(args) - PARAMETERS)
    if unknown:
        raise ApiError(f"unknown parameter {quote(unknown[0])}: the game list takes limit, "
                       "cursor and finished", code="field_unknown", params={"text": unknown[0]})
    cursor = args.get("cursor")
    return PageQuery(_limit(args.get("limit")), decode(cursor) if cursor else None,
                     _finished(args.get("finished")))

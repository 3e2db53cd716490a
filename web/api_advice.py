"""The advisor's routes under /api/: a hint for the turn in play, a review of a finished game.

Views only load the game and hand it to `web.advice`; errors take the API's one
JSON error path (see `web.errors`). docs/api.md describes both routes.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from web import access, advice
from web.errors import ApiError
from web.parsing import whole_number

bp = Blueprint("api_advice", __name__, url_prefix="/api")


@bp.get("/games/<game_id:game_id>/hint")
def hint(game_id: int) -> dict[str, Any]:
    """The advisor's options for the current player's roll, best first."""
    return advice.hint(access.load_game(game_id).game)


@bp.get("/games/<game_id:game_id>/review")
def review(game_id: int) -> dict[str, Any]:
    """Every choice of every player of a finished game with the points it lost.

    ``?game=N`` reviews game N of the series (default: the current game).
    """
    series = access.load_game(game_id).series
    number = whole_number(request.args.get("game"), "game") or series.number
    if not 1 <= number <= series.number:
        raise ApiError(f"this series has games 1 to {series.number}, not {number}", 404,
                       code="review_game", params={"most": series.number, "number": number})
    return {"game_number": number, **advice.game_review(series.games[number - 1])}

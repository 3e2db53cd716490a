"""The JSON API under /api/: views parse the request, call the store and render state.

Every accepted change is committed before the response and wakes the event
streams; every error is ``{"error": ...}`` (see `web.errors`). docs/api.md
describes each route.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, request, url_for
from werkzeug.exceptions import BadRequest

from scorekeeper import RULESET_NAMES, Dice, ruleset
from scorekeeper.audit import Pad, audit
from scorekeeper.series import Series
from web import actions, advice, photos, store
from web.db import get_db
from web.errors import ApiError
from web.events import notify_change, stream_states
from web.state import render_boxes, render_state, render_summary
from web.stats import player_stats

bp = Blueprint("api", __name__, url_prefix="/api")


# --- parsing -------------------------------------------------------------------


def json_body() -> dict[str, Any]:
    """Return the request's JSON object.

    Raises ApiError: 415 when the body is not JSON, 400 when it is malformed or not an object.
    """
    if not request.is_json:
        raise ApiError("send a JSON body with Content-Type: application/json", 415)
    try:
        data = request.get_json()
    except BadRequest:
        raise ApiError("malformed JSON in the request body") from None
    if not isinstance(data, dict):
        raise ApiError(f"the JSON body must be an object, got {type(data).__name__}")
    return data


def whole_number(value: object, name: str) -> int | None:
    """Return *value* (an int, or digits from a form) as an int; None when absent.

    Raises ApiError(400) for anything else.
    """
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(f"{name!r} must be a whole number, got {value!r}")
    return value


def version_of(data: Mapping[str, Any], required: bool) -> int | None:
    """Return the ``version`` the action is based on. Raises ApiError(400) when required."""
    version = whole_number(data.get("version"), "version")
    if version is None and required:
        raise ApiError("'version' is required: the version of the state this action is based on")
    return version


def dice_of(value: object) -> Dice:
    """Return dice from a list of five ints or text like "1 3 3 5 6" (scorekeeper's errors)."""
    if isinstance(value, str):
        return Dice.parse(value)
    if isinstance(value, list):
        return Dice.of(value)
    raise ApiError(f"'dice' must be a list of five values 1..6, got {value!r}")


def kept_of(value: object) -> tuple[int, ...]:
    """Return kept positions 0..4 from a list of ints or text like "0,2" (a form field)."""
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        value = value.replace(",", " ").split()
    if not isinstance(value, list):
        raise ApiError(f"'kept' must be a list of positions 0..4, got {value!r}")
    positions = [whole_number(v, "kept") for v in value]
    if None in positions:
        raise ApiError(f"'kept' must be a list of positions 0..4, got {value!r}")
    return tuple(p for p in positions if p is not None)


def flag_of(value: object, name: str) -> bool:
    """Return a boolean field: JSON true/false, or "true"/"1"/"false"/"0" from a form."""
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, str) and value.lower() in {"true", "1", "false", "0", ""}:
        return value.lower() in {"true", "1"}
    raise ApiError(f"{name!r} must be true or false, got {value!r}")


def players_of(value: object) -> list[str]:
    """Return the player names (strings, stripped). Raises ApiError(400)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ApiError(f"'players' must be a list of names, got {value!r}")
    return [name.strip() for name in value]


# --- games ---------------------------------------------------------------------


@bp.post("/games")
def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Start a series with its first game; 201 with the state."""
    body = json_body()
    rules = body.get("rules", "yahtzee")
    if not isinstance(rules, str):
        raise ApiError(f"'rules' must be a rule set name, got {rules!r}")
    players = players_of(body.get("players"))
    series = Series.new(rules, players, flag_of(body.get("roll_for_first"), "roll_for_first"))
    record = store.create(get_db(), series)
    advice.warm_for(current_app, record.game.rules)
    return render_state(record), 201, {"Location": url_for(".get_game", game_id=record.id)}


@bp.get("/games")
def list_games() -> dict[str, Any]:
    """Every stored game, most recently changed first."""
    return {"games": [render_summary(r) for r in store.all_records(get_db())]}


@bp.get("/games/<int:game_id>")
def get_game(game_id: int) -> dict[str, Any]:
    """The whole state of one game."""
    return render_state(store.load(get_db(), game_id))


def _change(game_id: int, version: int | None, change: actions.Change) -> dict[str, Any]:
    """Apply *change*, commit it, wake the streams; return the new state."""
    record = store.update(get_db(), game_id, version, change)
    notify_change()
    return render_state(record)


@bp.post("/games/<int:game_id>/rolls")
def add_roll(game_id: int) -> dict[str, Any]:
    """A roll as JSON dice or as a photo (multipart ``photo``); ``replace`` corrects the last."""
    reading: dict[str, Any] | None = None
    if request.mimetype == "multipart/form-data":
        store.load(get_db(), game_id)  # 404 before the work of reading a photo
        data: Mapping[str, Any] = request.form
        photo = photos.read_photo(request.files.get("photo"))
        dice, reading = photo.dice, photo.payload
    else:
        data = json_body()
        dice = dice_of(data.get("dice"))
    change = actions.roll(dice, kept_of(data.get("kept")), flag_of(data.get("replace"), "replace"))
    state = _change(game_id, version_of(data, required=False), change)
    return {"reading": reading, "dice": list(dice.values), "suggestions": state["suggestions"],
            "state": state}


@bp.post("/games/<int:game_id>/scores")
def add_score(game_id: int) -> dict[str, Any]:
    """Fill a box of the current player with the current dice."""
    body = json_body()
    box = body.get("box")
    if not isinstance(box, str) or not box:
        raise ApiError(f"'box' must be a box slug, got {box!r}")
    return _change(game_id, version_of(body, required=True), actions.score(box))


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> dict[str, Any]:
    """Take back the last action of the current game."""
    body = json_body()
    return _change(game_id, version_of(body, required=True), actions.undo())


@bp.post("/games/<int:game_id>/next")
def play_again(game_id: int) -> dict[str, Any]:
    """Start the next game of the series under the same id."""
    return _change(game_id, version_of(json_body(), required=False), actions.play_again)


@bp.get("/games/<int:game_id>/events")
def events(game_id: int) -> Response:
    """A text/event-stream of the game's state: now, and after every change."""
    store.load(get_db(), game_id)  # 404 as JSON before the stream starts
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    return Response(
        stream_states(app, game_id),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


# --- everything else ---------------------------------------------------------------


@bp.get("/stats")
def stats() -> dict[str, Any]:
    """Per-player statistics over every finished game."""
    return {"players": player_stats(store.all_records(get_db()))}


@bp.get("/rules")
def rules() -> dict[str, Any]:
    """Every rule set with its boxes."""
    return {"rules": [
        {"name": name, "game": ruleset(name).game, "boxes": render_boxes(ruleset(name))}
        for name in RULESET_NAMES
    ]}


@bp.post("/audit")
def audit_pad() -> dict[str, Any]:
    """Check one filled column of a paper score pad."""
    body = json_body()
    finished = flag_of(body.pop("finished", True), "finished")
    pad = Pad.from_dict(body)
    problems = audit(pad, finished=finished)
    return {"ok": not problems, "rules": pad.rules.name,
            "problems": [p.to_dict() for p in problems]}

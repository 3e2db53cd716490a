"""The JSON API under /api/: views parse the request, call the store and render state.

Every accepted change is committed before the response and wakes the event
streams; every error is ``{"error": ...}`` (see `web.errors`). docs/api.md
describes each route.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request, url_for

from scorekeeper import RULESET_NAMES, ruleset
from scorekeeper.audit import Pad, audit
from scorekeeper.series import Series
from web import (
    access,
    actions,
    advice,
    devices,
    limits,
    listing,
    paging,
    photos,
    rethrow,
    store,
)
from web.errors import ApiError
from web.events import compact, hub, publish, stream_response
from web.parsing import (
    box_of,
    dice_of,
    flag_of,
    json_body,
    kept_of,
    players_of,
    quote,
    version_of,
    whole_number,
)
from web.state import render_boxes, render_pad, render_state
from web.stats import player_stats
from web.storage import get_db

bp = Blueprint("api", __name__, url_prefix="/api")


# --- games ---------------------------------------------------------------------


@bp.post("/games")
def create_game() -> Response:
    """Start a series with its first game; 201 with the state, and the owner's cookie.

    429 with Retry-After past the games one address may start a minute (`web.limits`).
    """
    limits.check_create()
    body = json_body()
    rules = body.get("rules", "yahtzee")
    if not isinstance(rules, str) or len(rules) > 100:
        raise ApiError(f"'rules' must be a rule set name, got {quote(rules)}",
                       code="field_text", params={"field": "rules"})
    players = players_of(body.get("players"))
    series = Series.new(rules, players, flag_of(body.get("roll_for_first"), "roll_for_first"))
    record = store.create(get_db(), series)
    advice.warm_for(current_app, record.game.rules)
    response = jsonify(render_state(record))
    response.status_code = 201
    response.headers["Location"] = url_for(".get_game", game_id=record.id)
    return access.grant(response, record.id, record.join_code, "owner")


@bp.get("/games")
def list_games() -> Response:
    """A page of the stored games, most recently changed first (``limit``, ``cursor``,
    ``finished``: `web.paging`); join codes only of joined games. ``more`` says whether
    games follow, ``next`` is the URL of their first page (null at the end)."""
    page = paging.page_query(request.args)
    conn = get_db()
    games, last = listing.listing_json(conn, access.joined_games(conn), page)
    more = compact({"more": last is not None, "cursor": last and paging.encode(last),
                    "next": last and page.next_url(request.path, last)})
    return Response(f'{{"games":{games},{more[1:]}', mimetype="application/json")


@bp.get("/games/<game_id:game_id>")
def get_game(game_id: int) -> dict[str, Any]:
    """The whole state of one game."""
    return render_state(access.load_game(game_id))


@bp.get("/games/<game_id:game_id>/pad")
def get_pad(game_id: int) -> dict[str, Any]:
    """The scorecards of the series' finished games, for printing the whole pad."""
    return render_pad(access.load_game(game_id).series)


@bp.delete("/games/<game_id:game_id>")
def delete_game(game_id: int) -> Response:
    """Delete a game (its owner only): 204, and its streams end."""
    access.load_game(game_id, "owner")
    store.delete(get_db(), game_id)
    access.records().drop(game_id)
    hub().publish_gone(game_id)
    return access.forget(Response(status=204), game_id)


@bp.post("/games/<game_id:game_id>/join-code")
def new_join_code(game_id: int) -> Response:
    """Give the game a new join code (its owner only): every other device's cookie stops
    working, their streams end; the state, and the owner's cookie for the new code."""
    access.load_game(game_id, "owner")
    owner = access.current_device(game_id)
    record = store.new_code(get_db(), game_id, access.records())
    devices.keep_only(get_db(), game_id, owner)
    hub().end_streams(game_id)
    return access.grant(jsonify(render_state(record)), record.id, record.join_code, "owner",
                        owner)


@bp.get("/games/<game_id:game_id>/devices")
def list_devices(game_id: int) -> dict[str, Any]:
    """The devices that joined the game (its owner only), in the order they joined;
    ``this`` marks the device asking."""
    access.load_game(game_id, "owner")
    mine = access.current_device(game_id)
    return {"devices": [{**d.to_dict(), "this": d.id == mine}
                        for d in devices.of_game(get_db(), game_id)]}


@bp.delete("/games/<game_id:game_id>/devices/<game_id:device_id>")
def remove_device(game_id: int, device_id: int) -> Response:
    """Remove one device from the game (its owner only): 204; that device's cookie stops
    working and its streams end, every other device keeps its own. 404 for a device the
    game does not have, 400 for the owner's own device."""
    access.load_game(game_id, "owner")
    if device_id == access.current_device(game_id):
        raise ApiError(f"the device that started game {game_id} cannot be removed: delete "
                       "the game instead", code="owner_device", params={"game": game_id})
    devices.remove(get_db(), game_id, device_id)
    hub().end_device(game_id, device_id)
    return Response(status=204)


def _change(game_id: int, version: int | None,
            change: actions.Change) -> tuple[dict[str, Any], str]:
    """Apply *change*, commit it, send it to the streams; return the new state and its JSON.

    The state is encoded once, for the reply and for every stream.
    """
    record = access.change_game(game_id, version, change)
    state = render_state(record)
    text = compact(state)
    publish(record, text)
    return state, text


def _json(text: str) -> Response:
    return Response(text, mimetype="application/json")


@bp.post("/games/<game_id:game_id>/rolls")
def add_roll(game_id: int) -> Response:
    """A roll as JSON dice or as a photo (multipart ``photo``) of the thrown dice or of all
    of them, merged with the ``kept`` ones; ``replace`` corrects the last. ``version`` is
    required: a roll based on a state another device has changed since gets 409."""
    reading: dict[str, Any] | None = None
    multipart = request.mimetype == "multipart/form-data"
    # 404 or 403 before the work of reading a photo; the game says how many dice a roll has.
    game = access.load_game(game_id).game
    count = game.rules.dice_count
    data: Mapping[str, Any] = request.form if multipart else json_body()
    kept, replace = kept_of(data.get("kept"), count), flag_of(data.get("replace"), "replace")
    if not multipart:
        dice = dice_of(data.get("dice"), count)
    else:
        # The kept dice are those of the roll on the table; a correction keeps the last roll's.
        on_table = rethrow.kept_values(game.dice, game.kept if replace else kept)
        photo = photos.read_photo(request.files.get("photo"), on_table, count)
        dice, reading = photo.dice, photo.payload
    version = version_of(data, required=True)
    state, text = _change(game_id, version, actions.roll(dice, kept, replace))
    head = compact({"reading": reading, "dice": list(dice.values),
                    "suggestions": state["suggestions"]})
    return _json(f'{head[:-1]},"state":{text}}}')


@bp.post("/games/<game_id:game_id>/scores")
def add_score(game_id: int) -> Response:
    """Fill a box of the current player with the current dice; with ``dice`` (those the
    player sees), 409 unless they are the recorded roll."""
    body = json_body()
    shown = None if body.get("dice") is None else dice_of(body.get("dice"), _count(game_id))
    change = actions.score(box_of(body.get("box")), shown)
    return _json(_change(game_id, version_of(body, required=True), change)[1])


@bp.post("/games/<game_id:game_id>/undo")
def undo(game_id: int) -> Response:
    """Take back the last action of the current game."""
    body = json_body()
    return _json(_change(game_id, version_of(body, required=True), actions.undo())[1])


def _count(game_id: int) -> int:
    """Return how many dice a roll of game *game_id* has (404 or 403 for a game not there)."""
    return access.load_game(game_id).game.rules.dice_count


def _correction(game_id: int, body: Mapping[str, Any]) -> actions.Change:
    """Return the change of a correction: ``player`` (seat), ``box``, ``dice``, ``to_box``."""
    player = whole_number(body.get("player"), "player")
    if player is None:
        raise ApiError("'player' is required: the seat (0, 1, …) whose box is corrected",
                       code="field_required", params={"field": "player"})
    to_box = body.get("to_box")
    dice = dice_of(body.get("dice"), _count(game_id))
    return actions.correct_box(player, box_of(body.get("box")), dice,
                               None if to_box is None else box_of(to_box, "to_box"))


@bp.post("/games/<game_id:game_id>/corrections")
def correct_box(game_id: int) -> Response:
    """Correct a box filled in an earlier turn: the card is scored anew, later turns stay."""
    body = json_body()
    return _json(_change(game_id, version_of(body, required=True),
                         _correction(game_id, body))[1])


@bp.post("/games/<game_id:game_id>/corrections/preview")
def preview_correction(game_id: int) -> dict[str, Any]:
    """What a correction would do (the history record it would add), changing nothing."""
    series = _correction(game_id, json_body())(access.load_game(game_id).series)
    return {"correction": series.current.history()[-1].to_dict()}


@bp.post("/games/<game_id:game_id>/next")
def play_again(game_id: int) -> Response:
    """Start the next game of the series under the same id."""
    version = version_of(json_body(), required=False)
    return _json(_change(game_id, version, actions.play_again)[1])


@bp.get("/games/<game_id:game_id>/events")
def events(game_id: int) -> Response:
    """A text/event-stream of the game's state: now, and after every change."""
    return stream_response(access.load_game(game_id), access.current_device(game_id))


@bp.post("/join")
def join_by_code() -> Response:
    """Join the game whose code is ``code``: its id and path, and the device's cookie.

    404 for a wrong code; 429 with Retry-After past the wrong codes allowed a minute.
    """
    code = json_body().get("code")
    if not isinstance(code, str) or not code.strip():
        raise ApiError(f"'code' must be a game's join code, got {quote(code)}",
                       code="field_text", params={"field": "code"})
    record = access.find_by_code(code[:40])
    response = jsonify({"id": record.id, "path": url_for("pages.game", game_id=record.id)})
    return access.grant(response, record.id, record.join_code, "player")


# --- everything else ---------------------------------------------------------------


@bp.get("/stats")
def stats() -> dict[str, Any]:
    """Per-player statistics over every finished game."""
    return {"players": player_stats(listing.finished_results(get_db()))}


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

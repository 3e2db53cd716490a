"""Joining a game from another device: short join codes and a QR code of the join URL."""

from __future__ import annotations

import io
from ipaddress import ip_address
from urllib.parse import urlsplit

import segno
from flask import Blueprint, Response, current_app, redirect, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from web import access

bp = Blueprint("join", __name__)


def is_loopback(host: str) -> bool:
    """True when *host* (a request's host, maybe with a port) is this machine only."""
    name = urlsplit(f"//{host}").hostname or ""
    if name == "localhost":
        return True
    try:
        return ip_address(name).is_loopback
    except ValueError:
        return False


def join_url(code: str) -> str:
    """Return the URL other devices open to join: on the host the request came to.

    A request to localhost would give a URL that no phone can open, so then the
    server's LAN URL is used when it listens on the LAN (``LAN_URL``, set by
    `pipkeeper serve --host 0.0.0.0`).
    """
    path = url_for("join.join", code=code)
    lan = current_app.config.get("LAN_URL")
    if lan and is_loopback(request.host):
        return str(lan).rstrip("/") + path
    return request.host_url.rstrip("/") + path


def phones_can_join(code: str) -> bool:
    """True when the join URL is one other devices can open (not this machine's loopback)."""
    return not is_loopback(urlsplit(join_url(code)).netloc)


@bp.get("/join/<code>")
def join(code: str) -> BaseResponse:
    """Let this device into the game of join code *code* (any case) and open its page.

    404 for an unknown code, 429 past the wrong codes allowed a minute (`web.limits`).
    """
    record = access.find_by_code(code[:40])
    response = redirect(url_for("pages.game", game_id=record.id))
    return access.grant(response, record.id, record.join_code, "player")


@bp.get("/join")
def join_form() -> BaseResponse:
    """The join box of the pages (``?code=``): on to `join`."""
    code = "".join(request.args.get("code", "").split())[:40]
    if not code:
        return redirect(url_for("pages.home"))
    return redirect(url_for("join.join", code=code))


@bp.get("/api/games/<game_id:game_id>/qr.svg")
def qr_svg(game_id: int) -> Response:
    """Return an SVG QR code of the game's join URL."""
    record = access.load_game(game_id)
    buffer = io.BytesIO()
    segno.make(join_url(record.join_code), error="m").save(
        buffer, kind="svg", scale=8, border=2, xmldecl=False, title=f"Join {record.join_code}"
    )
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["X-Join-URL"] = join_url(record.join_code)
    return response

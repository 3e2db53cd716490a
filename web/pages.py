"""Pages of the web app: thin views that render templates; the data comes from the JSON API."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, redirect, render_template, request, url_for

from web.i18n import LANG_COOKIE, LANGUAGES

bp = Blueprint("pages", __name__)

ONE_YEAR = 365 * 24 * 3600


@bp.get("/")
def home() -> str:
    """Return the home page: start a game, resume one, history and statistics."""
    return render_template("home.html")


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> str:
    """Return the game page: every player's scorecard and the turn panel."""
    return render_template("game.html", game_id=game_id)


@bp.get("/games/<int:game_id>/board")
def board(game_id: int) -> str:
    """Return the large-type shared scoreboard for a tablet."""
    return render_template("board.html", game_id=game_id)


@bp.get("/pad")
def pad() -> str:
    """Return the check-a-pad page."""
    return render_template("pad.html")


def safe_next(target: str | None) -> str | None:
    """Return *target* if it is a path on this site (no scheme, no host), else None."""
    if not target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    if parts.path.startswith(("//", "/\\")) or "\\" in target:
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _referrer_path() -> str | None:
    """Return the referring page's path when it is on this host, else None."""
    referrer = request.referrer
    if not referrer:
        return None
    parts = urlsplit(referrer)
    if parts.netloc != request.host:
        return None
    return safe_next(parts.path + (f"?{parts.query}" if parts.query else ""))


@bp.get("/lang/<code>")
def set_language(code: str) -> Response:
    """Remember the language *code* in a cookie and go back to a page on this site."""
    target = safe_next(request.args.get("next")) or _referrer_path() or url_for("pages.home")
    response = redirect(target)
    if code in LANGUAGES:
        response.set_cookie(LANG_COOKIE, code, max_age=ONE_YEAR, samesite="Lax", httponly=True)
    return response

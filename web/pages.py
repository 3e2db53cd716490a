"""Pages of the web app: thin views that render templates; the data comes from the JSON API.

Each page gets its translated words and scorecard layouts as JSON in the page
(``page_data``), so the scripts never carry a dictionary of their own.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    current_app,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask_babel import gettext
from jinja2.utils import htmlsafe_json_dumps
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper import RULESET_NAMES, RuleSet, ruleset
from scorekeeper.layout import PadRow, printed_pad
from scorekeeper.rulesets import BASE_GAMES
from web import access, advice, downloads
from web.i18n import (
    LANG_COOKIE,
    LANGUAGES,
    SECTION_NAMES,
    TOTAL_HOW_TO,
    TOTAL_LABELS,
    box_name,
    how_to_score,
    js_strings,
    plural_categories,
    ruleset_label,
)
from web.join import phones_can_join
from web.state import render_state

bp = Blueprint("pages", __name__)

ONE_YEAR = 365 * 24 * 3600
GAMES = tuple(BASE_GAMES)


# --- what the pages are given ------------------------------------------------


def _row(rules: RuleSet, row: PadRow) -> dict[str, Any]:
    """Return one printed row with its words in the page's language."""
    if row.kind == "box":
        label = box_name(row.name)
        how = how_to_score(rules.game, row.key, rules.category(row.key).face)
    else:
        label, found = str(TOTAL_LABELS[row.name]), TOTAL_HOW_TO.get((rules.game, row.key))
        how = str(found) if found else ""
    return {**row.to_dict(), "label": label, "how": how}


def card_layout(game: str) -> list[dict[str, Any]]:
    """Return the rows of *game*'s paper pad (`scorekeeper.layout.printed_pad`), top to
    bottom, with words in the page's language.

    Each row: kind ("box" or "total"), key (box slug or total key), section, name
    (English), marks ("points", or "checks" whose count is the total count_key),
    label and how (translated).
    """
    rules = ruleset(game)
    return [_row(rules, row) for row in printed_pad(rules)]


def page_data(**extra: Any) -> Markup:
    """Return the JSON every page script reads (strings, layouts, section names, rule sets).

    It is safe inside a <script> element (<, >, & and ' escaped) and keeps non-ASCII
    letters as they are, so the page's words stay readable in its source.
    """
    data = {
        "strings": js_strings(),
        "plural": plural_categories(),
        "layouts": {game: card_layout(game) for game in GAMES},
        "sections": {key: str(name) for key, name in SECTION_NAMES.items()},
        "rulesets": {name: ruleset_label(name) for name in RULESET_NAMES},
        **extra,
    }
    return htmlsafe_json_dumps(data, dumps=json.dumps, ensure_ascii=False)


def _game_state(game_id: int) -> dict[str, Any]:
    """Return the state of game *game_id*: a 404 page when there is none, a 403 page with a
    join form for a device that has not joined it."""
    return render_state(access.load_game(game_id))


# --- the pages ---------------------------------------------------------------------


@bp.get("/")
def home() -> str:
    """Return the home page: start a game, resume one, history and statistics."""
    return render_template("home.html", data=page_data(), rulesets=RULESET_NAMES,
                           ruleset_label=ruleset_label,
                           finished_downloads=bool(downloads.finished_of_device()))


@bp.get("/games/<game_id:game_id>")
def game(game_id: int) -> str:
    """Return the game page: every player's scorecard and the turn panel."""
    state = _game_state(game_id)
    advice.warm_for(current_app, ruleset(state["rules"]))
    owner = access.role_of(game_id, state["join_code"]) == "owner"
    return render_template("game.html", state=state, data=page_data(state=state),
                           rules_label=ruleset_label(state["rules"]), owner=owner)


@bp.get("/games/<game_id:game_id>/board")
def board(game_id: int) -> str:
    """Return the large-type shared scoreboard for a tablet."""
    state = _game_state(game_id)
    return render_template("board.html", state=state, data=page_data(state=state),
                           rules_label=ruleset_label(state["rules"]),
                           phones_can_join=phones_can_join(state["join_code"]))


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Return the site's icon where browsers look for it first (pages also link the SVG)."""
    folder = current_app.static_folder
    assert folder is not None, "the app serves static files"
    return send_from_directory(folder, "favicon.ico", mimetype="image/vnd.microsoft.icon",
                               max_age=ONE_YEAR)


@bp.get("/pad")
def pad() -> str:
    """Return the check-a-pad page: one column of a paper pad, checked box by box."""
    return render_template("pad.html", data=page_data(), rulesets=RULESET_NAMES,
                           ruleset_label=ruleset_label)


# --- language ---------------------------------------------------------------------


def safe_next(target: str | None) -> str | None:
    """Return *target* if it is a path on this site (no scheme, no host), else None."""
    if not target or "\\" in target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/"):
        return None
    if parts.path.startswith("//"):
        return None
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _referrer_path() -> str | None:
    """Return the referring page's path when it is on this host, else None."""
    parts = urlsplit(request.referrer or "")
    if not parts.netloc or parts.netloc != request.host:
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


# --- error pages ------------------------------------------------------------------


def error_page(status: int, message: str) -> tuple[str, int]:
    """Return the HTML error page for *status*, with the server's *message* as detail."""
    titles = {
        404: gettext("Not found: there is no such page or game."),
        403: gettext("This game is open to the devices that joined it."),
        405: gettext("That is not allowed here."),
    }
    title = titles.get(status) or gettext("Something went wrong.")
    return render_template("error.html", status=status, title=title, message=message), status


@bp.record_once
def _install_error_page(state: BlueprintSetupState) -> None:
    """Let the app's error handlers render HTML errors with this blueprint's page."""
    state.app.extensions["html_error_page"] = error_page

"""The pipkeeper web app: `create_app` builds it, the flaskr way.

Resources attach with ``init_app``: the database (`web.storage`: SQLite or
PostgreSQL), the JSON
error path (`web.errors`), CSRF checks (`web.security`), the event streams
(`web.events`) and the languages of the pages (`web.i18n`). Blueprints: the
JSON API (`web.api`), the advisor's hints and reviews (`web.api_advice`), live camera
frames (`web.frames`), joining by
code or QR (`web.join`), the pages (`web.pages`), their CSV and JSON downloads
(`web.downloads`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Return the configured app; *test_config* overrides the defaults (e.g. DATABASE).

    ``DATABASE`` (a file path or a ``postgresql://`` URL) defaults to pipkeeper.sqlite3
    in the user's data directory. The secret key comes from *test_config*,
    $PIPKEEPER_SECRET_KEY, or the storage (a file next to an SQLite database, a row of
    a PostgreSQL one). Raises OSError when the database folder cannot be written, the
    engine's errors when the database cannot be used.
    """
    from web import (
        access,
        advice,
        api,
        api_advice,
        db,
        downloads,
        errors,
        events,
        frames,
        i18n,
        join,
        limits,
        padphotos,
        pages,
        security,
        storage,
        store,
    )
    from web.parsing import GameIdConverter
    from web.photos import MAX_UPLOAD_BYTES

    app = Flask(__name__)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.config.from_mapping(test_config or {})
    app.config.setdefault("DATABASE", str(db.default_database()))
    app.json.sort_keys = False  # type: ignore[attr-defined]  # state keys in documented order

    storage.init_app(app)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = storage.storage(app).secret_key()
    for resource in (store, access, errors, security, events, i18n, advice, limits):
        resource.init_app(app)
    app.url_map.converters["game_id"] = GameIdConverter
    for blueprint in (api.bp, api_advice.bp, frames.bp, join.bp, pages.bp, downloads.bp,
                      padphotos.bp):
        app.register_blueprint(blueprint)
    return app

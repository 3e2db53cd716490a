"""Languages of the web pages: the locale chosen per request, and what templates need.

The locale comes from the remembered cookie first, then the browser's
Accept-Language, then English. Hebrew is written right to left.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, request
from flask_babel import Babel, get_locale

LANG_COOKIE = "pipkeeper_lang"
DEFAULT_LOCALE = "en"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "gd": "Gàidhlig",
    "he": "עברית",
    "tr": "Türkçe",
    "th": "ไทย",
}
RTL_LANGUAGES = frozenset({"he"})
TRANSLATIONS = Path(__file__).parent / "translations"

babel = Babel()


def select_locale() -> str:
    """Return the request's locale: the cookie's choice, else the best Accept-Language match."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or DEFAULT_LOCALE


def current_language() -> str:
    """Return the code of the language the page is rendered in."""
    locale = get_locale()
    code = locale.language if locale else DEFAULT_LOCALE
    return code if code in LANGUAGES else DEFAULT_LOCALE


def text_direction(code: str) -> str:
    """Return "rtl" for right-to-left languages, else "ltr"."""
    return "rtl" if code in RTL_LANGUAGES else "ltr"


def language_context() -> dict[str, Any]:
    """Return the template variable ``lang``: current code, direction and the language list."""
    code = current_language()
    return {
        "lang": {
            "code": code,
            "dir": text_direction(code),
            "languages": [
                {"code": c, "name": name, "dir": text_direction(c)} for c, name in LANGUAGES.items()
            ],
        }
    }


def init_app(app: Flask) -> None:
    """Attach Flask-Babel to *app* and give every template the ``lang`` variable."""
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LOCALE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_locale)
    app.context_processor(language_context)

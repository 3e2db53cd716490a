"""Cross-site request forgery protection and the app's secret key.

An unsafe request (POST, PUT, PATCH, DELETE) is accepted when:

- its ``Origin`` header, if sent, names this very site (scheme, host and port); and
- it is not a POST, or its body is JSON (``Content-Type: application/json``):
  a browser cannot send either cross-site without a CORS preflight, which this
  app never answers; or
  it carries this session's CSRF token as header ``X-CSRF-Token`` or as form
  field ``csrf_token``.

The token lives in Flask's signed session cookie; templates get it from
``csrf_token()``. The secret key signing that cookie comes from the environment
(``PIPKEEPER_SECRET_KEY``) or from a file next to the database, made once with
mode 0600.
"""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request, session

from web.errors import ApiError

SERVED = "pipkeeper.served_hosts"  # the SERVED_HOSTS names, as check_host compares them
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1", "[::1]")
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
TOKEN_KEY = "csrf_token"
TOKEN_HEADER = "X-CSRF-Token"
SECRET_ENV = "PIPKEEPER_SECRET_KEY"
SECRET_FILE = "secret_key"
CSP = ("default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def csrf_token() -> str:
    """Return this session's CSRF token, making one on first use."""
    token = session.get(TOKEN_KEY)
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(32)
        session[TOKEN_KEY] = token
    return token


def _origin_ok() -> bool:
    """True when no Origin was sent or it is this very site: scheme, host and port."""
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return (parts.scheme, parts.netloc) == (request.scheme, request.host)


def _token_ok() -> bool:
    expected = session.get(TOKEN_KEY)
    given = request.headers.get(TOKEN_HEADER) or request.form.get(TOKEN_KEY)
    return bool(expected and given) and hmac.compare_digest(str(expected), str(given))


def host_name(host: str) -> str:
    """Return the host name of a Host header (no port, no IPv6 brackets), lower case."""
    try:
        return (urlsplit(f"//{host}").hostname or "").lower()
    except ValueError:  # e.g. an unclosed "[" bracket
        return ""


def check_host() -> None:
    """Before each request: refuse one that names a host this server does not serve (400)."""
    served: frozenset[str] = current_app.extensions[SERVED]
    if host_name(request.host) not in served:
        raise ApiError(f"this server does not serve the host {request.host[:80]!r}: open it by "
                       "its own address", 400)


def check_request() -> None:
    """Before each request: refuse a cross-site unsafe request with 403.

    Raises ApiError(403) naming what was missing or wrong.
    """
    if request.method not in UNSAFE_METHODS:
        return
    if not _origin_ok():
        raise ApiError(f"cross-site request refused: Origin {request.headers['Origin']!r} "
                       f"is not {request.host!r}", 403)
    if request.is_json or request.method != "POST" or _token_ok():
        return
    raise ApiError(f"missing or wrong CSRF token: send JSON, or the {TOKEN_HEADER} header "
                   f"or the {TOKEN_KEY} form field from csrf_token()", 403)


def protect_response(response: Response) -> Response:
    """After each request: no page of this app may be framed by another site, and a page
    runs only the app's own scripts and styles (no inline script, handler or style
    attribute: the scripts set styles through the CSSOM); photos show as blob: URLs."""
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def load_secret_key(folder: Path) -> str:
    """Return the secret key: from $PIPKEEPER_SECRET_KEY, else from *folder*/secret_key.

    The file is created (mode 0600) with a random key the first time.
    Raises OSError when the folder cannot be written.
    """
    from_env = os.environ.get(SECRET_ENV)
    if from_env:
        return from_env
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / SECRET_FILE
    if not path.exists():
        # Written aside, then linked into place: link() fails if another process won
        # the race, and nobody ever reads a half-written key.
        aside = folder / f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(32))
        try:
            os.link(aside, path)
        except FileExistsError:
            pass
        finally:
            aside.unlink()
    return path.read_text(encoding="ascii").strip()


def init_app(app: Flask) -> None:
    """Check every request for CSRF, frame no page, give templates ``csrf_token()``.

    Only requests naming a served host are answered (a DNS rebinding attack names
    another): ``SERVED_HOSTS``, this machine's names unless configured (see
    `pipkeeper serve`).
    """
    app.config.setdefault("SERVED_HOSTS", list(LOOPBACK_HOSTS))
    app.extensions[SERVED] = frozenset(name.strip("[]").lower()
                                       for name in app.config["SERVED_HOSTS"])
    app.before_request(check_host)
    app.before_request(check_request)
    app.after_request(protect_response)
    app.context_processor(lambda: {"csrf_token": csrf_token})

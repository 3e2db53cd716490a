"""One error path: every error under /api/ becomes ``{"error": "<what was wrong>"}``.

The message is in the request's language (`web.messages`: the error's code and
parameters), English for an error that has none.

Statuses: HTTP errors keep theirs (404, 405, 413, 415, …); rule violations and
bad input (scorekeeper's RulesError) are 400; a
stale version is 409 with the current state; anything else is a bug: 500 with
a generic message, logged here, never a stack trace to the client.

Pages outside /api/ get Flask's default error responses, unless the frontend
sets ``app.extensions["html_error_page"]`` to a function ``(status, message) ->
response`` that renders its own page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Response, current_app, jsonify, make_response, request
from werkzeug.exceptions import HTTPException, InternalServerError, default_exceptions

from scorekeeper.errors import Coded, RulesError
from scorekeeper.series import GameNotOverError
from web.devices import DeviceNotFoundError
from web.messages import message_of, render
from web.state import render_state
from web.storage import storage
from web.store import GameNotFoundError, StaleVersionError

HtmlErrorPage = Callable[[int, str], Any]


class ApiError(Coded):
    """An error a view raises on purpose: an English message, an HTTP status (400 unless
    given), optionally the seconds after which to retry (a ``Retry-After`` header),
    optional extra JSON fields for the client (e.g. what a photo was read as), and
    for the message in other languages its `code` and `params` (see `web.messages`).
    """

    def __init__(self, message: str, status: int = 400, *, code: str = "",
                 params: dict[str, Any] | None = None, retry_after: int | None = None,
                 **extra: Any) -> None:
        super().__init__(message, code=code, **(params or {}))
        self.status = status
        self.retry_after = retry_after
        self.extra = extra


def _is_api() -> bool:
    return request.path.startswith("/api/")


def _respond(status: int, message: str, **extra: Any) -> Any:
    """Return the JSON error for API paths, else the frontend's HTML page, else a plain one."""
    if _is_api():
        response: Response = jsonify({"error": message, **extra})
        response.status_code = status
        return response
    page: HtmlErrorPage | None = current_app.extensions.get("html_error_page")
    if page is not None:
        return page(status, message)
    return default_exceptions.get(status, InternalServerError)(description=message)


def handle_http(error: HTTPException) -> Any:
    """HTTP errors (404, 405, 413, 415, …): JSON with the status for API paths."""
    status = error.code or 500
    if status >= 500:
        return handle_bug(error)
    if not _is_api() and "html_error_page" not in current_app.extensions:
        return error
    english = error.description or error.name
    response = _respond(status, render("too_large", {}, english) if status == 413 else english)
    if _is_api():
        for key, value in error.get_headers():  # e.g. Allow on a 405
            if key.lower() != "content-type":
                response.headers[key] = value
    return response


def handle_refusal(error: RulesError) -> Any:
    """Bad input and rule violations (the rules' own errors): 400, or 409 for an action
    that only comes later (play again before the game is over). `web.photos` turns the
    camera pipeline's errors into ApiErrors."""
    return _respond(409 if isinstance(error, GameNotOverError) else 400, message_of(error))


def handle_api(error: ApiError) -> Any:
    """Errors raised on purpose by views (with ``Retry-After`` when they say when to retry)."""
    response = make_response(_respond(error.status, message_of(error), **error.extra))
    if error.retry_after is not None:
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def handle_not_found(error: GameNotFoundError | DeviceNotFoundError) -> Any:
    """An unknown game id or join code, or a device a game does not have: 404."""
    return _respond(404, message_of(error))


def handle_stale(error: StaleVersionError) -> Any:
    """A change based on an old version: 409 with the state as stored now."""
    return _respond(409, message_of(error), state=render_state(error.current))


def handle_storage(error: Exception) -> Any:
    """The database cannot be read or written (the engine's errors): 503, nothing was
    changed; logged."""
    current_app.logger.error("storage error on %s %s: %s", request.method, request.path, error)
    found = storage()
    busy, meaning = found.is_busy(error), found.describe(error)
    advice = "try again in a moment" if busy else "tell whoever runs the server"
    english = f"{meaning}: nothing was changed; {advice}"
    message = render("storage_busy" if busy else "storage_failed", {"text": meaning}, english)
    response = make_response(_respond(503, message))
    response.headers["Retry-After"] = "1" if busy else "30"
    return response


def handle_bug(error: Exception) -> Any:
    """Anything unexpected: logged with its traceback here, a generic 500 to the client."""
    current_app.logger.error("unhandled error on %s %s", request.method, request.path,
                             exc_info=error)
    message = "internal error: the server could not handle this request"
    return _respond(500, render("internal", {}, message))


def init_app(app: Flask) -> None:
    """Register the error handlers on *app*."""
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(ApiError, handle_api)
    app.register_error_handler(GameNotFoundError, handle_not_found)
    app.register_error_handler(DeviceNotFoundError, handle_not_found)
    app.register_error_handler(StaleVersionError, handle_stale)
    app.register_error_handler(RulesError, handle_refusal)
    for engine_error in storage(app).errors:
        app.register_error_handler(engine_error, handle_storage)
    app.register_error_handler(Exception, handle_bug)

"""Live camera frames: the dice read in one frame of a game's camera, nothing recorded.

The game page's hands-free mode sends about four small JPEGs a second and draws
what each one shows; it records a roll through the rolls route once the dice have
settled. A frame is checked as a photo is (`web.photos`), but much smaller.
"""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, request

from web import access, photos
from web.errors import ApiError
from web.parsing import quote

bp = Blueprint("frames", __name__, url_prefix="/api")

# The page sends frames about 640 px wide (30-80 kB); a frame ten times that is a mistake.
MAX_FRAME_BYTES = 1024 * 1024
# ... and a frame of over 4 MP (2560 x 1440 is 3.7) is a photo sent down the wrong route.
MAX_FRAME_PIXELS = 4_000_000


def _expect_of(value: str | None, most: int) -> int | None:
    """Return the form field ``expect`` (how many dice were thrown, 0 to *most*: the game's
    five or six), None when absent.

    Raises ApiError(400) for anything else.
    """
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit()) or int(value) > most:
        raise ApiError(f"'expect' must be how many dice were thrown, 0 to {most}, "
                       f"got {quote(value)}")
    return int(value)


def _check_size(size: int | None) -> None:
    """Refuse a frame of *size* bytes over MAX_FRAME_BYTES (413)."""
    if size is not None and size > MAX_FRAME_BYTES:
        raise ApiError(f"a frame is at most {MAX_FRAME_BYTES // 1024} kB, this one is "
                       f"{size // 1024} kB: send a smaller JPEG (about 640 px wide)", 413,
                       code="too_large")


@bp.post("/games/<game_id:game_id>/frames")
def read_frame(game_id: int) -> dict[str, Any]:
    """The dice in one camera frame (multipart ``frame``, optional ``expect``).

    Returns the reading: width, height, every die found (value, box, confidence,
    doubtful) and the milliseconds it took. Nothing is stored.
    """
    rules = access.load_game(game_id).game.rules  # 404 or 403 before any work
    _check_size(request.content_length)  # before the body is parsed
    data = photos.upload_bytes(request.files.get("frame"), field="frame")
    _check_size(len(data))  # a body sent without its length
    expect = _expect_of(request.form.get("expect"), rules.dice_count)
    start = time.perf_counter()
    reading = photos.read_image(data, expect, MAX_FRAME_PIXELS)
    return {**reading.to_dict(), "ms": round((time.perf_counter() - start) * 1000, 1)}

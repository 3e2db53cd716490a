"""Photo uploads: check that the upload is an image, read the dice with `vision`.

`vision` (OpenCV, onnxruntime) is imported on the first photo, not at start-up,
so the app and its API run even where the camera pipeline is unavailable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from werkzeug.datastructures import FileStorage

from scorekeeper import Dice
from web.errors import ApiError

MAX_UPLOAD_BYTES = 15 * 1024 * 1024
# File signatures of the formats the camera pipeline decodes.
SIGNATURES = (
    (0, b"\xff\xd8\xff"),  # JPEG
    (0, b"\x89PNG\r\n\x1a\n"),  # PNG
    (8, b"WEBP"),  # WebP (after "RIFF" and the size)
    (0, b"BM"),  # BMP
)


@dataclass(frozen=True)
class PhotoReading:
    """The dice read from a photo and what to send the client about it."""

    dice: Dice
    payload: dict[str, Any]


def looks_like_image(data: bytes) -> bool:
    """True when *data* starts with the signature of JPEG, PNG, WebP or BMP."""
    return any(data[at : at + len(magic)] == magic for at, magic in SIGNATURES)


def upload_bytes(upload: FileStorage | None) -> bytes:
    """Return the bytes of the uploaded photo.

    Raises ApiError(400) when there is no file, it is empty, or it is not an image.
    """
    if upload is None:
        raise ApiError("no photo: send the image as the multipart field 'photo'")
    data: bytes = upload.read()
    if not data:
        raise ApiError("the uploaded photo is empty")
    if not looks_like_image(data):
        raise ApiError(
            f"not an image: {upload.filename or 'the upload'!r} is not a JPEG, PNG, WebP "
            "or BMP photo"
        )
    return data


def read_photo(upload: FileStorage | None) -> PhotoReading:
    """Return the dice read from an uploaded photo.

    Raises ApiError: 400 for a missing, empty or unreadable image (the vision
    message), 400 with the ``reading`` when not exactly five dice were read,
    503 when the camera pipeline or its models are not installed.
    """
    data = upload_bytes(upload)
    try:
        from vision import DiceCountReadError, ImageError, ModelError, read_dice
    except ImportError as error:
        raise ApiError(f"reading photos is not available on this server: {error}", 503) from None
    try:
        reading = read_dice(data)
    except ImageError as error:
        raise ApiError(f"not a readable image: {error}") from None
    except ModelError as error:
        raise ApiError(f"reading photos is not available on this server: {error}", 503) from None
    payload = {**reading.to_dict(), "values": list(reading.values)}
    try:
        dice = reading.dice()
    except DiceCountReadError as error:
        raise ApiError(f"{error}; correct the dice by hand", reading=payload) from None
    return PhotoReading(dice, payload)

"""Photo uploads: check that the upload is an image, read the dice with `vision`,
merge them with the kept dice (`web.rethrow`).

`vision` (OpenCV, onnxruntime) is imported on the first photo, not at start-up,
so the app and its API run even where the camera pipeline is unavailable.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from werkzeug.datastructures import FileStorage

from scorekeeper import Dice
from scorekeeper.dice import DICE_COUNT
from web import rethrow
from web.errors import ApiError

if TYPE_CHECKING:
    from vision import DiceReading

MAX_UPLOAD_BYTES = 15 * 1024 * 1024
# A decode that takes more than HEAVY_BYTES (a photo of over ~5 MP that is not a JPEG
# decoded reduced) waits for one of HEAVY_DECODES slots, at most DECODE_WAIT_SECONDS,
# else 503: a few such images at once cannot take the server's memory and cores.
HEAVY_BYTES = 32 * 1024 * 1024
HEAVY_DECODES = 2
DECODE_WAIT_SECONDS = 1.0
RETRY_SECONDS = 2
_HEAVY = threading.BoundedSemaphore(HEAVY_DECODES)
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


def upload_bytes(upload: FileStorage | None, field: str = "photo") -> bytes:
    """Return the bytes of the image uploaded as multipart field *field*.

    Raises ApiError(400) when there is no file, it is empty, or it is not an image.
    """
    if upload is None:
        raise ApiError(f"no photo: send the image as the multipart field {field!r}")
    data: bytes = upload.read()
    if not data:
        raise ApiError("the uploaded photo is empty", code="photo_empty")
    if not looks_like_image(data):
        raise ApiError(
            f"not an image: {upload.filename or 'the upload'!r} is not a JPEG, PNG, WebP "
            "or BMP photo", code="not_image", params={"text": upload.filename or "?"}
        )
    return data


@contextmanager
def decode_slot(cost: int) -> Iterator[None]:
    """Hold a slot for a decode taking *cost* bytes (none needed for a light one).

    Raises ApiError(503, Retry-After) when every slot stays taken DECODE_WAIT_SECONDS.
    """
    if cost <= HEAVY_BYTES:
        yield
        return
    if not _HEAVY.acquire(timeout=DECODE_WAIT_SECONDS):
        raise ApiError("the server is reading other large images: try again in a moment",
                       503, retry_after=RETRY_SECONDS, code="decode_busy")
    try:
        yield
    finally:
        _HEAVY.release()


def read_image(data: bytes, expect: int | None = None,
               max_pixels: int | None = None) -> DiceReading:
    """Return what the camera pipeline reads in the image *data* (see vision.read_dice).

    The image's memory is judged from its header first (`vision.image.decode_cost`),
    and a heavy one waits for a `decode_slot`. Raises ApiError: 400 for an unreadable
    image (the vision message) or one over *max_pixels*, 503 when the camera pipeline
    or its models are not installed, or every slot for heavy images stays taken.
    """
    try:
        from vision import ImageError, ModelError, read_dice
        from vision.image import decode_cost, image_info
    except ImportError as error:
        raise ApiError(f"reading photos is not available on this server: {error}", 503,
                       code="photos_unavailable") from None
    try:
        info = image_info(data)
        if max_pixels is not None and info is not None and \
                info.width * info.height > max_pixels:
            raise ApiError(f"not a readable image: image is {info.width}x{info.height}, over "
                           f"the {max_pixels / 1e6:g} MP of a camera frame",
                           code="frame_pixels", params={
                               "width": info.width, "height": info.height,
                               "megapixels": f"{max_pixels / 1e6:g}"})
        with decode_slot(decode_cost(data)):
            return read_dice(data, expect=expect)
    except ImageError as error:
        raise ApiError(f"not a readable image: {error}", code="unreadable_image") from None
    except ModelError as error:
        raise ApiError(f"reading photos is not available on this server: {error}", 503,
                       code="photos_unavailable") from None


def read_photo(upload: FileStorage | None, kept: Mapping[int, int],
               count: int = DICE_COUNT) -> PhotoReading:
    """Return the roll of *count* dice read from an uploaded photo of the thrown dice, or
    of all of them, merged with the *kept* dice (position -> value; see `web.rethrow`).

    The payload is the reading with each found die's ``role`` ("thrown", "kept" or
    "doubtful") and ``position`` in the roll (null for a doubtful one), and the
    ``values`` of the counted dice. Raises ApiError: 400 for a missing, empty or
    unreadable image (the vision message), 400 with the ``reading`` when fewer dice
    were found than thrown, 503 when the camera pipeline or its models are not installed.
    """
    reading = read_image(upload_bytes(upload))
    try:
        merged = rethrow.merge(reading.found, kept, count)
    except rethrow.TooFewDiceError as error:
        raise ApiError(str(error), code="photo_too_few",
                       params={"found": error.found, "thrown": error.thrown},
                       reading=reading.to_dict(), found=error.found, thrown=error.thrown) from None
    return PhotoReading(merged.dice, _payload(reading.to_dict(), merged))


def _payload(reading: dict[str, Any], merged: rethrow.Merged) -> dict[str, Any]:
    """Return the reading as sent to the page: each die with its role and position."""
    dice = [{**die, "role": role, "position": position, "doubtful": role == "doubtful"}
            for die, role, position in zip(reading["dice"], merged.roles, merged.positions,
                                           strict=True)]
    values = [die["value"] for die in dice if die["role"] != "doubtful"]
    return {**reading, "dice": dice, "values": values}

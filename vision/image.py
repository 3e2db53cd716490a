"""Decode photos: bytes or paths in, oriented BGR pixels out, with clear errors.

Big JPEGs are decoded at a reduced size (libjpeg's DCT scaling), which is several
times faster than a full decode; callers get the scale factor so boxes can be
mapped back to the pixels of the original, EXIF-oriented image. Dimensions are
read from the file header first, so an image over the pixel limit is refused
before anything large is allocated.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.errors import VisionError

MAX_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 50_000_000
MIN_SIDE = 16
# Decode at reduced size while the reduced image keeps at least this many pixels
# on its longest side: enough to read pips on dice a few percent of the frame wide.
WORKING_SIDE = 1000

ImageSource = str | Path | bytes | bytearray | memoryview | np.ndarray


class ImageError(VisionError, ValueError):
    """The input is not an image this project can read; the message says why."""


@dataclass(frozen=True, slots=True)
class DecodedImage:
    """Pixels of a photo, upright, possibly reduced from the original size.

    ``pixels`` is HxWx3 uint8 BGR. ``width``/``height`` are the original upright
    size; ``scale`` is original pixels per pixel of ``pixels`` (1, 2, 4 or 8).
    """

    pixels: np.ndarray
    width: int
    height: int
    scale: float


def _jpeg_segments(data: bytes) -> list[tuple[int, bytes]]:
    """Return (marker, payload) for JPEG header segments up to the scan start."""
    segments = []
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            break
        marker = data[pos + 1]
        if marker == 0xFF:  # fill byte
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        (length,) = struct.unpack(">H", data[pos + 2 : pos + 4])
        segments.append((marker, data[pos + 4 : pos + 2 + length]))
        if marker == 0xDA:
            break
        pos += 2 + length
    return segments


def _exif_orientation(app1: bytes) -> int:
    """Return the EXIF orientation tag (1..8) of an APP1 payload, 1 when absent."""
    if not app1.startswith(b"Exif\x00\x00") or len(app1) < 14:
        return 1
    tiff = app1[6:]
    endian = "<" if tiff[:2] == b"II" else ">"
    try:
        (ifd,) = struct.unpack(endian + "I", tiff[4:8])
        (count,) = struct.unpack(endian + "H", tiff[ifd : ifd + 2])
        for i in range(count):
            entry = tiff[ifd + 2 + 12 * i : ifd + 14 + 12 * i]
            tag, kind = struct.unpack(endian + "HH", entry[:4])
            if tag == 0x0112 and kind == 3:
                (value,) = struct.unpack(endian + "H", entry[8:10])
                return value if 1 <= value <= 8 else 1
    except struct.error:
        return 1
    return 1


def jpeg_info(data: bytes) -> tuple[int, int, int]:
    """Return (width, height, EXIF orientation) of JPEG bytes, as stored (not rotated).

    Raises ImageError when no frame header is found.
    """
    orientation = 1
    for marker, payload in _jpeg_segments(data):
        if marker == 0xE1 and orientation == 1:
            orientation = _exif_orientation(payload)
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE):
            if len(payload) < 5:
                break
            height, width = struct.unpack(">HH", payload[1:5])
            return width, height, orientation
    raise ImageError("damaged JPEG: no frame header")


def header_size(data: bytes) -> tuple[int, int] | None:
    """Return (width, height) from a PNG, JPEG, BMP, GIF or WebP header; None if unknown.

    Raises ImageError for a JPEG without a readable frame header.
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return int(w), int(h)
    if data.startswith(b"\xff\xd8"):
        w, h, _ = jpeg_info(data)
        return w, h
    if data.startswith(b"BM") and len(data) >= 26:
        w, h = struct.unpack("<ii", data[18:26])
        return abs(w), abs(h)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return int(w), int(h)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP" and len(data) >= 30:
        return _webp_size(data)
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    """Return (width, height) of a WebP image, None for an unknown chunk."""
    chunk = data[12:16]
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    if chunk == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _orient(pixels: np.ndarray, orientation: int) -> np.ndarray:
    """Return *pixels* turned upright according to an EXIF orientation value."""
    if orientation in (2, 4, 5, 7):
        pixels = cv2.flip(pixels, 1)
    turns = {3: cv2.ROTATE_180, 4: cv2.ROTATE_180, 5: cv2.ROTATE_90_COUNTERCLOCKWISE,
             6: cv2.ROTATE_90_CLOCKWISE, 7: cv2.ROTATE_90_CLOCKWISE,
             8: cv2.ROTATE_90_COUNTERCLOCKWISE}
    if orientation in turns:
        pixels = cv2.rotate(pixels, turns[orientation])
    return pixels


def _to_bgr8(pixels: np.ndarray) -> np.ndarray:
    """Return 3-channel uint8 BGR pixels from gray, BGRA or 16-bit input."""
    if pixels.dtype == np.uint16:
        pixels = (pixels >> 8).astype(np.uint8)
    elif pixels.dtype != np.uint8:
        span = float(np.ptp(pixels)) or 1.0
        pixels = ((pixels - pixels.min()) * (255.0 / span)).astype(np.uint8)
    if pixels.ndim == 2:
        return cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    if pixels.shape[2] == 4:
        # Transparent areas become white, like a viewer would show them on paper.
        alpha = pixels[:, :, 3:4].astype(np.float32) / 255.0
        rgb = pixels[:, :, :3].astype(np.float32) * alpha + 255.0 * (1.0 - alpha)
        blended: np.ndarray = rgb.astype(np.uint8)
        return blended
    if pixels.shape[2] == 1:
        return cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(pixels[:, :, :3])


def _check_size(width: int, height: int, max_pixels: int) -> None:
    """Raise ImageError when a size is too small or over *max_pixels*."""
    if width * height > max_pixels:
        raise ImageError(
            f"image is {width}x{height} = {width * height / 1e6:.1f} MP, "
            f"over the limit of {max_pixels / 1e6:.0f} MP"
        )
    if min(width, height) < MIN_SIDE:
        raise ImageError(f"image is {width}x{height}, too small to show dice")


def _reduction(longest: int, working_side: int) -> int:
    """Return the largest JPEG reduction (1, 2, 4, 8) keeping *working_side* pixels."""
    for factor in (8, 4, 2):
        if longest // factor >= working_side:
            return factor
    return 1


_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
            4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def _decode_jpeg(data: bytes, max_pixels: int, working_side: int) -> DecodedImage:
    """Decode JPEG bytes at a reduced size, applying EXIF orientation ourselves."""
    width, height, orientation = jpeg_info(data)
    _check_size(width, height, max_pixels)
    factor = _reduction(max(width, height), working_side)
    buffer = np.frombuffer(data, np.uint8)
    pixels = cv2.imdecode(buffer, _REDUCED[factor] | cv2.IMREAD_IGNORE_ORIENTATION)
    if pixels is None:
        raise ImageError("damaged JPEG: cannot decode the pixels")
    pixels = _orient(pixels, orientation)
    if orientation >= 5:
        width, height = height, width
    return DecodedImage(pixels, width, height, width / pixels.shape[1])


def decode_bytes(data: bytes, *, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES,
                 working_side: int = WORKING_SIDE) -> DecodedImage:
    """Return the upright image encoded in *data*.

    Raises ImageError for empty, oversized, truncated or non-image bytes.
    """
    if not data:
        raise ImageError("empty file: no image data")
    if len(data) > max_bytes:
        raise ImageError(f"file is {len(data) / 1e6:.1f} MB, over the limit of "
                         f"{max_bytes / 1e6:.0f} MB")
    if data.startswith(b"\xff\xd8"):
        if not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
            raise ImageError("truncated JPEG: the file ends before the image does")
        return _decode_jpeg(data, max_pixels, working_side)
    size = header_size(data)
    if size is None:
        raise ImageError(f"not an image: unknown format starting with {data[:8]!r}")
    _check_size(*size, max_pixels)
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if pixels is None:
        raise ImageError("damaged image: cannot decode the pixels")
    return from_array(pixels, max_pixels=max_pixels)


def from_array(pixels: np.ndarray, *, max_pixels: int = MAX_PIXELS) -> DecodedImage:
    """Return a DecodedImage for pixels already in memory (gray, BGR or BGRA).

    Raises ImageError for arrays that are not an image or are too small/large.
    """
    if pixels.ndim not in (2, 3) or pixels.size == 0:
        raise ImageError(f"not an image: array of shape {pixels.shape}")
    height, width = pixels.shape[:2]
    _check_size(width, height, max_pixels)
    return DecodedImage(_to_bgr8(pixels), width, height, 1.0)


def load(source: ImageSource, **limits: int) -> DecodedImage:
    """Return the decoded image from a path, bytes or a pixel array.

    Raises ImageError when it cannot be read, OSError when a path cannot be opened.
    """
    if isinstance(source, np.ndarray):
        return from_array(source, **{k: v for k, v in limits.items() if k == "max_pixels"})
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_bytes(bytes(source), **limits)
    path = Path(source)
    max_bytes = limits.get("max_bytes", MAX_BYTES)
    if path.stat().st_size > max_bytes:
        raise ImageError(f"{path} is {path.stat().st_size / 1e6:.1f} MB, over the limit "
                         f"of {max_bytes / 1e6:.0f} MB")
    return decode_bytes(path.read_bytes(), **limits)

"""Decode photos: bytes or paths in, oriented BGR pixels out, with clear errors.

Big JPEGs are decoded at a reduced size (libjpeg's DCT scaling), which is several
times faster than a full decode, and big images of the other formats are reduced
by the same factors; callers get the scale factor so boxes can be mapped back to
the pixels of the original, EXIF-oriented image. Size, channels and bit depth
are read from the file header first, so an image over the pixel limit, or whose
decoding would take more memory than MAX_DECODE_BYTES, is refused before
anything large is allocated (`decode_cost`). 16-bit images are read as 8-bit;
transparency becomes white where the memory allows it, else it is dropped.
A JPEG cut short is refused even when an end marker was appended after the cut.
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
# The most memory one decode may take at its peak, as estimated from the header
# (measured peaks stay below the estimates; see tests/vision/test_vision_memory.py).
MAX_DECODE_BYTES = 300 * 1024 * 1024
MIN_SIDE = 16
# Decode at reduced size while the reduced image keeps at least this many pixels
# on its longest side: enough to read pips on dice a few percent of the frame wide.
WORKING_SIDE = 1000

ImageSource = str | Path | bytes | bytearray | memoryview | np.ndarray


class ImageError(VisionError, ValueError):
    """The input is not an image this project can read; the message says why."""


@dataclass(frozen=True, slots=True)
class ImageInfo:
    """What a file header says: size as stored, channels, bits per sample, and for JPEG
    whether it is progressive and each component's share of the pixels."""

    width: int
    height: int
    channels: int = 3
    bits: int = 8
    progressive: bool = False
    shares: tuple[float, ...] = ()

    @property
    def alpha(self) -> bool:
        """True when the image has a transparency channel."""
        return self.channels in (2, 4)


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


_SOF_MARKERS = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD,
                          0xCE})
_PROGRESSIVE = frozenset({0xC2, 0xC6, 0xCA, 0xCE})


def _jpeg_frame(data: bytes) -> tuple[ImageInfo, int]:
    """Return the JPEG's frame header as ImageInfo, and its EXIF orientation.

    Raises ImageError when the file does not end with an end marker, or no frame
    header is found.
    """
    if not data.rstrip(b"\x00").endswith(b"\xff\xd9"):
        raise ImageError("truncated JPEG: the file ends before the image does")
    orientation = 1
    for marker, payload in _jpeg_segments(data):
        if marker == 0xE1 and orientation == 1:
            orientation = _exif_orientation(payload)
        if marker in _SOF_MARKERS:
            if len(payload) < 6:
                break
            bits, height, width, count = struct.unpack(">BHHB", payload[:6])
            factors = [(b >> 4, b & 15) for b in payload[7 : 6 + 3 * count : 3]]
            most_h = max((h for h, _ in factors), default=1) or 1
            most_v = max((v for _, v in factors), default=1) or 1
            shares = tuple(h * v / (most_h * most_v) for h, v in factors)
            return ImageInfo(width, height, count, bits, marker in _PROGRESSIVE,
                             shares), orientation
    raise ImageError("damaged JPEG: no frame header")


def jpeg_info(data: bytes) -> tuple[int, int, int]:
    """Return (width, height, EXIF orientation) of JPEG bytes, as stored (not rotated).

    Raises ImageError for a file cut short or without a frame header.
    """
    info, orientation = _jpeg_frame(data)
    return info.width, info.height, orientation


_PNG_CHANNELS = {0: 1, 2: 3, 3: 4, 4: 2, 6: 4}  # by colour type; a palette may hold alpha


def image_info(data: bytes) -> ImageInfo | None:
    """Return what the header of a PNG, JPEG, BMP, GIF or WebP says; None if unknown.

    Raises ImageError for a JPEG without a readable frame header.
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 26:
        w, h, bits, colour = struct.unpack(">IIBB", data[16:26])
        return ImageInfo(int(w), int(h), _PNG_CHANNELS.get(colour, 4), max(8, bits))
    if data.startswith(b"\xff\xd8"):
        return _jpeg_frame(data)[0]
    if data.startswith(b"BM") and len(data) >= 30:
        w, h, _, bpp = struct.unpack("<iiHH", data[18:30])
        return ImageInfo(abs(w), abs(h), 4 if bpp == 32 else 3)
    size = header_size(data)
    return None if size is None else ImageInfo(*size, channels=4)


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
        return _on_white(pixels)
    if pixels.shape[2] == 1:
        return cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(pixels[:, :, :3])


BAND_ROWS = 256  # rows blended at a time: the temporary arrays stay small


def _on_white(pixels: np.ndarray) -> np.ndarray:
    """Return BGR uint8 pixels of BGRA uint8 *pixels* laid on white, as a viewer shows them
    on paper: out = 255 - (255 - colour) * alpha / 255, a band of rows at a time."""
    out = np.empty((*pixels.shape[:2], 3), np.uint8)
    for top in range(0, pixels.shape[0], BAND_ROWS):
        band = pixels[top : top + BAND_ROWS]
        alpha = band[:, :, 3:4].astype(np.uint16)
        shade = (255 - band[:, :, :3]).astype(np.uint16) * alpha
        out[top : top + BAND_ROWS] = 255 - (shade + 127) // 255
    return out


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


def _jpeg_cost(info: ImageInfo, factor: int) -> int:
    """Return the bytes a reduced JPEG decode takes at most: the pixels twice (OpenCV's
    and the array's), twice over for the truncation check, plus, for a progressive
    JPEG, libjpeg's whole-image coefficients (2 bytes a sample of each component)."""
    out = -(-info.width // factor) * -(-info.height // factor) * 3
    coefficients = sum(2 * share * info.width * info.height for share in info.shares)
    return int(4 * out + (coefficients if info.progressive else 0))


def _other_cost(info: ImageInfo, factor: int, alpha: bool) -> int:
    """Return the bytes decoding a PNG, BMP, WebP or GIF takes at most.

    With *alpha* (read as stored, then laid on white) the stored samples twice, an
    8-bit copy and the result; else the image as 8-bit colour and the reduced result twice.
    """
    pixels = info.width * info.height
    if alpha:
        return pixels * (2 * info.channels * info.bits // 8 + 4 + 3)
    return pixels * 3 + 2 * -(-info.width // factor) * -(-info.height // factor) * 3


def _keeps_alpha(info: ImageInfo) -> bool:
    """True when transparency is honoured: the image has it and the memory allows it."""
    return info.alpha and _other_cost(info, 1, True) <= MAX_DECODE_BYTES


def decode_cost(data: bytes, working_side: int = WORKING_SIDE) -> int:
    """Return the bytes decoding *data* takes at most, from its header alone.

    Raises ImageError for data whose header is not one of the formats read here.
    """
    info = image_info(data)
    if info is None:
        raise ImageError(f"not an image: unknown format starting with {data[:8]!r}")
    factor = _reduction(max(info.width, info.height), working_side)
    if data.startswith(b"\xff\xd8"):
        return _jpeg_cost(info, factor)
    return _other_cost(info, factor, _keeps_alpha(info))


def _check_cost(data: bytes, working_side: int) -> None:
    """Raise ImageError when decoding *data* would take over MAX_DECODE_BYTES."""
    cost = decode_cost(data, working_side)
    if cost > MAX_DECODE_BYTES:
        raise ImageError(f"image would take {cost / 2**20:.0f} MB of memory to decode, over "
                         f"the limit of {MAX_DECODE_BYTES / 2**20:.0f} MB")


# Bytes put between the scan and the end marker: a complete scan ignores them, an
# incomplete one decodes them as image data (no 0xFF: they cannot read as a marker).
_PROBE = bytes([0x5A, 0xA5]) * 64


def _cut_short(data: bytes, flags: int, pixels: np.ndarray) -> bool:
    """True when the JPEG's scan ends before its image does (the rest decodes flat).

    libjpeg fills what is missing with flat grey and only warns; an end marker
    appended after the cut hides the cut from a look at the last bytes. Decoded
    again with bytes put before the end marker, a complete image comes out the
    same and a cut one does not. Only images ending in a flat row, or progressive
    ones (whose later scans can be missing), are decoded twice.
    """
    last = pixels[-1]
    if not progressive_or_flat(data, last):
        return False
    end = len(data.rstrip(b"\x00")) - 2
    probed = cv2.imdecode(np.frombuffer(data[:end] + _PROBE + data[end:], np.uint8), flags)
    return probed is None or not np.array_equal(probed, pixels)


def progressive_or_flat(data: bytes, row: np.ndarray) -> bool:
    """True when the JPEG *data* is progressive or its decoded last *row* is one colour."""
    return bool(_jpeg_frame(data)[0].progressive or (row == row[0]).all())


def _decode_jpeg(data: bytes, max_pixels: int, working_side: int) -> DecodedImage:
    """Decode JPEG bytes at a reduced size, applying EXIF orientation ourselves."""
    width, height, orientation = jpeg_info(data)
    _check_size(width, height, max_pixels)
    _check_cost(data, working_side)
    factor = _reduction(max(width, height), working_side)
    flags = _REDUCED[factor] | cv2.IMREAD_IGNORE_ORIENTATION
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if pixels is None:
        raise ImageError("damaged JPEG: cannot decode the pixels")
    if _cut_short(data, flags, pixels):
        raise ImageError("truncated JPEG: the image data ends before the image does")
    pixels = _orient(pixels, orientation)
    if orientation >= 5:
        width, height = height, width
    return DecodedImage(pixels, width, height, width / pixels.shape[1])


def _decode_other(data: bytes, max_pixels: int, working_side: int) -> DecodedImage:
    """Decode PNG, BMP, WebP or GIF bytes: 8-bit, reduced by the JPEG factors when big."""
    info = image_info(data)
    if info is None:
        raise ImageError(f"not an image: unknown format starting with {data[:8]!r}")
    _check_size(info.width, info.height, max_pixels)
    _check_cost(data, working_side)
    factor = _reduction(max(info.width, info.height), working_side)
    alpha = _keeps_alpha(info)
    flags = cv2.IMREAD_UNCHANGED if alpha else _REDUCED[factor]
    pixels = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if pixels is None:
        raise ImageError("damaged image: cannot decode the pixels")
    height, width = pixels.shape[:2]
    _check_size(width, height, max_pixels)
    pixels = _to_bgr8(pixels)
    if alpha and factor > 1:
        pixels = cv2.resize(pixels, (-(-width // factor), -(-height // factor)),
                            interpolation=cv2.INTER_AREA)
    return DecodedImage(pixels, info.width, info.height, info.width / pixels.shape[1])


def decode_bytes(data: bytes, *, max_pixels: int = MAX_PIXELS, max_bytes: int = MAX_BYTES,
                 working_side: int = WORKING_SIDE) -> DecodedImage:
    """Return the upright image encoded in *data*.

    Raises ImageError for empty, oversized, truncated or non-image bytes, and for an
    image whose decoding would take over MAX_DECODE_BYTES.
    """
    if not data:
        raise ImageError("empty file: no image data")
    if len(data) > max_bytes:
        raise ImageError(f"file is {len(data) / 1e6:.1f} MB, over the limit of "
                         f"{max_bytes / 1e6:.0f} MB")
    if data.startswith(b"\xff\xd8"):
        return _decode_jpeg(data, max_pixels, working_side)
    return _decode_other(data, max_pixels, working_side)


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

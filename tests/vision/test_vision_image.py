"""vision.image: decoding, orientation, conversions and every kind of bad input."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_samples import encode, with_exif_orientation

from vision.image import ImageError, decode_bytes, header_size, jpeg_info, load


def marked(width: int, height: int) -> np.ndarray:
    """Return a gray image with a red block in its top-left corner (to track orientation)."""
    image = np.full((height, width, 3), 128, np.uint8)
    image[: height // 4, : width // 4] = (0, 0, 255)
    return image


def fake_png(width: int, height: int) -> bytes:
    """Return a PNG header claiming *width* x *height*, with almost no pixel data."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + b"\x00" * 64)


@pytest.mark.parametrize(("data", "message"), [
    (b"", "empty"),
    (b"hello, this is not a picture at all", "not an image"),
    (encode(marked(64, 48), ".jpg")[:400], "truncated"),
    (encode(np.zeros((1, 1, 3), np.uint8)), "too small"),
    (fake_png(10_000, 10_000), "over the limit"),
    (b"\xff\xd8\xff\xd9", "no frame header"),
])
def test_bad_bytes_raise_a_clear_image_error(data: bytes, message: str) -> None:
    with pytest.raises(ImageError, match=message):
        decode_bytes(data)


def test_byte_limit() -> None:
    with pytest.raises(ImageError, match="MB, over the limit"):
        decode_bytes(encode(marked(64, 48)), max_bytes=100)


def test_pixel_limit_is_checked_from_the_header_before_decoding() -> None:
    # The fake PNG has no pixels: refusing it proves the size came from the header.
    assert header_size(fake_png(9000, 7000)) == (9000, 7000)
    with pytest.raises(ImageError, match=r"63\.0 MP"):
        decode_bytes(fake_png(9000, 7000))


@pytest.mark.parametrize(("image", "suffix"), [
    (cv2.cvtColor(marked(80, 60), cv2.COLOR_BGR2GRAY), ".png"),
    (cv2.cvtColor(marked(80, 60), cv2.COLOR_BGR2BGRA), ".png"),
    ((marked(80, 60).astype(np.uint16) * 257), ".png"),
    (marked(80, 60), ".bmp"),
    (marked(80, 60), ".webp"),
])
def test_gray_rgba_16bit_and_other_formats_become_bgr8(image: np.ndarray, suffix: str) -> None:
    decoded = decode_bytes(encode(image, suffix))
    assert decoded.pixels.shape == (60, 80, 3)
    assert decoded.pixels.dtype == np.uint8
    assert (decoded.width, decoded.height, decoded.scale) == (80, 60, 1.0)
    assert abs(int(decoded.pixels[30, 60, 0]) - 128) < 8


@pytest.mark.parametrize(("orientation", "size", "red_corner"), [
    (1, (120, 90), (0, 0)),
    (3, (120, 90), (1, 1)),
    (6, (90, 120), (0, 1)),
    (8, (90, 120), (1, 0)),
])
def test_exif_orientation_is_applied(orientation: int, size: tuple[int, int],
                                     red_corner: tuple[int, int]) -> None:
    jpeg = with_exif_orientation(encode(marked(120, 90), ".jpg"), orientation)
    assert jpeg_info(jpeg) == (120, 90, orientation)
    decoded = decode_bytes(jpeg)
    assert (decoded.width, decoded.height) == size
    h, w = decoded.pixels.shape[:2]
    y = 5 if red_corner[0] == 0 else h - 5
    x = 5 if red_corner[1] == 0 else w - 5
    assert decoded.pixels[y, x, 2] > 200 and decoded.pixels[y, x, 0] < 60


def test_big_jpeg_is_decoded_reduced_with_its_scale() -> None:
    decoded = decode_bytes(with_exif_orientation(encode(marked(4000, 3000), ".jpg"), 6))
    assert (decoded.width, decoded.height, decoded.scale) == (3000, 4000, 4.0)
    assert decoded.pixels.shape == (1000, 750, 3)


def test_load_reads_paths_and_arrays(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    path.write_bytes(encode(marked(64, 48)))
    assert load(path).pixels.shape == (48, 64, 3)
    assert load(str(path)).width == 64
    assert load(marked(64, 48)).height == 48
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.jpg")
    with pytest.raises(ImageError, match="not an image"):
        load(np.zeros(5, np.uint8))

"""vision.image: memory bounded from the header, 16-bit read as 8-bit, cut-short images."""

from __future__ import annotations

import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_samples import encode

from vision.image import (
    MAX_DECODE_BYTES,
    ImageError,
    decode_bytes,
    decode_cost,
    image_info,
)

ROOT = Path(__file__).resolve().parents[2]


def heavy_png(side: int = 7000) -> bytes:
    """Return a *side* x *side* 16-bit RGBA PNG that compresses to a few hundred kB."""
    pixels = np.zeros((side, side, 4), np.uint16)
    pixels[::97] = 40000
    pixels[..., 3] = 65535
    return encode(pixels)


def textured(width: int, height: int) -> np.ndarray:
    rng = np.random.default_rng(7)
    noise = (rng.random((height, width, 3)) * 255).astype(np.uint8)
    return cv2.GaussianBlur(noise, (9, 9), 3)


def fake_jpeg(width: int, height: int, marker: int, sampling: int = 0x11) -> bytes:
    """Return a JPEG holding only a frame header of three components."""
    components = b"".join(bytes([i, sampling if i == 1 else 0x11, 0]) for i in (1, 2, 3))
    payload = struct.pack(">BHHB", 8, height, width, 3) + components
    return (b"\xff\xd8\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload
            + b"\xff\xd9")


def test_a_16bit_rgba_png_of_49_mp_decodes_in_under_300_mb(tmp_path: Path) -> None:
    path = tmp_path / "heavy.png"
    path.write_bytes(heavy_png())
    assert path.stat().st_size < 1_000_000
    assert decode_cost(path.read_bytes()) <= MAX_DECODE_BYTES
    script = textwrap.dedent(f"""
        import resource
        from pathlib import Path
        from vision.image import load
        data = Path({str(path)!r}).read_bytes()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        image = load(data)
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        print((after - before) // 1024, image.pixels.shape, image.pixels.dtype, image.scale)
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                         text=True, timeout=120, check=True).stdout.split(maxsplit=1)
    assert int(out[0]) < 300
    assert out[1].strip() == "(1750, 1750, 3) uint8 4.0"


def test_a_16bit_image_is_read_as_8bit_with_its_values() -> None:
    pixels = np.full((60, 80, 3), 200 * 257, np.uint16)
    decoded = decode_bytes(encode(pixels))
    assert decoded.pixels.dtype == np.uint8 and decoded.pixels.shape == (60, 80, 3)
    assert int(decoded.pixels[30, 40, 0]) == 200


def test_transparency_is_laid_on_white() -> None:
    pixels = np.zeros((60, 80, 4), np.uint8)
    pixels[:, :40] = (0, 0, 255, 255)  # opaque red on the left, transparent on the right
    decoded = decode_bytes(encode(pixels))
    assert decoded.pixels[30, 10].tolist() == [0, 0, 255]
    assert decoded.pixels[30, 70].tolist() == [255, 255, 255]


@pytest.mark.parametrize(("data", "refused"), [
    (fake_jpeg(7000, 7000, 0xC2), True),  # progressive, full-size chroma: 294 MB of coefficients
    (fake_jpeg(7000, 7000, 0xC2, sampling=0x22), False),  # progressive 4:2:0: half that
    (fake_jpeg(7000, 7000, 0xC0), False),  # baseline: decoded at an eighth of each side
])
def test_memory_is_judged_from_the_header(data: bytes, refused: bool) -> None:
    info = image_info(data)
    assert info is not None and (info.width, info.channels) == (7000, 3)
    assert (decode_cost(data) > MAX_DECODE_BYTES) is refused
    if refused:
        with pytest.raises(ImageError, match=r"MB of memory to decode, over the limit of 300 MB"):
            decode_bytes(data)


@pytest.mark.parametrize("progressive", [0, 1])
@pytest.mark.parametrize("kept", [0.5, 0.95])
def test_a_jpeg_cut_short_is_refused_even_with_an_end_marker(progressive: int,
                                                             kept: float) -> None:
    _, buffer = cv2.imencode(".jpg", textured(640, 480),
                             [cv2.IMWRITE_JPEG_PROGRESSIVE, progressive])
    whole = buffer.tobytes()
    assert decode_bytes(whole).pixels.shape == (480, 640, 3)
    with pytest.raises(ImageError, match="truncated JPEG"):
        decode_bytes(whole[: int(len(whole) * kept)] + b"\xff\xd9")


def test_a_complete_jpeg_ending_in_flat_grey_is_read() -> None:
    image = np.full((90, 120, 3), 128, np.uint8)
    image[:20, :20] = (0, 0, 255)
    assert decode_bytes(encode(image, ".jpg")).pixels[80, 100].tolist() == [128, 128, 128]


def test_a_png_cut_short_is_refused_even_with_its_end_chunk() -> None:
    whole = encode(textured(640, 480))
    with pytest.raises(ImageError, match="damaged image"):
        decode_bytes(whole[: len(whole) // 2] + whole[-12:])

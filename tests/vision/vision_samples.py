"""Helpers of the vision tests: sample photos and their truth, crafted image bytes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_images"
SHARED = REPO.parent / "shared" / "data" / "dice"


def sample_truth(name: str) -> dict[str, Any]:
    """Return the sidecar JSON (values, boxes) of a sample photo."""
    truth: dict[str, Any] = json.loads((SAMPLES / name).with_suffix(".json").read_text())
    return truth


def encode(image: np.ndarray, suffix: str = ".png") -> bytes:
    """Return *image* encoded in the format of *suffix*."""
    ok, buffer = cv2.imencode(suffix, image)
    assert ok
    return buffer.tobytes()


def with_exif_orientation(jpeg: bytes, orientation: int) -> bytes:
    """Return JPEG bytes with an EXIF APP1 segment holding *orientation* inserted."""
    entry = (0x0112).to_bytes(2, "little") + (3).to_bytes(2, "little") + \
        (1).to_bytes(4, "little") + orientation.to_bytes(2, "little") + b"\x00\x00"
    tiff = b"II*\x00" + (8).to_bytes(4, "little") + (1).to_bytes(2, "little") + entry + \
        b"\x00\x00\x00\x00"
    payload = b"Exif\x00\x00" + tiff
    segment = b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload
    return jpeg[:2] + segment + jpeg[2:]


# A byler test photo of six dice, one of them a smoky translucent die showing 6 that the
# shipped reader misreads as a 4, without being sure of it; cut to 2000 px square so that
# the game page sends it as it is (a page reduces larger photos itself).
TRANSLUCENT_SIX = ("byler/images/test/IMG_20191209_095906.jpg", (400, 400, 2400, 2400))


def translucent_six_photo(folder: Path) -> Path | None:
    """Write the photo of TRANSLUCENT_SIX, cut, into *folder* and return its path; None
    where the shared photos are absent."""
    name, (x1, y1, x2, y2) = TRANSLUCENT_SIX
    source = SHARED / name
    if not source.is_file():
        return None
    path = folder / "translucent-six.jpg"
    cut = cv2.imread(str(source))[y1:y2, x1:x2]
    path.write_bytes(encode(cut, ".jpg"))
    return path

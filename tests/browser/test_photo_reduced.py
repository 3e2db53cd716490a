"""A phone camera's photo of tens of megabytes, more than the server takes, is reduced in the
browser before it is sent: drawn upright as its EXIF orientation says, a JPEG at most 2000 px
on its longest side."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.browser.conftest import PHONE
from tests.vision.vision_samples import with_exif_orientation
from web.photos import MAX_UPLOAD_BYTES

pytestmark = pytest.mark.browser

RED = (0, 0, 255)


def camera_photo(sample: Path, folder: Path) -> Path:
    """Write a 48-megapixel photo of *sample* (upright 8000x6000, a red block at its top-left
    corner) as a camera stores it: the pixels turned a quarter left, EXIF orientation 6 to
    turn them back, fine noise making it a JPEG of some 25 MB; return its path."""
    upright = cv2.resize(cv2.imread(str(sample)), (8000, 6000), interpolation=cv2.INTER_LINEAR)
    upright = cv2.add(upright, np.random.default_rng(7).integers(0, 24, upright.shape, np.uint8))
    upright[:600, :800] = RED
    stored = cv2.rotate(upright, cv2.ROTATE_90_COUNTERCLOCKWISE)
    ok, jpeg = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 97])
    assert ok
    path = folder / "PXL_20260101_120000.jpg"
    path.write_bytes(with_exif_orientation(jpeg.tobytes(), 6))
    return path


# Keep each photo the page sends (fetch with a FormData body) in window.photosSent.
RECORD_PHOTOS = """
window.photosSent = [];
const send = window.fetch;
window.fetch = (url, options = {}) => {
  const photo = options.body instanceof FormData ? options.body.get("photo") : null;
  if (photo) window.photosSent.push(photo);
  return send(url, options);
};"""

# The bytes of the first photo sent, as a list of numbers.
PHOTO_BYTES = "async () => [...new Uint8Array(await window.photosSent[0].arrayBuffer())]"


def test_a_camera_photo_too_big_to_send_is_reduced_upright(
    device: Any, live_server: str, tmp_path: Path, fake_vision: Any, five_dice_photo: Path
) -> None:
    big = camera_photo(five_dice_photo, tmp_path)
    assert big.stat().st_size > 20 * 1024 * 1024 > MAX_UPLOAD_BYTES
    page = device(PHONE)
    page.add_init_script(RECORD_PHOTOS)
    fake_vision(page, five_dice_photo)
    game = page.request.post(f"{live_server}/api/games",
                             data={"rules": "yahtzee", "players": ["Ann"]}).json()
    page.goto(f"{live_server}/games/{game['id']}")
    page.set_input_files("#photo-input", str(big))
    page.wait_for_function("window.photosSent.length === 1", timeout=30_000)
    name, kind, size = page.evaluate(
        "() => [window.photosSent[0].name, window.photosSent[0].type, window.photosSent[0].size]")
    assert (name, kind) == ("PXL_20260101_120000.jpg", "image/jpeg")
    assert size < 3 * 1024 * 1024
    image = cv2.imdecode(np.array(page.evaluate(PHOTO_BYTES), np.uint8), cv2.IMREAD_COLOR)
    assert image.shape[:2] == (1500, 2000)  # upright: landscape, as the camera was held
    corner = image[10:140, 10:190].reshape(-1, 3).mean(axis=0)
    assert corner[2] > 200 and corner[0] < 60 and corner[1] < 60, corner  # red, top-left
    page.wait_for_selector(".photo-die >> nth=4")
    assert page.locator("#messages .error").count() == 0
    shown = page.locator("#photo-img").evaluate("i => [i.naturalWidth, i.naturalHeight]")
    assert shown == [2000, 1500]

"""Heavy and damaged images at the photo and frame routes: judged before decoding."""

from __future__ import annotations

import io
import threading
from typing import Any

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

from tests.web.conftest import Api
from web import photos

TOKEN = "heavy-token"


def png(width: int, height: int, dtype: type = np.uint8) -> bytes:
    pixels = np.zeros((height, width, 4), dtype)
    pixels[..., 3] = np.iinfo(dtype).max
    return cv2.imencode(".png", pixels)[1].tobytes()


@pytest.fixture
def post(client: FlaskClient, api: Api) -> Any:
    """Return a function posting an image to a route (``rolls`` or ``frames``) of a new game."""
    game = api.create()["id"]
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN

    def send(route: str, data: bytes) -> Any:
        field = "photo" if route == "rolls" else "frame"
        return client.post(f"/api/games/{game}/{route}",
                           data={field: (io.BytesIO(data), "image.png")},
                           headers={"X-CSRF-Token": TOKEN})

    return send


def test_a_frame_of_a_photo_size_is_refused_before_decoding(post: Any) -> None:
    data = png(3000, 2000, np.uint16)  # 6 MP, a few kB: under the 1 MB of a frame
    assert len(data) < 200_000
    response = post("frames", data)
    assert response.status_code == 400
    assert response.get_json()["error"] == ("not a readable image: image is 3000x2000, over "
                                            "the 4 MP of a camera frame")


def test_a_frame_of_a_photo_size_is_refused_in_hebrew(client: FlaskClient, post: Any) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "he"
    response = post("frames", png(3000, 2000))
    assert (response.status_code, response.get_json()["error"]) == (
        400, "פריים של מצלמה הוא לכל היותר 4 מגה־פיקסל, וזה 3000×2000: שלחו פריים קטן יותר")


def test_a_jpeg_cut_short_with_an_end_marker_is_refused(post: Any) -> None:
    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur((rng.random((480, 640, 3)) * 255).astype(np.uint8), (9, 9), 3)
    whole = cv2.imencode(".jpg", image)[1].tobytes()
    response = post("rolls", whole[: len(whole) // 2] + b"\xff\xd9")
    assert response.status_code == 400
    assert response.get_json()["error"] == ("not a readable image: truncated JPEG: the image "
                                            "data ends before the image does")


def test_heavy_images_past_the_slots_get_503_with_retry_after(
        post: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(photos, "DECODE_WAIT_SECONDS", 0.05)
    taken = [photos._HEAVY.acquire(timeout=1) for _ in range(photos.HEAVY_DECODES)]
    try:
        response = post("rolls", png(4000, 3000))  # 12 MP: over HEAVY_BYTES to decode
    finally:
        for _ in taken:
            photos._HEAVY.release()
    assert all(taken)
    assert (response.status_code, response.headers["Retry-After"]) == (503, "2")
    assert response.get_json()["error"] == ("the server is reading other large images: try "
                                            "again in a moment")


def test_heavy_images_past_the_slots_are_refused_in_gaelic(
        client: FlaskClient, post: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(photos, "DECODE_WAIT_SECONDS", 0.05)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "gd"
    taken = [photos._HEAVY.acquire(timeout=1) for _ in range(photos.HEAVY_DECODES)]
    try:
        response = post("rolls", png(4000, 3000))
    finally:
        for _ in taken:
            photos._HEAVY.release()
    assert (response.status_code, response.get_json()["error"]) == (
        503, "tha am frithealaiche a' leughadh dhealbhan mòra eile: feuch a-rithist an ceann "
             "mionaid")


def test_at_most_the_slots_decode_heavy_images_at_once() -> None:
    inside, most, lock = [0], [0], threading.Lock()

    def decode() -> None:
        with photos.decode_slot(photos.HEAVY_BYTES + 1):
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            threading.Event().wait(0.1)
            with lock:
                inside[0] -= 1

    workers = [threading.Thread(target=decode) for _ in range(photos.HEAVY_DECODES)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert most[0] <= photos.HEAVY_DECODES
    with photos.decode_slot(10):  # a light image takes no slot
        assert photos._HEAVY.acquire(timeout=0)
        photos._HEAVY.release()

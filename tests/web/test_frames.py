"""Live camera frames: real frames read by `vision`, nothing recorded, bad input refused."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import cv2
import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import Api
from web.frames import MAX_FRAME_BYTES

SAMPLES = Path(__file__).parents[2] / "sample_images"
TOKEN = "frame-token"
TOO_LARGE_TR = "bu, sunucu için fazla büyük: daha küçük bir şey gönder"


def frame_of(photo: Path, width: int = 640) -> bytes:
    """Return *photo* scaled to *width* px as a JPEG, as the page's hands-free mode sends it."""
    image = cv2.imread(str(photo))
    height = round(image.shape[0] * width / image.shape[1])
    small = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return data.tobytes()


def truth(photo: Path) -> list[int]:
    """Return the true values of a sample photo, sorted."""
    return sorted(json.loads(photo.with_suffix(".json").read_text())["values"])


def with_token(client: FlaskClient) -> FlaskClient:
    """Give *client* a CSRF token in its session, as the page has; return it."""
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    return client


def post_frame(client: FlaskClient, game: int, data: bytes | None, **form: str) -> Any:
    """POST *data* as the multipart field ``frame`` (left out when None) of game *game*."""
    fields: dict[str, Any] = dict(form)
    if data is not None:
        fields["frame"] = (io.BytesIO(data), "frame.jpg")
    return client.post(f"/api/games/{game}/frames", data=fields,
                       headers={"X-CSRF-Token": TOKEN})


@pytest.fixture
def game(api: Api, client: FlaskClient) -> int:
    """A new game this client started (and may read frames for)."""
    with_token(client)
    return int(api.create()["id"])


@pytest.mark.parametrize("name", ["sample_01", "sample_02", "sample_04"])
def test_a_frame_is_read_and_nothing_is_recorded(
    api: Api, client: FlaskClient, game: int, name: str
) -> None:
    photo = SAMPLES / f"{name}.jpg"
    before = api.state(game)
    response = post_frame(client, game, frame_of(photo))
    assert response.status_code == 200, response.get_json()
    reading = response.get_json()
    assert reading["width"] == 640
    assert sorted(d["value"] for d in reading["dice"]) == truth(photo)
    for die in reading["dice"]:
        assert set(die) == {"value", "box", "confidence", "doubtful", "check"}
        x1, y1, x2, y2 = die["box"]
        assert 0 <= x1 < x2 <= 640 and 0 <= y1 < y2 <= reading["height"]
        assert 0 < die["confidence"] <= 1 and die["doubtful"] == (die["confidence"] < 0.5)
        assert die["check"] == (die["confidence"] < 0.8)
    assert sum(not d["doubtful"] for d in reading["dice"]) >= len(truth(photo)) - 1
    assert 0 < reading["ms"] < 2000
    assert api.state(game) == before  # same version, no roll


def test_expect_counts_the_most_likely_dice(client: FlaskClient, game: int) -> None:
    response = post_frame(client, game, frame_of(SAMPLES / "sample_02.jpg"), expect="3")
    dice = response.get_json()["dice"]
    assert [d["doubtful"] for d in dice].count(False) == 3
    assert len(dice) == 5


def test_a_device_that_has_not_joined_gets_403(app: Flask, game: int) -> None:
    stranger = with_token(app.test_client())
    response = post_frame(stranger, game, frame_of(SAMPLES / "sample_02.jpg"))
    assert response.status_code == 403
    assert response.get_json()["error"].startswith(f"this device has not joined game {game}")


def test_an_unknown_game_is_404(client: FlaskClient, game: int) -> None:
    response = post_frame(client, game + 1000, frame_of(SAMPLES / "sample_02.jpg"))
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("data", "form", "message"),
    [
        (b"hello, I am a text file", {},
         "not an image: 'frame.jpg' is not a JPEG, PNG, WebP or BMP photo"),
        (b"", {}, "the uploaded photo is empty"),
        (None, {}, "no photo: send the image as the multipart field 'frame'"),
        (b"\xff\xd8\xff\xe0 this is no JPEG", {},
         "not a readable image: truncated JPEG: the file ends before the image does"),
        (b"\xff\xd8\xff", {"expect": "six"},
         "'expect' must be how many dice were thrown, 0 to 5, got 'six'"),
        (b"\xff\xd8\xff", {"expect": "9"},
         "'expect' must be how many dice were thrown, 0 to 5, got '9'"),
    ],
)
def test_bad_frames_are_400(
    api: Api, client: FlaskClient, game: int, data: bytes | None, form: dict[str, str],
    message: str
) -> None:
    before = api.state(game)
    response = post_frame(client, game, data, **form)
    assert response.status_code == 400
    assert response.get_json() == {"error": message}
    assert api.state(game) == before


def test_a_frame_as_json_is_400(client: FlaskClient, game: int) -> None:
    response = client.post(f"/api/games/{game}/frames", json={"frame": "abc"})
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "no photo: send the image as the multipart field 'frame'"}


def test_a_frame_over_the_cap_is_413(client: FlaskClient, game: int) -> None:
    response = post_frame(client, game, b"\xff\xd8\xff" + b"\0" * MAX_FRAME_BYTES)
    assert response.status_code == 413
    assert response.get_json()["error"].startswith("a frame is at most 1024 kB, this one is")


def test_a_frame_over_the_cap_is_refused_in_the_players_language(
    client: FlaskClient, game: int
) -> None:
    client.set_cookie("pipkeeper_lang", "tr")
    response = post_frame(client, game, b"\xff\xd8\xff" + b"\0" * MAX_FRAME_BYTES)
    assert response.status_code == 413
    assert response.get_json()["error"] == TOO_LARGE_TR

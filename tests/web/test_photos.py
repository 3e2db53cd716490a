"""Photo uploads: size cap, checks that it is an image, and real photos read by `vision`."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.web.conftest import Api
from web.photos import MAX_UPLOAD_BYTES

# The rendered photos with a sidecar JSON of their true values (not the annotated example).
SAMPLES = sorted(p for p in (Path(__file__).parents[2] / "sample_images").glob("*.jpg")
                 if p.with_suffix(".json").is_file())
TOKEN = "photo-token"


@pytest.fixture
def upload(client: FlaskClient, api: Api) -> Any:
    """Return a function posting a photo (bytes) to a new game; it returns the response."""
    game = api.create()["id"]
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN

    def post(data: bytes, name: str = "roll.jpg", **form: str) -> Any:
        return client.post(f"/api/games/{game}/rolls",
                           data={"photo": (io.BytesIO(data), name), **form},
                           headers={"X-CSRF-Token": TOKEN})

    post.game = game  # type: ignore[attr-defined]
    return post


def test_upload_over_the_cap_is_413(upload: Any) -> None:
    response = upload(b"\xff\xd8\xff" + b"\0" * MAX_UPLOAD_BYTES)
    assert response.status_code == 413
    assert set(response.get_json()) == {"error"}


def test_json_over_the_cap_is_413(client: FlaskClient) -> None:
    big = json.dumps({"players": ["x" * MAX_UPLOAD_BYTES]})
    response = client.post("/api/games", data=big, content_type="application/json")
    assert response.status_code == 413 and "error" in response.get_json()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "the uploaded photo is empty"),
        (b"hello, I am a text file", "not an image: 'roll.jpg' is not a JPEG, PNG, WebP or BMP"),
        (b"\xff\xd8\xff\xe0 this is no JPEG",
         "not a readable image: truncated JPEG: the file ends before the image does"),
    ],
)
def test_not_an_image_is_400(upload: Any, data: bytes, message: str) -> None:
    response = upload(data)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(message)


def test_missing_photo_field_is_400(client: FlaskClient, api: Api) -> None:
    game = api.create()["id"]
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    response = client.post(f"/api/games/{game}/rolls", data={"version": "1"},
                           headers={"X-CSRF-Token": TOKEN, "Content-Type": "multipart/form-data"})
    assert response.status_code == 400
    assert response.get_json() == {
        "error": "no photo: send the image as the multipart field 'photo'"}


def test_photo_needs_the_csrf_token(client: FlaskClient, api: Api) -> None:
    game = api.create()["id"]
    response = client.post(f"/api/games/{game}/rolls",
                           data={"photo": (io.BytesIO(SAMPLES[0].read_bytes()), "a.jpg")})
    assert response.status_code == 403


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_real_photo_is_read(upload: Any, api: Api, sample: Path) -> None:
    truth = json.loads(sample.with_suffix(".json").read_text())
    response = upload(sample.read_bytes(), sample.name, version="1")
    assert response.status_code == 200, response.get_json()
    reply = response.get_json()
    reading = reply["reading"]
    # vision reports dice left to right; the sidecar lists them in its own order.
    by_x = [v for _, v in sorted(zip([b[0] for b in truth["boxes"]], truth["values"],
                                     strict=True))]
    assert reading["values"] == by_x == reply["dice"] == reply["state"]["dice"]
    assert [d["value"] for d in reading["dice"]] == by_x
    assert all(0 < d["confidence"] <= 1 for d in reading["dice"])
    assert reading["width"] > 0 and reading["height"] > 0
    assert reply["state"]["version"] == 2 and reply["state"]["roll"] == 1
    assert api.state(upload.game)["dice"] == by_x

"""Photo uploads: size cap, checks that it is an image, real photos read by `vision` and
merged with the kept dice."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import cv2
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
        form.setdefault("version", str(api.state(game)["version"]))
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


def photo_of(sample: str, width: int | None = None) -> bytes:
    """Return a sample photo as JPEG bytes, cut to its left *width* pixels when given."""
    image = cv2.imread(str(Path(__file__).parents[2] / "sample_images" / f"{sample}.jpg"))
    ok, jpeg = cv2.imencode(".jpg", image if width is None else image[:, :width])
    assert ok
    return bytes(jpeg)


# sample_01 shows 1 4 1 5 5 left to right; its left 820 pixels show only 1 4 1.
@pytest.mark.parametrize(
    ("first", "kept", "photo", "dice", "roles"),
    [
        pytest.param([2, 2, 2, 5, 5], "3,4", photo_of("sample_01"), [1, 4, 1, 5, 5],
                     ["thrown", "thrown", "thrown", "kept", "kept"], id="photo of all five"),
        pytest.param([2, 2, 2, 5, 5], "3,4", photo_of("sample_01", 820), [1, 4, 1, 5, 5],
                     ["thrown"] * 3, id="photo of the thrown dice"),
        pytest.param([6, 2, 2, 2, 6], "0,4", photo_of("sample_01", 820), [6, 1, 4, 1, 6],
                     ["thrown"] * 3, id="thrown dice fill the free positions"),
    ],
)
def test_photo_roll_merges_the_kept_dice(upload: Any, api: Api, first: list[int], kept: str,
                                         photo: bytes, dice: list[int],
                                         roles: list[str]) -> None:
    api.roll(upload.game, first)
    response = upload(photo, kept=kept, version="2")
    assert response.status_code == 200, response.get_json()
    reply = response.get_json()
    assert reply["dice"] == reply["state"]["dice"] == dice
    assert reply["state"]["kept"] == [int(k) for k in kept.split(",")]  # the marks survive
    assert reply["state"]["roll"] == 2
    assert [d["role"] for d in reply["reading"]["dice"]] == roles
    assert not any(d["doubtful"] for d in reply["reading"]["dice"])
    positions = [d["position"] for d in reply["reading"]["dice"]]
    assert [dice[p] for p in positions] == [d["value"] for d in reply["reading"]["dice"]]


def test_photo_of_fewer_dice_than_thrown_records_nothing(upload: Any, api: Api) -> None:
    api.roll(upload.game, [2, 2, 2, 5, 5])
    response = upload(photo_of("sample_01", 820), kept="4", version="2")
    assert response.status_code == 400
    reply = response.get_json()
    assert reply["error"] == (
        "the photo shows fewer dice than were thrown (3 found, 4 thrown): "
        "set the dice by hand")
    assert (reply["found"], reply["thrown"]) == (3, 4)
    assert [d["value"] for d in reply["reading"]["dice"]] == [1, 4, 1]
    state = api.state(upload.game)
    assert (state["version"], state["roll"], state["dice"]) == (2, 1, [2, 2, 2, 5, 5])


def test_photo_correcting_the_last_roll_keeps_its_kept_dice(upload: Any, api: Api) -> None:
    api.roll(upload.game, [2, 2, 2, 5, 5])
    api.roll(upload.game, [3, 3, 3, 5, 5], kept=[3, 4])
    response = upload(photo_of("sample_01", 820), replace="true", version="3")
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    assert (state["roll"], state["dice"], state["kept"]) == (2, [1, 4, 1, 5, 5], [3, 4])

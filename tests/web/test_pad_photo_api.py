"""POST /api/pad-photo: a photographed pad read and checked column by column, and the
refusals of a photo that holds no pad."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from flask.testing import FlaskClient

PADS = Path(__file__).resolve().parents[2] / "sample_images" / "pads"
TOKEN = "pad-token"


@pytest.fixture
def send(client: FlaskClient) -> Any:
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN

    def post(data: bytes, **form: str) -> Any:
        return client.post("/api/pad-photo", data={"photo": (io.BytesIO(data), "pad.jpg"),
                                                    **form},
                           headers={"X-CSRF-Token": TOKEN})
    return post


def test_a_pad_photo_is_read_and_checked(send: Any) -> None:
    photo = PADS / "hasbro_24.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    response = send(photo.read_bytes(), rules="yahtzee", layout="hasbro")
    assert response.status_code == 200
    body = response.get_json()
    assert (body["layout"], body["found_by"], body["width"], body["height"]) == (
        "hasbro", "ruling", 1600, 1200)
    first = body["columns"][0]
    assert first["name"] == "Game #1" and not first["blank"]
    assert [(p["row"], p["code"]) for p in first["problems"]] == [("grand_total", "wrong_total")]
    assert first["values"]["chance"] == truth["columns"][0]["chance"]
    # The page's grid holds the Yahtzee bonus row as the checks written, or where none
    # are, the bonus points row.
    written = truth["columns"][0]
    checks = written["yahtzee_bonus_checks"]
    assert first["values"]["yahtzee_bonus"] == (
        checks if checks is not None else written["yahtzee_bonus"])
    cell = next(c for c in first["cells"] if c["key"] == "grand_total")
    assert cell["value"] == truth["columns"][0]["grand_total"]
    xs = [x for x, _ in cell["quad"]]
    assert 0 < min(xs) < max(xs) < 1600
    assert [c["blank"] for c in body["columns"]] == [False, False, True, True, True, True]


def test_a_photo_without_the_pad_asked_for_is_refused(send: Any) -> None:
    photo = PADS / "hasbro_24.jpg"
    response = send(photo.read_bytes(), rules="yahtzee", layout="kniffel")
    assert response.status_code == 400
    assert "but a Kniffel block has 20 rows" in response.get_json()["error"]


def test_not_an_image_is_refused(send: Any) -> None:
    response = send(b"rules,yahtzee\n", rules="yahtzee")
    assert response.status_code == 400


def test_a_photo_without_a_pad_says_what_was_looked_for(send: Any) -> None:
    rng = np.random.default_rng(2)
    table = cv2.GaussianBlur(rng.uniform(40, 200, (600, 800, 3)).astype(np.uint8), (0, 0), 5)
    response = send(cv2.imencode(".jpg", table)[1].tobytes(), rules="yahtzee")
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error.startswith("no pad for yahtzee found: pipkeeper printed pad: no pipkeeper "
                            "markers found")
    assert "Hasbro Yahtzee pad: no score pad found in the photo" in error


def test_a_pad_cut_by_the_photo_is_refused(send: Any) -> None:
    photo = cv2.imread(str(PADS / "hasbro_24.jpg"))
    assert photo is not None
    top = cv2.imencode(".jpg", photo[:photo.shape[0] // 2])[1].tobytes()
    response = send(top, rules="yahtzee", layout="hasbro")
    assert response.status_code == 400
    assert "runs off the edge of the photo" in response.get_json()["error"]

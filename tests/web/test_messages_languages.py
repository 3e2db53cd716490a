"""The server's refusals in the request's language: the page's or the API client's
Accept-Language, counts in their plural forms, dice left to right, no Python values."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import AppFactory
from web.messages import MESSAGES, render

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
DICE = f"{LRI}1 2 3 4 7{PDI}"

# Every parameter any message takes, so that each message can be written in each language.
SAMPLE: dict[str, Any] = {
    "dice": (6, 6, 6, 6, 6), "positions": (0, 7), "box": "Chance", "boxes": ("Sixes", "Chance"),
    "name": "Ann", "names": ("Ann", "ann"), "text": "six", "reason": "own_upper",
    "value": 7, "expected": 5, "count": 3, "most": 8, "points": 20, "die": 2, "kept": 4,
    "shows": 5, "game": 12, "given": 2, "current": 3, "number": 7, "found": 2, "thrown": 3,
    "player": 9, "last": 1, "round": 2, "later": 5, "field": "version",
    "wait": 41, "least": 1, "device": 4, "received": 13, "idle": "10", "rate": 8,
    "grace": "20", "width": 3000, "height": 2000, "megapixels": "4",
}


def client_in(app: Flask, language: str | None) -> FlaskClient:
    """A test client whose requests say Accept-Language: *language* (None: no header)."""
    client = app.test_client()
    if language:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def refusal(client: FlaskClient, url: str, body: dict[str, Any], status: int = 400) -> str:
    response = client.post(url, json=body)
    assert response.status_code == status, response.get_json()
    error: str = response.get_json()["error"]
    return error


def new_game(client: FlaskClient, players: list[str] | None = None) -> int:
    response = client.post("/api/games", json={"rules": "yahtzee", "players": players or ["Ann"]})
    assert response.status_code == 201, response.get_json()
    game: int = response.get_json()["id"]
    return game


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (None, "a die shows 1..6, got 7 in 1 2 3 4 7"),
        ("en-GB,en;q=0.8", "a die shows 1..6, got 7 in 1 2 3 4 7"),
        ("he-IL,he;q=0.9", f"בקובייה יש 1 עד 6, התקבל 7 ב־{DICE}"),
        ("gd", f"tha 1 gu 6 air dìsne, fhuaras 7 ann an {DICE}"),
        ("tr-TR", f"bir zar 1 ile 6 arası gösterir, {DICE} içinde 7 geldi"),
        ("th", f"ลูกเต๋าแสดงได้ 1 ถึง 6 แต่ได้ 7 ใน {DICE}"),
    ],
)
def test_a_bad_roll_is_refused_in_the_request_language(
    app: Flask, language: str | None, message: str
) -> None:
    client = client_in(app, language)
    game = new_game(client)
    error = refusal(client, f"/api/games/{game}/rolls", {"dice": [1, 2, 3, 4, 7]})
    assert error == message
    assert "[" not in error and "(" not in error


def test_the_remembered_page_language_wins_over_accept_language(app: Flask) -> None:
    client = client_in(app, "tr")
    client.get("/lang/gd")
    game = new_game(client)
    error = refusal(client, f"/api/games/{game}/scores", {"box": "chance", "version": 1})
    assert error == "roilig na dìsnean mus cuir thu sgòr ann am bogsa"


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("gd", f"bhathar an dùil ri 5 dìsnean, fhuaras 3: {LRI}1 2 3{PDI}"),
        ("he", f"צריכות להיות 5 קוביות, התקבלו 3: {LRI}1 2 3{PDI}"),
        ("th", f"ต้องมีลูกเต๋า 5 ลูก แต่ได้ 3 ลูก: {LRI}1 2 3{PDI}"),
    ],
)
def test_too_few_dice_count_in_plural_forms(app: Flask, language: str, message: str) -> None:
    client = client_in(app, language)
    game = new_game(client)
    assert refusal(client, f"/api/games/{game}/rolls", {"dice": [1, 2, 3]}) == message


def test_a_box_the_joker_forbids_names_the_boxes_in_hebrew(app: Flask) -> None:
    client = client_in(app, "he")
    game = new_game(client)
    version = client.post(f"/api/games/{game}/rolls",
                          json={"dice": [6] * 5, "version": 1}).get_json()
    box = client.post(f"/api/games/{game}/scores",
                      json={"box": "yahtzee", "version": version["state"]["version"]})
    assert box.status_code == 200
    state = client.post(f"/api/games/{game}/rolls", json={
        "dice": [6] * 5, "version": box.get_json()["version"]}).get_json()["state"]
    error = refusal(client, f"/api/games/{game}/scores",
                    {"box": "chance", "version": state["version"]})
    assert error == (
        f"אי אפשר לרשום את {LRI}6 6 6 6 6{PDI} במשבצת צ'אנס: המשבצת העליונה של המספר הזה פנויה, "
        "ולכן חייבים לרשום את היאצי שם; משבצות מותרות: שישיות"
    )


def test_names_are_isolated_and_joined_in_the_language(app: Flask) -> None:
    client = client_in(app, "tr")
    error = refusal(client, "/api/games", {"rules": "yahtzee", "players": ["Ann", "ann"]})
    assert error == f"iki oyuncunun adı aynı: {FSI}Ann{PDI} ve {FSI}ann{PDI}"


def test_a_game_of_another_device_and_an_unknown_game(app: Flask) -> None:
    owner = client_in(app, "gd")
    game = new_game(owner)
    stranger = client_in(app, "gd")
    assert refusal(stranger, f"/api/games/{game}/undo", {"version": 1}, 403).startswith(
        f"cha deach an t-inneal seo a-steach do gheama {game}")
    assert refusal(owner, "/api/join", {"code": "QQQQQQ"}, 404) == (
        f"chan eil geama ann leis a' chòd {FSI}QQQQQQ{PDI}")


@pytest.mark.parametrize(
    ("points", "words"),
    [(1, "1 phuing"), (2, "2 phuing"), (3, "3 puingean"), (11, "11 phuing"), (12, "12 phuing"),
     (19, "19 puingean"), (20, "20 puing"), (0, "0 puing")],
)
def test_gaelic_has_four_plural_forms(app: Flask, points: int, words: str) -> None:
    with app.test_request_context(headers={"Accept-Language": "gd"}):
        message = render("box_filled", {"box": "Chance", "points": points}, "")
    assert message == f"tha {words} ann an Seans mu thràth"


@pytest.mark.parametrize(
    ("language", "one", "two", "many"),
    [
        ("he", "במשבצת צ'אנס כבר רשומה 1 נקודה", "במשבצת צ'אנס כבר רשומות 2 נקודות",
         "במשבצת צ'אנס כבר רשומות 20 נקודות"),
        ("tr", "Şans kutusunda zaten 1 puan var", "Şans kutusunda zaten 2 puan var",
         "Şans kutusunda zaten 20 puan var"),
        ("th", "ช่อง โอกาส มี 1 แต้มอยู่แล้ว", "ช่อง โอกาส มี 2 แต้มอยู่แล้ว",
         "ช่อง โอกาส มี 20 แต้มอยู่แล้ว"),
    ],
)
def test_plural_forms_of_the_other_languages(
    app: Flask, language: str, one: str, two: str, many: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        written = [render("box_filled", {"box": "Chance", "points": n}, "") for n in (1, 2, 20)]
    assert written == [one, two, many]


@pytest.mark.parametrize("language", ["en", "gd", "he", "tr", "th"])
def test_every_message_is_written_without_python_values(app: Flask, language: str) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        for code in MESSAGES:
            message = render(code, SAMPLE, english="English")
            if language == "en":
                assert message == "English"
                continue
            assert message and message != "English", code
            assert not any(mark in message for mark in ("[", "('", "%(", "{", "None")), (
                code, message)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"dice": None},
         f"'dice' חייב להיות 5 קוביות, כל אחת בין 1 ל־6, למשל {LRI}6 6 4 6 6{PDI}"),
        ({"dice": "six"},
         f"אי אפשר לקרוא קוביות מתוך {FSI}six{PDI}: הקלידו 5 קוביות, למשל {LRI}6 6 4 6 6{PDI}"),
        ({"dice": [1, 2, 3, 4, 5], "kept": 7}, "'kept' חייב להיות רשימה של מקומות 0 עד 4"),
        ({"dice": [1, 2, 3, 4, 5], "kept": "x"}, "'kept' חייב להיות מספר שלם"),
        ({"dice": [1, 2, 3, 4, 5], "replace": 3}, "'replace' חייב להיות true או false"),
    ],
)
def test_bad_fields_are_refused_in_hebrew(app: Flask, body: dict[str, Any], message: str) -> None:
    client = client_in(app, "he")
    game = new_game(client)
    assert refusal(client, f"/api/games/{game}/rolls", body) == message


def test_a_body_that_is_not_json_is_refused_in_thai(app: Flask) -> None:
    client = client_in(app, "th")
    response = client.post("/api/games", data="{", content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["error"] == "เนื้อหาของคำขอไม่ใช่ออบเจกต์ JSON"


def test_a_busy_database_is_explained_in_gaelic(app: Flask, database: Path) -> None:
    client = client_in(app, "gd")
    game = new_game(client)
    other = sqlite3.connect(database, timeout=0)  # another program holds the database
    other.execute("BEGIN IMMEDIATE")
    try:
        error = refusal(client, f"/api/games/{game}/rolls", {"dice": [1, 2, 3, 4, 5],
                                                             "version": 1}, 503)
    finally:
        other.rollback()
        other.close()
    assert error == ("tha an stòr-dàta trang: cha deach dad atharrachadh; "
                     "feuch a-rithist an ceann mionaid")


ROOT = Path(__file__).resolve().parents[2]


def test_every_code_an_error_raises_has_its_message() -> None:
    raised = {code for package in ("scorekeeper", "web") for path in (ROOT / package).rglob("*.py")
              for code in re.findall(r'\bcode="([a-z_]+)"', path.read_text(encoding="utf-8"))}
    assert raised >= {"die_value", "box_not_allowed", "not_joined", "json_bad"}
    assert sorted(raised - set(MESSAGES)) == []


def test_too_many_wrong_join_codes_are_refused_in_gaelic(make_app: AppFactory) -> None:
    client = client_in(make_app(JOIN_FAILURES_PER_MINUTE=2), "gd")
    for _ in range(2):
        refusal(client, "/api/join", {"code": "ZZZZZZ"}, 404)
    error = refusal(client, "/api/join", {"code": "ZZZZZZ"}, 429)
    wait = client.post("/api/join", json={"code": "ZZZZZZ"}).headers["Retry-After"]
    assert error == ("cus chòdan pàirteachaidh ceàrr on t-seòladh seo: 2 sa mhionaid air a char "
                     f"as motha; feuch a-rithist an ceann {wait} s")


def test_too_many_wrong_codes_from_everyone_are_refused_in_thai(make_app: AppFactory) -> None:
    app = make_app(JOIN_FAILURES_ALL_PER_MINUTE=1)
    refusal(client_in(app, "th"), "/api/join", {"code": "ZZZZZZ"}, 404)
    error = refusal(client_in(app, "th"), "/api/join", {"code": "ZZZZZZ"}, 429)
    assert re.fullmatch(r"รหัสเข้าร่วมผิดจากทุกที่อยู่มากเกินไป: ไม่เกิน 1 ครั้งต่อนาที "
                        r"ลองใหม่ในอีก \d+ วินาที", error), error


def test_too_many_new_games_are_refused_in_turkish(make_app: AppFactory) -> None:
    client = client_in(make_app(GAMES_PER_MINUTE=1), "tr")
    new_game(client)
    error = refusal(client, "/api/games", {"players": ["Ann"]}, 429)
    assert re.fullmatch(r"bu adresten çok fazla yeni oyun: dakikada en çok 1; \d+ sn sonra "
                        r"yeniden dene", error), error


def test_bad_paging_is_refused_in_hebrew(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "he"
    response = client.get("/api/games?limit=500")
    assert (response.status_code, response.get_json()["error"]) == (
        400, "'limit' חייב להיות מספר שלם בין 1 ל־200")

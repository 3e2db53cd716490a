"""Maxi Yatzy on the web: its pad in every language, six dice through the API (typed, kept,
a photo's dice merged), saved rolls in the state, the frames route's expect up to six."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import Dice
from tests.conftest import AppFactory
from tests.web.conftest import Api
from vision import Die
from vision.reading import judge
from web.errors import ApiError
from web.frames import _expect_of
from web.pages import card_layout
from web.rethrow import merge

TOKEN = "maxi-token"
MAXI_PAD = [
    ("Ones", ""), ("Twos", ""), ("Threes", ""), ("Fours", ""), ("Fives", ""), ("Sixes", ""),
    ("Sum", ""), ("Bonus", "Score 100 if the sum is 84 or over"),
    ("One Pair", "Two alike: add those two dice"),
    ("Two Pairs", "Two different pairs: add those four dice"),
    ("Three Pairs", "Three different pairs: add all six dice"),
    ("Three of a Kind", "Three alike: add those three dice"),
    ("Four of a Kind", "Four alike: add those four dice"),
    ("Five of a Kind", "Five alike: add those five dice"),
    ("Small Straight", "1-2-3-4-5: score 15"),
    ("Large Straight", "2-3-4-5-6: score 20"),
    ("Full Straight", "1-2-3-4-5-6: score 21"),
    ("Full House", "Three and two alike: add those five dice"),
    ("Villa", "Two sets of three alike: add all six dice"),
    ("Tower", "Four and two alike: add all six dice"),
    ("Chance", "Score total of all 6 dice"),
    ("Maxi Yatzy", "6 of a kind: score 100"),
    ("Total", ""),
]


@pytest.fixture
def quiet_app(make_app: AppFactory) -> Flask:
    """An app that does not solve tables in the background when a game page opens."""
    return make_app(ADVISOR_WARM=False)


def test_the_maxi_yatzy_pad_in_english(quiet_app: Flask) -> None:
    with quiet_app.test_request_context():
        rows = card_layout("maxi-yatzy")
    assert [(row["label"], row["how"]) for row in rows] == [
        (label, how or (f"Count and add only {n}s" if n <= 6 else ""))
        for n, (label, how) in enumerate(MAXI_PAD, start=1)
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("gd", ["Trì Paidhrichean", "Dìreach Slàn", "Taigh Mòr", "Tùr", "Maxi Yatzy",
                "Sgòr 100 ma tha an t-suim 84 no barrachd"]),
        ("he", ["שלושה זוגות", "חמישייה", "סטרייט מלא", "וילה", "מגדל", "מקסי יאצי"]),
        ("tr", ["Üç Çift", "Tam Düz", "Villa", "Kule", "6'sı aynı: 100 puan"]),
        ("th", ["สามคู่", "สเตรทเต็ม", "วิลล่า", "หอคอย", "แม็กซี่ยัตซี"]),
    ],
)
def test_the_maxi_yatzy_pad_in_every_language(quiet_app: Flask, language: str,
                                              words: list[str]) -> None:
    with quiet_app.test_request_context(headers={"Accept-Language": language}):
        rows = card_layout("maxi-yatzy")
    shown = {row["label"] for row in rows} | {row["how"] for row in rows}
    assert set(words) <= shown
    assert not shown & {"Three Pairs", "Full Straight", "Tower", "Score total of all 6 dice"}


def test_the_new_game_form_offers_maxi_yatzy(quiet_app: Flask) -> None:
    client = quiet_app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "he"
    html = client.get("/").get_data(as_text=True)
    options = dict(re.findall(r'<option value="([^"]+)">([^<]+)</option>', html))
    assert options["maxi-yatzy"] == "מקסי יאצי"
    assert options["maxi-yatzy+in-order"] == "מקסי יאצי, משבצות לפי הסדר"


def test_a_maxi_yatzy_game_page_and_board(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann", "Ben"], rules="maxi-yatzy")
    assert (game["rules"], game["game"], game["dice_count"]) == ("maxi-yatzy", "maxi-yatzy", 6)
    assert (game["saves_rolls"], game["saved_rolls"], game["max_rolls"]) == (True, [0, 0], 3)
    for url in (f"/games/{game['id']}", f"/games/{game['id']}/board"):
        response = api.client.get(url)
        assert response.status_code == 200
        assert "Maxi Yatzy" in response.get_data(as_text=True)


def maxi_game(app: Flask, language: str | None) -> tuple[Api, int]:
    """Return an API client asking in *language* and a new Maxi Yatzy game of one player."""
    client = app.test_client()
    if language:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    api = Api(client)
    return api, api.create(["Ann"], rules="maxi-yatzy")["id"]


def test_six_dice_rolls_and_saved_rolls_through_the_api(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann", "Ben"], rules="maxi-yatzy")["id"]
    reply = api.roll(game, [1, 2, 3, 4, 5, 6])
    assert reply["suggestions"][0] == {"box": "full_straight", "points": 21, "bonus": 0,
                                       "zero": False, "joker": None, "reason": None}
    state = api.score(game, "full_straight")
    assert (state["saved_rolls"], state["current_player"], state["rolls_left"]) == ([2, 0], 1, 3)
    api.roll(game, "666555")
    api.roll(game, [6, 6, 6, 5, 5, 6], kept=[0, 1, 2, 3, 4])
    state = api.score(game, "tower")
    assert state["cards"][1]["boxes"]["tower"] == 34
    assert (state["saved_rolls"], state["max_rolls"], state["rolls_left"]) == ([2, 1], 5, 5)
    for _ in range(4):
        state = api.roll(game, [6, 6, 6, 6, 6, 6])["state"]
    assert (state["roll"], state["rolls_left"], state["saved_rolls"]) == (4, 1, [1, 1])
    state = api.post(f"/api/games/{game}/undo", {"version": state["version"]})
    assert (state["roll"], state["rolls_left"], state["saved_rolls"]) == (3, 2, [2, 1])


@pytest.mark.parametrize(
    ("dice", "language", "message"),
    [
        ([6, 6, 6, 5, 5], None, "expected 6 dice, got 5: 6 6 6 5 5"),
        ("66655", None, "expected 6 dice, got 5: 6 6 6 5 5 (from '66655')"),
        ([6, 6, 6, 5, 5], "tr", "6 zar bekleniyordu, 5 zar geldi: \u20666 6 6 5 5\u2069"),
        ("six", None, "cannot read dice from 'six': use e.g. '6 6 4 6 6 1'"),
        ("six", "tr", "\u2068six\u2069 zar olarak okunamıyor: 6 zar yaz, örneğin "
                      "\u20666 6 4 6 6 1\u2069"),
        ("six", "he", "אי אפשר לקרוא קוביות מתוך \u2068six\u2069: הקלידו 6 קוביות, למשל "
                      "\u20666 6 4 6 6 1\u2069"),
        ([6, 6, 6, 5, 5, "x"], None, "'dice' must be whole numbers 1..6, got 'x' in "
                                     "[6, 6, 6, 5, 5, 'x']"),
        ([6, 6, 6, 5, 5, "x"], "th", "'dice' ต้องเป็นลูกเต๋า 6 ลูก ลูกละ 1 ถึง 6 เช่น "
                                     "\u20666 6 4 6 6 1\u2069"),
        ({"a": 1}, None, "'dice' must be a list of six values 1..6, got {'a': 1}"),
    ],
)
def test_dice_other_than_six_are_refused_for_maxi_yatzy(quiet_app: Flask, dice: object,
                                                        language: str | None,
                                                        message: str) -> None:
    api, game = maxi_game(quiet_app, language)
    assert api.roll(game, dice, status=400)["error"] == message


@pytest.mark.parametrize(
    ("kept", "language", "message"),
    [
        ([6], None, "kept dice are positions 0..5, each once, got 6"),
        ([6], "gd", "'s e àiteachan 0 gu 5 a th' anns na dìsnean glèidhte, gach fear aon "
                    "turas, fhuaras \u20666\u2069"),
        ({"a": 1}, None, "'kept' must be a list of positions 0..5, got {'a': 1}"),
        ({"a": 1}, "he", "'kept' חייב להיות רשימה של מקומות 0 עד 5"),
        ({"a": 1}, "tr", "'kept' 0 ile 5 arası sıralardan oluşan bir liste olmalı"),
    ],
)
def test_kept_positions_of_six_dice(quiet_app: Flask, kept: object, language: str | None,
                                    message: str) -> None:
    api, game = maxi_game(quiet_app, language)
    api.roll(game, [1, 2, 3, 4, 5, 6])
    assert api.roll(game, [1, 2, 3, 4, 5, 6], kept=kept, status=400)["error"] == message
    assert api.state(game)["dice"] == [1, 2, 3, 4, 5, 6]
    assert api.roll(game, [1, 2, 3, 4, 5, 5], kept=[5 - 1])["state"]["kept"] == [4]


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (None, "only 5 rolls this turn (3 and 2 saved): choose a box to score"),
        ("th", "ไม่เหลือการทอยในตานี้แล้ว รวมถึงการทอยที่เก็บไว้: เลือกช่องเพื่อลงคะแนน"),
    ],
)
def test_no_roll_past_the_saved_ones(quiet_app: Flask, language: str | None,
                                     message: str) -> None:
    api, game = maxi_game(quiet_app, language)
    api.roll(game, [1, 2, 3, 4, 5, 6])
    api.score(game, "full_straight")
    for _ in range(5):
        api.roll(game, [1, 1, 1, 1, 1, 1])
    assert api.roll(game, [1, 1, 1, 1, 1, 1], status=400)["error"] == message


def test_a_box_corrected_with_six_dice(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann"], rules="maxi-yatzy")["id"]
    api.roll(game, [1, 2, 3, 4, 5, 6])
    version = api.score(game, "full_straight")["version"]
    body = {"player": 0, "box": "full_straight", "dice": [1, 2, 3, 4, 5, 5],
            "to_box": "small_straight", "version": version}
    state = api.post(f"/api/games/{game}/corrections", body)
    assert state["cards"][0]["boxes"]["small_straight"] == 15
    assert state["saved_rolls"] == [2]
    short = {**body, "dice": [1, 2, 3, 4, 5], "version": state["version"]}
    assert api.post(f"/api/games/{game}/corrections", short, 400)["error"] == (
        "expected 6 dice, got 5: 1 2 3 4 5")


def found(*values: int) -> tuple[Die, ...]:
    return judge([Die(value, (40 * i, 0, 40 * i + 30, 30), 0.9)
                  for i, value in enumerate(values)])


def test_a_photo_of_six_dice_or_of_the_thrown_ones() -> None:
    assert merge(found(1, 3, 3, 5, 6, 6), {}, 6).dice == Dice.parse("133566", 6)
    kept = merge(found(2, 4), {0: 6, 1: 6, 2: 6, 3: 6}, 6)
    assert (kept.dice, kept.positions) == (Dice.parse("666624", 6), (4, 5))


def test_a_frame_may_expect_up_to_the_games_dice() -> None:
    assert _expect_of("6", 6) == 6
    with pytest.raises(ApiError, match=r"'expect' must be how many dice were thrown, 0 to 5"):
        _expect_of("6", 5)


SAMPLE = Path(__file__).parents[2] / "sample_images" / "sample_01.jpg"  # 4 1 5 5 1


def test_a_photo_of_the_thrown_dice_makes_a_roll_of_six(quiet_app: Flask) -> None:
    client = quiet_app.test_client()
    with client.session_transaction() as session:
        session["csrf_token"] = TOKEN
    api = Api(client)
    game = api.create(["Ann"], rules="maxi-yatzy")["id"]

    def photo(**form: str) -> Any:
        form.setdefault("version", str(api.state(game)["version"]))
        return client.post(f"/api/games/{game}/rolls",
                           data={"photo": (io.BytesIO(SAMPLE.read_bytes()), "roll.jpg"), **form},
                           headers={"X-CSRF-Token": TOKEN})

    too_few = photo()  # five dice found, six thrown
    assert too_few.status_code == 400
    assert (too_few.get_json()["found"], too_few.get_json()["thrown"]) == (5, 6)
    api.roll(game, [6, 2, 2, 2, 2, 2])
    reply = photo(kept="0")
    assert reply.status_code == 200, reply.get_json()
    assert sorted(reply.get_json()["dice"][1:]) == [1, 1, 4, 5, 5]
    assert (reply.get_json()["dice"][0], reply.get_json()["state"]["kept"]) == (6, [0])


def test_statistics_count_the_maxi_yatzies(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann"], rules="maxi-yatzy+in-order")["id"]
    state = api.play_out(game, dice=(5, 5, 5, 5, 5, 5))
    boxes = state["cards"][0]["boxes"]
    assert (boxes["fives"], boxes["five_of_a_kind"], boxes["maxi_yatzy"]) == (30, 25, 100)
    assert state["saved_rolls"] == [40]
    [player] = api.get("/api/stats")["players"]
    assert (player["player"], player["games"], player["yahtzees"]) == ("Ann", 1, 1)

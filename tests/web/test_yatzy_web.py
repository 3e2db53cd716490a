"""Scandinavian Yatzy and boxes in order on the web: pages, words in every language, the API."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from tests.conftest import AppFactory
from tests.web.conftest import Api
from web.pages import card_layout

YATZY_SLUGS = ("ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs",
               "three_of_a_kind", "four_of_a_kind", "small_straight", "large_straight",
               "full_house", "chance", "yatzy")
YATZY_PAD = [
    ("Ones", ""), ("Twos", ""), ("Threes", ""), ("Fours", ""), ("Fives", ""), ("Sixes", ""),
    ("Sum", ""), ("Bonus", "Score 50 if the sum is 63 or over"),
    ("One Pair", "Two alike: add those two dice"),
    ("Two Pairs", "Two different pairs: add those four dice"),
    ("Three of a Kind", "Three alike: add those three dice"),
    ("Four of a Kind", "Four alike: add those four dice"),
    ("Small Straight", "1-2-3-4-5: score 15"),
    ("Large Straight", "2-3-4-5-6: score 20"),
    ("Full House", "Three and two alike: add all dice"),
    ("Chance", "Score total of all 5 dice"),
    ("Yatzy", "5 of a kind: score 50"),
    ("Total", ""),
]


@pytest.fixture
def quiet_app(make_app: AppFactory) -> Flask:
    """An app that does not solve tables in the background when a game page opens."""
    return make_app(ADVISOR_WARM=False)


def test_the_yatzy_pad_in_english(quiet_app: Flask) -> None:
    with quiet_app.test_request_context():
        rows = card_layout("yatzy")
    assert [(row["label"], row["how"]) for row in rows] == [
        (label, how or (f"Count and add only {n}s" if n <= 6 else ""))
        for n, (label, how) in enumerate(YATZY_PAD, start=1)
    ]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("gd", ["Aon Phaidhir", "Dà Phaidhir", "Suim", "Iomlan",
                "Sgòr 50 ma tha an t-suim 63 no barrachd"]),
        ("he", ["זוג", "שני זוגות", "יאצי", "סכום", "סך הכול"]),
        ("tr", ["Bir Çift", "İki Çift", "Ara Toplam", "1-2-3-4-5: 15 puan", "Toplam"]),
        ("th", ["หนึ่งคู่", "สองคู่", "ยัตซี", "ผลรวม", "รวมทั้งหมด"]),
    ],
)
def test_the_yatzy_pad_in_every_language(quiet_app: Flask, language: str, words: list[str]) -> None:
    with quiet_app.test_request_context(headers={"Accept-Language": language}):
        rows = card_layout("yatzy")
    shown = {row["label"] for row in rows} | {row["how"] for row in rows}
    assert set(words) <= shown
    assert not shown & {"One Pair", "Two Pairs", "Sum", "Total", "Three alike: add those three"
                         " dice"}


def test_the_new_game_form_offers_yatzy_and_its_variants(quiet_app: Flask) -> None:
    client = quiet_app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "tr"
    html = client.get("/").get_data(as_text=True)
    options = dict(re.findall(r'<option value="([^"]+)">([^<]+)</option>', html))
    assert options["yatzy"] == "Yatzy"
    assert options["yatzy+fh5+tp4"] == (
        "Yatzy, beşi aynı da full house sayılır, dördü aynı da iki çift sayılır")
    assert options["yatzy+in-order"] == "Yatzy, kutular sırayla"
    assert options["yacht+in-order"] == "Yat, kutular sırayla"


def test_a_yatzy_game_page_and_board(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann"], rules="yatzy+fh5")
    assert (game["rules"], game["game"]) == ("yatzy+fh5", "yatzy")
    for url in (f"/games/{game['id']}", f"/games/{game['id']}/board"):
        response = api.client.get(url)
        assert response.status_code == 200
        assert "Yatzy, five alike is a full house too" in response.get_data(as_text=True)


def test_a_second_yatzy_is_offered_without_joker_or_bonus(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann"], rules="yatzy")["id"]
    api.roll(game, [4, 4, 4, 4, 4])
    assert api.score(game, "yatzy")["cards"][0]["boxes"]["yatzy"] == 50
    suggestions = api.roll(game, [6, 6, 6, 6, 6])["suggestions"]
    assert suggestions[0] == {"box": "sixes", "points": 30, "bonus": 0, "zero": False,
                              "joker": None, "reason": None}
    assert {(s["bonus"], s["joker"]) for s in suggestions} == {(0, None)}
    assert len(suggestions) == 14


@pytest.mark.parametrize(
    ("language", "reason", "allowed"),
    [
        (None, "box 'full_house' is not allowed for 6 6 6 5 5: boxes are filled in order, "
               "top to bottom: next is 'ones'", "allowed boxes: ones"),
        ("tr", "kutular sırayla, yukarıdan aşağıya doldurulur: yalnızca sıradaki boş kutu "
               "doldurulabilir", "Birler"),
    ],
)
def test_a_box_out_of_order_is_refused(quiet_app: Flask, language: str | None, reason: str,
                                       allowed: str) -> None:
    client = quiet_app.test_client()
    if language:
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    api = Api(client)
    game = api.create(["Ann"], rules="yatzy+in-order")["id"]
    reply = api.roll(game, [6, 6, 6, 5, 5])
    assert [s["box"] for s in reply["suggestions"]] == ["ones"]
    error: str = api.score(game, "full_house", status=400)["error"]
    assert reason in error
    assert error.endswith(allowed)
    assert api.state(game)["cards"][0]["boxes"]["full_house"] is None


def test_an_in_order_refusal_in_hebrew_gives_the_reason(quiet_app: Flask) -> None:
    client = quiet_app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "he"
    api = Api(client)
    game = api.create(["Ann"], rules="yacht+in-order")["id"]
    api.roll(game, [6, 6, 6, 5, 5])
    error: str = api.score(game, "choice", status=400)["error"]
    assert "ממלאים את המשבצות לפי הסדר, מלמעלה למטה" in error
    assert error.endswith("משבצות מותרות: יחידות")


def test_the_audit_reads_a_yatzy_pad(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    boxes: dict[str, Any] = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15,
                             "sixes": 18, "one_pair": 12, "two_pairs": 22, "yatzy": 50}
    reply = api.post("/api/audit", {"rules": "yatzy", "boxes": boxes, "finished": False,
                                    "totals": {"upper_subtotal": 63, "upper_bonus": 35}})
    assert [(p["row"], p["code"], p["expected"]) for p in reply["problems"]] == [
        ("upper_bonus", "wrong_bonus", "50")]


def test_statistics_count_the_yatzies(quiet_app: Flask) -> None:
    api = Api(quiet_app.test_client())
    game = api.create(["Ann"], rules="yatzy+in-order")["id"]
    state = api.play_out(game, dice=(5, 5, 5, 5, 5))
    assert state["cards"][0]["boxes"]["yatzy"] == 50
    # Fives 25; One Pair 10, Three 15, Four 20, Chance 25, Yatzy 50; no bonus
    assert state["cards"][0]["totals"]["grand_total"] == 25 + 10 + 15 + 20 + 25 + 50
    [player] = api.get("/api/stats")["players"]
    assert (player["player"], player["games"], player["yahtzees"]) == ("Ann", 1, 1)


def test_hints_for_a_yatzy_game(api: Api) -> None:
    game = api.create(["Ann"], rules="yatzy")["id"]
    api.roll(game, [1, 2, 3, 4, 6])
    api.roll(game, [2, 2, 3, 4, 6], kept=[1, 2, 3, 4])
    api.roll(game, [2, 5, 3, 4, 6], kept=[2, 3, 4])
    data = api.get(f"/api/games/{game}/hint")
    best = data["options"][0]
    assert (best["kind"], best["box"], best["points"], best["loss"]) == (
        "score", "large_straight", 20, 0)
    assert {o["kind"] for o in data["options"]} == {"score"}
    assert {o["box"] for o in data["options"]} == set(YATZY_SLUGS)
    assert {o["bonus"] for o in data["options"]} == {0}


def test_hints_and_review_of_a_game_in_order(api: Api) -> None:
    game = api.create(["Ann"], rules="yatzy+in-order")["id"]
    api.roll(game, [1, 1, 1, 1, 6])
    scores = [o for o in api.get(f"/api/games/{game}/hint")["options"] if o["kind"] == "score"]
    assert [(o["box"], o["points"]) for o in scores] == [("ones", 4)]
    api.score(game, "ones")
    api.play_out(game)
    data = api.get(f"/api/games/{game}/review")
    assert data["rules"] == "yatzy+in-order"
    assert data["expected_score"] == pytest.approx(122.5585274, abs=1e-7)
    [player] = data["players"]
    assert [c["chosen"]["box"] for c in player["choices"]] == list(YATZY_SLUGS)

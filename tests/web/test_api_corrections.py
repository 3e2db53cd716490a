"""Correcting a box filled turns ago through the API: preview, correction, 400, 409, 403, undo."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from tests.web.conftest import Api


def three_rounds(api: Api) -> int:
    """Ann and Ben play two rounds and Ann a third; return the game id."""
    game = int(api.create()["id"])
    for dice, box in [([2, 3, 4, 5, 5], "small_straight"), ([1, 1, 1, 2, 3], "aces"),
                      ([6, 6, 6, 1, 2], "sixes"), ([2, 2, 2, 5, 5], "full_house"),
                      ([4, 4, 4, 4, 1], "fours")]:
        api.roll(game, dice)
        api.score(game, box)
    return game


def correct(api: Api, game: int, status: int = 200, **body: Any) -> dict[str, Any]:
    return api.post(f"/api/games/{game}/corrections", body, status)


def test_a_correction_changes_the_totals_and_keeps_the_later_turns(api: Api) -> None:
    game = three_rounds(api)
    before = api.state(game)
    assert before["cards"][0]["totals"]["grand_total"] == 30 + 18 + 16
    preview = api.post(f"/api/games/{game}/corrections/preview",
                       {"player": 0, "box": "small_straight", "dice": [2, 3, 4, 5, 6],
                        "to_box": "large_straight"})["correction"]
    assert preview == {
        "type": "correction", "player": 0, "round": 1, "box": "small_straight",
        "to_box": "large_straight",
        "before": {"dice": [2, 3, 4, 5, 5], "points": 30, "total": 64},
        "after": {"dice": [2, 3, 4, 5, 6], "points": 40, "total": 74},
    }
    assert api.state(game) == before  # a preview changes nothing
    state = correct(api, game, player=0, box="small_straight", dice="2 3 4 5 6",
                    to_box="large_straight", version=before["version"])
    card = state["cards"][0]
    assert (card["boxes"]["small_straight"], card["boxes"]["large_straight"]) == (None, 40)
    assert card["totals"]["grand_total"] == 74
    assert state["cards"][1] == before["cards"][1]
    assert (state["current_player"], state["turn"], state["version"]) == (
        1, 3, before["version"] + 1)
    assert state["history"][:-1] == before["history"]  # every turn stayed, as entered
    assert state["history"][-1] == preview
    undone = api.post(f"/api/games/{game}/undo", {"version": state["version"]})
    assert undone["cards"] == before["cards"] and undone["history"] == before["history"]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({"player": 0, "box": "chance", "dice": [1, 2, 3, 4, 5]},
         "Ann's Chance is still open: only a filled box can be corrected"),
        ({"player": 0, "box": "sixes", "dice": [6, 6, 6, 1, 2]},
         "Ann's Sixes already holds 6 6 6 1 2: the correction changes nothing"),
        ({"player": 1, "box": "aces", "dice": [1, 1, 1, 2, 3], "to_box": "full_house"},
         "correcting Ben's round 1 would make round 2 (2 2 2 5 5 in Full House) illegal"),
        ({"player": 2, "box": "aces", "dice": [1, 1, 1, 2, 3]}, "no player 2: seats are 0 to 1"),
        ({"player": 0, "box": "sevens", "dice": [1, 1, 1, 2, 3]}, "sevens"),
        ({"player": 0, "box": "aces", "dice": [1, 1, 7, 2, 3]}, "got 7"),
        ({"box": "aces", "dice": [1, 1, 1, 2, 3]}, "'player' is required"),
        ({"player": 0, "box": 3, "dice": [1, 1, 1, 2, 3]}, "'box' must be a box slug, got 3"),
    ],
)
def test_an_illegal_correction_is_400_and_changes_nothing(
    api: Api, body: dict[str, Any], error: str
) -> None:
    game = three_rounds(api)
    before = api.state(game)
    assert error in correct(api, game, 400, version=before["version"], **body)["error"]
    assert error in api.post(f"/api/games/{game}/corrections/preview", body, 400)["error"]
    assert api.state(game) == before


def test_a_stale_correction_is_409_with_the_current_state(api: Api) -> None:
    game = three_rounds(api)
    version = api.state(game)["version"]
    api.roll(game, [1, 2, 3, 4, 5])  # another device records Ben's roll meanwhile
    reply = correct(api, game, 409, player=0, box="sixes", dice=[6, 6, 6, 6, 2],
                    version=version)
    assert reply["state"]["version"] == version + 1
    assert reply["state"]["cards"][0]["boxes"]["sixes"] == 18
    assert "version" in correct(api, game, 400, player=0, box="sixes",
                                dice=[6, 6, 6, 6, 2])["error"]


def test_a_finished_game_can_be_corrected(api: Api) -> None:
    game = int(api.create(["Ann"], rules="yacht")["id"])
    state = api.play_out(game, (2, 3, 4, 5, 6))
    total = state["cards"][0]["totals"]["grand_total"]
    box = state["history"][1]["box"]  # the first box filled
    points = state["cards"][0]["boxes"][box]
    fixed = correct(api, game, player=0, box=box, dice=[1, 1, 1, 1, 1], version=state["version"])
    assert fixed["finished"] is True
    assert fixed["cards"][0]["totals"]["grand_total"] == total - points + (
        fixed["cards"][0]["boxes"][box])


def test_a_device_that_did_not_join_cannot_correct(api: Api, app: Flask) -> None:
    game = three_rounds(api)
    stranger = Api(app.test_client())
    body = {"player": 0, "box": "sixes", "dice": [6, 6, 6, 6, 2], "version": 11}
    assert stranger.post(f"/api/games/{game}/corrections", body, 403)["error"].startswith(
        "this device has not joined game")
    stranger.post(f"/api/games/{game}/corrections/preview", body, 403)
    assert api.state(game)["cards"][0]["boxes"]["sixes"] == 18


def test_each_card_says_the_dice_of_its_filled_boxes(api: Api) -> None:
    game = three_rounds(api)
    cards = api.state(game)["cards"]
    assert cards[0]["dice"] == {"small_straight": [2, 3, 4, 5, 5], "sixes": [6, 6, 6, 1, 2],
                                "fours": [4, 4, 4, 4, 1]}
    assert cards[1]["dice"] == {"aces": [1, 1, 1, 2, 3], "full_house": [2, 2, 2, 5, 5]}
    state = correct(api, game, player=1, box="aces", dice=[1, 1, 2, 2, 3], version=11)
    assert state["cards"][1]["dice"]["aces"] == [1, 1, 2, 2, 3]


@pytest.mark.parametrize(
    ("language", "error"),
    [
        ("tr", "\u2068Ben\u2069 için Altılar hâlâ boş"),
        ("he", "אין שחקן 5: המקומות הם 0 עד 1"),
    ],
)
def test_refusals_are_in_the_page_language(api: Api, language: str, error: str) -> None:
    game = three_rounds(api)
    box = "sixes" if language == "tr" else "aces"
    body = {"player": 1 if language == "tr" else 5, "box": box, "dice": [6, 6, 6, 1, 1]}
    api.client.set_cookie("pipkeeper_lang", language)
    reply = api.post(f"/api/games/{game}/corrections/preview", body, 400)
    assert reply["error"].startswith(error), reply


def test_a_joker_that_a_correction_breaks_says_why_in_the_page_language(api: Api) -> None:
    game = int(api.create(["Bob"])["id"])
    for dice, box in [([1, 1, 1, 1, 1], "yahtzee"), ([6, 6, 6, 1, 2], "sixes"),
                      ([6, 6, 6, 6, 6], "full_house")]:
        api.roll(game, dice)
        api.score(game, box)
    api.client.set_cookie("pipkeeper_lang", "gd")
    body = {"player": 0, "box": "sixes", "dice": [6, 6, 6, 1, 2], "to_box": "chance"}
    error = api.post(f"/api/games/{game}/corrections/preview", body, 400)["error"]
    assert error.startswith("Nan ceartaicheadh tu cuairt 2 aig \u2068Bob\u2069, bhiodh cuairt 3 "
                            "(\u20666 6 6 6 6\u2069 ann an "), error
    assert error.endswith("; cha deach dad atharrachadh")

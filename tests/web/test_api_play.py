"""Playing through the API: rolls, kept dice, corrections, scores, undo, versions, play again."""

from __future__ import annotations

from tests.conftest import AppFactory
from tests.web.conftest import Api


def test_roll_score_undo(api: Api) -> None:
    game = api.create()["id"]
    reply = api.roll(game, [1, 3, 3, 5, 6])
    assert reply["reading"] is None and reply["dice"] == [1, 3, 3, 5, 6]
    state = reply["state"]
    assert (state["roll"], state["dice"], state["version"]) == (1, [1, 3, 3, 5, 6], 2)
    assert reply["suggestions"] == state["suggestions"]
    assert reply["suggestions"][0] == {"box": "chance", "points": 18, "bonus": 0, "zero": False,
                                       "joker": None, "reason": None}
    assert {s["box"]: s["points"] for s in reply["suggestions"]}["threes"] == 6

    state = api.score(game, "threes", version=2)
    assert state["cards"][0]["boxes"]["threes"] == 6
    assert state["cards"][0]["totals"]["upper_subtotal"] == 6
    assert (state["current_player"], state["roll"], state["dice"], state["version"]) == (
        1, 0, None, 3)
    assert state["history"][-1] == {"type": "score", "player": 0, "dice": [1, 3, 3, 5, 6],
                                    "box": "threes", "points": 6, "bonus": 0}

    state = api.post(f"/api/games/{game}/undo", {"version": 3})
    assert state["cards"][0]["boxes"]["threes"] is None
    assert (state["current_player"], state["roll"], state["dice"], state["version"]) == (
        0, 1, [1, 3, 3, 5, 6], 4)
    assert state["can_undo"] is True


def test_three_rolls_with_kept_dice(api: Api) -> None:
    game = api.create(["Anna"], rules="yacht")["id"]
    api.roll(game, "1 2 2 4 6")
    api.roll(game, [4, 2, 2, 4, 6], kept=[1, 2])
    reply = api.roll(game, "4-4-1-4-4", kept=[0, 3])
    state = reply["state"]
    assert (state["roll"], state["kept"], state["dice"]) == (3, [0, 3], [4, 4, 1, 4, 4])
    assert {s["box"]: s["points"] for s in reply["suggestions"]}["four_of_a_kind"] == 17
    error = api.roll(game, [1, 1, 1, 1, 1], 400)["error"]
    assert error == "only 3 rolls a turn: choose a box to score"
    assert api.state(game)["version"] == 4  # the refused roll changed nothing


def test_kept_die_that_changed_is_400(api: Api) -> None:
    game = api.create()["id"]
    api.roll(game, [1, 2, 3, 4, 5])
    reply = api.roll(game, [6, 2, 3, 4, 5], 400, kept=[0])
    assert reply == {"error": "die 1 was kept at 1 but shows 6"}


def test_replace_corrects_a_misread_roll_without_counting_it(api: Api) -> None:
    game = api.create()["id"]
    api.roll(game, [1, 2, 3, 4, 5])
    api.roll(game, [1, 2, 6, 6, 6], kept=[0, 1])
    state = api.roll(game, [1, 2, 5, 6, 6], replace=True)["state"]
    assert (state["roll"], state["dice"], state["kept"]) == (2, [1, 2, 5, 6, 6], [0, 1])
    assert [e["type"] for e in state["history"]] == ["roll", "roll"]


def test_replace_without_a_roll_is_400(api: Api) -> None:
    game = api.create()["id"]
    reply = api.roll(game, [1, 2, 5, 6, 6], 400, replace=True)
    assert reply == {"error": "there is no roll to correct: roll the dice first"}


def test_bad_dice_get_the_scorekeeper_message(api: Api) -> None:
    game = api.create()["id"]
    assert api.roll(game, [1, 2, 3, 4, 7], 400) == {
        "error": "a die shows 1..6, got 7 in 1 2 3 4 7"}
    assert api.roll(game, [1, 2, 3], 400) == {"error": "expected 5 dice, got 3: 1 2 3"}
    assert "cannot read dice from 'six'" in api.roll(game, "six", 400)["error"]
    assert "'dice' must be a list" in api.roll(game, None, 400)["error"]
    assert "'kept' must be a list" in api.roll(game, [1, 2, 3, 4, 5], 400, kept=7)["error"]
    assert api.state(game)["version"] == 1


def test_scoring_errors_are_400_with_the_rules_message(api: Api) -> None:
    game = api.create(["Ann"])["id"]
    assert api.score(game, "chance", status=400) == {"error": "roll the dice before scoring a box"}
    api.roll(game, [6, 6, 6, 6, 6])
    api.score(game, "yahtzee")
    api.roll(game, [6, 6, 6, 6, 6])
    error = api.score(game, "chance", status=400)["error"]
    assert error.startswith("box 'chance' is not allowed for 6 6 6 6 6: Joker:")
    assert error.endswith("allowed boxes: sixes")
    assert "unknown box 'jackpot'" in api.score(game, "jackpot", status=400)["error"]
    error = api.score(game, "yahtzee", status=400)["error"]
    assert error.startswith("box 'yahtzee' already holds 50")
    state = api.score(game, "sixes")
    assert state["cards"][0]["totals"]["yahtzee_bonus"] == 100
    assert "'box' must be a box slug" in api.post(
        f"/api/games/{game}/scores", {"version": state["version"]}, 400)["error"]


def test_version_is_required_for_scores_and_undo(api: Api) -> None:
    game = api.create()["id"]
    api.roll(game, [1, 1, 1, 2, 2])
    for action, body in (("scores", {"box": "aces"}), ("undo", {})):
        reply = api.post(f"/api/games/{game}/{action}", body, 400)
        assert reply["error"].startswith("'version' is required")
    assert "'version' must be a whole number" in api.post(
        f"/api/games/{game}/undo", {"version": "seven"}, 400)["error"]


def test_stale_version_is_409_and_overwrites_nothing(api: Api) -> None:
    game = api.create()["id"]
    api.roll(game, [2, 2, 2, 3, 3], version=1)
    tablet = api.score(game, "full_house", version=2)  # version 3 now
    phone = api.post(f"/api/games/{game}/scores", {"box": "twos", "version": 2}, 409)
    assert "version 2 was given, the current one is 3" in phone["error"]
    assert phone["state"] == tablet
    assert api.state(game) == tablet
    assert api.roll(game, [1, 1, 1, 1, 1], 409, version=2)["state"] == tablet
    assert api.post(f"/api/games/{game}/undo", {"version": 1}, 409)["state"] == tablet
    assert api.state(game)["cards"][0]["boxes"]["full_house"] == 25


def test_undo_at_the_start_is_400(api: Api) -> None:
    game = api.create()["id"]
    reply = api.post(f"/api/games/{game}/undo", {"version": 1}, 400)
    assert reply == {"error": "nothing to undo: the game is at its start"}


def test_roll_for_first_player(api: Api) -> None:
    state = api.create(["Ann", "Ben", "Cy"], roll_for_first=True)
    game = state["id"]
    assert (state["phase"], state["first_roll_pending"], state["current_player"]) == (
        "first-roll", [0, 1, 2], None)
    assert api.roll(game, [1, 1, 1, 1, 2], 400, kept=[0])["error"].startswith("nothing is kept")
    api.roll(game, [1, 1, 1, 1, 2])
    api.roll(game, [6, 6, 6, 6, 6])
    api.roll(game, [6, 6, 6, 6, 1], replace=False)
    state = api.roll(game, [2, 2, 2, 2, 2], replace=True)["state"]  # Cy's roll misread
    assert state["first_rolls"] == [{"player": 0, "dice": [1, 1, 1, 1, 2]},
                                    {"player": 1, "dice": [6, 6, 6, 6, 6]},
                                    {"player": 2, "dice": [2, 2, 2, 2, 2]}]
    assert (state["phase"], state["current_player"]) == ("play", 1)
    assert api.score(game, "chance", status=400)["error"] == "roll the dice before scoring a box"


def test_play_again_continues_the_series_under_the_same_id(api: Api) -> None:
    game = api.create(["Ann"], rules="yacht")["id"]
    reply = api.post(f"/api/games/{game}/next", {}, 409)
    assert reply["error"].startswith("the current game is not over yet")
    first = api.play_out(game, dice=(6, 6, 6, 6, 6))
    assert first["series"]["can_play_again"] is True
    state = api.post(f"/api/games/{game}/next", {"version": first["version"]})
    assert state["id"] == game and state["finished"] is False and state["roll"] == 0
    assert state["cards"][0]["totals"]["grand_total"] == 0
    series = state["series"]
    assert series["game_number"] == 2
    assert series["totals"] == [first["cards"][0]["totals"]["grand_total"]]
    assert series["games"][0]["finished"] is True and series["games"][0]["winners"] == [0]
    for _ in range(5):
        api.play_out(game)
        if api.state(game)["series"]["game_number"] < 6:
            api.post(f"/api/games/{game}/next", {})
    state = api.state(game)
    assert state["series"]["game_number"] == 6 and state["series"]["can_play_again"] is False
    reply = api.post(f"/api/games/{game}/next", {}, 400)
    assert reply["error"] == "a score pad holds 6 games: start a new series"
    assert api.roll(game, [1, 2, 3, 4, 5], 400)["error"] == "the game is over: every box is filled"


def test_score_with_the_dice_shown_refuses_dice_not_recorded(api: Api) -> None:
    game = api.create(["Ann"])["id"]
    api.roll(game, [6, 6, 4, 6, 1])
    body = {"box": "three_of_a_kind", "version": 2, "dice": [6, 6, 4, 6, 6]}
    reply = api.post(f"/api/games/{game}/scores", body, 409)
    assert reply == {"error": "the dice 6 6 4 6 6 are not the recorded roll: "
                              "record them, then choose a box"}
    assert api.state(game)["version"] == 2  # nothing was scored
    state = api.post(f"/api/games/{game}/scores", {**body, "dice": "6 6 4 6 1"})
    assert state["cards"][0]["boxes"]["three_of_a_kind"] == 23


def test_refused_score_is_said_in_the_players_language(api: Api) -> None:
    game = api.create(["Ann"])["id"]
    api.roll(game, [6, 6, 4, 6, 1])
    response = api.client.post(f"/api/games/{game}/scores",
                               json={"box": "chance", "version": 2, "dice": [6, 6, 4, 6, 6]},
                               headers={"Accept-Language": "tr"})
    assert response.status_code == 409
    assert response.get_json()["error"] == (
        "\u20666 6 4 6 6\u2069 zarları kaydedilen atış değil: önce onları kaydet, sonra bir "
        "kutu seç")


def test_two_devices_rolling_on_one_state_conflict(api: Api, make_app: AppFactory) -> None:
    state = api.create(["Ann", "Ben"])
    phone = Api(make_app().test_client()).join(state["join_code"])
    api.roll(state["id"], [1, 2, 3, 4, 5], version=state["version"])
    conflict = phone.roll(state["id"], [6, 6, 6, 6, 6], 409, version=state["version"])
    assert conflict["state"]["dice"] == [1, 2, 3, 4, 5]


def test_a_roll_without_its_version_is_refused(api: Api) -> None:
    game = api.create()["id"]
    reply = api.post(f"/api/games/{game}/rolls", {"dice": [1, 2, 3, 4, 5]}, 400)
    assert reply["error"] == ("'version' is required: the version of the state this action "
                              "is based on")
    assert api.state(game)["roll"] == 0

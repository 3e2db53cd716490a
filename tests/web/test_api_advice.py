"""The advisor's routes: a hint for the roll in play, and the review of a finished game.

The Yahtzee table is solved once per test session (the advisor cache is a session
folder, and the app keeps solved tables for the life of the process).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from scorekeeper import Scorecard, ruleset
from scorekeeper.advisor import advise
from scorekeeper.advisor.advise import keep_value
from scorekeeper.dice import Dice
from tests.conftest import AppFactory
from tests.web.conftest import Api
from web import advice
from web.advice import holds


def hint(api: Api, game_id: int, status: int = 200) -> dict[str, Any]:
    return api.get(f"/api/games/{game_id}/hint", status)


def review(api: Api, game_id: int, status: int = 200, query: str = "") -> dict[str, Any]:
    return api.get(f"/api/games/{game_id}/review{query}", status)


def test_hint_on_an_empty_card_scores_a_yahtzee_at_once(api: Api) -> None:
    game = api.create(["Ann"])
    api.roll(game["id"], [6, 6, 6, 6, 6])
    data = hint(api, game["id"])
    best = data["options"][0]
    assert (best["kind"], best["box"], best["points"], best["loss"]) == ("score", "yahtzee", 50, 0)
    assert data["expected"] == pytest.approx(best["expected"])
    assert (data["player"], data["turn"], data["roll"], data["dice"]) == (0, 1, 1, [6] * 5)


def test_hint_lists_legal_boxes_and_keeps_best_first(api: Api) -> None:
    game = api.create(["Ann", "Ben"])
    dice = [6, 1, 6, 2, 6]
    rolled = api.roll(game["id"], dice)
    data = hint(api, game["id"])
    options = data["options"]
    expected = [o["expected"] for o in options]
    assert expected == sorted(expected, reverse=True)
    assert [o["loss"] for o in options] == pytest.approx([expected[0] - e for e in expected])
    legal = Scorecard.empty("yahtzee").legal_boxes(Dice.of(dice))
    scores = {o["box"] for o in options if o["kind"] == "score"}
    assert scores == set(legal) == {s["box"] for s in rolled["suggestions"]}
    keeps = [o for o in options if o["kind"] == "keep"]
    assert keeps and all(len(o["keep"]) <= 4 for o in keeps)
    for option in keeps:
        assert sorted(dice[i] for i in option["hold"]) == option["keep"]
    assert options[0] == {**options[0], "kind": "keep", "keep": [6, 6, 6], "hold": [0, 2, 4]}


def test_hint_after_the_third_roll_only_scores(api: Api) -> None:
    game = api.create(["Ann"])
    api.roll(game["id"], [1, 2, 3, 4, 6])
    api.roll(game["id"], [1, 2, 3, 4, 1], kept=[0, 1, 2, 3])
    api.roll(game["id"], [1, 2, 3, 4, 5], kept=[0, 1, 2, 3])
    options = hint(api, game["id"])["options"]
    assert {o["kind"] for o in options} == {"score"}
    assert options[0]["box"] == "large_straight"


def test_a_maxi_yatzy_hint_counts_the_saved_rolls(make_app: AppFactory) -> None:
    """Boxes in order, so that the table is solved in seconds: Ann stops after one roll,
    saving two, and her next turn's hints count all five rolls."""
    app = make_app(ADVISOR_WARM=False)
    api = Api(app.test_client())
    rules = "maxi-yatzy+in-order"
    game = int(api.create(["Ann", "Ben"], rules=rules)["id"])
    first = [1, 1, 2, 3, 4, 5]
    for _player in range(2):
        api.roll(game, first)
        api.score(game, "ones")
    dice = [2, 2, 2, 5, 6, 6]
    api.roll(game, dice)
    data = hint(api, game)
    assert (data["player"], data["roll"], data["rolls_left"]) == (0, 1, 4)
    table = advice.advisor(app).table_for(ruleset(rules))
    card = Scorecard.empty(rules).score("ones", Dice.of(first, count=6))
    best = data["options"][0]
    assert best["kind"] == "keep" and "the 4 rolls left" in best["assumes"]
    assert best["expected"] == pytest.approx(
        keep_value(table, card, Dice.of(dice, count=6), 1, best["keep"], rolls_left=4))
    assert data["expected"] > advise(table, card, Dice.of(dice, count=6), 1)[0].expected
    for _roll in range(3):
        api.roll(game, dice, kept=[0, 1, 2])
    data = hint(api, game)
    assert (data["roll"], data["rolls_left"]) == (4, 1)
    assert {o["kind"] for o in data["options"]} == {"keep", "score"}


@pytest.mark.parametrize("roll_for_first", [False, True])
def test_no_hint_before_a_roll(api: Api, roll_for_first: bool) -> None:
    game = api.create(["Ann", "Ben"], roll_for_first=roll_for_first)
    error = hint(api, game["id"], 409)["error"]
    assert ("first player" if roll_for_first else "no roll yet") in error


def test_no_hint_after_the_game_and_none_for_unknown_games(api: Api) -> None:
    game = api.create(["Ann"], rules="yacht")
    api.play_out(game["id"])
    assert "game is over" in hint(api, game["id"], 409)["error"]
    assert "no game" in hint(api, 999, 404)["error"]
    assert "no game" in review(api, 999, 404)["error"]


def test_no_review_before_the_end(api: Api) -> None:
    game = api.create(["Ann"])
    api.roll(game["id"], [6, 6, 6, 6, 6])
    assert "not over" in review(api, game["id"], 409)["error"]


def play_scripted(api: Api) -> int:
    """Ann fills Chance with 6 6 6 6 6 at once (a blunder), then Yahtzee with the same;
    Ben keeps 1 2 3 4 and stops on a large straight at roll 2; both play out the rest.
    Return the game id.
    """
    game_id = int(api.create(["Ann", "Ben"])["id"])
    api.roll(game_id, [6, 6, 6, 6, 6])
    api.score(game_id, "chance")
    api.roll(game_id, [1, 2, 3, 4, 6])
    api.roll(game_id, [1, 2, 3, 4, 5], kept=[0, 1, 2, 3])
    api.score(game_id, "large_straight")
    api.roll(game_id, [6, 6, 6, 6, 6])
    api.score(game_id, "yahtzee")
    api.play_out(game_id)
    return game_id


def test_review_measures_every_choice(api: Api) -> None:
    game_id = play_scripted(api)
    state = api.state(game_id)
    data = review(api, game_id)
    assert data["game_number"] == 1 and data["rules"] == "yahtzee"
    assert data["expected_score"] == pytest.approx(254.59, abs=0.01)
    history = [h for h in state["history"] if h["type"] != "first-roll"]
    for player in data["players"]:
        mine = [h for h in history if h["player"] == player["player"]]
        made = sum(1 for h in mine if h["type"] == "score" or h["roll"] > 1)
        assert len(player["choices"]) == made
        assert player["score"] == state["cards"][player["player"]]["totals"]["grand_total"]
        losses = [c["loss"] for c in player["choices"]]
        assert min(losses) >= 0
        assert player["total_loss"] == pytest.approx(sum(losses))
        assert player["optimal"] == sum(1 for loss in losses if loss < 1e-3)

    ann, ben = data["players"]
    blunder, yahtzee = ann["choices"][:2]
    assert (blunder["dice"], blunder["roll"], blunder["chosen"]["box"]) == ([6] * 5, 1, "chance")
    assert blunder["loss"] > 5
    assert blunder["best"] == {**blunder["best"], "kind": "score", "box": "yahtzee", "loss": 0}
    assert (yahtzee["chosen"]["box"], yahtzee["loss"], yahtzee["turn"]) == ("yahtzee", 0, 2)
    keep, stop = ben["choices"][:2]
    assert (keep["roll"], keep["chosen"]["kind"]) == (1, "keep")
    assert keep["chosen"]["keep"] == [1, 2, 3, 4]
    assert (stop["roll"], stop["chosen"]["box"], stop["loss"]) == (2, "large_straight", 0)


def test_review_of_an_earlier_game_of_the_series(api: Api) -> None:
    game_id = int(api.create(["Ann"], rules="yacht")["id"])
    api.play_out(game_id)
    api.post(f"/api/games/{game_id}/next", {})
    assert review(api, game_id, query="?game=1")["game_number"] == 1
    assert "not over" in review(api, game_id, 409)["error"]
    assert "games 1 to 2" in review(api, game_id, 404, "?game=3")["error"]
    assert "whole number" in review(api, game_id, 400, "?game=x")["error"]


@pytest.mark.parametrize(("dice", "keep", "prefer", "positions"), [
    ([6, 1, 6, 2, 6], [6, 6], (), [0, 2]),
    ([6, 1, 6, 2, 6], [6, 6], (2, 4), [2, 4]),
    ([1, 2, 3, 4, 5], [], (), []),
    ([3, 3, 3, 3, 3], [3, 3, 3, 3], (4,), [0, 1, 2, 4]),
])
def test_holds_maps_kept_values_to_positions(
    dice: list[int], keep: list[int], prefer: tuple[int, ...], positions: list[int]
) -> None:
    assert holds(dice, keep, prefer) == positions


def test_concurrent_first_requests_solve_a_rule_set_once() -> None:
    solved: list[str] = []

    def slow_solve(rules: Any) -> Any:
        solved.append(rules.name)
        time.sleep(0.2)
        return f"table of {rules.name}"

    owner = advice.Advisor(slow_solve)
    rules: Any = SimpleNamespace(name="test-rules")
    owner.warm(rules)
    owner.warm(rules)  # already under way: no second thread
    with ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(lambda _: owner.table_for(rules), range(4)))
    assert tables == ["table of test-rules"] * 4
    assert solved == ["test-rules"]


def test_each_app_keeps_its_own_advisor(make_app: AppFactory) -> None:
    first, second = make_app(ADVISOR_WARM=False), make_app(ADVISOR_WARM=False)
    advice.init_app(first)
    assert advice.advisor(first) is first.extensions[advice.EXTENSION]
    assert advice.advisor(second) is advice.advisor(second)  # made on first use, then kept
    assert advice.advisor(first) is not advice.advisor(second)
    with first.app_context():
        table = advice.table_for(ruleset("yacht"))
    assert "yacht" in advice.advisor(first).tables
    assert "yacht" not in advice.advisor(second).tables
    assert advice.advisor(first).table_for(ruleset("yacht")) is table


def test_a_warm_up_cut_short_by_the_program_exiting_logs_no_error(tmp_path: Path) -> None:
    """The server stopped while a table is being solved: the warm-up ends quietly. (The
    exit handler gives the warm-up's thread the time to end before the program does.)"""
    script = ("import atexit, logging, time\n"
              "logging.basicConfig()\n"
              "atexit.register(time.sleep, 2.0)\n"
              "from scorekeeper import ruleset\n"
              "from web.advice import Advisor\n"
              "Advisor().warm(ruleset('yahtzee'))\n"
              "time.sleep(1.0)\n")
    env = {**os.environ, "PIPKEEPER_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=120, cwd=Path(__file__).parents[2])
    assert done.returncode == 0
    assert not list(tmp_path.rglob("*.zip"))  # the table was still being solved
    assert "Traceback" not in done.stderr and "could not solve" not in done.stderr

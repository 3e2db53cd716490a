"""Per-player statistics over finished games, and the paper-pad audit."""

from __future__ import annotations

import pytest

from tests.web.conftest import Api


def test_stats_count_only_finished_games(api: Api) -> None:
    first = api.create(["Ann", "Ben"], rules="yacht")["id"]
    state = api.play_out(first, dice=(6, 6, 6, 6, 6))  # both score alike: a shared win
    ann_total = state["cards"][0]["totals"]["grand_total"]
    assert state["winners"] == [0, 1]
    second = api.create(["ben", "Cy"], rules="yacht")["id"]
    api.roll(second, [1, 2, 3, 4, 5])  # unfinished: not counted
    api.post(f"/api/games/{first}/next", {})
    second_total = api.play_out(first, dice=(1, 2, 3, 4, 5))["cards"][0]["totals"]["grand_total"]
    players = {p["player"]: p for p in api.get("/api/stats")["players"]}
    assert set(players) == {"Ann", "Ben"}
    ann = players["Ann"]
    assert (ann["games"], ann["wins"], ann["yahtzees"]) == (2, 2, 1)
    assert (ann_total, second_total) == (140, 60)  # Yacht, Four of a Kind, Choice, Sixes
    assert ann["best"] == 140
    assert ann["average"] == round((ann_total + second_total) / 2, 1)


def test_stats_count_yahtzee_bonus_checks(api: Api) -> None:
    game = api.create(["Solo"])["id"]
    for box in ("yahtzee", "sixes"):
        api.roll(game, [6, 6, 6, 6, 6])
        api.score(game, box)
    state = api.play_out(game, dice=(6, 6, 6, 6, 6))
    checks = state["cards"][0]["totals"]["yahtzee_bonus_checks"]
    assert checks == 12
    (solo,) = api.get("/api/stats")["players"]
    assert solo == {"player": "Solo", "games": 1, "wins": 1,
                    "average": float(state["cards"][0]["totals"]["grand_total"]),
                    "best": state["cards"][0]["totals"]["grand_total"], "yahtzees": 13}


def test_audit_of_a_correct_pad(api: Api) -> None:
    pad = {"rules": "yacht",
           "boxes": {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6,
                     "full_house": 21, "four_of_a_kind": 17, "little_straight": 30,
                     "big_straight": 0, "choice": 22, "yacht": 50},
           "totals": {"grand_total": 161}}
    assert api.post("/api/audit", pad) == {"ok": True, "rules": "yacht", "problems": []}


def test_audit_reports_problems(api: Api) -> None:
    pad = {"rules": "yahtzee", "boxes": {"fours": 12}, "totals": {"upper_subtotal": 8}}
    reply = api.post("/api/audit", {**pad, "finished": False})
    assert reply["ok"] is False
    assert reply["problems"] == [{
        "row": "upper_subtotal", "code": "wrong_total", "written": 8, "expected": "12",
        "message": "Upper subtotal: 8 is written, but it should be 12 (0 + 0 + 0 + 12 + 0 + 0).",
        "parts": [["aces", 0], ["twos", 0], ["threes", 0], ["fours", 12], ["fives", 0],
                  ["sixes", 0]]}]
    blank = api.post("/api/audit", pad)["problems"]
    assert sum(p["code"] == "blank_box" for p in blank) == 12


def test_no_total_is_judged_by_a_box_called_impossible(api: Api) -> None:
    # Fours 7 cannot be; the subtotal 8 is right if the player meant 8 there.
    pad = {"rules": "yahtzee", "boxes": {"fours": 7},
           "totals": {"upper_subtotal": 8, "upper_bonus": 0, "upper_total": 8}}
    reply = api.post("/api/audit", {**pad, "finished": False})
    assert [(p["row"], p["code"], p["written"], p["expected"]) for p in reply["problems"]] == [
        ("fours", "impossible_value", 7, "0, 4, 8, 12, 16 or 20")]


@pytest.mark.parametrize(("written", "lower_total", "ok"),
                         [(300, 445, True), (3, 445, True), (300, 148, False)])
def test_points_in_the_checks_row_are_read_as_checks(api: Api, written: int, lower_total: int,
                                                      ok: bool) -> None:
    pad = {"rules": "yahtzee", "boxes": {"yahtzee": 50, "full_house": 25, "small_straight": 30,
                                         "large_straight": 40},
           "totals": {"yahtzee_bonus_checks": written, "lower_total": lower_total}}
    reply = api.post("/api/audit", {**pad, "finished": False})
    assert reply["ok"] is ok
    if not ok:
        assert [(p["row"], p["code"], p["expected"]) for p in reply["problems"]] == [
            ("lower_total", "wrong_total", "445")]


def test_audit_bad_pad_is_400(api: Api) -> None:
    reply = api.post("/api/audit", {"rules": "yahtzee", "boxes": {"jackpot": 3}}, 400)
    assert reply["error"].startswith("'boxes': unknown row 'jackpot'; rows are: aces, twos")
    assert "unknown rule set" in api.post("/api/audit", {"rules": "go"}, 400)["error"]

"""The printed pad: the finished games' scorecards come from /pad, asked for once each; the
state, sent with every change, does not carry them."""

from __future__ import annotations

from tests.web.conftest import Api


def test_the_pad_gives_the_finished_games_cards(api: Api) -> None:
    game = api.create(["Ann", "Ben"])["id"]
    assert api.get(f"/api/games/{game}/pad") == {"games": []}  # still being played
    first = api.play_out(game)
    assert api.get(f"/api/games/{game}/pad") == {"games": [{"number": 1, "cards": first["cards"]}]}
    state = api.post(f"/api/games/{game}/next", {"version": first["version"]})
    assert [g["number"] for g in state["series"]["games"]] == [1, 2]
    assert all("cards" not in g for g in state["series"]["games"])
    pad = api.get(f"/api/games/{game}/pad")["games"]
    assert pad == [{"number": 1, "cards": first["cards"]}]
    assert pad[0]["cards"][1]["player"] == "Ben"
    assert pad[0]["cards"][0]["totals"]["grand_total"] == first["series"]["games"][0][
        "grand_totals"][0]

"""A series gives its finished games' scorecards (for the printed pad), not the played one's."""

from __future__ import annotations

from tests.web.conftest import Api


def test_finished_games_come_with_their_cards(api: Api) -> None:
    game = api.create(["Ann", "Ben"])["id"]
    assert api.state(game)["series"]["games"][0]["cards"] is None  # still being played
    first = api.play_out(game)
    assert first["series"]["games"][0]["cards"] == first["cards"]
    state = api.post(f"/api/games/{game}/next", {"version": first["version"]})
    games = state["series"]["games"]
    assert [g["number"] for g in games] == [1, 2]
    assert games[0]["cards"] == first["cards"] and games[1]["cards"] is None
    assert games[0]["cards"][1]["player"] == "Ben"

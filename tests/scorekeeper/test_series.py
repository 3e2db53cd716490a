"""Series: up to six games like the pad's columns, with series totals."""

from __future__ import annotations

import pytest

from scorekeeper import Dice, Game, Series, SeriesError

BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "full_house", "four_of_a_kind",
         "little_straight", "big_straight", "choice", "yacht")


def finish(game: Game, dice: str) -> Game:
    """Fill every box of every player with the same dice."""
    for box in BOXES:
        for _ in game.players:
            game = game.roll(Dice.parse(dice)).score(box)
    return game


def test_play_again_up_to_six_games_with_totals() -> None:
    series = Series.new("yacht", ["Ann", "Ben"])
    with pytest.raises(SeriesError, match="finish the current game"):
        series.play_again()
    for number in range(1, 7):
        assert series.number == number
        series = series.with_current(finish(series.current, "12345"))
        if number < 6:
            series = series.play_again()
    # 12345 scores ones 1 + twos 2 + threes 3 + fours 4 + fives 5 + little straight 30 + choice 15
    assert series.totals() == (60 * 6, 60 * 6)
    with pytest.raises(SeriesError, match="holds 6 games"):
        series.play_again()
    assert Series.from_dict(series.to_dict()) == series


def test_series_games_share_rules_and_players() -> None:
    with pytest.raises(SeriesError, match="same rules and players"):
        Series((finish(Game.new("yacht", ["Ann"]), "12345"), Game.new("yacht", ["Bob"])))
    with pytest.raises(SeriesError, match="only the last game"):
        Series((Game.new("yacht", ["Ann"]), Game.new("yacht", ["Ann"])))

"""What each API action does to a stored series: functions from Series to Series.

`web.store.update` runs one of these inside a write transaction; whatever they
raise (a GameError from the rules, an ApiError) leaves the stored game as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper import Dice
from scorekeeper.game import FirstRoll, Game
from scorekeeper.series import Series
from web.errors import ApiError

Change = Callable[[Series], Series]


def _correct(game: Game, dice: Dice) -> Game:
    """Replace the dice of the last roll, be it a roll for first player or a turn's roll."""
    if game.events and isinstance(game.events[-1], FirstRoll):
        return game.undo().roll_first(dice)
    return game.correct(dice)


def roll(dice: Dice, kept: Sequence[int] = (), replace: bool = False) -> Change:
    """Return the change adding a roll; with *replace*, correcting the last roll's dice.

    While choosing who starts, a roll is the next pending player's roll for first.
    The change raises the rules' GameError (too many rolls, kept dice that moved,
    nothing to correct, game over) or ApiError for kept dice while rolling for first.
    """
    def change(series: Series) -> Series:
        game = series.current
        if game.phase == "first-roll" and kept:
            raise ApiError("nothing is kept when rolling for the first player: roll all five dice")
        if replace:
            return series.with_current(_correct(game, dice))
        if game.phase == "first-roll":
            return series.with_current(game.roll_first(dice))
        return series.with_current(game.roll(dice, kept))

    return change


def score(box: str) -> Change:
    """Return the change filling *box* for the current player (raises the rules' errors)."""
    return lambda series: series.with_current(series.current.score(box))


def undo() -> Change:
    """Return the change taking back the last action (raises NothingToUndoError)."""
    return lambda series: series.with_current(series.current.undo())


def play_again(series: Series) -> Series:
    """Start the next game of the series.

    Raises ApiError(409) while the current game is not over; SeriesError (400)
    after the sixth game.
    """
    if not series.current.is_over:
        raise ApiError("the current game is not over yet: finish it before playing again", 409)
    return series.play_again()

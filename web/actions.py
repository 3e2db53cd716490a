"""What each API action does to a stored series: functions from Series to Series.

`web.store.update` runs one of these inside a write transaction; whatever they
raise (a GameError from the rules, an ApiError) leaves the stored game as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper import Dice
from scorekeeper.game import FirstRoll, Game, NoRollError
from scorekeeper.series import Series
from web.errors import ApiError

Change = Callable[[Series], Series]


def _first_roll(game: Game, dice: Dice, kept: Sequence[int], replace: bool) -> Game:
    """A roll while choosing who starts: the next pending player's roll for first."""
    if kept:
        raise ApiError("nothing is kept when rolling for the first player: roll all five dice")
    if replace:
        if not game.events or not isinstance(game.events[-1], FirstRoll):
            raise NoRollError("there is no roll for first to correct: roll the dice first")
        game = game.undo()
    return game.roll_first(dice)


def roll(dice: Dice, kept: Sequence[int] = (), replace: bool = False) -> Change:
    """Return the change adding a roll; with *replace*, correcting the current roll's dice.

    The change raises the rules' GameError (too many rolls, kept dice that moved,
    nothing to correct, game over) or ApiError for kept dice while rolling for first.
    """
    def change(series: Series) -> Series:
        game = series.current
        if game.phase == "first-roll":
            return series.with_current(_first_roll(game, dice, kept, replace))
        return series.with_current(game.correct(dice) if replace else game.roll(dice, kept))

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

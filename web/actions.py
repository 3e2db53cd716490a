"""What each API action does to a stored series: functions from Series to Series.

`web.store.update` runs one of these inside a write transaction; whatever they
raise (a GameError from the rules, an ApiError) leaves the stored game as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from scorekeeper import Dice
from scorekeeper.series import Series
from web.errors import ApiError

Change = Callable[[Series], Series]


def roll(dice: Dice, kept: Sequence[int] = (), replace: bool = False) -> Change:
    """Return the change adding a throw of the dice; with *replace*, correcting the last one.

    The rules decide what a throw is now (`Game.throw`, `Game.correct`) and raise
    their GameError when it is not allowed.
    """
    def change(series: Series) -> Series:
        game = series.current
        return series.with_current(game.correct(dice) if replace else game.throw(dice, kept))

    return change


def score(box: str, dice: Dice | None = None) -> Change:
    """Return the change filling *box* for the current player (raises the rules' errors).

    With *dice* (those the player sees), ApiError(409) unless they are the recorded roll:
    a box is never filled with dice other than those on the player's screen.
    """
    def change(series: Series) -> Series:
        game = series.current
        if dice is not None and game.dice is not None and dice != game.dice:
            raise ApiError(f"the dice {dice} are not the recorded roll: record them, then "
                           "choose a box", 409, code="score_unrecorded",
                           params={"dice": dice.values})
        return series.with_current(game.score(box))

    return change


def correct_box(player: int, box: str, dice: Dice, to_box: str | None = None) -> Change:
    """Return the change correcting seat *player*'s filled *box* of an earlier turn: its
    dice were *dice*, to be scored in *to_box* when given (`Game.correct_box`; the rules
    raise CorrectionError, nothing changed, when it would break a later entry)."""
    return lambda series: series.with_current(
        series.current.correct_box(player, box, dice, to_box))


def undo() -> Change:
    """Return the change taking back the last action (raises NothingToUndoError)."""
    return lambda series: series.with_current(series.current.undo())


def play_again(series: Series) -> Series:
    """Start the next game of the series (the rules' GameNotOverError, 409, before the
    current one is over; SeriesError after the sixth game)."""
    return series.play_again()

"""The review of a game with a corrected box: later choices are measured on the corrected card."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorekeeper.advisor import Table, loss_of_box
from scorekeeper.advisor.review import choices
from scorekeeper.dice import Dice
from scorekeeper.game import Game
from scorekeeper.scorecard import Scorecard

Solved = Callable[[str], Table]
SIXES = Dice.of([6, 6, 6, 6, 6])


def test_a_correction_is_no_choice_and_later_choices_see_the_corrected_card(
    solved: Solved,
) -> None:
    table = solved("yacht")
    game = Game.new("yacht", ["Ann", "Ben"]).roll(SIXES).score("choice")
    game = game.roll(Dice.of([1, 2, 3, 4, 6]))
    game = game.correct_box(0, "choice", SIXES, "yacht")  # Ann's 6 6 6 6 6 was a Yacht
    game = game.score("choice").roll(SIXES).score("sixes")
    found = choices(game, table)
    assert [(c.player, c.turn, c.chosen.box) for c in found] == [
        (0, 1, "choice"), (1, 1, "choice"), (0, 2, "sixes")]
    corrected = Scorecard.empty("yacht").score("yacht", SIXES)
    assert found[2].loss == pytest.approx(loss_of_box(table, corrected, SIXES, "sixes", roll=1))
    assert found[2].best.box == "four_of_a_kind"  # not the Yacht: it is filled since the correction

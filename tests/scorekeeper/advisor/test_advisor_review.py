"""The review of a game: every keep and every box filled, with the points it lost."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorekeeper.advisor import AdvisorError, Table, loss_of_box, loss_of_keep
from scorekeeper.advisor.review import choices, review
from scorekeeper.dice import Dice
from scorekeeper.game import Game
from scorekeeper.scorecard import Scorecard

Solved = Callable[[str], Table]
SIXES = Dice.of([6, 6, 6, 6, 6])


def scripted() -> Game:
    """Ann blunders 6 6 6 6 6 into Choice; Ben keeps 1 2 3 4 (and, at roll 2, all five)."""
    game = Game.new("yacht", ["Ann", "Ben"])
    game = game.roll(SIXES).score("choice")
    game = game.roll(Dice.of([1, 2, 3, 4, 6]))
    game = game.roll(Dice.of([1, 2, 3, 4, 1]), kept=[0, 1, 2, 3])
    game = game.roll(Dice.of([1, 2, 3, 4, 1]), kept=[0, 1, 2, 3, 4])
    game = game.score("ones")
    return game.roll(SIXES).score("yacht")


def test_every_choice_in_playing_order(solved: Solved) -> None:
    table = solved("yacht")
    found = choices(scripted(), table)
    assert [(c.player, c.turn, c.roll, c.chosen.kind) for c in found] == [
        (0, 1, 1, "score"), (1, 1, 1, "keep"), (1, 1, 2, "keep"), (1, 1, 3, "score"),
        (0, 2, 1, "score"),
    ]
    assert [c.chosen.keep for c in found[1:3]] == [(1, 2, 3, 4), (1, 1, 2, 3, 4)]
    assert all(c.loss >= 0 and c.best.loss == 0 for c in found)


def test_losses_match_the_advisor(solved: Solved) -> None:
    table = solved("yacht")
    blunder, keep, held_all, _ones, yacht = choices(scripted(), table)
    empty = Scorecard.empty("yacht")
    assert blunder.loss == pytest.approx(loss_of_box(table, empty, SIXES, "choice", roll=1))
    assert blunder.loss > 5 and blunder.best.box == "yacht"
    assert keep.loss == pytest.approx(
        loss_of_keep(table, empty, Dice.of([1, 2, 3, 4, 6]), 1, [1, 2, 3, 4]))
    assert held_all.loss == pytest.approx(
        loss_of_keep(table, empty, Dice.of([1, 2, 3, 4, 1]), 2, [1, 1, 2, 3, 4]))
    assert (yacht.chosen.box, yacht.loss) == ("yacht", 0)


def test_review_totals_per_player(solved: Solved) -> None:
    game = scripted()
    result = review(game, solved("yacht"))
    assert result.rules == "yacht" and result.expected_score == pytest.approx(169.77, abs=0.01)
    ann, ben = result.players
    assert (ann.name, ann.score, len(ann.choices), ben.name, len(ben.choices)) == (
        "Ann", 80, 2, "Ben", 3)
    assert ann.total_loss == pytest.approx(sum(c.loss for c in ann.choices))
    assert ann.optimal == 1
    data = result.to_dict()
    assert data["players"][0]["choices"][0]["chosen"]["box"] == "choice"
    assert data["players"][0]["choices"][0]["dice"] == [6] * 5


def test_review_needs_the_game_s_own_rules(solved: Solved) -> None:
    with pytest.raises(AdvisorError, match="'yacht' game"):
        review(scripted(), solved("yahtzee"))


def test_rolls_for_the_first_player_are_not_choices(solved: Solved) -> None:
    game = Game.new("yacht", ["Ann", "Ben"], roll_for_first=True)
    game = game.roll_first(Dice.of([1, 1, 1, 1, 2])).roll_first(SIXES)  # Ben starts
    game = game.roll(SIXES).score("yacht")
    found = choices(game, solved("yacht"))
    assert [(c.player, c.turn, c.chosen.box, c.loss) for c in found] == [(1, 1, "yacht", 0)]

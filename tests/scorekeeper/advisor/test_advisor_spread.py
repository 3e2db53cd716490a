"""The spread of the final score (E[X^2] by a second pass) and the simulation that checks
a table: seeded games with the table's policy must average its expected score."""

from __future__ import annotations

import numpy as np
import pytest

from scorekeeper import Scorecard, ruleset
from scorekeeper.advisor import AdvisorError, Table, build
from scorekeeper.advisor.moments import score_spread, second_moments
from scorekeeper.advisor.ruletables import card_state
from scorekeeper.advisor.simulate import check, main, play

IN_ORDER = "maxi-yatzy+in-order"


@pytest.fixture(scope="module")
def maxi() -> Table:
    return build(IN_ORDER)


def _all_but(*open_boxes: str) -> Scorecard:
    rules = ruleset(IN_ORDER)
    return Scorecard(rules, tuple(None if s in open_boxes else 0 for s in rules.slugs))


def test_second_moments_of_known_turns(maxi: Table) -> None:
    """Maxi Yatzy alone: X is 100 or 0, so E[X^2] = 100 E[X]. Chance first: six dice, each
    kept when it beats rolling on (a die ends 1-3 with chance 1/18 each, 4 with 1/6, 5 and
    6 with 1/3 each: variance 2), independent of the Maxi Yatzy turn after."""
    squares = second_moments(maxi)
    last = card_state(maxi.tables, _all_but("maxi_yatzy"))
    both = card_state(maxi.tables, _all_but("chance", "maxi_yatzy"))
    assert squares[last] == pytest.approx(100 * maxi.values[last], rel=1e-12)
    variance = squares[both] - maxi.values[both] ** 2
    chance_last = maxi.values[last] * (100 - maxi.values[last])
    assert maxi.values[both] - maxi.values[last] == pytest.approx(6 * 14 / 3, abs=1e-9)
    assert variance == pytest.approx(6 * 2 + chance_last, abs=1e-6)


def test_score_spread_of_whole_games() -> None:
    mean, sd = score_spread(build("yatzy+in-order"))
    assert (round(mean, 7), round(sd, 4)) == (122.5585274, 28.8569)


def test_jokers_are_not_covered() -> None:
    with pytest.raises(AdvisorError, match="Joker rules and Yahtzee bonuses"):
        second_moments(build("yahtzee+in-order"))
    with pytest.raises(AdvisorError, match="not simulated"):
        play(build("yahtzee+in-order"), 10, seed=1)


@pytest.mark.parametrize(("name", "games"), [("yatzy+in-order", 2000), (IN_ORDER, 600)])
def test_simulated_games_average_the_expected_score(name: str, games: int) -> None:
    table = build(name)
    result = check(table, games, seed=7, chunk=256)
    assert result.games == games and result.within, result
    _mean, sd = score_spread(table)
    assert result.sd == pytest.approx(sd, rel=0.1)


def test_simulation_is_seeded_and_scores_whole_games() -> None:
    table = build("yacht+in-order")
    first, again = play(table, 300, seed=4, chunk=128), play(table, 300, seed=4, chunk=128)
    assert np.array_equal(first, again)
    assert first.min() >= 0 and first.max() <= sum(c.max_points for c in table.rules.categories)


def test_simulate_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", "yatzy+in-order", "--games", "500", "--seed", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("yatzy+in-order: 500 games (seed 2) in ")
    assert lines[1].startswith("mean ") and "standard error" in lines[1]
    assert lines[2].startswith("table's expected score 122.5585274: ")
    assert lines[2].endswith("within 3 standard errors")

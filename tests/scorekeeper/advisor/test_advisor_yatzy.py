"""Optimal play of Scandinavian Yatzy and of boxes in order: expected scores and advice.

The four Yatzy tables are solved once per session (the `solved` fixture; each about
15 s of CPU); the tables of boxes in order have 16 card masks and take under a second.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scorekeeper import Dice, Scorecard
from scorekeeper.advisor import Table, advise, build

Solved = Callable[[str], Table]  # the `solved` fixture of conftest.py


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        # yatzy-solver 1.0.0 gives 248.43998938; the often-quoted 248.63 (Larsson and
        # Sjöberg 2012) comes from code that scores a single pair in Two Pairs.
        ("yatzy", 248.4399894),
        ("yatzy+fh5", 248.4680909),
        ("yatzy+tp4", 248.6440589),
        ("yatzy+fh5+tp4", 248.6748827),
    ],
)
def test_yatzy_expected_scores(solved: Solved, name: str, expected: float) -> None:
    assert solved(name).expected_score == pytest.approx(expected, abs=1e-7)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("yatzy+in-order", 122.5585274),  # yatzy-solver's yatzy-scandinavian+forced
        ("yacht+in-order", 94.2576113),
        ("yahtzee+in-order", 130.2859719),
    ],
)
def test_in_order_expected_scores(name: str, expected: float) -> None:
    assert build(name).expected_score == pytest.approx(expected, abs=1e-7)


@pytest.mark.parametrize("name", ["yatzy+in-order", "yahtzee+in-order"])
def test_in_order_advice_offers_only_the_next_box(name: str) -> None:
    table = build(name)
    card = Scorecard.empty(name).score(table.rules.slugs[0], Dice.parse("1 1 2 3 4"))
    dice = Dice.parse("6 6 6 6 6")
    scores = [o for o in advise(table, card, dice, 1) if o.kind == "score"]
    assert [(o.box, o.points) for o in scores] == [("twos", 0)]
    [last] = advise(table, card, dice, 3)
    assert (last.box, last.points, last.loss) == ("twos", 0, 0.0)
    assert last.expected == pytest.approx(table.value(card.score("twos", dice)))


def test_yatzy_first_roll_advice(solved: Solved) -> None:
    table = solved("yatzy")
    empty = Scorecard.empty("yatzy")
    assert table.value(empty) == pytest.approx(248.4399894, abs=1e-7)
    best = advise(table, empty, Dice.parse("6 6 6 6 6"), 1)[0]
    assert (best.kind, best.box, best.points, best.bonus) == ("score", "yatzy", 50, 0)
    straight = advise(table, empty, Dice.parse("2 3 4 5 6"), 3)
    assert (straight[0].box, straight[0].points) == ("large_straight", 20)
    assert {o.box for o in straight} == set(empty.rules.slugs)


def test_a_second_yatzy_earns_nothing_extra(solved: Solved) -> None:
    table = solved("yatzy")
    card = Scorecard.empty("yatzy").score("yatzy", Dice.parse("3 3 3 3 3"))
    options = advise(table, card, Dice.parse("5 5 5 5 5"), 3)
    assert {o.bonus for o in options} == {0}
    assert {o.box for o in options} == set(card.open_boxes())
    assert {o.box: o.points for o in options}["full_house"] == 0
    with_fh5 = advise(solved("yatzy+fh5+tp4"),
                      Scorecard.empty("yatzy+fh5+tp4").score("yatzy", Dice.parse("3 3 3 3 3")),
                      Dice.parse("5 5 5 5 5"), 3)
    points = {o.box: o.points for o in with_fh5}
    assert (points["full_house"], points["two_pairs"]) == (25, 20)

"""Advisor advice: every keep and legal box with expected final score and loss, best first."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable

import pytest

from scorekeeper import (
    RULESET_NAMES,
    Dice,
    DiceCountError,
    IllegalBoxError,
    Scorecard,
    ruleset,
)
from scorekeeper.advisor import (
    AdvisorError,
    KeepError,
    Table,
    advise,
    best_expected,
    build,
    keep_value,
    loss_of_box,
    loss_of_keep,
)
from scorekeeper.advisor.tables import counts_to_values, dice_tables

Solved = Callable[[str], Table]  # the `solved` fixture of conftest.py

QUICK = ("yacht", "yacht+upper-first", "yahtzee+upper-first", "yahtzee+free-joker+upper-first",
         "yahtzee+in-order", "yacht+in-order", "yatzy+in-order", "maxi-yatzy+in-order")
# The whole Maxi Yatzy table takes minutes and 1 GB: never solved by the tests.
TESTED = tuple(name for name in RULESET_NAMES if name != "maxi-yatzy")


def _position(rules_name: str, rng: random.Random) -> tuple[Scorecard, Dice]:
    """A card part-way through a random legal game (five alike often), and fresh dice."""
    card = Scorecard.empty(rules_name)
    count = card.rules.dice_count
    for _ in range(rng.randrange(len(card.rules.categories))):
        card = _fill(card, _dice(rng, count), rng)
    return card, _dice(rng, count)


def _fill(card: Scorecard, dice: Dice, rng: random.Random) -> Scorecard:
    return card.score(rng.choice(card.legal_boxes(dice)), dice)


def _dice(rng: random.Random, count: int = 5) -> Dice:
    if rng.random() < 0.3:
        return Dice((rng.randint(1, 6),) * count)
    return Dice.of((rng.randint(1, 6) for _ in range(count)), count=count)


def test_first_roll_of_the_game(solved: Solved) -> None:
    options = advise(solved("yahtzee"), Scorecard.empty("yahtzee"), Dice.parse("6 6 4 6 6"), 1)
    best = options[0]
    assert (best.kind, best.keep, best.reroll, best.loss) == ("keep", (6, 6, 6, 6), 1, 0.0)
    assert best.describe() == "keep 6 6 6 6, reroll 1"
    assert [o.loss for o in options] == sorted(o.loss for o in options)
    assert all(o.expected + o.loss == pytest.approx(best.expected) for o in options)
    keeps = [o.keep for o in options if o.kind == "keep"]
    assert len(keeps) == len(set(keeps)) == 9  # 0..4 sixes, with or without the 4, not all five
    scores = {o.box for o in options if o.kind == "score"}
    assert scores == set(ruleset("yahtzee").slugs)


def test_five_sixes_on_an_empty_card_go_in_the_yahtzee_box(solved: Solved) -> None:
    options = advise(solved("yahtzee"), Scorecard.empty("yahtzee"), Dice.parse("66666"), 3)
    assert (options[0].box, options[0].points) == ("yahtzee", 50)
    assert {o.kind for o in options} == {"score"}


def test_forced_joker_bonus_and_own_upper_box(solved: Solved) -> None:
    card = Scorecard.empty("yahtzee").score("yahtzee", Dice.parse("2 2 2 2 2"))
    options = advise(solved("yahtzee"), card, Dice.parse("5 5 5 5 5"), 3)
    assert [(o.box, o.points, o.bonus) for o in options] == [("fives", 25, 100)]
    assert options[0].describe() == "score 25 in fives (+100 bonus)"


@pytest.mark.parametrize("name", TESTED)
def test_advised_boxes_are_the_legal_boxes(solved: Solved, name: str) -> None:
    table = solved(name) if name not in QUICK else build(name)
    rng = random.Random(name)
    for _ in range(15):
        card, dice = _position(name, rng)
        options = advise(table, card, dice, 3)
        assert [o.kind for o in options] == ["score"] * len(options)
        assert {o.box for o in options} == set(card.legal_boxes(dice))
        assert options[0].box in card.legal_boxes(dice) and options[0].loss == 0
        for option in options:
            assert option.points == card.points_for(str(option.box), dice)
            assert option.expected == pytest.approx(table.value(card.score(str(option.box), dice)))


@pytest.mark.parametrize("roll", [1, 2])
def test_keeps_are_every_proper_sub_keep(solved: Solved, roll: int) -> None:
    table = solved("yahtzee")
    rng = random.Random(roll)
    for _ in range(10):
        card, dice = _position("yahtzee", rng)
        options = advise(table, card, dice, roll)
        keeps = [o.keep for o in options if o.kind == "keep"]
        assert len(keeps) == len(set(keeps)) == math.prod(c + 1 for c in dice.counts()) - 1
        for keep in keeps:
            assert all(keep.count(v) <= dice.values.count(v) for v in set(keep))
        assert {o.box for o in options if o.kind == "score"} == set(card.legal_boxes(dice))


@pytest.mark.parametrize("name", ["yacht", "yahtzee"])
def test_first_roll_advice_averages_to_the_table_value(solved: Solved, name: str) -> None:
    """The best choice after each first roll, weighted by its chance, is the turn's value."""
    table = solved(name) if name == "yahtzee" else build(name)
    card = Scorecard.empty(name).score(ruleset(name).slugs[2], Dice.parse("3 3 1 2 4"))
    tables = dice_tables()
    total = sum(
        p * best_expected(table, card, Dice(counts_to_values(roll)), 1)
        for roll, p in zip(tables.rolls, tables.roll_probability, strict=True)
    )
    assert total == pytest.approx(table.value(card), abs=1e-9)


def test_keeping_all_five_before_roll_three_is_scoring_best(solved: Solved) -> None:
    table, card, dice = solved("yahtzee"), Scorecard.empty("yahtzee"), Dice.parse("2 3 4 5 5")
    scores = [o.expected for o in advise(table, card, dice, 2) if o.kind == "score"]
    assert keep_value(table, card, dice, 2, dice.values) == pytest.approx(max(scores))


def test_losses_of_choices_made(solved: Solved) -> None:
    table, card, dice = solved("yahtzee"), Scorecard.empty("yahtzee"), Dice.parse("1 2 3 4 6")
    options = {(o.kind, o.keep, o.box): o for o in advise(table, card, dice, 2)}
    assert loss_of_keep(table, card, dice, 2, [4, 2, 3, 1]) == pytest.approx(
        options[("keep", (1, 2, 3, 4), None)].loss
    )
    assert loss_of_keep(table, card, dice, 2, []) == pytest.approx(options[("keep", (), None)].loss)
    assert loss_of_box(table, card, dice, "chance", roll=2) == pytest.approx(
        options[("score", (), "chance")].loss
    )
    assert loss_of_box(table, card, dice, "small_straight") == 0.0  # the best box after roll 3
    assert loss_of_box(table, card, dice, "chance") > 0


def test_bad_choices_and_positions_are_refused(solved: Solved) -> None:
    table, card, dice = solved("yahtzee"), Scorecard.empty("yahtzee"), Dice.parse("6 6 1 2 3")
    with pytest.raises(KeepError, match="cannot keep 6 6 6: the dice are"):
        loss_of_keep(table, card, dice, 1, [6, 6, 6])
    with pytest.raises(KeepError, match="cannot keep"):
        loss_of_keep(table, card, dice, 1, [7])
    with pytest.raises(AdvisorError, match="after roll 3 no dice are rerolled"):
        loss_of_keep(table, card, dice, 3, [6])
    with pytest.raises(AdvisorError, match="1, 2 or 3, got 4"):
        advise(table, card, dice, 4)
    with pytest.raises(DiceCountError):
        advise(table, card, Dice.parse("6 6 1 2", count=None), 1)
    joker = card.score("yahtzee", Dice.parse("4 4 4 4 4"))
    with pytest.raises(IllegalBoxError):
        loss_of_box(table, joker, Dice.parse("1 1 1 1 1"), "chance")  # Aces must take it
    full = Scorecard(ruleset("yahtzee"), (0,) * 13)
    with pytest.raises(AdvisorError, match="the card is complete"):
        advise(table, full, dice, 1)


def test_options_as_json(solved: Solved) -> None:
    options = advise(solved("yahtzee"), Scorecard.empty("yahtzee"), Dice.parse("5 5 5 5 5"), 2)
    data = json.loads(json.dumps([o.to_dict() for o in options]))
    assert data[0] == {
        "kind": "score",
        "keep": None,
        "reroll": 0,
        "box": "yahtzee",
        "points": 50,
        "bonus": 0,
        "expected": pytest.approx(options[0].expected),
        "loss": 0.0,
        "text": "score 50 in yahtzee",
        "assumes": None,
    }
    keep = next(d for d in data if d["kind"] == "keep")
    assert keep["keep"] == [5, 5, 5, 5] and keep["reroll"] == 1 and keep["box"] is None

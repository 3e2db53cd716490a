"""Scorecard: filling boxes, Joker and upper-first legality, bonuses, totals, JSON."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from scorekeeper_strategies import played_cards, rolls

from scorekeeper import (
    BoxFilledError,
    CardFormatError,
    Dice,
    IllegalBoxError,
    JokerRule,
    Scorecard,
    ScoringError,
    UnknownBoxError,
    ruleset,
)

LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
UPPER = ("aces", "twos", "threes", "fours", "fives", "sixes")


def card(name: str = "yahtzee", checks: int = 0, **boxes: int) -> Scorecard:
    """A card of rule set *name* with *boxes* filled (no check that play could get there)."""
    rules = ruleset(name)
    for slug in boxes:
        rules.category(slug)
    return Scorecard(rules, tuple(boxes.get(slug) for slug in rules.slugs), checks)


def play(name: str, *turns: tuple[str, str]) -> Scorecard:
    """A card after scoring each (box, dice) turn in order."""
    result = Scorecard.empty(name)
    for box, dice in turns:
        result = result.score(box, Dice.parse(dice))
    return result


FIVES = Dice.parse("5 5 5 5 5")


def test_empty_card() -> None:
    empty = Scorecard.empty("yahtzee")
    assert empty.open_boxes() == ruleset("yahtzee").slugs
    assert not empty.is_complete
    assert set(empty.totals().values()) == {0}
    assert empty.legal_boxes(Dice.parse("1 2 3 4 5")) == ruleset("yahtzee").slugs


@pytest.mark.parametrize(("box", "points"), [("threes", 9), ("twos", 2), ("fours", 4)])
def test_worked_example_three_threes(box: str, points: int) -> None:
    dice = Dice.parse("3 3 3 2 4")
    scored = Scorecard.empty("yahtzee").score(box, dice)
    assert scored.box(box) == points
    assert scored.upper_subtotal == points
    assert scored.open_boxes() == tuple(s for s in ruleset("yahtzee").slugs if s != box)


def test_worked_example_joker_large_straight() -> None:
    # Five 5s, the Yahtzee box holds a zero, Fives is filled: any open lower box, at full value.
    before = card(yahtzee=0, fives=15)
    assert before.joker_rule(FIVES) is JokerRule.ANY_LOWER
    assert before.legal_boxes(FIVES) == tuple(s for s in LOWER if s != "yahtzee")
    after = before.score("large_straight", FIVES)
    assert after.box("large_straight") == 40
    assert after.bonus_checks == 0  # a zero in the Yahtzee box earns no bonus


@pytest.mark.parametrize(
    ("box", "points"),
    [
        ("three_of_a_kind", 25),
        ("four_of_a_kind", 25),
        ("full_house", 25),
        ("small_straight", 30),
        ("large_straight", 40),
        ("chance", 25),
    ],
)
def test_forced_joker_lower_boxes_score_full_value(box: str, points: int) -> None:
    assert card(yahtzee=50, fives=25).points_for(box, FIVES) == points


def test_forced_joker_own_upper_box_first() -> None:
    before = card(yahtzee=50)
    assert before.joker_rule(FIVES) is JokerRule.OWN_UPPER
    assert before.legal_boxes(FIVES) == ("fives",)
    with pytest.raises(IllegalBoxError) as caught:
        before.points_for("large_straight", FIVES)
    assert "must be scored there" in str(caught.value)
    assert str(caught.value).endswith("allowed boxes: fives")
    after = before.score("fives", FIVES)
    assert (after.box("fives"), after.bonus_checks, after.yahtzee_bonus) == (25, 1, 100)


def test_forced_joker_zero_in_upper_when_lower_is_full() -> None:
    lower = dict.fromkeys(LOWER, 0) | {"yahtzee": 50}
    before = card(fives=25, sixes=30, **lower)
    assert before.joker_rule(FIVES) is JokerRule.UPPER_ZERO
    assert before.legal_boxes(FIVES) == ("aces", "twos", "threes", "fours")
    after = before.score("twos", FIVES)
    assert after.box("twos") == 0
    assert after.bonus_checks == 1
    with pytest.raises(BoxFilledError):
        before.points_for("sixes", FIVES)


def test_free_joker_allows_any_open_box() -> None:
    before = card("yahtzee+free-joker", yahtzee=50, fives=25)
    assert before.joker_rule(FIVES) is JokerRule.FREE
    assert before.legal_boxes(FIVES) == tuple(
        s for s in ruleset("yahtzee").slugs if s not in ("yahtzee", "fives")
    )
    assert before.points_for("aces", FIVES) == 0
    assert before.points_for("chance", FIVES) == 25
    assert before.points_for("large_straight", FIVES) == 40
    assert before.points_for("full_house", FIVES) == 25
    assert before.score("small_straight", FIVES).bonus_checks == 1


def test_free_joker_waits_for_the_own_upper_box() -> None:
    # Free choice: any open box, but the dice are a Joker only once their upper box is filled.
    before = card("yahtzee+free-joker", yahtzee=50)
    assert before.joker_rule(FIVES) is None
    assert len(before.legal_boxes(FIVES)) == 12
    assert before.points_for("large_straight", FIVES) == 0
    assert before.points_for("fives", FIVES) == 25
    assert before.score("large_straight", FIVES).bonus_checks == 1


@pytest.mark.parametrize("name", ["yahtzee", "yahtzee+free-joker"])
def test_no_joker_while_the_yahtzee_box_is_open(name: str) -> None:
    before = card(name, fives=25)
    assert before.joker_rule(FIVES) is None
    assert before.points_for("full_house", FIVES) == 0
    assert before.points_for("large_straight", FIVES) == 0
    assert before.score("yahtzee", FIVES).bonus_checks == 0


def test_yacht_has_no_joker() -> None:
    before = card("yacht", yacht=50)
    assert before.joker_rule(FIVES) is None
    assert before.points_for("full_house", FIVES) == 0
    assert before.points_for("big_straight", FIVES) == 0
    assert before.bonus_earned(FIVES) == 0
    assert "ones" in before.legal_boxes(FIVES)


@pytest.mark.parametrize("name", ["yahtzee+upper-first", "yacht+upper-first"])
def test_upper_first_allows_only_upper_boxes_until_complete(name: str) -> None:
    dice = Dice.parse("1 2 3 4 5")
    rules = ruleset(name)
    upper = rules.slugs[:6]
    empty = Scorecard.empty(rules)
    assert empty.legal_boxes(dice) == upper
    with pytest.raises(IllegalBoxError) as caught:
        empty.points_for("chance" if rules.game == "yahtzee" else "choice", dice)
    assert "upper section must be complete" in str(caught.value)
    assert str(caught.value).endswith("allowed boxes: " + ", ".join(upper))
    full_upper = Scorecard(rules, (0,) * 6 + (None,) * (len(rules.slugs) - 6))
    assert full_upper.legal_boxes(dice) == rules.slugs[6:]


def test_upper_first_with_forced_joker() -> None:
    # A card where the Yahtzee box was filled before the upper section (e.g. read from paper).
    own_open = card("yahtzee+upper-first", yahtzee=50)
    assert own_open.legal_boxes(FIVES) == ("fives",)
    own_filled = card("yahtzee+upper-first", yahtzee=50, fives=25)
    assert own_filled.joker_rule(FIVES) is JokerRule.UPPER_ZERO
    assert own_filled.legal_boxes(FIVES) == ("aces", "twos", "threes", "fours", "sixes")
    assert own_filled.points_for("sixes", FIVES) == 0
    upper_done = card("yahtzee+upper-first", yahtzee=50, **dict.fromkeys(UPPER, 0))
    assert upper_done.joker_rule(FIVES) is JokerRule.ANY_LOWER
    assert upper_done.points_for("large_straight", FIVES) == 40


def test_upper_first_with_free_joker() -> None:
    upper_done = card("yahtzee+free-joker+upper-first", yahtzee=50, **dict.fromkeys(UPPER, 0))
    assert upper_done.legal_boxes(FIVES) == tuple(s for s in LOWER if s != "yahtzee")
    assert upper_done.points_for("small_straight", FIVES) == 30


@pytest.mark.parametrize(
    ("upper", "bonus"),
    [
        ((3, 6, 9, 12, 15, 18), 35),  # exactly 63
        ((2, 6, 9, 12, 15, 18), 0),  # 62
        ((5, 10, 15, 20, 25, 30), 35),
        ((0, 0, 0, 0, 0, 0), 0),
    ],
)
def test_upper_bonus_at_63(upper: tuple[int, ...], bonus: int) -> None:
    filled = card(**dict(zip(UPPER, upper, strict=True)))
    assert filled.upper_subtotal == sum(upper)
    assert filled.upper_bonus == bonus
    assert filled.upper_total == sum(upper) + bonus
    assert filled.grand_total == sum(upper) + bonus


def test_upper_bonus_at_63_by_playing() -> None:
    turns = [("aces", "11123"), ("twos", "22245"), ("threes", "33312")]
    turns += [("fours", "44412"), ("fives", "55521"), ("sixes", "66613")]
    assert play("yahtzee", *turns).totals()["upper_bonus"] == 35
    assert play("yahtzee", ("aces", "11234"), *turns[1:]).totals()["upper_bonus"] == 0
    assert play("yacht", ("ones", "11123"), *turns[1:]).upper_bonus == 0  # Yacht: no bonus


def test_several_yahtzee_bonus_checks() -> None:
    played = play(
        "yahtzee",
        ("yahtzee", "44444"),
        ("fives", "55555"),  # own upper box: 25 and a check
        ("sixes", "66666"),
        ("fours", "44444"),
    )
    assert played.bonus_checks == 3
    assert played.totals() == {
        "upper_subtotal": 25 + 30 + 20,
        "upper_bonus": 35,
        "upper_total": 110,
        "yahtzee_bonus_checks": 3,
        "yahtzee_bonus": 300,
        "lower_subtotal": 50,
        "lower_total": 350,
        "grand_total": 460,
    }


def test_no_yahtzee_bonus_with_zero_in_the_box() -> None:
    played = play("yahtzee", ("yahtzee", "12345"), ("fives", "55555"), ("chance", "55555"))
    assert played.box("yahtzee") == 0
    assert played.bonus_checks == 0
    assert played.box("chance") == 25


def test_filled_box_is_refused_and_lists_open_boxes() -> None:
    filled = play("yacht", ("choice", "12345"))
    with pytest.raises(BoxFilledError) as caught:
        filled.score("choice", Dice.parse("66666"))
    assert "box 'choice' already holds 15; open boxes: ones, twos" in str(caught.value)
    assert isinstance(caught.value, ScoringError)


def test_unknown_box() -> None:
    with pytest.raises(UnknownBoxError, match="unknown box 'choice' for yahtzee; boxes are: aces"):
        Scorecard.empty("yahtzee").score("choice", Dice.parse("12345"))


def test_score_returns_a_new_card() -> None:
    empty = Scorecard.empty("yahtzee")
    scored = empty.score("chance", Dice.parse("6 6 6 6 5"))
    assert empty.box("chance") is None
    assert scored.box("chance") == 29
    assert scored != empty


def test_wrong_number_of_points() -> None:
    with pytest.raises(CardFormatError, match="yacht has 12 boxes, got 13"):
        Scorecard(ruleset("yacht"), (None,) * 13)


def test_json_round_trip() -> None:
    played = play("yahtzee+free-joker", ("yahtzee", "33333"), ("aces", "33333"))
    data = json.loads(json.dumps(played.to_dict()))
    assert data == {
        "rules": "yahtzee+free-joker",
        "boxes": dict.fromkeys(ruleset("yahtzee").slugs) | {"yahtzee": 50, "aces": 0},
        "bonus_checks": 1,
    }
    assert Scorecard.from_dict(data) == played
    assert eval(repr(played)) == played


@pytest.mark.parametrize(
    "data",
    [
        {"boxes": {}},
        {"rules": "yahtzee"},
        {"rules": "yahtzee", "boxes": {"aces": 1}},
        {"rules": "yahtzee", "boxes": None},
    ],
)
def test_from_dict_refuses_foreign_data(data: dict[str, object]) -> None:
    with pytest.raises(CardFormatError, match="not a scorecard"):
        Scorecard.from_dict(data)


@pytest.mark.parametrize(
    ("boxes", "checks", "bad"),
    [
        ({"aces": "3"}, 0, "box 'aces' must be a whole number, got '3'"),
        ({"aces": -1}, 0, "box 'aces' cannot be negative, got -1"),
        ({"aces": True}, 0, "box 'aces' must be a whole number, got True"),
        ({}, "2", "bonus_checks must be a whole number, got '2'"),
    ],
)
def test_from_dict_refuses_values_that_are_not_scores(
    boxes: dict[str, object], checks: object, bad: str
) -> None:
    data = {"rules": "yahtzee", "boxes": dict.fromkeys(ruleset("yahtzee").slugs) | boxes}
    with pytest.raises(CardFormatError, match=re.escape(bad)):
        Scorecard.from_dict(data | {"bonus_checks": checks})


@given(played_cards())
def test_json_round_trip_of_any_played_card(played: Scorecard) -> None:
    assert Scorecard.from_dict(json.loads(json.dumps(played.to_dict()))) == played


@given(played_cards(complete=True))
def test_a_complete_game_adds_up(played: Scorecard) -> None:
    totals = played.totals()
    assert played.is_complete
    assert played.open_boxes() == ()
    assert totals["grand_total"] == sum(p or 0 for p in played.points) + (
        totals["upper_bonus"] + totals["yahtzee_bonus"]
    )
    assert totals["yahtzee_bonus"] == 100 * played.bonus_checks
    if played.bonus_checks:
        assert played.box("yahtzee") == 50


@given(played_cards(), rolls)
def test_every_open_card_has_a_legal_box(played: Scorecard, dice: Dice) -> None:
    legal = played.legal_boxes(dice)
    assert set(legal) <= set(played.open_boxes())
    assert bool(legal) == (not played.is_complete)

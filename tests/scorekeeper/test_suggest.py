"""suggest: every legal box with its points, best first, and Joker reasons."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scorekeeper_strategies import played_cards, rolls_of

from scorekeeper import (
    Dice,
    DiceCountError,
    IllegalBoxError,
    JokerRule,
    Scorecard,
    Suggestion,
    ruleset,
    suggest,
)


def test_empty_card_best_first_then_card_order() -> None:
    options = suggest(Scorecard.empty("yahtzee"), Dice.parse("6 6 4 6 6"))
    assert [(s.box, s.points) for s in options] == [
        ("three_of_a_kind", 28),
        ("four_of_a_kind", 28),
        ("chance", 28),
        ("sixes", 24),
        ("fours", 4),
        ("aces", 0),
        ("twos", 0),
        ("threes", 0),
        ("fives", 0),
        ("full_house", 0),
        ("small_straight", 0),
        ("large_straight", 0),
        ("yahtzee", 0),
    ]
    assert all(s.bonus == 0 and s.joker is None and s.reason is None for s in options)


def test_yacht_suggestions() -> None:
    options = suggest(Scorecard.empty("yacht"), Dice.parse("3 3 3 6 6"))
    assert [(s.box, s.points) for s in options[:4]] == [
        ("full_house", 21),
        ("choice", 21),
        ("sixes", 12),
        ("threes", 9),
    ]


def test_joker_suggestions_carry_the_bonus_and_reason() -> None:
    card = Scorecard.empty("yahtzee").score("yahtzee", Dice.parse("22222"))
    card = card.score("fives", Dice.parse("55551"))
    options = suggest(card, Dice.parse("5 5 5 5 5"))
    assert [(s.box, s.points) for s in options] == [
        ("large_straight", 40),
        ("small_straight", 30),
        ("three_of_a_kind", 25),
        ("four_of_a_kind", 25),
        ("full_house", 25),
        ("chance", 25),
    ]
    first = options[0]
    assert (first.bonus, first.joker) == (100, JokerRule.ANY_LOWER)
    assert first.to_dict() == {
        "box": "large_straight",
        "points": 40,
        "bonus": 100,
        "zero": False,
        "joker": "any_lower",
        "reason": JokerRule.ANY_LOWER.value,
    }


def test_forced_upper_box_is_the_only_suggestion() -> None:
    card = Scorecard.empty("yahtzee").score("yahtzee", Dice.parse("22222"))
    assert suggest(card, Dice.parse("4 4 4 4 4")) == [
        Suggestion("fours", 20, 100, JokerRule.OWN_UPPER)
    ]


def test_zero_and_dict_of_a_plain_suggestion() -> None:
    scratch = Suggestion("yahtzee", 0)
    assert scratch.zero
    assert scratch.to_dict() == {
        "box": "yahtzee",
        "points": 0,
        "bonus": 0,
        "zero": True,
        "joker": None,
        "reason": None,
    }


def test_complete_card_has_no_suggestions() -> None:
    full = Scorecard(ruleset("yacht"), (0,) * 12)
    assert suggest(full, Dice.parse("12345")) == []


def test_suggest_needs_five_dice() -> None:
    with pytest.raises(DiceCountError):
        suggest(Scorecard.empty("yahtzee"), Dice.parse("1 2 3", count=3))


def _allowed_by_trying(card: Scorecard, dice: Dice) -> set[str]:
    allowed = set()
    for slug in card.open_boxes():
        try:
            card.points_for(slug, dice)
        except IllegalBoxError:
            continue
        allowed.add(slug)
    return allowed


@given(played_cards(), st.data())
def test_suggest_offers_exactly_the_legal_boxes(card: Scorecard, data: st.DataObject) -> None:
    dice = data.draw(rolls_of(card.rules.dice_count))
    boxes = [s.box for s in suggest(card, dice)]
    assert len(boxes) == len(set(boxes))
    assert set(boxes) == set(card.legal_boxes(dice)) == _allowed_by_trying(card, dice)


@given(played_cards(), st.data())
def test_scoring_any_suggestion_succeeds(card: Scorecard, data: st.DataObject) -> None:
    dice = data.draw(rolls_of(card.rules.dice_count))
    options = suggest(card, dice)
    assert [s.points for s in options] == sorted((s.points for s in options), reverse=True)
    for option in options:
        after = card.score(option.box, dice)
        assert after.box(option.box) == option.points
        assert after.bonus_checks == card.bonus_checks + (1 if option.bonus else 0)
        assert 0 <= option.points <= card.rules.category(option.box).max_points

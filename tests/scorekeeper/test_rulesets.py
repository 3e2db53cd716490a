"""Boxes of both games, what they score, and the rule-set registry."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scorekeeper_strategies import any_dice_of, rule_sets

from scorekeeper import (
    RULESET_NAMES,
    Dice,
    DiceCountError,
    Joker,
    RuleSet,
    RuleSetError,
    Section,
    UnknownBoxError,
    ruleset,
)

ALL_ROLLS = [Dice(roll) for roll in itertools.combinations_with_replacement(range(1, 7), 5)]

YAHTZEE = [
    # (box, dice, points)
    ("aces", "1 1 1 2 3", 3),
    ("aces", "2 3 4 5 6", 0),
    ("twos", "2 2 5 2 1", 6),
    ("threes", "3 3 3 2 4", 9),  # RULES.md: three 3s, a 2 and a 4
    ("twos", "3 3 3 2 4", 2),
    ("fours", "3 3 3 2 4", 4),
    ("fives", "5 5 5 5 5", 25),
    ("sixes", "6 6 4 6 6", 24),
    ("three_of_a_kind", "2 2 2 5 6", 17),
    ("three_of_a_kind", "4 4 4 4 4", 20),
    ("three_of_a_kind", "2 2 5 5 6", 0),
    ("four_of_a_kind", "6 6 4 6 6", 28),
    ("four_of_a_kind", "3 3 3 6 6", 0),
    ("four_of_a_kind", "1 1 1 1 1", 5),
    ("full_house", "3 3 3 6 6", 25),
    ("full_house", "2 5 2 5 5", 25),
    ("full_house", "5 5 5 5 5", 0),  # not a Full House outside the Joker rules
    ("full_house", "3 3 3 3 6", 0),
    ("small_straight", "1 2 3 4 6", 30),
    ("small_straight", "3 4 5 6 6", 30),
    ("small_straight", "2 3 4 5 6", 30),  # a large straight is a small one too
    ("small_straight", "1 2 3 5 6", 0),
    ("large_straight", "1 2 3 4 5", 40),
    ("large_straight", "6 5 4 3 2", 40),
    ("large_straight", "1 2 3 4 6", 0),
    ("yahtzee", "4 4 4 4 4", 50),
    ("yahtzee", "4 4 4 4 1", 0),
    ("chance", "1 3 3 5 6", 18),
    ("chance", "1 1 1 1 1", 5),
]

YACHT = [
    ("ones", "1 1 4 1 6", 3),
    ("twos", "2 2 2 2 2", 10),
    ("threes", "3 3 3 6 6", 9),
    ("fours", "4 4 4 4 1", 16),
    ("fives", "5 1 2 3 4", 5),
    ("sixes", "6 6 6 6 6", 30),
    ("four_of_a_kind", "4 4 4 4 1", 17),  # RULES.md: all five dice count
    ("four_of_a_kind", "6 6 6 6 6", 30),  # RULES.md: five alike is four of a kind
    ("four_of_a_kind", "1 4 4 4 4", 17),  # Anna's turn in RULES.md
    ("four_of_a_kind", "3 3 3 6 6", 0),
    ("full_house", "3 3 3 6 6", 21),  # RULES.md
    ("full_house", "6 6 6 5 5", 28),
    ("full_house", "4 4 4 4 4", 0),  # two of a *different* number
    ("full_house", "1 2 3 4 5", 0),
    ("little_straight", "5 4 3 2 1", 30),
    ("little_straight", "2 3 4 5 6", 0),
    ("little_straight", "1 2 3 4 4", 0),
    ("big_straight", "6 5 4 3 2", 30),
    ("big_straight", "1 2 3 4 5", 0),
    ("choice", "6 6 4 6 6", 28),
    ("yacht", "3 3 3 3 3", 50),
    ("yacht", "3 3 3 3 2", 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), YAHTZEE)
def test_yahtzee_box_scores(box: str, dice: str, points: int) -> None:
    assert ruleset("yahtzee").score(box, Dice.parse(dice)) == points


@pytest.mark.parametrize(("box", "dice", "points"), YACHT)
def test_yacht_box_scores(box: str, dice: str, points: int) -> None:
    assert ruleset("yacht").score(box, Dice.parse(dice)) == points


def test_every_box_has_a_scoring_table_row() -> None:
    assert {row[0] for row in YAHTZEE} == set(ruleset("yahtzee").slugs)
    assert {row[0] for row in YACHT} == set(ruleset("yacht").slugs)


@pytest.mark.parametrize(
    ("box", "maximum"),
    [
        ("four_of_a_kind", 30),
        ("full_house", 28),
        ("choice", 30),
        ("sixes", 30),
        ("fives", 25),
        ("fours", 20),
        ("threes", 15),
        ("twos", 10),
        ("ones", 5),
        ("yacht", 50),
        ("little_straight", 30),
        ("big_straight", 30),
    ],
)
def test_yacht_maximum_scores_of_the_document(box: str, maximum: int) -> None:
    category = ruleset("yacht").category(box)
    assert category.max_points == maximum
    assert max(category.score(dice) for dice in ALL_ROLLS) == maximum


@pytest.mark.parametrize("name", ["yahtzee", "yacht"])
def test_max_points_is_the_best_of_all_rolls(name: str) -> None:
    for category in ruleset(name).categories:
        scores = [category.score(dice) for dice in ALL_ROLLS]
        assert max(scores) == category.max_points, category.slug
        assert min(scores) >= 0


@given(rule_sets, st.data())
def test_no_box_scores_below_zero_or_above_its_maximum(rules: RuleSet, data: st.DataObject
                                                        ) -> None:
    dice = data.draw(any_dice_of(rules.dice_count))
    for category in rules.categories:
        assert 0 <= category.score(dice) <= category.max_points


def test_slugs_are_the_names_everyone_relies_on() -> None:
    assert list(ruleset("yahtzee").slugs) == [
        "aces",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "three_of_a_kind",
        "four_of_a_kind",
        "full_house",
        "small_straight",
        "large_straight",
        "yahtzee",
        "chance",
    ]
    assert list(ruleset("yacht").slugs) == [
        "ones",
        "twos",
        "threes",
        "fours",
        "fives",
        "sixes",
        "full_house",
        "four_of_a_kind",
        "little_straight",
        "big_straight",
        "choice",
        "yacht",
    ]


@pytest.mark.parametrize("name", ["yahtzee", "yacht"])
def test_sections_and_upper_faces(name: str) -> None:
    rules = ruleset(name)
    upper = [c for c in rules.categories if c.section is Section.UPPER]
    assert [c.face for c in upper] == [1, 2, 3, 4, 5, 6]
    assert [rules.upper_box(face).slug for face in range(1, 7)] == list(rules.slugs[:6])
    assert all(c.face is None for c in rules.categories if c.section is Section.LOWER)


def test_game_switches() -> None:
    yahtzee, yacht = ruleset("yahtzee"), ruleset("yacht")
    assert (yahtzee.joker, yahtzee.upper_first) == (Joker.FORCED, False)
    assert (yahtzee.upper_bonus_threshold, yahtzee.upper_bonus) == (63, 35)
    assert (yahtzee.five_alike_slug, yahtzee.five_alike_bonus) == ("yahtzee", 100)
    assert (yacht.joker, yacht.upper_bonus_threshold, yacht.five_alike_bonus) == (
        Joker.NONE,
        None,
        0,
    )
    assert yacht.five_alike_slug == "yacht"
    assert ruleset("yahtzee+free-joker").joker is Joker.FREE
    assert ruleset("yacht+upper-first").upper_first is True


def test_joker_points_are_the_full_values() -> None:
    rules = ruleset("yahtzee")
    assert {c.slug: c.joker_points for c in rules.categories if c.joker_points} == {
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
    }
    assert all(c.joker_points is None for c in ruleset("yacht").categories)


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("yahtzee", "yahtzee"),
        (" YAHTZEE ", "yahtzee"),
        ("yahtzee+upper-first+free-joker", "yahtzee+free-joker+upper-first"),
        ("yahtzee+free-joker+upper-first", "yahtzee+free-joker+upper-first"),
        ("Yahtzee+Upper-First", "yahtzee+upper-first"),
        ("yacht+upper-first", "yacht+upper-first"),
    ],
)
def test_names_canonicalize(name: str, canonical: str) -> None:
    assert ruleset(name).name == canonical
    assert ruleset(name) == ruleset(canonical)


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_every_listed_name_is_canonical(name: str) -> None:
    assert ruleset(name).name == name
    assert ruleset(name).game in ("yahtzee", "yacht", "yatzy", "maxi-yatzy")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("poker", "unknown rule set 'poker'; known: " + ", ".join(RULESET_NAMES)),
        ("", "unknown rule set ''"),
        ("yahtzee+fast", "unknown variant 'fast' in 'yahtzee+fast'; variants: free-joker"),
        ("yahtzee+free-joker+free-joker", "a variant is named twice"),
        ("yacht+free-joker", "Yacht has no Joker rules"),
    ],
)
def test_bad_names(name: str, message: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        ruleset(name)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_unknown_box_lists_the_boxes() -> None:
    with pytest.raises(UnknownBoxError) as caught:
        ruleset("yacht").category("chance")
    assert "unknown box 'chance' for yacht" in str(caught.value)
    assert "ones, twos, threes, fours, fives, sixes, full_house" in str(caught.value)


def test_a_box_is_scored_with_five_dice() -> None:
    with pytest.raises(DiceCountError, match=r"got 1 2 3$"):
        ruleset("yahtzee").score("chance", Dice((1, 2, 3)))


@pytest.mark.parametrize(("dice", "alike"), [("44444", True), ("44441", False)])
def test_is_five_alike(dice: str, alike: bool) -> None:
    assert ruleset("yacht").is_five_alike(Dice.parse(dice)) is alike

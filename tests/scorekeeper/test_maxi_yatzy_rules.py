"""Maxi Yatzy: six dice, every box on a table of rolls, the bonus, no Joker, its variants."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper import (
    Dice,
    DiceCountError,
    Joker,
    RuleSetError,
    Scorecard,
    Section,
    ruleset,
    suggest,
)

ALL_ROLLS = [Dice(roll) for roll in itertools.combinations_with_replacement(range(1, 7), 6)]
MAXI_NAMES = ("maxi-yatzy", "maxi-yatzy+in-order", "maxi-yatzy+upper-first")

MAXI = [
    # (box, dice, points)
    ("ones", "1 1 3 4 1 1", 4),
    ("ones", "2 3 4 5 6 6", 0),
    ("twos", "2 2 5 2 1 2", 8),
    ("threes", "3 3 3 2 4 3", 12),
    ("fours", "4 4 4 4 1 4", 20),
    ("fives", "5 5 5 5 5 5", 30),
    ("sixes", "6 6 4 6 6 1", 24),
    ("one_pair", "3 3 5 5 1 2", 10),  # the highest pair
    ("one_pair", "6 6 6 2 1 3", 12),  # three alike hold a pair
    ("one_pair", "4 4 4 4 4 4", 8),
    ("one_pair", "1 2 3 4 5 6", 0),
    ("two_pairs", "3 3 5 5 1 2", 16),
    ("two_pairs", "2 2 4 4 6 6", 20),  # three pairs hold two pairs: the two highest
    ("two_pairs", "2 2 2 5 5 1", 14),  # a full house holds two different pairs
    ("two_pairs", "6 6 6 5 5 5", 22),  # so does a villa
    ("two_pairs", "4 4 4 4 1 1", 10),  # and a tower
    ("two_pairs", "2 2 2 2 5 1", 0),  # the two pairs must be different
    ("two_pairs", "4 4 4 4 4 4", 0),
    ("two_pairs", "1 1 2 3 4 5", 0),
    ("three_pairs", "1 1 3 3 6 6", 20),  # the sum of those six dice
    ("three_pairs", "6 5 4 6 5 4", 30),
    ("three_pairs", "2 2 2 2 5 5", 0),  # four alike are not two different pairs
    ("three_pairs", "3 3 3 5 5 5", 0),  # nor is a villa three pairs
    ("three_pairs", "6 6 6 6 6 6", 0),
    ("three_pairs", "1 1 2 2 3 4", 0),
    ("three_of_a_kind", "4 4 4 1 2 3", 12),  # only the three dice count
    ("three_of_a_kind", "4 4 4 6 6 6", 18),  # a villa: the higher three
    ("three_of_a_kind", "4 4 4 4 2 1", 12),
    ("three_of_a_kind", "3 3 3 3 3 3", 9),
    ("three_of_a_kind", "5 5 6 6 1 1", 0),
    ("four_of_a_kind", "2 2 2 2 6 1", 8),  # only the four dice count
    ("four_of_a_kind", "5 5 5 5 5 1", 20),
    ("four_of_a_kind", "6 6 6 6 6 6", 24),  # six alike hold four alike
    ("four_of_a_kind", "6 6 6 1 1 1", 0),
    ("five_of_a_kind", "3 3 3 3 3 6", 15),  # only the five dice count
    ("five_of_a_kind", "2 2 2 2 2 2", 10),
    ("five_of_a_kind", "6 6 6 6 5 5", 0),
    ("small_straight", "1 2 3 4 5 5", 15),
    ("small_straight", "5 3 1 4 2 6", 15),  # a full straight holds both short ones
    ("small_straight", "2 3 4 5 6 6", 0),
    ("large_straight", "2 3 4 5 6 2", 20),
    ("large_straight", "6 5 4 3 2 1", 20),
    ("large_straight", "1 2 3 4 5 1", 0),
    ("full_straight", "1 2 3 4 5 6", 21),
    ("full_straight", "6 4 2 5 3 1", 21),
    ("full_straight", "1 2 3 4 5 5", 0),
    ("full_house", "3 3 3 6 6 1", 21),  # the sum of those five dice
    ("full_house", "6 5 6 5 6 1", 28),
    ("full_house", "5 5 5 6 6 6", 28),  # a villa: the best five, three 6s and two 5s
    ("full_house", "2 2 2 2 6 6", 18),  # a tower: three 2s and the two 6s
    ("full_house", "1 1 1 4 4 6", 11),
    ("full_house", "4 4 4 4 4 4", 0),  # two of a *different* number
    ("full_house", "3 3 3 3 3 1", 0),
    ("full_house", "1 1 2 2 3 3", 0),
    ("villa", "2 2 2 5 5 5", 21),  # two different sets of three: all six dice
    ("villa", "6 6 6 5 5 5", 33),
    ("villa", "6 6 6 6 6 6", 0),
    ("villa", "6 6 6 6 5 5", 0),
    ("villa", "4 4 4 1 2 3", 0),
    ("tower", "3 3 3 3 6 6", 24),  # four alike and two of another: all six dice
    ("tower", "6 6 6 6 5 5", 34),
    ("tower", "1 1 5 5 5 5", 22),
    ("tower", "5 5 5 5 5 5", 0),
    ("tower", "5 5 5 5 5 1", 0),
    ("tower", "4 4 4 4 1 2", 0),
    ("chance", "1 3 3 5 6 2", 20),
    ("chance", "6 6 6 6 6 6", 36),
    ("maxi_yatzy", "2 2 2 2 2 2", 100),  # six alike
    ("maxi_yatzy", "2 2 2 2 2 1", 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), MAXI)
def test_maxi_yatzy_box_scores(box: str, dice: str, points: int) -> None:
    assert ruleset("maxi-yatzy").score(box, Dice.parse(dice, 6)) == points


def test_every_maxi_yatzy_box_has_a_scoring_table_row() -> None:
    assert {row[0] for row in MAXI} == set(ruleset("maxi-yatzy").slugs)


@pytest.mark.parametrize("name", MAXI_NAMES)
def test_max_points_is_the_best_of_all_rolls(name: str) -> None:
    for category in ruleset(name).categories:
        assert max(category.score(dice) for dice in ALL_ROLLS) == category.max_points


def test_the_slugs_in_the_printed_order_of_maxi_yatzy_pads() -> None:
    rules = ruleset("maxi-yatzy")
    assert rules.slugs == (
        "ones", "twos", "threes", "fours", "fives", "sixes",
        "one_pair", "two_pairs", "three_pairs", "three_of_a_kind", "four_of_a_kind",
        "five_of_a_kind", "small_straight", "large_straight", "full_straight", "full_house",
        "villa", "tower", "chance", "maxi_yatzy",
    )
    assert [c.section for c in rules.categories] == [Section.UPPER] * 6 + [Section.LOWER] * 14
    assert [rules.upper_box(face).slug for face in range(1, 7)] == list(rules.slugs[:6])
    assert (rules.game, rules.title, rules.five_alike_slug) == (
        "maxi-yatzy", "Maxi Yatzy", "maxi_yatzy")
    assert rules.saved_rolls is True
    assert not any(ruleset(name).saved_rolls for name in ("yahtzee", "yacht", "yatzy"))


@pytest.mark.parametrize("name", MAXI_NAMES)
def test_every_box_is_scored_with_six_dice(name: str) -> None:
    rules = ruleset(name)
    assert rules.dice_count == 6
    assert {c.dice_count for c in rules.categories} == {6}
    with pytest.raises(DiceCountError, match=r"a box is scored with 6 dice, got 1 2 3 4 5$"):
        rules.score("chance", Dice.parse("1 2 3 4 5"))


@pytest.mark.parametrize(("dice", "alike"), [("444444", True), ("444441", False)])
def test_all_six_alike_is_the_maxi_yatzy(dice: str, alike: bool) -> None:
    assert ruleset("maxi-yatzy").is_five_alike(Dice.parse(dice, 6)) is alike


def test_upper_bonus_of_a_hundred_at_eighty_four_and_no_extra_bonus() -> None:
    rules = ruleset("maxi-yatzy")
    assert (rules.upper_bonus_threshold, rules.upper_bonus) == (84, 100)
    assert (rules.joker, rules.five_alike_bonus) == (Joker.NONE, 0)
    points = (4, 8, 12, 16, 20, 24, 12, 22, 30, 18, 24, 30, 15, 20, 21, 28, 33, 34, 36, 100)
    card = Scorecard(rules, points)
    assert card.totals() == {
        "upper_subtotal": 84, "upper_bonus": 100, "upper_total": 184,
        "yahtzee_bonus_checks": 0, "yahtzee_bonus": 0,
        "lower_subtotal": 423, "lower_total": 423, "grand_total": 607,
    }
    below = Scorecard(rules, (3, *points[1:]))
    assert (below.upper_subtotal, below.upper_bonus, below.grand_total) == (83, 0, 506)


@pytest.mark.parametrize("maxi", [100, 0])
def test_no_joker_and_no_bonus_for_a_second_maxi_yatzy(maxi: int) -> None:
    first = Dice.parse("3 3 3 3 3 3" if maxi else "1 2 3 4 6 6", 6)
    card = Scorecard.empty("maxi-yatzy").score("maxi_yatzy", first)
    assert card.box("maxi_yatzy") == maxi
    fives = Dice.parse("5 5 5 5 5 5", 6)
    assert card.joker_rule(fives) is None
    assert card.legal_boxes(fives) == card.open_boxes()
    assert card.bonus_earned(fives) == 0
    options = suggest(card, fives)
    assert {(s.joker, s.bonus) for s in options} == {(None, 0)}
    assert {s.box: s.points for s in options} == {
        c.slug: c.score(fives) for c in card.rules.categories if c.slug != "maxi_yatzy"}
    after = card.score("full_straight", fives)
    assert (after.box("full_straight"), after.bonus_checks, after.yahtzee_bonus) == (0, 0, 0)


def test_boxes_in_order_and_upper_first_fit_maxi_yatzy() -> None:
    roll = Dice.parse("6 6 6 5 5 5", 6)
    in_order = Scorecard.empty("maxi-yatzy+in-order")
    assert in_order.legal_boxes(roll) == ("ones",)
    upper_first = Scorecard.empty("maxi-yatzy+upper-first")
    assert upper_first.legal_boxes(roll) == upper_first.rules.slugs[:6]
    assert ruleset("Maxi-Yatzy+In-Order").name == "maxi-yatzy+in-order"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("maxi-yatzy+tp4", "'maxi-yatzy+tp4': tp4 (four alike as Two Pairs) is a Yatzy variant, "
                           "not Maxi Yatzy"),
        ("maxi-yatzy+free-joker", "'maxi-yatzy+free-joker': Maxi Yatzy has no Joker rules"),
        ("maxi-yatzy+upper-first+in-order", "'maxi-yatzy+upper-first+in-order': in-order fills "
                                            "the upper section first anyway"),
    ],
)
def test_variants_that_do_not_fit_maxi_yatzy(name: str, message: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        ruleset(name)
    assert str(caught.value).startswith(message)

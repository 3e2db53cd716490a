"""Scandinavian Yatzy: every box on a table of rolls, its variants, no Joker, the registry."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper import Dice, Joker, RuleSetError, Scorecard, Section, ruleset, suggest

ALL_ROLLS = [Dice(roll) for roll in itertools.combinations_with_replacement(range(1, 7), 5)]
YATZY_NAMES = ("yatzy", "yatzy+fh5", "yatzy+tp4", "yatzy+fh5+tp4")

YATZY = [
    # (box, dice, points)
    ("ones", "1 1 3 4 1", 3),
    ("ones", "2 3 4 5 6", 0),
    ("twos", "2 2 5 2 1", 6),
    ("threes", "3 3 3 2 4", 9),
    ("fours", "4 4 4 4 1", 16),
    ("fives", "5 5 5 5 5", 25),
    ("sixes", "6 6 4 6 6", 24),
    ("one_pair", "3 3 5 5 1", 10),  # the highest pair
    ("one_pair", "6 6 6 2 1", 12),  # three alike hold a pair
    ("one_pair", "4 4 4 4 4", 8),
    ("one_pair", "1 2 3 4 6", 0),
    ("two_pairs", "3 3 5 5 1", 16),
    ("two_pairs", "2 2 2 5 5", 14),  # a full house holds two different pairs
    ("two_pairs", "6 5 6 5 6", 22),
    ("two_pairs", "2 2 2 2 5", 0),  # the two pairs must be different
    ("two_pairs", "4 4 4 4 4", 0),
    ("two_pairs", "1 1 2 3 4", 0),
    ("three_of_a_kind", "4 4 4 1 2", 12),  # only the three dice count
    ("three_of_a_kind", "4 4 4 4 2", 12),
    ("three_of_a_kind", "3 3 3 3 3", 9),
    ("three_of_a_kind", "5 5 6 6 1", 0),
    ("four_of_a_kind", "2 2 2 2 6", 8),  # only the four dice count
    ("four_of_a_kind", "5 5 5 5 5", 20),
    ("four_of_a_kind", "6 6 6 1 1", 0),
    ("small_straight", "1 2 3 4 5", 15),
    ("small_straight", "5 3 1 4 2", 15),
    ("small_straight", "2 3 4 5 6", 0),
    ("small_straight", "1 2 3 4 4", 0),
    ("large_straight", "2 3 4 5 6", 20),
    ("large_straight", "6 5 4 3 2", 20),
    ("large_straight", "1 2 3 4 5", 0),
    ("large_straight", "1 3 4 5 6", 0),
    ("full_house", "3 3 3 6 6", 21),  # the sum of all five dice
    ("full_house", "6 5 6 5 6", 28),
    ("full_house", "4 4 4 4 4", 0),  # two of a *different* number
    ("full_house", "2 2 2 2 5", 0),
    ("full_house", "1 1 2 2 3", 0),
    ("chance", "1 3 3 5 6", 18),
    ("chance", "6 6 6 6 6", 30),
    ("yatzy", "2 2 2 2 2", 50),
    ("yatzy", "2 2 2 2 1", 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), YATZY)
def test_yatzy_box_scores(box: str, dice: str, points: int) -> None:
    assert ruleset("yatzy").score(box, Dice.parse(dice)) == points


def test_every_yatzy_box_has_a_scoring_table_row() -> None:
    assert {row[0] for row in YATZY} == set(ruleset("yatzy").slugs)


@pytest.mark.parametrize(
    ("name", "box", "dice", "points"),
    [
        ("yatzy+tp4", "two_pairs", "2 2 2 2 5", 8),  # four alike: four times the face
        ("yatzy+tp4", "two_pairs", "4 4 4 4 4", 16),
        ("yatzy+tp4", "two_pairs", "3 3 5 5 1", 16),
        ("yatzy+tp4", "two_pairs", "1 1 2 3 4", 0),
        ("yatzy+fh5", "two_pairs", "2 2 2 2 5", 0),
        ("yatzy+fh5", "full_house", "4 4 4 4 4", 20),  # five alike: the sum of the dice
        ("yatzy+fh5", "full_house", "3 3 3 6 6", 21),
        ("yatzy+fh5", "full_house", "2 2 2 2 5", 0),
        ("yatzy+tp4", "full_house", "4 4 4 4 4", 0),
        ("yatzy+fh5+tp4", "full_house", "6 6 6 6 6", 30),
        ("yatzy+fh5+tp4", "two_pairs", "6 6 6 6 6", 24),
        ("yatzy+fh5+tp4", "yatzy", "6 6 6 6 6", 50),
    ],
)
def test_variant_box_scores(name: str, box: str, dice: str, points: int) -> None:
    assert ruleset(name).score(box, Dice.parse(dice)) == points


@pytest.mark.parametrize(
    ("name", "changed"),
    [("yatzy+fh5", {"full_house"}), ("yatzy+tp4", {"two_pairs"}),
     ("yatzy+fh5+tp4", {"full_house", "two_pairs"}), ("yatzy+in-order", set())],
)
def test_a_variant_scores_only_its_own_boxes_another_way(name: str, changed: set[str]) -> None:
    plain, variant = ruleset("yatzy"), ruleset(name)
    assert variant.slugs == plain.slugs
    differ = {mine.slug for mine, theirs in zip(variant.categories, plain.categories, strict=True)
              if any(mine.score(d) != theirs.score(d) for d in ALL_ROLLS)}
    assert differ == changed


@pytest.mark.parametrize("name", YATZY_NAMES)
def test_max_points_is_the_best_of_all_rolls(name: str) -> None:
    for category in ruleset(name).categories:
        assert max(category.score(dice) for dice in ALL_ROLLS) == category.max_points


def test_the_slugs_in_the_printed_order_of_scandinavian_pads() -> None:
    rules = ruleset("yatzy")
    assert rules.slugs == (
        "ones", "twos", "threes", "fours", "fives", "sixes",
        "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind",
        "small_straight", "large_straight", "full_house", "chance", "yatzy",
    )
    assert [c.section for c in rules.categories] == [Section.UPPER] * 6 + [Section.LOWER] * 9
    assert [rules.upper_box(face).slug for face in range(1, 7)] == list(rules.slugs[:6])
    assert (rules.game, rules.dice_count, rules.five_alike_slug) == ("yatzy", 5, "yatzy")


def test_upper_bonus_of_fifty_at_sixty_three_and_no_yatzy_bonus() -> None:
    rules = ruleset("yatzy")
    assert (rules.upper_bonus_threshold, rules.upper_bonus) == (63, 50)
    assert (rules.joker, rules.five_alike_bonus) == (Joker.NONE, 0)
    points = (3, 6, 9, 12, 15, 18, 12, 22, 18, 24, 15, 20, 28, 30, 50)
    card = Scorecard(rules, points)
    assert card.totals() == {
        "upper_subtotal": 63, "upper_bonus": 50, "upper_total": 113,
        "yahtzee_bonus_checks": 0, "yahtzee_bonus": 0,
        "lower_subtotal": 219, "lower_total": 219, "grand_total": 332,
    }
    below = Scorecard(rules, (2, *points[1:]))
    assert (below.upper_bonus, below.grand_total) == (0, 281)


@pytest.mark.parametrize("name", YATZY_NAMES)
@pytest.mark.parametrize("yatzy", [50, 0])
def test_no_joker_and_no_bonus_for_a_second_yatzy(name: str, yatzy: int) -> None:
    card = Scorecard.empty(name).score("yatzy", Dice.parse("3 3 3 3 3" if yatzy else "1 2 3 4 6"))
    assert card.box("yatzy") == yatzy
    fives = Dice.parse("5 5 5 5 5")
    assert card.joker_rule(fives) is None
    assert card.legal_boxes(fives) == card.open_boxes()
    assert card.bonus_earned(fives) == 0
    options = suggest(card, fives)
    assert {(s.joker, s.bonus) for s in options} == {(None, 0)}
    assert {s.box: s.points for s in options} == {
        c.slug: c.score(fives) for c in card.rules.categories if c.slug != "yatzy"}
    after = card.score("small_straight", fives)
    assert (after.box("small_straight"), after.bonus_checks, after.yahtzee_bonus) == (0, 0, 0)


@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("yatzy", "yatzy"),
        (" YATZY ", "yatzy"),
        ("yatzy+tp4+fh5", "yatzy+fh5+tp4"),
        ("Yatzy+In-Order+FH5", "yatzy+fh5+in-order"),
        ("yahtzee+in-order+free-joker", "yahtzee+free-joker+in-order"),
    ],
)
def test_yatzy_names_canonicalize(name: str, canonical: str) -> None:
    assert ruleset(name).name == canonical
    assert ruleset(name) == ruleset(canonical)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("yatzy+free-joker", "'yatzy+free-joker': Yatzy has no Joker rules, so no free-joker"),
        ("yahtzee+fh5", "'yahtzee+fh5': fh5 (five alike as a Full House) is a Yatzy variant, "
                        "not Yahtzee"),
        ("yacht+tp4", "'yacht+tp4': tp4 (four alike as Two Pairs) is a Yatzy variant, not Yacht"),
        ("yatzy+upper-first+in-order",
         "'yatzy+upper-first+in-order': in-order fills the upper section first anyway, "
         "so no upper-first"),
        ("yatzy+fh5+fh5", "a variant is named twice in 'yatzy+fh5+fh5'"),
        ("yatzy+tp1", "unknown variant 'tp1' in 'yatzy+tp1'; variants: free-joker, fh5, tp4, "
                      "upper-first, in-order"),
        ("maxi-yatzy+fh5", "'maxi-yatzy+fh5': fh5 (five alike as a Full House) is a Yatzy "
                           "variant, not Maxi Yatzy"),
        ("mini-yatzy", "unknown rule set 'mini-yatzy'"),
    ],
)
def test_names_that_do_not_fit(name: str, message: str) -> None:
    with pytest.raises(RuleSetError) as caught:
        ruleset(name)
    assert str(caught.value).startswith(message)

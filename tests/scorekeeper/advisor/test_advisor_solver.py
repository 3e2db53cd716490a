"""Advisor solver: the published optimal values, and small games checked by brute force."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from scorekeeper import Dice, Scorecard, ruleset
from scorekeeper.advisor import AdvisorError, Table, UnreachableCardError, build

Solved = Callable[[str], Table]  # the `solved` fixture of conftest.py

Roll = tuple[int, ...]
SESSION_TABLES = ("yahtzee", "yahtzee+free-joker", "yatzy", "yatzy+fh5+tp4")  # solved once


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("yahtzee+free-joker", 254.5896095),  # Verhoeff, optimal solitaire Yahtzee
        ("yahtzee", 254.5877287),  # Hasbro's forced Joker
    ],
)
def test_published_values(solved: Solved, name: str, expected: float) -> None:
    assert solved(name).expected_score == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("yahtzee+upper-first", 213.6881087),
        # With the upper section first, the Yahtzee box is filled only after every upper
        # box, so the Joker always finds its own upper box filled: both Jokers agree.
        ("yahtzee+free-joker+upper-first", 213.6881087),
        ("yacht", 169.7738891),
        ("yacht+upper-first", 137.7122415),
    ],
)
def test_other_rule_sets(name: str, expected: float) -> None:
    assert build(name).expected_score == pytest.approx(expected, abs=1e-6)


# --- brute force, independent of the solver ---------------------------------------

_ORDERED = {n: list(itertools.product(range(1, 7), repeat=n)) for n in range(7)}


def brute_turn(final: Callable[[Roll], float], dice: int = 5) -> float:
    """Expected value of a turn of three rolls with optimal holding, by enumerating
    every ordered outcome of the rerolled dice; *final* values a sorted roll of *dice* dice."""

    def stage(after: Callable[[Roll], float]) -> Callable[[Roll], float]:
        @cache
        def hold(kept: Roll) -> float:
            outcomes = _ORDERED[dice - len(kept)]
            return sum(after(tuple(sorted(kept + o))) for o in outcomes) / len(outcomes)

        @cache
        def best(roll: Roll) -> float:
            subsets = set(itertools.product(*((0, 1) for _ in range(dice))))
            kept = {tuple(d for d, k in zip(roll, s, strict=True) if k) for s in subsets}
            return max(hold(keep) for keep in kept)

        return best

    first = stage(stage(cache(final)))
    return sum(first(tuple(sorted(o))) for o in _ORDERED[dice]) / 6**dice


def brute_future(card: Scorecard) -> float:
    """Expected points still to come on *card* (few open boxes) straight from Scorecard.

    What is to come depends on the past only through the open boxes, the upper subtotal
    (up to the bonus threshold) and the Yahtzee box, so cards alike in these share a value.
    """
    rules = card.rules
    cap = rules.upper_bonus_threshold or 0
    upper = [c.slug for c in rules.categories if c.face]
    # Zero every filled box but the Yahtzee box; the capped upper subtotal goes in the
    # first filled upper box.
    points: list[int | None] = [None if p is None else 0 for p in card.points]
    first = next((s for s in upper if card.box(s) is not None), None)
    if first is not None:
        points[rules.slugs.index(first)] = min(card.upper_subtotal, cap)
    five = rules.slugs.index(rules.five_alike_slug)
    points[five] = card.points[five]
    return _brute(rules.name, tuple(points))


@cache
def _brute(name: str, points: tuple[int | None, ...]) -> float:
    card = Scorecard(ruleset(name), points)
    if card.is_complete:
        return float(card.upper_bonus)

    def final(roll: Roll) -> float:
        dice = Dice(roll)
        return max(
            card.points_for(box, dice)
            + card.bonus_earned(dice)
            + brute_future(card.score(box, dice))
            for box in card.legal_boxes(dice)
        )

    return brute_turn(final, card.rules.dice_count)


def _only_open(name: str, *open_boxes: str, **filled: int) -> Scorecard:
    """A card whose boxes are all filled with zeros except *open_boxes* and *filled*."""
    rules = ruleset(name)
    points = {s: (None if s in open_boxes else filled.get(s, 0)) for s in rules.slugs}
    return Scorecard(rules, tuple(points[s] for s in rules.slugs))


def test_only_chance_open_is_a_third_roll_per_die(solved: Solved) -> None:
    card = _only_open("yahtzee", "chance")
    # Each die alone: 3.5, then keep 4+ (4.25), then keep 5+: 14/3 per die.
    assert brute_turn(sum) == pytest.approx(70 / 3)
    assert solved("yahtzee").future(card) == pytest.approx(70 / 3, abs=1e-9)


@pytest.mark.parametrize(("name", "box"), [("yacht", "yacht"), ("yahtzee", "yahtzee")])
def test_only_five_alike_open(solved: Solved, name: str, box: str) -> None:
    card = _only_open(name, box)
    chance = brute_turn(lambda roll: float(len(set(roll)) == 1))
    assert chance == pytest.approx(0.04603, abs=5e-6)
    table = solved(name) if name == "yahtzee" else build(name)
    assert table.future(card) == pytest.approx(50 * chance, abs=1e-9)


@pytest.mark.parametrize(
    ("name", "open_boxes", "filled"),
    [
        # the upper bonus in reach: 55 so far, Fours needs two 4s
        ("yahtzee", ("fours", "full_house"), {"sixes": 30, "fives": 25}),
        # forced Joker with a bonus: sixes open, Yahtzee holds 50
        ("yahtzee", ("sixes", "full_house"), {"yahtzee": 50}),
        ("yahtzee+free-joker", ("sixes", "full_house"), {"yahtzee": 50}),
        # free Joker once Sixes is filled; small straight at full value
        ("yahtzee+free-joker", ("small_straight", "aces"), {"yahtzee": 50, "sixes": 24}),
        # upper section first (complete), a zero Yahtzee: a Joker without bonus
        ("yahtzee+upper-first", ("large_straight", "chance"), {}),
        ("yacht+upper-first", ("choice", "yacht"), {}),
        # Yatzy: 59 above, Twos needs two 2s for the bonus of 50; two pairs, no Joker
        ("yatzy", ("twos", "two_pairs"), {"sixes": 30, "fives": 25, "fours": 4}),
        ("yatzy+fh5+tp4", ("two_pairs", "full_house"), {"yatzy": 50}),
        # boxes in order: Chance now, Yatzy last
        ("yatzy+in-order", ("chance", "yatzy"), {}),
        ("yahtzee+in-order", ("yahtzee", "chance"), {"sixes": 30, "fives": 25, "fours": 8}),
        # six dice: Chance, then Maxi Yatzy; 85 above, so the bonus of 100 is still to add
        ("maxi-yatzy+in-order", ("chance", "maxi_yatzy"), {"sixes": 36, "fives": 30,
                                                           "fours": 16, "threes": 3}),
    ],
)
def test_two_open_boxes_match_brute_force(
    solved: Solved, name: str, open_boxes: tuple[str, ...], filled: dict[str, int]
) -> None:
    card = _only_open(name, *open_boxes, **filled)
    table = solved(name) if name in SESSION_TABLES else build(name)
    assert table.future(card) == pytest.approx(brute_future(card), abs=1e-9)


def test_value_counts_the_card_so_far(solved: Solved) -> None:
    table = solved("yahtzee")
    filled = _only_open("yahtzee", "chance", sixes=30, fives=25, fours=12, yahtzee=50)
    card = Scorecard(filled.rules, filled.points, bonus_checks=1)
    # 67 above: the 35 bonus is still to be added; a five alike now earns another 100.
    assert table.future(card) == pytest.approx(brute_future(card), abs=1e-9)
    assert table.future(card) > 35 + 70 / 3
    assert table.value(card) == pytest.approx(67 + 50 + 100 + table.future(card))


def test_bad_cards_are_refused(solved: Solved) -> None:
    table = solved("yahtzee")
    odd = Scorecard(ruleset("yahtzee"), (None, 7, *(None,) * 11))  # 7 in Twos
    with pytest.raises(UnreachableCardError, match="no yahtzee game reaches"):
        table.value(odd)
    upper_first = _only_open("yahtzee+upper-first", "aces", "chance")  # a lower box too early
    with pytest.raises(UnreachableCardError):
        build("yahtzee+upper-first").value(upper_first)
    with pytest.raises(AdvisorError, match="'yacht' card cannot be read with a 'yahtzee' table"):
        table.value(Scorecard.empty("yacht"))


def test_values_never_drop_with_more_upper_points(solved: Solved) -> None:
    values = solved("yahtzee").values
    steps = np.diff(values, axis=1)
    assert np.all(steps[np.isfinite(steps)] >= -1e-9)

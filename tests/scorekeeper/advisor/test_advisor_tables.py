"""Advisor tables: rolls, keeps and their probabilities; rule arrays that agree with Scorecard."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from scorekeeper import RULESET_NAMES, Dice, JokerRule, Scorecard, ruleset
from scorekeeper.advisor.ruletables import RuleTables, card_state, rule_tables
from scorekeeper.advisor.tables import (
    counts_to_values,
    dice_tables,
    multinomial_probability,
    sub_keeps,
    transition_matrix,
)
from scorekeeper.advisor.turn import Batch, best_roll_values, final_values, keep_values


def test_rolls_and_keeps_are_counted_exactly() -> None:
    tables = dice_tables()
    assert len(tables.rolls) == 252
    assert tables.keep_count == 462
    assert [len(level) for level in tables.keeps] == [1, 6, 21, 56, 126, 252]
    ordered = Counter(tuple(sorted(o)) for o in itertools.product(range(1, 7), repeat=5))
    for counts, p in zip(tables.rolls, tables.roll_probability, strict=True):
        assert p == pytest.approx(ordered[counts_to_values(counts)] / 6**5, abs=1e-15)
    assert tables.roll_probability.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("counts", "probability"),
    [
        ((0, 0, 0, 0, 0, 5), 1 / 7776),
        ((1, 1, 1, 1, 1, 0), 120 / 7776),
        ((0, 2, 0, 0, 0, 1), 3 / 216),
        ((0,) * 6, 1.0),
    ],
)
def test_multinomial_probability(counts: tuple[int, ...], probability: float) -> None:
    assert multinomial_probability(counts) == pytest.approx(probability)


def test_one_die_at_a_time_equals_the_transition_matrix() -> None:
    values = np.random.default_rng(1).random((252, 7))
    levels = keep_values(values)
    assert np.allclose(np.concatenate(levels), transition_matrix() @ values, atol=1e-12)
    assert np.allclose(transition_matrix().sum(axis=1), 1.0)


def test_best_roll_values_take_the_best_sub_keep() -> None:
    tables = dice_tables()
    values = np.random.default_rng(2).random((252, 3))
    levels = keep_values(values)
    best = best_roll_values(levels)
    for row, roll in enumerate(tables.rolls):
        expected = np.max(
            [levels[size][index] for size, index in map(tables.keep_index, sub_keeps(roll))],
            axis=0,
        )
        assert np.allclose(best[row], expected)


def test_sub_keeps_of_a_roll() -> None:
    assert len(sub_keeps((0, 0, 0, 1, 0, 4))) == 10  # 6 6 6 6 4: 0..4 sixes with or without a 4
    assert len(sub_keeps((1, 1, 1, 1, 1, 0))) == 32
    assert sub_keeps((0, 0, 0, 0, 0, 5))[0] == (0,) * 6


@pytest.mark.parametrize("name", ["yahtzee", "yacht", "maxi-yatzy"])
def test_reachable_upper_subtotals(name: str) -> None:
    rt = rule_tables(ruleset(name))
    upper = [b for b, face in enumerate(rt.upper_faces) if face]
    rng = random.Random(3)
    for _ in range(20):
        filled = [b for b in upper if rng.random() < 0.5]
        mask = sum(1 << b for b in filled) | (rng.getrandbits(rt.box_count) & ~rt.upper_mask)
        sums = {
            min(sum(rt.upper_faces[b] * n for b, n in zip(filled, ns, strict=True)), rt.cap)
            for ns in itertools.product(range(rt.dice + 1), repeat=len(filled))
        }
        assert set(np.flatnonzero(rt.up_reachable[mask])) == sums


@pytest.mark.parametrize("name", ["yahtzee+upper-first", "yacht+upper-first", "yahtzee"])
def test_reachable_masks(name: str) -> None:
    rt = rule_tables(ruleset(name))
    for mask in range(1 << rt.box_count):
        lower_filled = mask & ~rt.upper_mask != 0
        upper_done = mask & rt.upper_mask == rt.upper_mask
        expected = upper_done or not lower_filled or not rt.rules.upper_first
        assert rt.mask_reachable[mask] == expected


def test_free_joker_only_once_the_upper_box_of_the_face_is_filled() -> None:
    rules = ruleset("yahtzee+free-joker")
    fives = Dice.parse("5 5 5 5 5")
    open_fives = Scorecard.empty(rules).score("yahtzee", Dice.parse("2 2 2 2 2"))
    assert open_fives.joker_rule(fives) is None
    assert open_fives.points_for("full_house", fives) == 0
    assert open_fives.points_for("fours", fives) == 0
    assert open_fives.bonus_earned(fives) == 100
    filled = open_fives.score("fives", Dice.parse("5 5 1 2 3"))
    assert filled.joker_rule(fives) is JokerRule.FREE
    assert filled.points_for("full_house", fives) == 25


# --- agreement with Scorecard ----------------------------------------------------


def _state(rt: RuleTables, card: Scorecard) -> tuple[int, int, int]:
    """The state of a card, spelled out here rather than taken from the advisor."""
    mask = sum(1 << b for b, p in enumerate(card.points) if p is not None)
    five = card.box(rt.rules.five_alike_slug)
    flag = int(bool(rt.rules.five_alike_bonus) and five == 50)
    return mask, min(card.upper_subtotal, rt.cap), flag


def _reference(rt: RuleTables, values: np.ndarray, card: Scorecard, dice: Dice) -> float:
    """Best box for *dice* straight from Scorecard: points, bonus, then the next state."""
    return max(
        card.points_for(box, dice)
        + card.bonus_earned(dice)
        + float(values[_state(rt, card.score(box, dice))])
        for box in card.legal_boxes(dice)
    )


def _random_cards(name: str, count: int, rng: random.Random) -> list[Scorecard]:
    """Cards from random legal play; all dice alike a third of the time, for Joker and bonus."""
    cards = []
    rules = ruleset(name)
    for _ in range(count):
        card = Scorecard.empty(rules)
        for _turn in range(rng.randrange(len(rules.categories))):
            dice = _random_dice(rng, rules.dice_count)
            card = card.score(rng.choice(card.legal_boxes(dice)), dice)
        cards.append(card)
    return cards


def _random_dice(rng: random.Random, count: int) -> Dice:
    if rng.random() < 0.33:
        return Dice((rng.randint(1, 6),) * count)
    return Dice.of((rng.randint(1, 6) for _ in range(count)), count=count)


def _random_next_values(rt: RuleTables, values: np.ndarray, mask: int,
                        rng: np.random.Generator) -> None:
    """Give every state one box past *mask* a random value (values of Maxi Yatzy's 2**20
    masks are written only where read, so its zeros cost no memory)."""
    for box in range(rt.box_count):
        if not mask >> box & 1:
            values[mask | 1 << box] = rng.random(values.shape[1:]) * 100


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_final_values_agree_with_scorecard(name: str) -> None:
    """With random next-state values, any difference in legality or points would show."""
    rt = rule_tables(ruleset(name))
    rng = random.Random(name)
    numbers = np.random.default_rng(7)
    values = np.zeros(rt.shape)
    tables = dice_tables(rt.dice)
    rolls = [Dice(counts_to_values(c)) for c in tables.rolls]
    checked_rows = sorted(set(tables.all_alike) | set(rng.sample(range(len(rolls)), 24)))
    for card in _random_cards(name, 30, rng):
        assert card_state(rt, card) == _state(rt, card)
        state = _state(rt, card)
        _random_next_values(rt, values, state[0], numbers)
        batch = Batch(*(np.array([x]) for x in state))
        ours = final_values(rt, values, batch)[:, 0]
        for row in checked_rows:
            assert ours[row] == pytest.approx(_reference(rt, values, card, rolls[row]), abs=1e-9)


@pytest.mark.parametrize("name", RULESET_NAMES)
def test_candidates_are_the_legal_boxes_of_plain_rolls(name: str) -> None:
    rt = rule_tables(ruleset(name))
    plain = Dice.of((1, 2, 3, 4, 6, 6)[: rt.dice], count=rt.dice)
    for card in _random_cards(name, 40, random.Random(11)):
        mask = _state(rt, card)[0]
        ours = {slug for b, slug in enumerate(rt.rules.slugs) if rt.candidates[mask] >> b & 1}
        assert ours == set(card.legal_boxes(plain))

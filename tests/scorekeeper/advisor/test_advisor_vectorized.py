"""Advice on one card in a few array operations: the same values as the batched solver steps."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from scorekeeper import Dice, Scorecard
from scorekeeper.advisor import Table, solver
from scorekeeper.advisor.advise import _keep_values, advise, keep_choices
from scorekeeper.advisor.bench import bench_all_options, build_peak
from scorekeeper.advisor.cache import TableCache
from scorekeeper.advisor.final import state_final_values
from scorekeeper.advisor.ruletables import card_state
from scorekeeper.advisor.solver import banked
from scorekeeper.advisor.tables import (
    best_rolls,
    counts_to_values,
    dice_tables,
    flat_keep_row,
    keep_links,
    keep_rows,
    reroll_best,
    sub_keeps,
)
from scorekeeper.advisor.turn import Batch, best_roll_values, final_values, keep_values

Solved = Callable[[str], Table]  # the `solved` fixture of conftest.py

RULES = ("yahtzee", "yacht", "yahtzee+free-joker", "yahtzee+upper-first",
         "yahtzee+free-joker+upper-first", "yacht+upper-first")


def _cards(rules_name: str, count: int, seed: int = 3) -> list[Scorecard]:
    """Cards part-way through random legal games, five alike often (so Jokers come up)."""
    rng = random.Random(seed)
    cards = []
    for _ in range(count):
        card = Scorecard.empty(rules_name)
        for _turn in range(rng.randrange(len(card.rules.categories))):
            face = rng.randint(1, 6)
            alike = rng.random() < 0.3
            dice = Dice((face,) * 5) if alike else Dice.of(rng.randint(1, 6) for _ in range(5))
            card = card.score(rng.choice(card.legal_boxes(dice)), dice)
        cards.append(card)
    return cards


def _batched(table: Table, card: Scorecard) -> np.ndarray:
    """The batched solver's last step for one card: (252,)."""
    state = card_state(table.tables, card)
    batch = Batch(*(np.array([x]) for x in state))
    rolls: np.ndarray = final_values(table.tables, table.values, batch)[:, 0]
    return rolls


@pytest.mark.parametrize("name", RULES)
def test_one_card_final_values_equal_the_batched_ones_bit_for_bit(
    solved: Solved, name: str
) -> None:
    table = solved(name)
    for card in _cards(name, 150):
        state = card_state(table.tables, card)
        single = state_final_values(table.tables, table.box_rolls, table.values, state)
        assert np.array_equal(single, _batched(table, card))


def test_one_product_equals_the_one_die_at_a_time_recursion() -> None:
    rng = np.random.default_rng(4)
    rolls = rng.uniform(0, 300, size=len(dice_tables().rolls))
    recursive = keep_values(rolls[:, None])
    flat = np.concatenate([level[:, 0] for level in recursive])
    assert keep_rows(rolls) == pytest.approx(flat, rel=1e-13)
    chosen = np.array([5, 40, 461])
    assert keep_rows(rolls, chosen) == pytest.approx(flat[chosen], rel=1e-13)
    assert np.array_equal(best_rolls(flat), best_roll_values(recursive)[:, 0])


def test_flat_rows_follow_the_keeps_by_size() -> None:
    tables = dice_tables()
    flat = [keep for level in tables.keeps for keep in level]
    assert [flat_keep_row(keep) for keep in flat] == list(range(462))
    roll, links = tables.rolls[17], keep_links()
    for row in links.drop_rows[:, 17]:  # the roll less one die
        less = [a - b for a, b in zip(roll, tables.keeps[4][row], strict=True)]
        assert (min(less), sum(less)) == (0, 1)
    held = {*links.sub_rows[:, links.drop_rows[:, 17]].ravel(), links.rerolled + 17}
    assert held == {flat_keep_row(k) for k in sub_keeps(roll)}  # with all five: the roll


def _every_keep_summed(rolls: np.ndarray) -> np.ndarray:
    """(462,) every keep's value as one sum per row of the transition matrix (no shortcut)."""
    matrix = keep_links().matrix
    keeps, columns = np.nonzero(matrix)
    starts = np.searchsorted(keeps, np.arange(len(matrix)))
    every: np.ndarray = np.add.reduceat(rolls[columns] * matrix[keeps, columns], starts)
    return every


def _best_by_sets(keeps: np.ndarray) -> list[float]:
    """(252,) each roll's largest value over all its sub-keeps, itself included."""
    return [max(keeps[flat_keep_row(k)] for k in sub_keeps(roll)) for roll in dice_tables().rolls]


def test_each_rolls_best_keep_is_the_largest_over_its_sub_keeps() -> None:
    rng = np.random.default_rng(7)
    keeps = rng.uniform(0, 300, size=462)  # any values: every sub-keep gets to win somewhere
    assert np.array_equal(best_rolls(keeps), _best_by_sets(keeps))
    rolls = rng.uniform(0, 300, size=len(dice_tables().rolls))
    every = _every_keep_summed(rolls)
    assert np.array_equal(keep_rows(rolls), every)  # holding five dice: the roll itself
    assert np.array_equal(reroll_best(rolls), _best_by_sets(every))


def _plain_keep_choices(table: Table, card: Scorecard, dice: Dice, roll: int
                        ) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """`keep_choices` the long way: the batched solver's last step, every keep summed over
    its row, each roll's best keep by sets, the rolled dice's keeps by rows.
    """
    rolls = _batched(table, card)
    if roll == 1:
        rolls = np.array(_best_by_sets(_every_keep_summed(rolls)))
    held = [k for k in sub_keeps(dice.counts()) if sum(k) < 5]
    values = keep_links().matrix[[flat_keep_row(k) for k in held]] @ rolls + banked(card)
    return [counts_to_values(k) for k in held], values


@pytest.mark.parametrize("name", ["yahtzee", "yahtzee+free-joker", "yacht+upper-first"])
def test_keep_choices_equal_the_plain_evaluation_bit_for_bit(solved: Solved, name: str) -> None:
    table = solved(name)
    rng = random.Random(8)
    for i, card in enumerate(_cards(name, 30, seed=8)):
        faces = [rng.randint(1, 6)] * 5 if i % 5 == 0 else [rng.randint(1, 6) for _ in range(5)]
        dice, roll = Dice.of(faces), 1 + i % 2
        keeps, values = keep_choices(table, card, dice, roll)
        plain_keeps, plain_values = _plain_keep_choices(table, card, dice, roll)
        assert list(keeps) == plain_keeps
        assert np.array_equal(values, plain_values)


@pytest.mark.parametrize("name", ["yahtzee", "yacht+upper-first"])
@pytest.mark.parametrize("rolls_left", [1, 2])
def test_keep_values_equal_the_scalar_evaluation(
    solved: Solved, name: str, rolls_left: int
) -> None:
    table = solved(name)
    everything = np.arange(462)
    for card in _cards(name, 40, seed=rolls_left):
        levels = keep_values(_batched(table, card)[:, None])
        if rolls_left == 2:
            levels = keep_values(best_roll_values(levels))
        scalar = np.concatenate([level[:, 0] for level in levels])
        vectorized = _keep_values(table, card, rolls_left, everything)
        assert vectorized == pytest.approx(scalar, rel=1e-12, abs=1e-9)


def test_advice_keeps_are_ranked_by_the_vectorized_values(solved: Solved) -> None:
    table = solved("yahtzee")
    options = advise(table, Scorecard.empty("yahtzee"), Dice.parse("6 6 4 6 6"), 1)
    keeps = [o for o in options if o.kind == "keep"]
    assert len(keeps) == len(sub_keeps(Dice.parse("6 6 4 6 6").counts())) - 1
    assert [o.expected for o in options] == sorted((o.expected for o in options), reverse=True)


def test_a_table_cache_solves_once_per_owner() -> None:
    calls: list[str] = []

    def fake(rules: object) -> object:
        calls.append(getattr(rules, "name", ""))
        return object()

    first, second = TableCache(fake), TableCache(fake)  # type: ignore[arg-type]
    assert first.get("yacht") is first.get("yacht")
    assert "yacht" in first and "yacht" not in second
    assert second.get("yacht") is not first.get("yacht")
    assert calls == ["yacht", "yacht"]


def test_bench_figures(solved: Solved) -> None:
    median, best = bench_all_options(solved("yacht"), positions=20)
    assert 0 < best <= median
    assert 0 < build_peak(solved("yacht").rules) < 25


@pytest.mark.parametrize("group", [0, 1, 4000])  # batches: 0 is one mask at a time
def test_solving_a_level_group_by_group_changes_no_value(
    solved: Solved, monkeypatch: pytest.MonkeyPatch, group: int
) -> None:
    monkeypatch.setattr(solver, "GROUP_BATCHES", group)
    again = solver.build("yacht")
    assert np.array_equal(again.values, solved("yacht").values, equal_nan=True)

"""Six dice (Maxi Yatzy): dice tables, the solve without dead subtotals, advice with saved
rolls. The whole Maxi Yatzy table (minutes, 1 GB) is never built here: its boxes in
order (`maxi-yatzy+in-order`, 21 masks) and small pieces stand in for it.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from scorekeeper import Dice, DiceCountError, Game, Scorecard, ruleset
from scorekeeper.advisor import AdvisorError, Table, UnreachableCardError, advise, build
from scorekeeper.advisor import solver as solver_module
from scorekeeper.advisor.advise import keep_value
from scorekeeper.advisor.final import box_rolls, final_values, state_final_values
from scorekeeper.advisor.review import choices
from scorekeeper.advisor.ruletables import card_state, rule_tables
from scorekeeper.advisor.tables import (
    best_rolls,
    counts_to_values,
    dice_of_keeps,
    dice_of_rolls,
    dice_tables,
    keep_rows,
    reroll_best,
    sub_keeps,
    transition_matrix,
)
from scorekeeper.advisor.turn import Batch, best_roll_values, keep_values
from scorekeeper.advisor.upper import upper_classes

IN_ORDER = "maxi-yatzy+in-order"


@pytest.fixture(scope="module")
def in_order() -> Table:
    return build(IN_ORDER)


def _all_but(*open_boxes: str, **points: int) -> Scorecard:
    """A Maxi Yatzy in-order card: every box filled (zeros unless given) but *open_boxes*."""
    rules = ruleset(IN_ORDER)
    return Scorecard(rules, tuple(None if s in open_boxes else points.get(s, 0)
                                  for s in rules.slugs))


# --- dice tables ---------------------------------------------------------------------


def test_six_dice_rolls_and_keeps_are_counted_exactly() -> None:
    tables = dice_tables(6)
    assert (len(tables.rolls), tables.keep_count) == (462, 924)
    assert [len(level) for level in tables.keeps] == [1, 6, 21, 56, 126, 252, 462]
    ordered = Counter(tuple(sorted(o)) for o in itertools.product(range(1, 7), repeat=6))
    for counts, p in zip(tables.rolls, tables.roll_probability, strict=True):
        assert p == pytest.approx(ordered[counts_to_values(counts)] / 6**6, abs=1e-15)
    assert [tables.rolls[row] for row in tables.all_alike] == [
        tuple(6 if f == face else 0 for f in range(6)) for face in range(6)]


@pytest.mark.parametrize(("rolls", "dice"), [(252, 5), (462, 6), (6, 1)])
def test_dice_count_from_array_lengths(rolls: int, dice: int) -> None:
    assert dice_of_rolls(rolls) == dice
    assert dice_of_keeps(math.comb(dice + 6, 6)) == dice


def test_no_dice_count_makes_300_rolls() -> None:
    with pytest.raises(ValueError, match="300 distinct rolls"):
        dice_of_rolls(300)


def test_six_dice_recursion_equals_the_transition_matrix() -> None:
    values = np.random.default_rng(5).random((462, 4))
    levels = keep_values(values)
    assert np.allclose(np.concatenate(levels), transition_matrix(6) @ values, atol=1e-12)
    best = best_roll_values(levels)
    tables = dice_tables(6)
    for row in range(0, 462, 7):
        subs = [levels[size][index] for size, index in map(tables.keep_index,
                                                             sub_keeps(tables.rolls[row]))]
        assert np.array_equal(best[row], np.max(subs, axis=0))


def test_one_state_functions_match_the_batched_ones_for_six_dice() -> None:
    rolls = np.random.default_rng(6).uniform(0, 300, 462)
    levels = keep_values(rolls[:, None])
    flat = np.concatenate([level[:, 0] for level in levels])
    assert keep_rows(rolls) == pytest.approx(flat, rel=1e-13)
    best = best_roll_values(levels)[:, 0]
    assert np.array_equal(best_rolls(flat), best)
    assert reroll_best(rolls) == pytest.approx(best, rel=1e-13)


# --- the solve -------------------------------------------------------------------------


def test_in_order_expected_score(in_order: Table) -> None:
    assert in_order.expected_score == pytest.approx(183.7593038, abs=1e-7)


def test_dead_subtotals_share_subtotal_zeros_value(monkeypatch: pytest.MonkeyPatch,
                                                   in_order: Table) -> None:
    """Solving every subtotal gives the dead ones the value the fast solve copies."""
    monkeypatch.setattr(solver_module, "plan_for",
                        lambda rt: solver_module.Plan(128, skip_dead=False))
    every = build(IN_ORDER)
    rt, classes = rule_tables(ruleset(IN_ORDER)), upper_classes(ruleset(IN_ORDER))
    masks = np.flatnonzero(rt.mask_reachable)
    reached = rt.up_reachable[masks]
    assert np.allclose(every.values[masks][reached], in_order.values[masks][reached],
                       rtol=0, atol=1e-9)
    dead = classes.dead[classes.subset[masks]]
    assert dead.sum() > 100  # the claim is tested on many states
    zeros = np.broadcast_to(every.values[masks, :1], every.values[masks].shape)
    assert np.allclose(every.values[masks][dead], zeros[dead], rtol=0, atol=1e-9)


def test_unreached_cards_are_refused_though_their_memory_reads_zero(in_order: Table) -> None:
    card = Scorecard.empty(IN_ORDER).score("ones", Dice.parse("1 1 2 3 4 5", count=6))
    assert in_order.future(card) > 0
    skipped = Scorecard(ruleset(IN_ORDER), (None, 4, *(None,) * 18))  # Twos before Ones
    with pytest.raises(UnreachableCardError):
        in_order.future(skipped)


def test_one_card_final_values_equal_the_batched_ones(in_order: Table) -> None:
    rt = in_order.tables
    pre = box_rolls(in_order.rules)
    for open_from in (0, 6, 13, 19):
        slugs = in_order.rules.slugs[open_from:]
        card = _all_but(*slugs, sixes=24 if open_from > 5 else 0)
        state = card_state(rt, card)
        batch = Batch(*(np.array([x]) for x in state))
        assert np.array_equal(state_final_values(rt, pre, in_order.values, state),
                              final_values(rt, in_order.values, batch)[:, 0])


# --- advice ----------------------------------------------------------------------------


def test_advice_needs_six_dice_and_offers_every_keep_of_five_or_fewer(in_order: Table) -> None:
    card = Scorecard.empty(IN_ORDER)
    dice = Dice.parse("6 6 6 5 5 1", count=6)
    options = advise(in_order, card, dice, 1)
    keeps = [o.keep for o in options if o.kind == "keep"]
    assert len(keeps) == math.prod(c + 1 for c in dice.counts()) - 1
    assert max(len(k) for k in keeps) == 5
    assert {o.reroll for o in options if o.kind == "keep"} == {1, 2, 3, 4, 5, 6}
    assert [(o.box, o.points) for o in options if o.kind == "score"] == [("ones", 1)]
    with pytest.raises(DiceCountError, match="advice needs 6 dice"):
        advise(in_order, card, Dice.parse("6 6 6 5 5"), 1)


def _per_die(rolls: int) -> float:
    """Expected points of one die in Chance with *rolls* rolls to come (keep it when above)."""
    value = 3.5
    for _ in range(rolls - 1):
        value = sum(max(face, value) for face in range(1, 7)) / 6
    return value


@pytest.mark.parametrize("rolls_left", [1, 2, 3, 4, 6])
def test_rolls_left_beyond_two_extend_the_turn(in_order: Table, rolls_left: int) -> None:
    """Only Chance and Maxi Yatzy open: holding nothing is worth six dice's Chance with
    *rolls_left* rolls (a die kept when it beats rolling on), then the Maxi Yatzy turn."""
    card = _all_but("chance", "maxi_yatzy", sixes=36, fives=30, fours=16, threes=3)
    dice = Dice.parse("1 2 3 4 5 5", count=6)
    after = in_order.value(card.score("chance", dice)) - 20  # the next turn's value
    value = keep_value(in_order, card, dice, 1, [], rolls_left)
    assert value == pytest.approx(after + 6 * _per_die(rolls_left), abs=1e-9)


def test_advice_says_what_it_assumes_with_saved_rolls(in_order: Table) -> None:
    card, dice = Scorecard.empty(IN_ORDER), Dice.parse("6 6 6 6 2 1", count=6)
    usual = advise(in_order, card, dice, 1)
    assert {o.assumes for o in usual} == {
        "three rolls a turn in later turns; rolls saved for later turns are not valued"}
    more = advise(in_order, card, dice, 3, rolls_left=2)
    assert more[0].to_dict()["assumes"] == usual[0].assumes
    longer = {o.keep: o.expected for o in advise(in_order, card, dice, 1, rolls_left=4)
              if o.kind == "keep"}
    assert "the 4 rolls left are all used" in str(advise(in_order, card, dice, 1, 4)[0].assumes)
    for option in usual:
        if option.kind == "keep":  # more rolls never lower a keep's value
            assert longer[option.keep] >= option.expected - 1e-9
    assert {o.kind for o in advise(in_order, card, dice, 5, rolls_left=0)} == {"score"}
    with pytest.raises(AdvisorError, match="rolls left are 0 or more"):
        advise(in_order, card, dice, 1, rolls_left=-1)
    yatzy = build("yatzy+in-order")
    plain = advise(yatzy, Scorecard.empty("yatzy+in-order"), Dice.parse("1 2 3 4 5"), 1)
    assert {o.assumes for o in plain} == {None}


def test_kept_and_dead_subtotals_are_the_reachable_ones_of_each_subset() -> None:
    rules = ruleset("maxi-yatzy")
    rt, classes = rule_tables(rules), upper_classes(rules)
    assert not (classes.kept & classes.dead).any()
    for subset in (0, 5, 31, 63):
        rows = classes.subset_masks(rt, subset)
        assert rows.shape == (1 << 14,)
        reached = rt.up_reachable[rows[::997]]
        assert (reached == (classes.kept[subset] | classes.dead[subset])).all()
    assert not classes.dead[0].any()  # no upper box filled: subtotal 0 only
    # every upper box filled: 0 and the capped 84 are kept, 1 to 83 share 0's value
    assert np.flatnonzero(classes.kept[63]).tolist() == [0, 84]
    assert np.flatnonzero(classes.dead[63]).tolist() == list(range(1, 84))


def test_a_review_counts_the_saved_rolls_of_each_turn(in_order: Table) -> None:
    def six(text: str) -> Dice:
        return Dice.parse(text, count=6)

    game = Game.new(IN_ORDER, ["Ann"]).roll(six("111123")).score("ones")  # 2 rolls saved
    game = game.roll(six("123456")).roll(six("223456"), [1])
    for _ in range(3):  # rolls 3, 4 and 5: two of them saved ones
        game = game.roll(six("222456"), [0, 1])
    game = game.score("twos")
    made = choices(game, in_order)
    assert [(c.turn, c.roll, c.chosen.kind) for c in made] == [
        (1, 1, "score"), (2, 1, "keep"), (2, 2, "keep"), (2, 3, "keep"), (2, 4, "keep"),
        (2, 5, "score")]
    assert "the 4 rolls left" in str(made[1].best.assumes)
    assert all(c.loss >= 0 for c in made)
    assert [o.kind for o in advise(in_order, game.cards[0], six("222456"), 5, 0)] == ["score"]

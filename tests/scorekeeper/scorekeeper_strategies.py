"""Hypothesis strategies shared by the scorekeeper tests: dice, rule sets, played cards."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper import RULESET_NAMES, Dice, RuleSet, Scorecard, ruleset


def any_dice_of(count: int) -> st.SearchStrategy[Dice]:
    """Any roll of *count* dice."""
    return st.tuples(*[st.integers(1, 6)] * count).map(Dice)


def rolls_of(count: int) -> st.SearchStrategy[Dice]:
    """Rolls of *count* dice, all alike half of the time, so that Joker rules and bonus
    checks come up often."""
    return st.one_of(any_dice_of(count), st.integers(1, 6).map(lambda face: Dice((face,) * count)))


any_dice = any_dice_of(5)
rolls = rolls_of(5)
rule_sets = st.sampled_from(RULESET_NAMES).map(ruleset)


@st.composite
def played_cards(
    draw: st.DrawFn, rules: st.SearchStrategy[RuleSet] = rule_sets, complete: bool = False
) -> Scorecard:
    """A card filled by legal turns only: random rolls, each in a random legal box."""
    chosen = draw(rules)
    card = Scorecard.empty(chosen)
    boxes = len(chosen.categories)
    for _ in range(boxes if complete else draw(st.integers(0, boxes))):
        dice = draw(rolls_of(chosen.dice_count))
        card = card.score(draw(st.sampled_from(card.legal_boxes(dice))), dice)
    return card

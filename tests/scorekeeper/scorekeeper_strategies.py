"""Hypothesis strategies shared by the scorekeeper tests: dice, rule sets, played cards."""

from __future__ import annotations

from hypothesis import strategies as st

from scorekeeper import RULESET_NAMES, Dice, RuleSet, Scorecard, ruleset

any_dice = st.tuples(*[st.integers(1, 6)] * 5).map(Dice)
five_alike = st.integers(1, 6).map(lambda face: Dice((face,) * 5))
# Five alike half of the time, so that Joker rules and bonus checks come up often.
rolls = st.one_of(any_dice, five_alike)
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
        dice = draw(rolls)
        card = card.score(draw(st.sampled_from(card.legal_boxes(dice))), dice)
    return card

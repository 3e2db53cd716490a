"""What a box of a paper pad can hold: every roll's score there (five dice, or six in Maxi
Yatzy), Joker scores included, and those values in words ("0 or 5 to 30")."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cache

from scorekeeper.dice import FACES, Dice
from scorekeeper.rulesets import Category, Joker, RuleSet, Section


def possible_values(rules: RuleSet, slug: str) -> frozenset[int]:
    """Return every value box *slug* can hold: any roll's score, and its Joker scores.

    Raises UnknownBoxError for a box the rule set does not have.
    """
    category = rules.category(slug)
    joker = rules.joker is not Joker.NONE and slug != rules.five_alike_slug
    return _roll_values(category) | (joker_values(category) if joker else frozenset())


@cache
def _roll_values(category: Category) -> frozenset[int]:
    rolls = itertools.combinations_with_replacement(FACES, category.dice_count)
    return frozenset(category.score(Dice(roll)) for roll in rolls)


@cache
def joker_values(category: Category) -> frozenset[int]:
    """Return what a Yahtzee scores in *category* when placed there as a Joker."""
    values = {
        category.joker_points if category.joker_points is not None else category.score(dice)
        for dice in _all_alike(category)
    }
    if category.section is Section.UPPER:
        values.add(0)  # a Yahtzee of another face, or the forced zero above
    return frozenset(values)


def _all_alike(category: Category) -> list[Dice]:
    """Return the rolls of *category*'s dice all showing one face, one per face."""
    return [Dice((face,) * category.dice_count) for face in FACES]


def bonus_roll_values(rules: RuleSet, category: Category) -> frozenset[int]:
    """Return what a further Yahtzee (one that earns a check) can score in *category*."""
    if rules.joker is Joker.FREE:
        # Free choice may place it without the Joker (its own upper box still open).
        plain = {category.score(dice) for dice in _all_alike(category)}
        return joker_values(category) | plain
    return joker_values(category)


def describe_values(values: Iterable[int]) -> str:
    """Return values in words: "0, 4, 8, 12, 16 or 20", "0 or 5 to 30"."""
    ordered = sorted(set(values))
    # Consecutive values share value - position, so groupby splits them into runs.
    groups = itertools.groupby(enumerate(ordered), key=lambda pair: pair[1] - pair[0])
    runs = [[value for _, value in group] for _, group in groups]
    words: list[str] = []
    for run in runs:
        words += [f"{run[0]} to {run[-1]}"] if len(run) >= 4 else [str(v) for v in run]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"

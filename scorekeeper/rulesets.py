"""Boxes (categories) and rule sets of Yahtzee and Yacht, and the registry by name.

A rule set is data (its boxes, bonuses, which Joker rule, whether the upper
section comes first) plus the scoring functions of its boxes. Names combine a
base game with variants: ``ruleset("yahtzee+upper-first+free-joker")``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import cache

from scorekeeper.dice import DICE_COUNT, Dice, DiceCountError
from scorekeeper.errors import RulesError


class RuleSetError(RulesError):
    """An unknown rule set or variant, or variants that do not fit the game."""


class UnknownBoxError(RulesError):
    """A box slug the rule set does not have."""


class Section(Enum):
    """The two sections of a scorecard."""

    UPPER = "upper"
    LOWER = "lower"


class Joker(Enum):
    """How a second Yahtzee may be placed once the Yahtzee box is filled."""

    NONE = "none"  # Yacht: no Joker rules
    FORCED = "forced"  # Hasbro: own upper box first, then lower, then a zero above
    # House rule of the published optimal-play analyses: any open box; once the face's
    # upper box is filled, Full House and the straights score their full value.
    FREE = "free"


Scorer = Callable[[Dice], int]


@dataclass(frozen=True)
class Category:
    """One box of a scorecard: its slug, English name, section and scoring."""

    slug: str
    name: str
    section: Section
    rule: str
    max_points: int
    scorer: Scorer = field(repr=False, compare=False)
    face: int | None = None
    joker_points: int | None = None  # fixed points when filled as a Joker (25/30/40)

    def score(self, dice: Dice) -> int:
        """Return the points these dice make in this box (0 if they do not qualify)."""
        if len(dice) != DICE_COUNT:
            raise DiceCountError(f"a box is scored with {DICE_COUNT} dice, got {dice}")
        return self.scorer(dice)


# --- scoring functions -------------------------------------------------------


def _face(face: int) -> Scorer:
    return lambda dice: face * dice.counts()[face - 1]


def _of_a_kind(n: int) -> Scorer:
    return lambda dice: dice.total if max(dice.counts()) >= n else 0


def _fixed_if(points: int, test: Callable[[Dice], bool]) -> Scorer:
    return lambda dice: points if test(dice) else 0


def _sum_if(test: Callable[[Dice], bool]) -> Scorer:
    return lambda dice: dice.total if test(dice) else 0


def _full_house(dice: Dice) -> bool:
    """Three of one number and two of a different number."""
    return sorted(c for c in dice.counts() if c) == [2, 3]


def _run(dice: Dice, length: int) -> bool:
    faces = set(dice.values)
    return any(set(range(start, start + length)) <= faces for start in range(1, 8 - length))


def _exactly(*faces: int) -> Callable[[Dice], bool]:
    return lambda dice: sorted(dice.values) == list(faces)


def _yacht(dice: Dice) -> bool:
    return max(dice.counts()) == DICE_COUNT


def _total(dice: Dice) -> int:
    return dice.total


_FACE_NAMES = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")


def _upper(first_name: str, first_slug: str) -> tuple[Category, ...]:
    names = (first_name, *_FACE_NAMES[1:])
    slugs = (first_slug, *(n.lower() for n in _FACE_NAMES[1:]))
    return tuple(
        Category(slug, name, Section.UPPER, f"sum of the {face}s", 5 * face, _face(face), face)
        for face, (slug, name) in enumerate(zip(slugs, names, strict=True), start=1)
    )


_LOWER = Section.LOWER

YAHTZEE_BOXES: tuple[Category, ...] = (
    *_upper("Aces", "aces"),
    Category("three_of_a_kind", "3 of a Kind", _LOWER, "three alike: sum of all dice", 30,
             _of_a_kind(3)),
    Category("four_of_a_kind", "4 of a Kind", _LOWER, "four alike: sum of all dice", 30,
             _of_a_kind(4)),
    Category("full_house", "Full House", _LOWER, "three and two of another: 25", 25,
             _fixed_if(25, _full_house), joker_points=25),
    Category("small_straight", "Small Straight", _LOWER, "four in a row: 30", 30,
             _fixed_if(30, lambda d: _run(d, 4)), joker_points=30),
    Category("large_straight", "Large Straight", _LOWER, "five in a row: 40", 40,
             _fixed_if(40, lambda d: _run(d, 5)), joker_points=40),
    Category("yahtzee", "Yahtzee", _LOWER, "five alike: 50", 50, _fixed_if(50, _yacht)),
    Category("chance", "Chance", _LOWER, "any dice: sum of all dice", 30, _total),
)

YACHT_BOXES: tuple[Category, ...] = (
    *_upper("Ones", "ones"),
    Category("full_house", "Full House", _LOWER, "three and two of another: sum of all dice", 28,
             _sum_if(_full_house)),
    Category("four_of_a_kind", "Four of a Kind", _LOWER, "four alike: sum of all five dice", 30,
             _of_a_kind(4)),
    Category("little_straight", "Little Straight", _LOWER, "exactly 1-2-3-4-5: 30", 30,
             _fixed_if(30, _exactly(1, 2, 3, 4, 5))),
    Category("big_straight", "Big Straight", _LOWER, "exactly 2-3-4-5-6: 30", 30,
             _fixed_if(30, _exactly(2, 3, 4, 5, 6))),
    Category("choice", "Choice", _LOWER, "any dice: sum of all dice", 30, _total),
    Category("yacht", "Yacht", _LOWER, "five alike: 50", 50, _fixed_if(50, _yacht)),
)


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """A game's boxes and bonuses, with its variant switches (built with keywords only)."""

    name: str
    game: str
    categories: tuple[Category, ...] = field(repr=False)
    joker: Joker = Joker.NONE
    upper_first: bool = False
    upper_bonus_threshold: int | None = None
    upper_bonus: int = 0
    five_alike_slug: str = "yahtzee"
    five_alike_bonus: int = 0  # Yahtzee bonus per extra Yahtzee (0: none)

    @property
    def slugs(self) -> tuple[str, ...]:
        """Every box slug, in scorecard order."""
        return tuple(c.slug for c in self.categories)

    def category(self, slug: str) -> Category:
        """Return the box *slug*; raise UnknownBoxError listing the known boxes."""
        for category in self.categories:
            if category.slug == slug:
                return category
        raise UnknownBoxError(
            f"unknown box {slug!r} for {self.name}; boxes are: {', '.join(self.slugs)}",
            code="unknown_box", text=slug,
        )

    def score(self, slug: str, dice: Dice) -> int:
        """Return what *dice* score in box *slug* on an empty card (no Joker)."""
        return self.category(slug).score(dice)

    def upper_box(self, face: int) -> Category:
        """Return the upper box counting *face*."""
        return next(c for c in self.categories if c.face == face)

    def is_five_alike(self, dice: Dice) -> bool:
        """True when all five dice show the same face."""
        return _yacht(dice)


# --- the registry ------------------------------------------------------------

BASE_GAMES = ("yahtzee", "yacht")
VARIANTS = ("free-joker", "upper-first")


def _base(game: str) -> RuleSet:
    if game == "yahtzee":
        return RuleSet(name="yahtzee", game="yahtzee", categories=YAHTZEE_BOXES,
                       joker=Joker.FORCED, upper_bonus_threshold=63, upper_bonus=35,
                       five_alike_slug="yahtzee", five_alike_bonus=100)
    return RuleSet(name="yacht", game="yacht", categories=YACHT_BOXES, five_alike_slug="yacht")


@cache
def ruleset(name: str) -> RuleSet:
    """Return the rule set called *name*: a base game plus ``+variant`` in any order.

    Raises RuleSetError naming the known rule sets or the variant that does not fit.
    """
    base, *variants = name.strip().lower().split("+")
    if base not in BASE_GAMES:
        raise RuleSetError(f"unknown rule set {name!r}; known: {', '.join(RULESET_NAMES)}",
                           code="unknown_rules", text=name)
    for variant in variants:
        if variant not in VARIANTS:
            raise RuleSetError(
                f"unknown variant {variant!r} in {name!r}; variants: {', '.join(VARIANTS)}",
                code="unknown_rules", text=name,
            )
    if len(set(variants)) != len(variants):
        raise RuleSetError(f"a variant is named twice in {name!r}")
    if base == "yacht" and "free-joker" in variants:
        raise RuleSetError(f"{name!r}: Yacht has no Joker rules, so no free-joker")
    chosen = sorted(variants, key=VARIANTS.index)
    rules = _base(base)
    return RuleSet(
        name="+".join([base, *chosen]),
        game=base,
        categories=rules.categories,
        joker=Joker.FREE if "free-joker" in chosen else rules.joker,
        upper_first="upper-first" in chosen,
        upper_bonus_threshold=rules.upper_bonus_threshold,
        upper_bonus=rules.upper_bonus,
        five_alike_slug=rules.five_alike_slug,
        five_alike_bonus=rules.five_alike_bonus,
    )


RULESET_NAMES: tuple[str, ...] = (
    "yahtzee",
    "yahtzee+free-joker",
    "yahtzee+upper-first",
    "yahtzee+free-joker+upper-first",
    "yacht",
    "yacht+upper-first",
)

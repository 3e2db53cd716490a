"""Boxes (categories) and rule sets of Yahtzee, Yacht, Scandinavian Yatzy and Maxi Yatzy,
and the registry by name.

A rule set is data (its boxes, bonuses, which Joker rule, the order boxes are
filled in) plus the scoring functions of its boxes. Names combine a base game
with variants: ``ruleset("yahtzee+upper-first+free-joker")``, ``ruleset("yatzy+fh5")``.
Base games and variants are entries of two tables (`BASE_GAMES`, `VARIANTS`): a
variant names the games it fits and what it changes (a Joker rule, the order of
the boxes, boxes scored another way). Scoring functions count faces, so a game of
more dice is a new table entry with boxes built for its dice count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache
from typing import Any

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
    dice_count: int = DICE_COUNT  # how many dice the box is scored with

    def score(self, dice: Dice) -> int:
        """Return the points these dice make in this box (0 if they do not qualify)."""
        if len(dice) != self.dice_count:
            raise DiceCountError(f"a box is scored with {self.dice_count} dice, got {dice}")
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
    return max(dice.counts()) == len(dice)


def _total(dice: Dice) -> int:
    return dice.total


def _faces_with(dice: Dice, least: int) -> list[int]:
    """Return the faces showing on at least *least* dice, highest first."""
    counts = dice.counts()
    return [face for face in range(6, 0, -1) if counts[face - 1] >= least]


def _matched(n: int) -> Scorer:
    """n of a kind scored as those n dice only: n times the highest face shown n times."""
    return lambda dice: n * max(_faces_with(dice, n), default=0)


def _two_pairs(four_alike: bool) -> Scorer:
    """Two pairs of different faces, the two highest: the sum of those four dice. With
    *four_alike*, four of one face counts too (four times the face); the better one scores."""

    def score(dice: Dice) -> int:
        pairs = _faces_with(dice, 2)
        points = 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
        if four_alike:
            points = max(points, _matched(4)(dice))
        return points

    return score


def _house_sum(five_alike: bool) -> Scorer:
    """Three of one face and two of another: the sum of those five dice (the best such
    five). With *five_alike*, five of a kind counts too, as the sum of the dice."""

    def score(dice: Dice) -> int:
        if five_alike and _yacht(dice):
            return dice.total
        pairs = _faces_with(dice, 2)
        houses = [3 * three + 2 * two for three in _faces_with(dice, 3) for two in pairs
                  if two != three]
        return max(houses, default=0)

    return score


def _shape(*counts: int) -> Callable[[Dice], bool]:
    """True when the faces shown appear exactly *counts* times (in any order): (2, 4) is
    four of one face and two of another."""
    return lambda dice: sorted(c for c in dice.counts() if c) == sorted(counts)


def _includes(*faces: int) -> Callable[[Dice], bool]:
    return lambda dice: set(faces) <= set(dice.values)


_FACE_NAMES = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")


def _upper(first_name: str, first_slug: str, dice: int = DICE_COUNT) -> tuple[Category, ...]:
    names = (first_name, *_FACE_NAMES[1:])
    slugs = (first_slug, *(n.lower() for n in _FACE_NAMES[1:]))
    return tuple(
        Category(slug, name, Section.UPPER, f"sum of the {face}s", dice * face, _face(face), face,
                 dice_count=dice)
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


def _yatzy_two_pairs(four_alike: bool) -> Category:
    rule = "two different pairs" + (", or four alike" if four_alike else "")
    return Category("two_pairs", "Two Pairs", _LOWER, f"{rule}: sum of those four dice",
                    24 if four_alike else 22, _two_pairs(four_alike))


def _yatzy_full_house(five_alike: bool) -> Category:
    rule = "three and two of another" + (", or five alike" if five_alike else "")
    return Category("full_house", "Full House", _LOWER, f"{rule}: sum of all dice",
                    30 if five_alike else 28, _house_sum(five_alike))


YATZY_BOXES: tuple[Category, ...] = (
    *_upper("Ones", "ones"),
    Category("one_pair", "One Pair", _LOWER, "the highest pair: sum of those two dice", 12,
             _matched(2)),
    _yatzy_two_pairs(four_alike=False),
    Category("three_of_a_kind", "Three of a Kind", _LOWER,
             "three alike: sum of those three dice", 18, _matched(3)),
    Category("four_of_a_kind", "Four of a Kind", _LOWER, "four alike: sum of those four dice",
             24, _matched(4)),
    Category("small_straight", "Small Straight", _LOWER, "1-2-3-4-5: 15", 15,
             _fixed_if(15, _includes(1, 2, 3, 4, 5))),
    Category("large_straight", "Large Straight", _LOWER, "2-3-4-5-6: 20", 20,
             _fixed_if(20, _includes(2, 3, 4, 5, 6))),
    _yatzy_full_house(five_alike=False),
    Category("chance", "Chance", _LOWER, "any dice: sum of all dice", 30, _total),
    Category("yatzy", "Yatzy", _LOWER, "five alike: 50", 50, _fixed_if(50, _yacht)),
)


MAXI_DICE = 6

MAXI_YATZY_BOXES: tuple[Category, ...] = tuple(replace(box, dice_count=MAXI_DICE) for box in (
    *_upper("Ones", "ones", MAXI_DICE),
    Category("one_pair", "One Pair", _LOWER, "the highest pair: sum of those two dice", 12,
             _matched(2)),
    Category("two_pairs", "Two Pairs", _LOWER,
             "two different pairs, the two highest: sum of those four dice", 22,
             _two_pairs(four_alike=False)),
    Category("three_pairs", "Three Pairs", _LOWER,
             "three different pairs: sum of all six dice", 30, _sum_if(_shape(2, 2, 2))),
    Category("three_of_a_kind", "Three of a Kind", _LOWER,
             "three alike: sum of those three dice", 18, _matched(3)),
    Category("four_of_a_kind", "Four of a Kind", _LOWER, "four alike: sum of those four dice",
             24, _matched(4)),
    Category("five_of_a_kind", "Five of a Kind", _LOWER, "five alike: sum of those five dice",
             30, _matched(5)),
    Category("small_straight", "Small Straight", _LOWER, "1-2-3-4-5: 15", 15,
             _fixed_if(15, _includes(1, 2, 3, 4, 5))),
    Category("large_straight", "Large Straight", _LOWER, "2-3-4-5-6: 20", 20,
             _fixed_if(20, _includes(2, 3, 4, 5, 6))),
    Category("full_straight", "Full Straight", _LOWER, "1-2-3-4-5-6: 21", 21,
             _fixed_if(21, _includes(1, 2, 3, 4, 5, 6))),
    Category("full_house", "Full House", _LOWER,
             "three and two of another: sum of those five dice, the best five", 28,
             _house_sum(five_alike=False)),
    Category("villa", "Villa", _LOWER, "two different sets of three: sum of all six dice", 33,
             _sum_if(_shape(3, 3))),
    Category("tower", "Tower", _LOWER, "four alike and two of another: sum of all six dice", 34,
             _sum_if(_shape(4, 2))),
    Category("chance", "Chance", _LOWER, "any dice: sum of all dice", 36, _total),
    Category("maxi_yatzy", "Maxi Yatzy", _LOWER, "six alike: 100", 100, _fixed_if(100, _yacht)),
))


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """A game's boxes and bonuses, with its variant switches (built with keywords only)."""

    name: str
    game: str
    title: str  # the game's name as players write it: "Maxi Yatzy"
    categories: tuple[Category, ...] = field(repr=False)
    joker: Joker = Joker.NONE
    upper_first: bool = False
    in_order: bool = False  # boxes are filled top to bottom, one after the other
    upper_bonus_threshold: int | None = None
    upper_bonus: int = 0
    five_alike_slug: str = "yahtzee"  # the box of all dice alike (five, or six in Maxi Yatzy)
    five_alike_bonus: int = 0  # Yahtzee bonus per extra Yahtzee (0: none)
    # Maxi Yatzy: rolls a player leaves unused in a turn are saved for their later turns
    saved_rolls: bool = False

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

    @property
    def dice_count(self) -> int:
        """How many dice a roll of this game shows."""
        return self.categories[0].dice_count

    def is_five_alike(self, dice: Dice) -> bool:
        """True when all the dice show the same face (all six in Maxi Yatzy)."""
        return _yacht(dice)


# --- the registry ------------------------------------------------------------

BASE_GAMES: dict[str, RuleSet] = {
    "yahtzee": RuleSet(name="yahtzee", game="yahtzee", title="Yahtzee", categories=YAHTZEE_BOXES,
                       joker=Joker.FORCED, upper_bonus_threshold=63, upper_bonus=35,
                       five_alike_slug="yahtzee", five_alike_bonus=100),
    "yacht": RuleSet(name="yacht", game="yacht", title="Yacht", categories=YACHT_BOXES,
                     five_alike_slug="yacht"),
    "yatzy": RuleSet(name="yatzy", game="yatzy", title="Yatzy", categories=YATZY_BOXES,
                     upper_bonus_threshold=63, upper_bonus=50, five_alike_slug="yatzy"),
    "maxi-yatzy": RuleSet(name="maxi-yatzy", game="maxi-yatzy", title="Maxi Yatzy",
                          categories=MAXI_YATZY_BOXES, upper_bonus_threshold=84,
                          upper_bonus=100, five_alike_slug="maxi_yatzy", saved_rolls=True),
}
"""Every base game as its plain rule set (no variant), by name."""


@dataclass(frozen=True)
class Variant:
    """A switch of some base games: the rule-set fields it sets and the boxes it replaces.

    *misfit* says, for a game it does not fit, why not ({game}: the game's name); *clash*
    why it cannot be combined with the variants it *excludes*.
    """

    name: str
    games: tuple[str, ...]
    misfit: str
    changes: Mapping[str, Any] = field(default_factory=dict)  # RuleSet fields it sets
    boxes: tuple[Category, ...] = ()  # boxes scored another way, replacing those of their slug
    summary: str = ""  # how its boxes score, in a few English words
    excludes: tuple[str, ...] = ()
    clash: str = ""


VARIANTS: dict[str, Variant] = {v.name: v for v in (
    Variant("free-joker", ("yahtzee",), "{game} has no Joker rules, so no free-joker",
            {"joker": Joker.FREE}),
    Variant("fh5", ("yatzy",), "fh5 (five alike as a Full House) is a Yatzy variant, not {game}",
            boxes=(_yatzy_full_house(five_alike=True),), summary="five alike is a Full House too"),
    Variant("tp4", ("yatzy",), "tp4 (four alike as Two Pairs) is a Yatzy variant, not {game}",
            boxes=(_yatzy_two_pairs(four_alike=True),), summary="four alike is Two Pairs too"),
    Variant("upper-first", tuple(BASE_GAMES), "", {"upper_first": True}),
    Variant("in-order", tuple(BASE_GAMES), "", {"in_order": True}, excludes=("upper-first",),
            clash="in-order fills the upper section first anyway, so no upper-first"),
)}
"""Every variant by name, in the order they are written in a canonical rule-set name."""


def _variants(name: str, base: str, names: list[str]) -> list[Variant]:
    """Return the variants *names* of rule set *name*, checked, in canonical order.

    Raises RuleSetError for an unknown variant, one named twice, one that does not fit
    *base*, or two that exclude each other.
    """
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise RuleSetError(
            f"unknown variant {unknown[0]!r} in {name!r}; variants: {', '.join(VARIANTS)}",
            code="unknown_rules", text=name,
        )
    if len(set(names)) != len(names):
        raise RuleSetError(f"a variant is named twice in {name!r}")
    chosen = [v for v in VARIANTS.values() if v.name in names]
    for variant in chosen:
        if base not in variant.games:
            title = BASE_GAMES[base].title
            raise RuleSetError(f"{name!r}: {variant.misfit.format(game=title)}")
        if any(other in names for other in variant.excludes):
            raise RuleSetError(f"{name!r}: {variant.clash}")
    return chosen


def _with_boxes(categories: tuple[Category, ...], boxes: tuple[Category, ...]
                ) -> tuple[Category, ...]:
    by_slug = {box.slug: box for box in boxes}
    return tuple(by_slug.get(c.slug, c) for c in categories)


@cache
def ruleset(name: str) -> RuleSet:
    """Return the rule set called *name*: a base game plus ``+variant`` in any order.

    Raises RuleSetError naming the known rule sets or the variant that does not fit.
    """
    base, *names = name.strip().lower().split("+")
    if base not in BASE_GAMES:
        raise RuleSetError(f"unknown rule set {name!r}; known: {', '.join(RULESET_NAMES)}",
                           code="unknown_rules", text=name)
    chosen = _variants(name, base, names)
    rules = BASE_GAMES[base]
    for variant in chosen:
        rules = replace(rules, categories=_with_boxes(rules.categories, variant.boxes),
                        **variant.changes)
    return replace(rules, name="+".join([base, *(v.name for v in chosen)]))


RULESET_NAMES: tuple[str, ...] = (
    "yahtzee",
    "yahtzee+free-joker",
    "yahtzee+upper-first",
    "yahtzee+free-joker+upper-first",
    "yahtzee+in-order",
    "yacht",
    "yacht+upper-first",
    "yacht+in-order",
    "yatzy",
    "yatzy+fh5",
    "yatzy+tp4",
    "yatzy+fh5+tp4",
    "yatzy+in-order",
    "maxi-yatzy",
    "maxi-yatzy+in-order",
)
"""The rule sets offered by name (every other combination of variants works too)."""

"""Scorecard: one player's boxes, which of them the next dice may fill, and the totals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cached_property
from typing import Any

from scorekeeper.dice import Dice
from scorekeeper.errors import RulesError
from scorekeeper.rulesets import Category, Joker, RuleSet, Section, ruleset


class ScoringError(RulesError):
    """A box that cannot be filled with these dice now."""


class BoxFilledError(ScoringError):
    """The box already holds a score."""


class IllegalBoxError(ScoringError):
    """The rules (Joker, upper section first, boxes in order) forbid this box for these dice."""


class CardFormatError(RulesError):
    """A serialized scorecard that does not fit its rule set."""


def check_points(
    where: str, value: object, error: type[ValueError] = CardFormatError
) -> int | None:
    """Return *value* as points written in a box or total (None: left blank).

    Raises *error*, naming *where*, unless *value* is None or a whole number >= 0.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{where} must be a whole number, got {value!r}")
    if value < 0:
        raise error(f"{where} cannot be negative, got {value}")
    return value


class JokerRule(Enum):
    """Which Joker rule decided where a second Yahtzee may go; value: the explanation."""

    OWN_UPPER = "Joker: the upper box of this face is open, so the Yahtzee must be scored there."
    ANY_LOWER = (
        "Joker: the upper box of this face is filled, so any open lower box may be used; "
        "Full House, Small and Large Straight score their full 25, 30 and 40."
    )
    UPPER_ZERO = "Joker: every allowed lower box is filled, so a zero goes in an open upper box."
    FREE = (
        "Free-choice Joker: the upper box of this face is filled, so any open box may be used; "
        "lower boxes score their full value."
    )


@dataclass(frozen=True)
class Scorecard:
    """Points per box (None while open) in the rule set's order, and Yahtzee-bonus checks."""

    rules: RuleSet
    points: tuple[int | None, ...]
    bonus_checks: int = 0

    def __post_init__(self) -> None:
        if len(self.points) != len(self.rules.categories):
            raise CardFormatError(
                f"{self.rules.name} has {len(self.rules.categories)} boxes, got {len(self.points)}"
            )

    @classmethod
    def empty(cls, rules: RuleSet | str) -> Scorecard:
        """Return a card with every box open."""
        rules = ruleset(rules) if isinstance(rules, str) else rules
        return cls(rules, (None,) * len(rules.categories))

    # --- boxes -----------------------------------------------------------

    def box(self, slug: str) -> int | None:
        """Return the points in box *slug*, or None while it is open."""
        return self.points[self.rules.slugs.index(self.rules.category(slug).slug)]

    def boxes(self) -> dict[str, int | None]:
        """Return every box slug mapped to its points (None when open)."""
        return dict(zip(self.rules.slugs, self.points, strict=True))

    def open_boxes(self) -> tuple[str, ...]:
        """Return the slugs of the empty boxes, in card order."""
        return tuple(s for s, p in zip(self.rules.slugs, self.points, strict=True) if p is None)

    @property
    def is_complete(self) -> bool:
        """True when every box is filled."""
        return all(p is not None for p in self.points)

    # --- legality --------------------------------------------------------

    def joker_rule(self, dice: Dice) -> JokerRule | None:
        """Return the Joker rule these dice fall under on this card, or None."""
        rules = self.rules
        if rules.joker is Joker.NONE or not rules.is_five_alike(dice):
            return None
        if self.box(rules.five_alike_slug) is None:
            return None
        if rules.joker is Joker.FREE:
            # Free choice (the published optimal-play rules): any open box, but the dice act
            # as a Joker only once the upper box of their face is filled.
            own = rules.upper_box(dice.values[0]).slug
            return JokerRule.FREE if self.box(own) is not None else None
        candidates = self._candidates()
        if rules.upper_box(dice.values[0]).slug in candidates:
            return JokerRule.OWN_UPPER
        if any(self._section(s) is Section.LOWER for s in candidates):
            return JokerRule.ANY_LOWER
        return JokerRule.UPPER_ZERO

    def legal_boxes(self, dice: Dice) -> tuple[str, ...]:
        """Return the open boxes these dice may fill now, in card order."""
        candidates = self._candidates()
        rule = self.joker_rule(dice)
        if rule is JokerRule.OWN_UPPER:
            return (self.rules.upper_box(dice.values[0]).slug,)
        if rule is JokerRule.ANY_LOWER:
            return tuple(s for s in candidates if self._section(s) is Section.LOWER)
        return candidates

    def points_for(self, slug: str, dice: Dice) -> int:
        """Return what *dice* would score in box *slug* on this card (Joker values included).

        Raises UnknownBoxError, BoxFilledError or IllegalBoxError.
        """
        category = self.rules.category(slug)
        if self.box(slug) is not None:
            raise BoxFilledError(
                f"box {slug!r} already holds {self.box(slug)}; open boxes: "
                f"{', '.join(self.open_boxes()) or 'none'}",
                code="box_filled", box=category.name, points=self.box(slug),
            )
        legal = self.legal_boxes(dice)
        if slug not in legal:
            reason, why = self._why_not(slug, dice)
            raise IllegalBoxError(
                f"box {slug!r} is not allowed for {dice}: {why}; "
                f"allowed boxes: {', '.join(legal)}",
                code="box_not_allowed", box=category.name, dice=dice.values, reason=reason,
                boxes=tuple(self.rules.category(s).name for s in legal),
            )
        return self._points(category, dice)

    def bonus_earned(self, dice: Dice) -> int:
        """Return the Yahtzee bonus these dice earn when scored on this card (0 or 100)."""
        rules = self.rules
        if not (rules.five_alike_bonus and rules.is_five_alike(dice)):
            return 0
        full = rules.category(rules.five_alike_slug).max_points
        return rules.five_alike_bonus if self.box(rules.five_alike_slug) == full else 0

    def score(self, slug: str, dice: Dice) -> Scorecard:
        """Return a new card with *dice* scored in box *slug* (and any Yahtzee bonus).

        Raises UnknownBoxError, BoxFilledError or IllegalBoxError; this card is unchanged.
        """
        points = self.points_for(slug, dice)
        checks = self.bonus_checks + (1 if self.bonus_earned(dice) else 0)
        index = self.rules.slugs.index(slug)
        new_points = (*self.points[:index], points, *self.points[index + 1 :])
        return Scorecard(self.rules, new_points, checks)

    def _section(self, slug: str) -> Section:
        return self.rules.category(slug).section

    def _candidates(self) -> tuple[str, ...]:
        """Open boxes before the Joker: in order, only the first open one; with upper-first,
        only the upper ones while any is open."""
        open_boxes = self.open_boxes()
        if self.rules.in_order:
            return open_boxes[:1]
        if self.rules.upper_first:
            upper = tuple(s for s in open_boxes if self._section(s) is Section.UPPER)
            if upper:
                return upper
        return open_boxes

    def _points(self, category: Category, dice: Dice) -> int:
        if self.joker_rule(dice) is not None and category.joker_points is not None:
            return category.joker_points
        return category.score(dice)

    def _why_not(self, slug: str, dice: Dice) -> tuple[str, str]:
        """Return why open box *slug* is refused: the reason's code and English words."""
        candidates = self._candidates()
        if slug not in candidates and self.rules.in_order:
            return "in_order", ("boxes are filled in order, top to bottom: "
                                f"next is {candidates[0]!r}")
        rule = self.joker_rule(dice)
        if slug not in candidates or rule is None:
            return "upper_first", "the upper section must be complete before a lower box is scored"
        return rule.name.lower(), rule.value.rstrip(".")

    # --- totals ----------------------------------------------------------

    def _section_sum(self, section: Section) -> int:
        return sum(
            p or 0
            for c, p in zip(self.rules.categories, self.points, strict=True)
            if c.section is section
        )

    @cached_property
    def upper_subtotal(self) -> int:
        """Sum of the upper boxes (computed once: a card never changes)."""
        return self._section_sum(Section.UPPER)

    @cached_property
    def upper_bonus(self) -> int:
        """The upper bonus (35 at 63 or more in Yahtzee), else 0."""
        threshold = self.rules.upper_bonus_threshold
        return self.rules.upper_bonus if threshold and self.upper_subtotal >= threshold else 0

    @cached_property
    def upper_total(self) -> int:
        """Upper boxes plus the upper bonus."""
        return self.upper_subtotal + self.upper_bonus

    @cached_property
    def yahtzee_bonus(self) -> int:
        """Points of the Yahtzee-bonus checks (100 each)."""
        return self.bonus_checks * self.rules.five_alike_bonus

    @cached_property
    def lower_subtotal(self) -> int:
        """Sum of the lower boxes (computed once: a card never changes)."""
        return self._section_sum(Section.LOWER)

    @cached_property
    def lower_total(self) -> int:
        """Lower boxes plus the Yahtzee bonus."""
        return self.lower_subtotal + self.yahtzee_bonus

    @cached_property
    def grand_total(self) -> int:
        """Upper total plus lower total."""
        return self.upper_total + self.lower_total

    def totals(self) -> dict[str, int]:
        """Return every total of the printed pad by name."""
        return {
            "upper_subtotal": self.upper_subtotal,
            "upper_bonus": self.upper_bonus,
            "upper_total": self.upper_total,
            "yahtzee_bonus_checks": self.bonus_checks,
            "yahtzee_bonus": self.yahtzee_bonus,
            "lower_subtotal": self.lower_subtotal,
            "lower_total": self.lower_total,
            "grand_total": self.grand_total,
        }

    # --- serialization ---------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict: rules, boxes, bonus checks."""
        return {"rules": self.rules.name, "boxes": self.boxes(), "bonus_checks": self.bonus_checks}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scorecard:
        """Rebuild a card from `to_dict` output; raise CardFormatError for foreign data."""
        try:
            rules = ruleset(str(data["rules"]))
            boxes = data["boxes"]
            points = tuple(boxes[slug] for slug in rules.slugs)
            checks = data.get("bonus_checks", 0)
        except (KeyError, TypeError) as error:
            raise CardFormatError(f"not a scorecard: missing {error}") from None
        for slug, value in zip(rules.slugs, points, strict=True):
            check_points(f"box {slug!r}", value)
        return cls(rules, points, check_points("bonus_checks", checks) or 0)

    def __repr__(self) -> str:
        return f"Scorecard.from_dict({self.to_dict()!r})"

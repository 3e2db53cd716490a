"""What a roll can score: every box the dice may fill now, with its points, best first."""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.dice import Dice
from scorekeeper.scorecard import JokerRule, Scorecard


@dataclass(frozen=True)
class Suggestion:
    """One box the dice may fill, what it scores, and why it is allowed under the Joker."""

    box: str
    points: int
    bonus: int = 0  # Yahtzee bonus earned along with it (100 or 0)
    joker: JokerRule | None = None

    @property
    def zero(self) -> bool:
        """True when filling this box scores nothing (a scratch)."""
        return self.points == 0

    @property
    def reason(self) -> str | None:
        """The Joker rule that allows this box, in English, or None."""
        return self.joker.value if self.joker else None

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict."""
        return {
            "box": self.box,
            "points": self.points,
            "bonus": self.bonus,
            "zero": self.zero,
            "joker": self.joker.name.lower() if self.joker else None,
            "reason": self.reason,
        }


def suggest(card: Scorecard, dice: Dice) -> list[Suggestion]:
    """Return every box *dice* may fill on *card*, highest points first (card order on ties).

    Raises DiceCountError when *dice* are not the rule set's five (or six) dice.
    """
    rule = card.joker_rule(dice)
    bonus = card.bonus_earned(dice)
    options = [
        Suggestion(box, card.points_for(box, dice), bonus, rule) for box in card.legal_boxes(dice)
    ]
    order = {slug: i for i, slug in enumerate(card.rules.slugs)}
    return sorted(options, key=lambda s: (-s.points, order[s.box]))

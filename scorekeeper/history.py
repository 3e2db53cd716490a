"""What happened in a game, action by action: the typed records `Game.history` returns.

Each record is what the replay of one event found: who acted, the dice, and
for a roll the kept positions and the roll number, for a score the box, its
points and the Yahtzee bonus it earned. `to_dict` gives the JSON shape the web
page and the API send.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from scorekeeper.dice import Dice
from scorekeeper.scorecard import Scorecard


@dataclass(frozen=True)
class FirstRollRecord:
    """A player's roll of all the dice to decide who starts."""

    player: int
    dice: Dice
    type: Literal["first-roll"] = "first-roll"

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"type": "first-roll", "player", "dice"}``."""
        return {"type": self.type, "player": self.player, "dice": list(self.dice.values)}


@dataclass(frozen=True)
class RollRecord:
    """A turn's roll number *roll* (1 to 3, more with saved rolls), with the positions kept
    from the roll before."""

    player: int
    dice: Dice
    kept: tuple[int, ...]
    roll: int
    type: Literal["roll"] = "roll"

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"type": "roll", "player", "dice", "kept", "roll"}``."""
        return {"type": self.type, "player": self.player, "dice": list(self.dice.values),
                "kept": list(self.kept), "roll": self.roll}


@dataclass(frozen=True)
class ScoreRecord:
    """A box filled with the turn's last dice: its points and the Yahtzee bonus earned."""

    player: int
    dice: Dice
    box: str
    points: int
    bonus: int
    type: Literal["score"] = "score"

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"type": "score", "player", "dice", "box", "points", "bonus"}``."""
        return {"type": self.type, "player": self.player, "dice": list(self.dice.values),
                "box": self.box, "points": self.points, "bonus": self.bonus}


@dataclass(frozen=True)
class CorrectionRecord:
    """Box *box*, filled in the player's round *round*, corrected: the turn's dice were
    *dice* (not *dice_before*) and go in *to_box* (the same box unless moved).

    *card* is the player's card after the correction, every later entry scored anew.
    """

    player: int
    round: int
    box: str
    dice_before: Dice
    points_before: int
    to_box: str
    dice: Dice
    points: int
    total_before: int
    total_after: int
    card: Scorecard = field(repr=False, compare=False)
    type: Literal["correction"] = "correction"

    def to_dict(self) -> dict[str, Any]:
        """Return ``{"type": "correction", "player", "round", "box", "to_box", "before",
        "after"}``; before and after hold the turn's dice, its points and the grand total."""
        return {"type": self.type, "player": self.player, "round": self.round,
                "box": self.box, "to_box": self.to_box,
                "before": {"dice": list(self.dice_before.values), "points": self.points_before,
                           "total": self.total_before},
                "after": {"dice": list(self.dice.values), "points": self.points,
                          "total": self.total_after}}


HistoryRecord = FirstRollRecord | RollRecord | ScoreRecord | CorrectionRecord

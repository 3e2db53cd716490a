"""What the camera read: dice with values, boxes in original pixels, and confidences."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.dice import DICE_COUNT, Dice
from vision.errors import VisionError


class DiceCountReadError(VisionError, ValueError):
    """The photo did not show the number of dice a roll needs."""


@dataclass(frozen=True, slots=True)
class Die:
    """One die read from a photo.

    ``box`` is x1, y1, x2, y2 in pixels of the original upright image; ``confidence``
    is 0..1 and is low for a die cut by the border or hard to read.
    """

    value: int
    box: tuple[int, int, int, int]
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        """Return the die as a JSON-ready dict."""
        return {"value": self.value, "box": list(self.box),
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True, slots=True)
class DiceReading:
    """All dice read from one photo of *width* x *height* pixels, left to right (by left edge)."""

    width: int
    height: int
    found: tuple[Die, ...]

    @property
    def values(self) -> tuple[int, ...]:
        """The face values, left to right."""
        return tuple(d.value for d in self.found)

    @property
    def boxes(self) -> tuple[tuple[int, int, int, int], ...]:
        """The boxes, x1 y1 x2 y2 in original pixels."""
        return tuple(d.box for d in self.found)

    @property
    def confidences(self) -> tuple[float, ...]:
        """The confidences 0..1."""
        return tuple(d.confidence for d in self.found)

    def dice(self, count: int = DICE_COUNT) -> Dice:
        """Return the values as scorekeeper Dice.

        Raises DiceCountReadError unless exactly *count* dice were read.
        """
        if len(self.found) != count:
            raise DiceCountReadError(f"read {len(self.found)} dice, need {count}")
        return Dice.of(self.values, count)

    def to_dict(self) -> dict[str, Any]:
        """Return width, height and dice as a JSON-ready dict."""
        return {"width": self.width, "height": self.height,
                "dice": [d.to_dict() for d in self.found]}

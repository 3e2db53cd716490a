"""What the camera read: dice with values, boxes in original pixels, and confidences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.dice import DICE_COUNT, Dice
from vision.errors import VisionError

# The default line between a die and a doubtful find: a die is counted when its
# (calibrated) confidence, the probability that it is a die showing the value read,
# is at least this. Finds below it are still returned, marked doubtful.
DOUBTFUL_BELOW = 0.5
# A counted die whose confidence is below this is marked for the player to check: the
# reader gives it at least one chance in five of being misread. At or above it a die is
# drawn as read surely.
CHECK_BELOW = 0.8


class DiceCountReadError(VisionError, ValueError):
    """The photo did not show the number of dice a roll needs."""


@dataclass(frozen=True, slots=True)
class Die:
    """One die read from a photo.

    ``box`` is x1, y1, x2, y2 in pixels of the original upright image; ``confidence``
    is 0..1, the probability that this is a die showing ``value``, low for a die cut
    by the border or hard to read. A ``doubtful`` die is returned for people to check
    but not counted (see DiceReading.certain); a counted die to ``check`` is drawn
    marked.
    """

    value: int
    box: tuple[int, int, int, int]
    confidence: float
    doubtful: bool = False

    @property
    def check(self) -> bool:
        """True when the die is read with less than CHECK_BELOW: to be looked at."""
        return self.confidence < CHECK_BELOW

    def to_dict(self) -> dict[str, Any]:
        """Return the die as a JSON-ready dict."""
        return {"value": self.value, "box": list(self.box),
                "confidence": round(self.confidence, 3), "doubtful": self.doubtful,
                "check": self.check}


def judge(found: Sequence[Die], expect: int | None = None,
          threshold: float = DOUBTFUL_BELOW) -> tuple[Die, ...]:
    """Return *found* (order kept) with each die's doubtful flag set.

    Without *expect* a die is doubtful when its confidence is below *threshold*; with
    ``expect=N`` the N most likely dice are counted and the rest are doubtful, whatever
    their confidence. Raises ValueError for a negative *expect*.
    """
    if expect is None:
        return tuple(replace(d, doubtful=d.confidence < threshold) for d in found)
    if expect < 0:
        raise ValueError(f"expect must be 0 or more dice, not {expect}")
    ranked = sorted(range(len(found)), key=lambda i: -found[i].confidence)
    counted = set(ranked[:expect])
    return tuple(replace(d, doubtful=i not in counted) for i, d in enumerate(found))


@dataclass(frozen=True, slots=True)
class DiceReading:
    """All dice read from one photo of *width* x *height* pixels, left to right (by left edge).

    ``found`` holds every die returned, doubtful ones included; ``values``, ``boxes``,
    ``confidences`` and ``dice()`` describe the counted (not doubtful) dice only.
    """

    width: int
    height: int
    found: tuple[Die, ...]

    @property
    def certain(self) -> tuple[Die, ...]:
        """The dice that are counted, left to right."""
        return tuple(d for d in self.found if not d.doubtful)

    @property
    def doubtful(self) -> tuple[Die, ...]:
        """The dice returned for checking but not counted, left to right."""
        return tuple(d for d in self.found if d.doubtful)

    @property
    def values(self) -> tuple[int, ...]:
        """The face values of the counted dice, left to right."""
        return tuple(d.value for d in self.certain)

    @property
    def boxes(self) -> tuple[tuple[int, int, int, int], ...]:
        """The boxes of the counted dice, x1 y1 x2 y2 in original pixels."""
        return tuple(d.box for d in self.certain)

    @property
    def confidences(self) -> tuple[float, ...]:
        """The confidences 0..1 of the counted dice."""
        return tuple(d.confidence for d in self.certain)

    def dice(self, count: int = DICE_COUNT) -> Dice:
        """Return the values of the counted dice as scorekeeper Dice.

        Raises DiceCountReadError unless exactly *count* dice were counted.
        """
        counted = len(self.certain)
        if counted != count:
            doubtful = len(self.found) - counted
            extra = f" (and {doubtful} doubtful)" if doubtful else ""
            raise DiceCountReadError(f"read {counted} dice{extra}, need {count}")
        return Dice.of(self.values, count)

    def to_dict(self) -> dict[str, Any]:
        """Return width, height and all dice (each with its doubtful flag) as a JSON-ready dict."""
        return {"width": self.width, "height": self.height,
                "dice": [d.to_dict() for d in self.found]}

"""Dice: an immutable roll of six-sided dice, with parsing and formatting."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from scorekeeper.errors import RulesError

DICE_COUNT = 5
FACES = range(1, 7)
_EXAMPLE = (6, 6, 4, 6, 6, 1)  # dice an example shows, as many as a roll has


class DiceError(RulesError):
    """Any problem with dice given by a person or a program."""


class DieValueError(DiceError):
    """A die value outside 1..6."""


class DiceCountError(DiceError):
    """The wrong number of dice."""


class DiceSyntaxError(DiceError):
    """Text that cannot be read as dice at all."""


def example(count: int | None = DICE_COUNT) -> tuple[int, ...]:
    """Return *count* dice to show as an example (None: five): 6 6 4 6 6, 6 6 4 6 6 1."""
    count = DICE_COUNT if count is None else max(1, count)
    return (_EXAMPLE * (count // len(_EXAMPLE) + 1))[:count]


def _text(values: Iterable[int]) -> str:
    """Return die values as people write them: "1 2 3 4 7"."""
    return " ".join(map(str, values))


# Digits are ASCII 0-9 only: \d and str.isdigit also match "٦" or "６", which int() reads
# and superscripts like "²", which it cannot. Spaces may still be any Unicode whitespace.
_SEPARATED = re.compile(r"^\s*-?[0-9]+(?:\s*[\s,;/-]\s*-?[0-9]+)*\s*$")
# A minus sign right after a digit is a separator ("4-4-4-4-1"), not a negative value.
_TOKEN = re.compile(r"(?<![0-9])-?[0-9]+")


@dataclass(frozen=True, slots=True)
class Dice:
    """Values of 1..6, in the order they were read. Usually five, at least one.

    >>> Dice.parse("6 6 4 6 6").total
    28
    """

    values: tuple[int, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.values, tuple):
            raise DiceSyntaxError(f"dice must be a tuple of ints, got {self.values!r}")
        if not self.values:
            raise DiceCountError("no dice given", code="dice_none")
        for value in self.values:
            if isinstance(value, bool) or not isinstance(value, int):
                raise DiceSyntaxError(f"a die must be a whole number 1..6, got {value!r}")
            if value not in FACES:
                raise DieValueError(f"a die shows 1..6, got {value} in {_text(self.values)}",
                                    code="die_value", value=value, dice=self.values)

    @classmethod
    def of(cls, values: Iterable[int], count: int | None = DICE_COUNT) -> Dice:
        """Return dice from an iterable of ints; check there are *count* of them (None: any).

        Raises DieValueError, DiceCountError or DiceSyntaxError.
        """
        dice = cls(tuple(values))
        if count is not None and len(dice.values) != count:
            raise DiceCountError(
                f"expected {count} dice, got {len(dice.values)}: {dice}",
                code="dice_count", expected=count, count=len(dice.values), dice=dice.values,
            )
        return dice

    @classmethod
    def parse(cls, text: str, count: int | None = DICE_COUNT) -> Dice:
        """Read dice from text: "6 6 4 6 6", "6,6,4,6,6", "6-6-4-6-6" or "66466".

        Raises DiceSyntaxError for garbage, DieValueError for a value outside 1..6,
        DiceCountError for the wrong number of dice; each message quotes the text.
        """
        stripped = text.strip()
        if stripped.isascii() and stripped.isdigit():
            values = [int(ch) for ch in stripped]
        elif _SEPARATED.match(stripped):
            values = [int(tok) for tok in _TOKEN.findall(stripped)]
        else:
            shown = example(count)
            raise DiceSyntaxError(f"cannot read dice from {text!r}: use e.g. '{_text(shown)}'",
                                  code="dice_syntax", text=text, expected=len(shown))
        try:
            return cls.of(values, count)
        except DiceError as error:
            raise type(error)(f"{error} (from {text!r})", code=error.code,
                              **error.params) from None

    @property
    def total(self) -> int:
        """The sum of all dice."""
        return sum(self.values)

    def counts(self) -> tuple[int, int, int, int, int, int]:
        """How many dice show each face: index 0 for ones … index 5 for sixes."""
        c = [0] * 6
        for value in self.values:
            c[value - 1] += 1
        return (c[0], c[1], c[2], c[3], c[4], c[5])

    def sorted(self) -> Dice:
        """The same dice in ascending order."""
        return Dice(tuple(sorted(self.values)))

    def __len__(self) -> int:
        return len(self.values)

    def __str__(self) -> str:
        return _text(self.values)

    def __repr__(self) -> str:
        if len(self.values) == DICE_COUNT:
            return f"Dice.parse({str(self)!r})"
        return f"Dice.parse({str(self)!r}, count={len(self.values)})"

"""A photo of a throw made into a roll: the dice read, merged with the dice kept aside.

Players set keepers aside and throw the rest, then photograph the thrown dice
only, or all of them (five, or six in Maxi Yatzy). The page says which positions
are kept; their values are the current roll's. This module decides, from the dice found in the photo
alone, which found die is which die of the roll:

- fewer dice found than were thrown: no roll (`TooFewDiceError`), the player
  sets the dice by hand;
- more dice found for sure than were thrown: the photo shows kept dice too.
  Kept values are matched to found dice of the same value, most confident
  first; those found dice are the kept ones (their values stay as kept);
- of the found dice left, the most confident fill the thrown positions, left
  to right; any others are doubtful: shown, not counted.

Pure functions of their arguments: no vision, no Flask.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from scorekeeper import Dice
from scorekeeper.dice import DICE_COUNT

Role = Literal["thrown", "kept", "doubtful"]


class Find(Protocol):
    """A die found in a photo (`vision.Die` is one): its value, how sure the reader is,
    and whether the reader itself doubts it."""

    @property
    def value(self) -> int: ...

    @property
    def confidence(self) -> float: ...

    @property
    def doubtful(self) -> bool: ...


class TooFewDiceError(ValueError):
    """The photo shows fewer dice than were thrown."""

    def __init__(self, found: int, thrown: int) -> None:
        super().__init__("the photo shows fewer dice than were thrown "
                         f"({found} found, {thrown} thrown): set the dice by hand")
        self.found = found
        self.thrown = thrown


@dataclass(frozen=True)
class Merged:
    """The roll made of a photo: all the dice, and for each found die (in the photo's
    order) its role and its position in the roll (None for a doubtful one)."""

    dice: Dice
    roles: tuple[Role, ...]
    positions: tuple[int | None, ...]


def kept_values(dice: Dice | None, kept: Sequence[int]) -> dict[int, int]:
    """Return position -> value of the *kept* positions of *dice* (the current roll).

    Positions that are not dice of the roll are left out: the rules refuse them
    when the roll is recorded, with their own message.
    """
    if dice is None:
        return {}
    return {p: dice.values[p] for p in kept if 0 <= p < len(dice.values)}


def _by_confidence(found: Sequence[Find], among: Sequence[int]) -> list[int]:
    """Return the indices *among* of *found*, most confident first (left first on ties)."""
    return sorted(among, key=lambda i: -found[i].confidence)


def _match_kept(found: Sequence[Find], kept: Mapping[int, int], room: int) -> dict[int, int]:
    """Return found index -> kept position for found dice showing a kept value, most
    confident first, at most *room* of them."""
    spots: dict[int, list[int]] = {}
    for position, value in sorted(kept.items()):
        spots.setdefault(value, []).append(position)
    matched: dict[int, int] = {}
    for i in _by_confidence(found, range(len(found))):
        if len(matched) == room:
            break
        if spots.get(found[i].value):
            matched[i] = spots[found[i].value].pop(0)
    return matched


def merge(found: Sequence[Find], kept: Mapping[int, int], count: int = DICE_COUNT) -> Merged:
    """Return the roll of *count* dice made of the dice *found* in a photo and the *kept*
    dice (position -> value). Raises TooFewDiceError when fewer dice were found than thrown.
    """
    thrown = count - len(kept)
    if len(found) < thrown:
        raise TooFewDiceError(len(found), thrown)
    sure = sum(not f.doubtful for f in found)
    matched = _match_kept(found, kept, len(found) - thrown) if sure > thrown else {}
    rest = [i for i in range(len(found)) if i not in matched]
    free = [p for p in range(count) if p not in kept]
    # The surest of the other dice are the thrown ones, placed left to right.
    throws = dict(zip(sorted(_by_confidence(found, rest)[:thrown]), free, strict=True))
    values = [kept.get(p, 0) for p in range(count)]
    for i, p in throws.items():
        values[p] = found[i].value
    placed = {**matched, **throws}
    roles: tuple[Role, ...] = tuple(
        "kept" if i in matched else "thrown" if i in throws else "doubtful"
        for i in range(len(found)))
    return Merged(Dice.of(values, count), roles, tuple(placed.get(i) for i in range(len(found))))

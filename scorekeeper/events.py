"""The events a game is made of, and their JSON form.

A game is its players, its rule set and the list of these events: rolls for the
first player, rolls, scores and corrections of boxes filled in earlier turns.
`Game` replays them; `to_dict` and `from_dict` are how a stored game holds them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.dice import Dice
from scorekeeper.errors import RulesError


class EventFormatError(RulesError):
    """Stored event data of an unknown type."""


@dataclass(frozen=True)
class FirstRoll:
    """A player's roll of all the dice to decide who starts."""

    dice: Dice


@dataclass(frozen=True)
class Roll:
    """A roll of the current player; *kept* are positions carried over from the last roll."""

    dice: Dice
    kept: tuple[int, ...] = ()


@dataclass(frozen=True)
class Score:
    """The current player fills *box* with the current dice, ending the turn."""

    box: str


@dataclass(frozen=True)
class Correct:
    """Box *box* of seat *player* is re-scored with *dice*, moved to *to_box* if given."""

    player: int
    box: str
    dice: Dice
    to_box: str | None = None


Event = FirstRoll | Roll | Score | Correct


def event_to_dict(event: Event) -> dict[str, Any]:
    """Return *event* as JSON-ready data (``type`` and its fields)."""
    if isinstance(event, FirstRoll):
        return {"type": "first-roll", "dice": list(event.dice.values)}
    if isinstance(event, Roll):
        return {"type": "roll", "dice": list(event.dice.values), "kept": list(event.kept)}
    if isinstance(event, Correct):
        moved = {} if event.to_box is None else {"to_box": event.to_box}
        return {"type": "correction", "player": event.player, "box": event.box,
                "dice": list(event.dice.values), **moved}
    return {"type": "score", "box": event.box}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Return the event of `event_to_dict` output.

    Raises EventFormatError for an unknown type, DiceError for bad dice, and KeyError
    or TypeError for data that is not an event. How many dice a roll shows is the game's
    to check (five, or six in Maxi Yatzy).
    """
    kind = data["type"]
    if kind == "first-roll":
        return FirstRoll(Dice.of(data["dice"], None))
    if kind == "roll":
        return Roll(Dice.of(data["dice"], None), tuple(int(i) for i in data.get("kept", ())))
    if kind == "score":
        return Score(str(data["box"]))
    if kind == "correction":
        to_box = data.get("to_box")
        return Correct(int(data["player"]), str(data["box"]), Dice.of(data["dice"], None),
                       None if to_box is None else str(to_box))
    raise EventFormatError(f"unknown event type {kind!r}")

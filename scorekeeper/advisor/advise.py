"""Advice for one moment of a turn: every choice with its expected final score, best first.

After roll 1 or 2 a player may hold some dice and reroll the rest (a "keep" of
0..4 dice) or stop and fill a box (a "score"; holding all five dice and stopping
is the same thing). After roll 3 only boxes remain. Expected final scores count
what is already on the card (the upper bonus is part of the expectation until the
upper subtotal reaches it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.final import state_final_values
from scorekeeper.advisor.ruletables import card_state
from scorekeeper.advisor.solver import AdvisorError, Table, banked
from scorekeeper.advisor.tables import (
    Counts,
    counts_to_values,
    flat_keep_row,
    keep_rows,
    reroll_best,
    sub_keeps,
)
from scorekeeper.dice import DICE_COUNT, Dice, DiceCountError
from scorekeeper.scorecard import Scorecard

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]
ROLLS_PER_TURN = 3


class KeepError(AdvisorError):
    """Kept dice that are not among the rolled dice."""


@dataclass(frozen=True)
class Option:
    """One choice: hold *keep* and reroll the rest, or fill *box* now."""

    kind: Literal["keep", "score"]
    expected: float  # expected final score of the game after this choice, played optimally
    loss: float  # expected points lost against the best choice (0 for the best)
    keep: tuple[int, ...] = ()  # the dice held, ascending (kind "keep")
    box: str | None = None  # the box filled (kind "score")
    points: int = 0  # what the box scores now (kind "score")
    bonus: int = 0  # Yahtzee bonus earned with it (kind "score")

    @property
    def reroll(self) -> int:
        """How many dice are rerolled (0 when scoring)."""
        return DICE_COUNT - len(self.keep) if self.kind == "keep" else 0

    def describe(self) -> str:
        """Return the choice in a few English words, e.g. "keep 6 6 6, reroll 2"."""
        if self.kind == "score":
            bonus = f" (+{self.bonus} bonus)" if self.bonus else ""
            return f"score {self.points} in {self.box}{bonus}"
        held = " ".join(str(v) for v in self.keep) or "nothing"
        return f"keep {held}, reroll {self.reroll}"

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict."""
        return {
            "kind": self.kind,
            "keep": list(self.keep) if self.kind == "keep" else None,
            "reroll": self.reroll,
            "box": self.box,
            "points": self.points,
            "bonus": self.bonus,
            "expected": self.expected,
            "loss": self.loss,
            "text": self.describe(),
        }


def _check(table: Table, card: Scorecard, dice: Dice, roll: int) -> None:
    if roll not in range(1, ROLLS_PER_TURN + 1):
        raise AdvisorError(f"the roll number is 1, 2 or 3, got {roll!r}")
    if len(dice) != DICE_COUNT:
        raise DiceCountError(f"advice needs {DICE_COUNT} dice, got {dice}")
    if card.is_complete:
        raise AdvisorError("the card is complete: there is no turn left to advise")
    table.future(card)  # raises for a card of other rules or one no game reaches


def _keep_values(table: Table, card: Scorecard, rolls_left: int, rows: IntArray) -> FloatArray:
    """Return the values of holding the keeps of flat *rows* with *rolls_left* (1 or 2) rolls
    still to come, points banked before this turn not counted.
    """
    state = card_state(table.tables, card)
    rolls = state_final_values(table.tables, table.box_rolls, table.values, state)
    if rolls_left == 2:
        rolls = reroll_best(rolls)
    return keep_rows(rolls, rows)


def _score_options(table: Table, card: Scorecard, dice: Dice) -> list[Option]:
    options = []
    for box in card.legal_boxes(dice):
        after = card.score(box, dice)
        points = card.points_for(box, dice)
        options.append(
            Option("score", table.value(after), 0.0, box=box, points=points,
                   bonus=card.bonus_earned(dice))
        )
    return options


@cache
def _roll_keeps(counts: Counts) -> tuple[tuple[tuple[int, ...], ...], IntArray]:
    """Return the keeps of 0..4 dice of a roll (as values) and their flat rows (`keep_rows`)."""
    keeps = [keep for keep in sub_keeps(counts) if sum(keep) < DICE_COUNT]
    rows = np.array([flat_keep_row(keep) for keep in keeps], dtype=np.intp)
    rows.setflags(write=False)
    return tuple(counts_to_values(keep) for keep in keeps), rows


def keep_choices(table: Table, card: Scorecard, dice: Dice, roll: int
                 ) -> tuple[tuple[tuple[int, ...], ...], FloatArray]:
    """Return every keep of 0..4 of *dice* after roll *roll* (1 or 2), as values ascending,
    and (keeps,) the expected final score of holding each and rerolling the rest.

    The evaluation behind `advise`'s keep options, without building them; no checks
    (see `advise`).
    """
    keeps, rows = _roll_keeps(dice.counts())
    values = _keep_values(table, card, ROLLS_PER_TURN - roll, rows)
    values += banked(card)
    return keeps, values


def _keep_options(table: Table, card: Scorecard, dice: Dice, roll: int) -> list[Option]:
    keeps, values = keep_choices(table, card, dice, roll)
    return [
        Option("keep", value, 0.0, keep=keep)
        for keep, value in zip(keeps, values.tolist(), strict=True)
    ]


def _ranked(options: Iterable[Option]) -> list[Option]:
    """Return the options best first, each with its loss against the best."""
    ordered = sorted(options, key=lambda o: (-o.expected, o.kind != "score", o.reroll))
    best = ordered[0].expected
    return [
        Option(o.kind, o.expected, max(0.0, best - o.expected), o.keep, o.box, o.points, o.bonus)
        for o in ordered
    ]


def advise(table: Table, card: Scorecard, dice: Dice, roll: int) -> list[Option]:
    """Return every choice after roll *roll* (1..3) of *dice* on *card*, best first.

    Rolls 1 and 2: every distinct keep of 0..4 dice, and every legal box (stopping now);
    roll 3: every legal box. Raises AdvisorError (roll number, complete card, card of
    other rules), UnreachableCardError, or DiceCountError for other than five dice.
    """
    _check(table, card, dice, roll)
    options = _score_options(table, card, dice)
    if roll < ROLLS_PER_TURN:
        options += _keep_options(table, card, dice, roll)
    return _ranked(options)


def best_expected(table: Table, card: Scorecard, dice: Dice, roll: int) -> float:
    """Return the expected final score of the best choice after roll *roll* of *dice*.

    Raises as `advise` does.
    """
    return advise(table, card, dice, roll)[0].expected


def keep_value(table: Table, card: Scorecard, dice: Dice, roll: int, kept: Iterable[int]) -> float:
    """Return the expected final score of holding *kept* (a sub-multiset of *dice*) and
    rerolling the rest after roll 1 or 2; holding all five is going on without rerolling.

    Raises KeepError when *kept* is not among *dice*, AdvisorError when *roll* is not 1 or 2,
    and as `advise` does.
    """
    _check(table, card, dice, roll)
    if roll == ROLLS_PER_TURN:
        raise AdvisorError("after roll 3 no dice are rerolled: choose a box")
    counts = _kept_counts(dice, kept)
    rows = np.array([flat_keep_row(counts)], dtype=np.intp)
    return banked(card) + float(_keep_values(table, card, ROLLS_PER_TURN - roll, rows)[0])


def _kept_counts(dice: Dice, kept: Iterable[int]) -> Counts:
    held = list(kept)
    shown = " ".join(map(str, held))
    try:
        counts = Dice.of(held, count=None).counts() if held else (0,) * 6
    except ValueError as error:
        raise KeepError(f"cannot keep {shown}: {error}") from None
    if any(k > d for k, d in zip(counts, dice.counts(), strict=True)):
        raise KeepError(f"cannot keep {shown}: the dice are {dice}")
    return counts


def loss_of_keep(
    table: Table, card: Scorecard, dice: Dice, roll: int, kept: Iterable[int]
) -> float:
    """Return the expected points lost by holding *kept* after roll 1 or 2, against the best.

    Raises as `keep_value` does.
    """
    value = keep_value(table, card, dice, roll, kept)
    return max(0.0, best_expected(table, card, dice, roll) - value)


def loss_of_box(table: Table, card: Scorecard, dice: Dice, box: str, roll: int = 3) -> float:
    """Return the expected points lost by filling *box* with *dice* after roll *roll*,
    against the best choice then (which after roll 1 or 2 may be rerolling).

    Raises UnknownBoxError, BoxFilledError or IllegalBoxError for a box these dice cannot
    fill, and as `advise` does.
    """
    _check(table, card, dice, roll)
    value = table.value(card.score(box, dice))
    return max(0.0, best_expected(table, card, dice, roll) - value)

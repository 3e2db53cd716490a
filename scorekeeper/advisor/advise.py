"""Advice for one moment of a turn: every choice with its expected final score, best first.

After roll 1 or 2 a player may hold some dice and reroll the rest (a "keep" of
0..n-1 of the rule set's n dice) or stop and fill a box (a "score"; holding all n
dice and stopping is the same thing). After roll 3 only boxes remain. Expected
final scores count what is already on the card (the upper bonus is part of the
expectation until the upper subtotal reaches it).

Saved rolls (Maxi Yatzy: rolls left unused in a turn are saved for later turns).
A table is of three rolls a turn, without saved rolls. Advice with saved rolls
assumes (and says so in each option's ``assumes``):

* every later turn has three rolls and no saved rolls: rolls saved for later turns
  are worth nothing in the advice, so stopping early is never credited with them;
* when more than two rerolls are left in this turn (*rolls_left* > 2, the turn's
  own and saved ones), keeps are valued by the same within-turn recursion run over
  all the rolls left (the best keep before each, the best box after the last);
  the boxes' values after the turn are the table's.

Both are exact for the game of the table and a sound lower bound for the game with
saved rolls: saved rolls only add choices.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.final import state_final_values
from scorekeeper.advisor.ruletables import card_state
from scorekeeper.advisor.solver import AdvisorError, Table, banked
from scorekeeper.advisor.tables import (
    FACE_COUNT,
    Counts,
    counts_to_values,
    flat_keep_row,
    keep_rows,
    reroll_best,
    sub_keeps,
)
from scorekeeper.advisor.turn import ROLLS_PER_TURN
from scorekeeper.dice import Dice, DiceCountError
from scorekeeper.rulesets import RuleSet
from scorekeeper.scorecard import Scorecard

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


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
    reroll: int = 0  # how many dice are rerolled (kind "keep"; 0 when scoring)
    assumes: str | None = None  # what the value assumes beyond the table (saved rolls)

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
            "assumes": self.assumes,
        }


def assumptions(rules: RuleSet, rolls_left: int) -> str | None:
    """Return what advice with *rolls_left* rolls still to come assumes beyond the table
    of *rules* (see the module docstring), or None when the table is the whole game.
    """
    more = rolls_left > ROLLS_PER_TURN - 1
    if not (rules.saved_rolls or more):
        return None
    text = "three rolls a turn in later turns; rolls saved for later turns are not valued"
    if more:
        text += f"; the {rolls_left} rolls left are all used in this turn's keep values"
    return text


def _rolls_left(roll: int, rolls_left: int | None) -> int:
    """Return the rolls still to come this turn after roll *roll*; raise AdvisorError."""
    if rolls_left is None:
        if roll not in range(1, ROLLS_PER_TURN + 1):
            raise AdvisorError(f"the roll number is 1, 2 or 3, got {roll!r}")
        return ROLLS_PER_TURN - roll
    if roll < 1 or rolls_left < 0:
        raise AdvisorError(f"a roll is numbered from 1 and rolls left are 0 or more, "
                           f"got roll {roll!r} with {rolls_left!r} left")
    return rolls_left


def _check(table: Table, card: Scorecard, dice: Dice) -> None:
    count = table.rules.dice_count
    if len(dice) != count:
        raise DiceCountError(f"advice needs {count} dice, got {dice}")
    if card.is_complete:
        raise AdvisorError("the card is complete: there is no turn left to advise")
    table.future(card)  # raises for a card of other rules or one no game reaches


def _keep_values(table: Table, card: Scorecard, rolls_left: int, rows: IntArray) -> FloatArray:
    """Return the values of holding the keeps of flat *rows* with *rolls_left* (1 or more)
    rolls still to come, points banked before this turn not counted.
    """
    state = card_state(table.tables, card)
    rolls = state_final_values(table.tables, table.box_rolls, table.values, state)
    for _reroll in range(rolls_left - 1):
        rolls = reroll_best(rolls)
    return keep_rows(rolls, rows)


def _score_options(table: Table, card: Scorecard, dice: Dice, assumes: str | None
                   ) -> list[Option]:
    options = []
    for box in card.legal_boxes(dice):
        after = card.score(box, dice)
        points = card.points_for(box, dice)
        options.append(
            Option("score", table.value(after), 0.0, box=box, points=points,
                   bonus=card.bonus_earned(dice), assumes=assumes)
        )
    return options


@cache
def _roll_keeps(counts: Counts) -> tuple[tuple[tuple[int, ...], ...], IntArray]:
    """Return the keeps of 0..n-1 dice of a roll of n (as values) and their flat rows
    (`keep_rows`)."""
    dice = sum(counts)
    keeps = [keep for keep in sub_keeps(counts) if sum(keep) < dice]
    rows = np.array([flat_keep_row(keep, dice) for keep in keeps], dtype=np.intp)
    rows.setflags(write=False)
    return tuple(counts_to_values(keep) for keep in keeps), rows


def keep_choices(table: Table, card: Scorecard, dice: Dice, roll: int,
                 rolls_left: int | None = None
                 ) -> tuple[tuple[tuple[int, ...], ...], FloatArray]:
    """Return every keep of 0..n-1 of *dice* after roll *roll* (1 or 2), as values
    ascending, and (keeps,) the expected final score of holding each and rerolling the rest.

    *rolls_left* (default 3 - *roll*) is how many rolls are still to come this turn.
    The evaluation behind `advise`'s keep options, without building them; no checks
    (see `advise`).
    """
    keeps, rows = _roll_keeps(dice.counts())
    left = ROLLS_PER_TURN - roll if rolls_left is None else rolls_left
    values = _keep_values(table, card, left, rows)
    values += banked(card)
    return keeps, values


def _keep_options(table: Table, card: Scorecard, dice: Dice, rolls_left: int,
                  assumes: str | None) -> list[Option]:
    keeps, values = keep_choices(table, card, dice, 1, rolls_left)
    return [
        Option("keep", value, 0.0, keep=keep, reroll=len(dice) - len(keep), assumes=assumes)
        for keep, value in zip(keeps, values.tolist(), strict=True)
    ]


def _ranked(options: Iterable[Option]) -> list[Option]:
    """Return the options best first, each with its loss against the best."""
    ordered = sorted(options, key=lambda o: (-o.expected, o.kind != "score", o.reroll))
    best = ordered[0].expected
    return [replace(o, loss=max(0.0, best - o.expected)) for o in ordered]


def advise(table: Table, card: Scorecard, dice: Dice, roll: int,
           rolls_left: int | None = None) -> list[Option]:
    """Return every choice after roll *roll* of *dice* on *card*, best first.

    *rolls_left* is how many more rolls the player may make this turn: by default
    3 - *roll* (then *roll* must be 1..3); more where saved rolls allow (see the module
    docstring). With rolls left: every distinct keep of 0..n-1 dice, and every legal box
    (stopping now); with none: every legal box. Raises AdvisorError (roll number,
    complete card, card of other rules), UnreachableCardError, or DiceCountError for
    other than the rule set's number of dice.
    """
    left = _rolls_left(roll, rolls_left)
    _check(table, card, dice)
    assumes = assumptions(table.rules, left)
    options = _score_options(table, card, dice, assumes)
    if left:
        options += _keep_options(table, card, dice, left, assumes)
    return _ranked(options)


def best_expected(table: Table, card: Scorecard, dice: Dice, roll: int,
                  rolls_left: int | None = None) -> float:
    """Return the expected final score of the best choice after roll *roll* of *dice*.

    Raises as `advise` does.
    """
    return advise(table, card, dice, roll, rolls_left)[0].expected


def keep_value(table: Table, card: Scorecard, dice: Dice, roll: int, kept: Iterable[int],
               rolls_left: int | None = None) -> float:
    """Return the expected final score of holding *kept* (a sub-multiset of *dice*) and
    rerolling the rest after roll *roll* with rolls still to come; holding all the dice is
    going on without rerolling.

    Raises KeepError when *kept* is not among *dice*, AdvisorError when no roll is left
    (after roll 3 by default), and as `advise` does.
    """
    left = _rolls_left(roll, rolls_left)
    _check(table, card, dice)
    if not left:
        raise AdvisorError(f"after roll {roll} no dice are rerolled: choose a box")
    counts = _kept_counts(dice, kept)
    rows = np.array([flat_keep_row(counts, len(dice))], dtype=np.intp)
    return banked(card) + float(_keep_values(table, card, left, rows)[0])


def _kept_counts(dice: Dice, kept: Iterable[int]) -> Counts:
    held = list(kept)
    shown = " ".join(map(str, held))
    try:
        counts = Dice.of(held, count=None).counts() if held else (0,) * FACE_COUNT
    except ValueError as error:
        raise KeepError(f"cannot keep {shown}: {error}") from None
    if any(k > d for k, d in zip(counts, dice.counts(), strict=True)):
        raise KeepError(f"cannot keep {shown}: the dice are {dice}")
    return counts


def loss_of_keep(table: Table, card: Scorecard, dice: Dice, roll: int, kept: Iterable[int],
                 rolls_left: int | None = None) -> float:
    """Return the expected points lost by holding *kept* after roll *roll* (rolls still to
    come), against the best.

    Raises as `keep_value` does.
    """
    value = keep_value(table, card, dice, roll, kept, rolls_left)
    return max(0.0, best_expected(table, card, dice, roll, rolls_left) - value)


def loss_of_box(table: Table, card: Scorecard, dice: Dice, box: str, roll: int = 3,
                rolls_left: int | None = None) -> float:
    """Return the expected points lost by filling *box* with *dice* after roll *roll*,
    against the best choice then (which with rolls left may be rerolling).

    Raises UnknownBoxError, BoxFilledError or IllegalBoxError for a box these dice cannot
    fill, and as `advise` does.
    """
    left = _rolls_left(roll, rolls_left)
    _check(table, card, dice)
    value = table.value(card.score(box, dice))
    return max(0.0, best_expected(table, card, dice, roll, left) - value)

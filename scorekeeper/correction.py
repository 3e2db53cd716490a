"""Correcting a box filled in an earlier turn, without undoing the turns after it.

At a real table the scorer sometimes enters the wrong dice, or taps the wrong
box, and notices turns later. A correction names the filled box and gives the
dice the turn really ended with, and optionally the box they should have gone
in. The player's card is then scored again turn by turn with that one turn
changed, so every later entry is checked anew (Joker rules, upper section
first, Yahtzee bonus); when one of them would no longer be allowed, the
correction is refused and nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.dice import DICE_COUNT, Dice
from scorekeeper.errors import RulesError
from scorekeeper.events import Correct
from scorekeeper.history import CorrectionRecord
from scorekeeper.rulesets import RuleSet
from scorekeeper.scorecard import Scorecard, ScoringError

Turn = tuple[str, Dice]  # the box a turn filled and the dice it was filled with


class CorrectionError(RulesError):
    """A correction that names an open box, changes nothing, or breaks a later entry."""


def _reason(error: ScoringError) -> str:
    """Return why a box is refused, for translations: a Joker rule, upper_first or filled."""
    return str(error.params.get("reason", "filled"))


def _rescored(rules: RuleSet, name: str, turns: Sequence[Turn], index: int) -> Scorecard:
    """Return the card of *turns*, whose turn *index* was changed. Raises CorrectionError."""
    card = Scorecard.empty(rules)
    for number, (box, dice) in enumerate(turns):
        try:
            card = card.score(box, dice)
        except ScoringError as error:
            named = rules.category(box).name
            if number == index:
                raise CorrectionError(
                    f"{name}'s round {number + 1} cannot be corrected to {dice} in {named}: "
                    f"{error}", code="correction_illegal", name=name, round=number + 1,
                    dice=dice.values, box=named, reason=_reason(error)) from None
            raise CorrectionError(
                f"correcting {name}'s round {index + 1} would make round {number + 1} "
                f"({dice} in {named}) illegal: {error}; nothing was changed",
                code="correction_breaks", name=name, round=index + 1, later=number + 1,
                dice=dice.values, box=named, reason=_reason(error)) from None
    return card


def correct_turns(
    rules: RuleSet, name: str, turns: Sequence[Turn], card: Scorecard, event: Correct
) -> tuple[tuple[Turn, ...], Scorecard, CorrectionRecord]:
    """Return a player's turns and card after *event*, and its history record.

    *turns* are the player's scored turns in order and *card* the card they make.
    Raises UnknownBoxError for a box the rules lack, CorrectionError otherwise.
    """
    box = rules.category(event.box).slug
    to_box = rules.category(event.to_box).slug if event.to_box is not None else box
    if len(event.dice) != rules.dice_count:
        six = rules.dice_count != DICE_COUNT
        raise CorrectionError(f"a roll shows {'six' if six else 'five'} dice, got {event.dice}",
                              code="roll_six" if six else "roll_five", dice=event.dice.values)
    named = rules.category(box).name
    index = next((i for i, (filled, _) in enumerate(turns) if filled == box), None)
    if index is None:
        raise CorrectionError(
            f"{name}'s {named} is still open: only a filled box can be corrected",
            code="correction_open", name=name, box=named)
    old_dice = turns[index][1]
    if (to_box, event.dice) == turns[index]:
        raise CorrectionError(
            f"{name}'s {named} already holds {old_dice}: the correction changes nothing",
            code="correction_same", name=name, box=named, dice=old_dice.values)
    fixed = (*turns[:index], (to_box, event.dice), *turns[index + 1:])
    after = _rescored(rules, name, fixed, index)
    record = CorrectionRecord(
        player=event.player, round=index + 1, box=box, dice_before=old_dice,
        points_before=_points(card, box), to_box=to_box, dice=event.dice,
        points=_points(after, to_box), total_before=card.grand_total,
        total_after=after.grand_total, card=after)
    return tuple(fixed), after, record


def _points(card: Scorecard, box: str) -> int:
    points = card.box(box)
    assert points is not None  # a filled box
    return points

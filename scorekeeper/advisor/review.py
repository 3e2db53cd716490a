"""A finished (or unfinished) game, choice by choice, against optimal solitaire play.

Every choice a player made is measured: each keep between rolls (the dice held
before rolls 2 and 3) and each box filled, at whatever roll the player stopped.
A choice's loss is the expected final score of the best choice at that moment
minus that of the choice made, both with optimal play afterwards — the points
the choice cost on average. Keeps are read from the dice marked as kept when the
next roll was recorded. With saved rolls (Maxi Yatzy), a roll's choices count the
rolls the player had left then, their saved ones included (see `advise` for what
such advice assumes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.advisor.advise import Option, advise, keep_value
from scorekeeper.advisor.solver import AdvisorError, Table
from scorekeeper.advisor.turn import ROLLS_PER_TURN
from scorekeeper.dice import Dice
from scorekeeper.game import Game
from scorekeeper.history import CorrectionRecord, FirstRollRecord, RollRecord, ScoreRecord
from scorekeeper.scorecard import Scorecard


@dataclass(frozen=True)
class Choice:
    """One decision: after roll *roll* of *dice* in round *turn*, *chosen* was done."""

    player: int
    turn: int  # the player's round, 1 to the number of boxes
    roll: int  # the roll the choice followed: 1..3, more with saved rolls
    dice: Dice
    chosen: Option  # what the player did, with its expected final score and loss
    best: Option  # the best choice at that moment (loss 0)

    @property
    def loss(self) -> float:
        """Expected points the choice lost against the best one (0 or more)."""
        return self.chosen.loss

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "player": self.player,
            "turn": self.turn,
            "roll": self.roll,
            "dice": list(self.dice.values),
            "loss": self.loss,
            "chosen": self.chosen.to_dict(),
            "best": self.best.to_dict(),
        }


@dataclass(frozen=True)
class PlayerReview:
    """Every choice of one player, in the order they were made."""

    player: int
    name: str
    score: int  # the player's grand total so far
    choices: tuple[Choice, ...]

    @property
    def total_loss(self) -> float:
        """Expected points lost over all the player's choices."""
        return sum(choice.loss for choice in self.choices)

    @property
    def optimal(self) -> int:
        """How many choices lost nothing (to within a thousandth of a point)."""
        return sum(1 for choice in self.choices if choice.loss < 1e-3)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "player": self.player,
            "name": self.name,
            "score": self.score,
            "total_loss": self.total_loss,
            "optimal": self.optimal,
            "choices": [choice.to_dict() for choice in self.choices],
        }


@dataclass(frozen=True)
class Review:
    """The review of one game: one `PlayerReview` per player, in seat order."""

    rules: str
    expected_score: float  # a whole game's expected score with optimal play
    players: tuple[PlayerReview, ...]

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        return {
            "rules": self.rules,
            "expected_score": self.expected_score,
            "players": [p.to_dict() for p in self.players],
        }


def _with_loss(option: Option, best: float) -> Option:
    return replace(option, loss=max(0.0, best - option.expected))


def _keep_option(table: Table, card: Scorecard, dice: Dice, roll: int,
                 held: Sequence[int], options: Sequence[Option], rolls_left: int) -> Option:
    """Return the option of holding *held* (values, ascending) among *options*."""
    for option in options:
        if option.kind == "keep" and option.keep == tuple(held):
            return option
    # Holding all the dice and rolling again is not among the advised keeps.
    value = keep_value(table, card, dice, roll, held, rolls_left)
    return _with_loss(Option("keep", value, 0.0, keep=tuple(held)), options[0].expected)


def _score_option(box: str, options: Sequence[Option]) -> Option:
    """Return the option of filling *box* among *options*. Raises LookupError when absent."""
    for option in options:
        if option.kind == "score" and option.box == box:
            return option
    raise LookupError(f"{box!r} is not a legal box for this roll")


def _choice(table: Table, card: Scorecard, moment: RollRecord,
            done: RollRecord | ScoreRecord, saved: int) -> Choice:
    """Return the choice *done* (the next roll or a score) after the roll *moment*, the
    player holding *saved* rolls from earlier turns."""
    left = ROLLS_PER_TURN + saved - moment.roll
    options = advise(table, card, moment.dice, moment.roll, left)
    if isinstance(done, ScoreRecord):
        chosen = _score_option(done.box, options)
    else:
        held = sorted(moment.dice.values[i] for i in done.kept)
        chosen = _keep_option(table, card, moment.dice, moment.roll, held, options, left)
    turn = len(card.rules.categories) - len(card.open_boxes()) + 1
    return Choice(moment.player, turn, moment.roll, moment.dice, chosen, options[0])


def choices(game: Game, table: Table) -> list[Choice]:
    """Return every choice made in *game* so far, in playing order.

    Raises AdvisorError when *table* is of other rules than *game*.
    """
    if table.rules.name != game.rules.name:
        raise AdvisorError(
            f"a {game.rules.name!r} game cannot be reviewed with a {table.rules.name!r} table"
        )
    cards = [Scorecard.empty(game.rules) for _ in game.players]
    saved = [0] * len(game.players)  # rolls saved from earlier turns (Maxi Yatzy)
    found: list[Choice] = []
    moment: RollRecord | None = None  # the last roll of the turn in progress
    for record in game.history():
        if isinstance(record, FirstRollRecord):
            continue
        if isinstance(record, CorrectionRecord):  # an earlier box corrected: later choices
            cards[record.player] = record.card  # are measured on the corrected card
            continue
        if moment is not None:
            found.append(_choice(table, cards[record.player], moment, record,
                                 saved[record.player]))
        if isinstance(record, ScoreRecord):
            cards[record.player] = cards[record.player].score(record.box, record.dice)
            if game.rules.saved_rolls and moment is not None:  # the rolls left unused
                saved[record.player] += ROLLS_PER_TURN - moment.roll
            moment = None
        else:
            moment = record
    return found


def review(game: Game, table: Table) -> Review:
    """Return the review of *game*'s choices so far, player by player.

    Raises AdvisorError when *table* is of other rules than *game*.
    """
    made = choices(game, table)
    players = tuple(
        PlayerReview(i, name, game.cards[i].grand_total,
                     tuple(c for c in made if c.player == i))
        for i, name in enumerate(game.players)
    )
    return Review(game.rules.name, table.expected_score, players)


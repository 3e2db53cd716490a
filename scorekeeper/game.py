"""Game: players, whose turn, the rolls of each turn, history and undo; Series of games.

A game is an immutable value: its rule set, its players and the list of events
that happened (rolls for the first player, rolls, scores, corrections of earlier
boxes). Everything else — scorecards, whose turn, the roll number, each player's
saved rolls (Maxi Yatzy) — is derived by replaying the events, so undo is
dropping the last event and JSON holds just the events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from scorekeeper.correction import CorrectionError, Turn, correct_turns
from scorekeeper.dice import DICE_COUNT, Dice
from scorekeeper.errors import RulesError
from scorekeeper.events import (
    Correct,
    Event,
    EventFormatError,
    FirstRoll,
    Roll,
    Score,
    event_from_dict,
    event_to_dict,
)
from scorekeeper.gameerrors import GameError as GameError
from scorekeeper.gameerrors import GameFormatError as GameFormatError
from scorekeeper.gameerrors import GameOverError as GameOverError
from scorekeeper.gameerrors import GameSetupError as GameSetupError
from scorekeeper.gameerrors import KeptDiceError as KeptDiceError
from scorekeeper.gameerrors import NoRollError as NoRollError
from scorekeeper.gameerrors import NothingToUndoError as NothingToUndoError
from scorekeeper.gameerrors import PhaseError as PhaseError
from scorekeeper.gameerrors import TooManyRollsError as TooManyRollsError
from scorekeeper.history import FirstRollRecord, HistoryRecord, RollRecord, ScoreRecord
from scorekeeper.players import MAX_NAME_LENGTH as MAX_NAME_LENGTH
from scorekeeper.players import MAX_PLAYERS as MAX_PLAYERS
from scorekeeper.players import clean_players
from scorekeeper.rulesets import RuleSet, ruleset
from scorekeeper.scorecard import Scorecard
from scorekeeper.suggest import Suggestion, suggest

MAX_ROLLS = 3
FORMAT_VERSION = 1

Phase = Literal["first-roll", "play", "over"]


@dataclass(frozen=True)
class _State:
    """What the events add up to."""

    cards: tuple[Scorecard, ...]
    turns: tuple[tuple[Turn, ...], ...]  # per player: each box filled and its dice, in order
    order: tuple[int, ...]
    pending: tuple[int, ...] = ()  # players still to roll for first, in seat order
    round_rolls: tuple[tuple[int, Dice], ...] = ()  # this round of rolling for first
    first_rolls: tuple[tuple[int, Dice], ...] = ()
    turns_done: int = 0
    roll_number: int = 0
    dice: Dice | None = None
    kept: tuple[int, ...] = ()
    saved: tuple[int, ...] = ()  # per seat: rolls saved from earlier turns (Maxi Yatzy)


@dataclass(frozen=True)
class Game:
    """One game of one rule set for 1 to 8 players; every action returns a new Game."""

    rules: RuleSet
    players: tuple[str, ...]
    roll_for_first: bool = False
    events: tuple[Event, ...] = ()
    _state: _State = field(init=False, repr=False, compare=False)
    _log: tuple[HistoryRecord, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", clean_players(self.players))
        state = _State(
            cards=tuple(Scorecard.empty(self.rules) for _ in self.players),
            turns=tuple(() for _ in self.players),
            order=tuple(range(len(self.players))),
            saved=(0,) * len(self.players),
            pending=tuple(range(len(self.players))) if self.roll_for_first else (),
        )
        log: list[HistoryRecord] = []
        for event in self.events:
            state, record = _apply(self, state, event)
            log.append(record)
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_log", tuple(log))

    @classmethod
    def new(
        cls, rules: RuleSet | str, players: Sequence[str], roll_for_first: bool = False
    ) -> Game:
        """Return a new game. Raises GameSetupError or RuleSetError."""
        rules = ruleset(rules) if isinstance(rules, str) else rules
        return cls(rules, tuple(players), roll_for_first)

    # --- actions -----------------------------------------------------------

    def roll(self, dice: Dice, kept: Sequence[int] = ()) -> Game:
        """Record the current player's next roll. Raises a GameError when not allowed."""
        return self._with(Roll(dice, tuple(kept)))

    def throw(self, dice: Dice, kept: Sequence[int] = ()) -> Game:
        """Record the next throw of the dice, whatever the phase: while the first player is
        being decided, the next pending player's roll for first (nothing kept); else
        the current player's next roll. Raises a GameError when not allowed.
        """
        if self.phase == "first-roll":
            if kept:
                raise KeptDiceError(
                    "nothing is kept when rolling for the first player: roll all "
                    f"{_spelled(self.rules)} dice", code=_coded("first_roll_kept", self.rules))
            return self.roll_first(dice)
        return self.roll(dice, kept)

    def correct(self, dice: Dice) -> Game:
        """Replace the dice of the last throw (a misread die): a turn's roll, keeping its
        count and kept dice, or a roll for the first player (ties are decided anew).

        Corrections of earlier boxes made since that throw stay. Raises NoRollError when
        the last action (box corrections aside) was not a throw, or a GameError when the
        new dice do not fit (kept dice that moved).
        """
        at = len(self.events) - 1
        while at >= 0 and isinstance(self.events[at], Correct):
            at -= 1
        last, after = (self.events[at], self.events[at + 1:]) if at >= 0 else (None, ())
        if isinstance(last, Roll):
            return replace(self, events=(*self.events[:at], Roll(dice, last.kept), *after))
        if isinstance(last, FirstRoll):
            return replace(self, events=(*self.events[:at], FirstRoll(dice), *after))
        raise NoRollError("there is no roll to correct: roll the dice first",
                          code="nothing_to_correct")

    def correct_box(
        self, player: int, box: str, dice: Dice, to_box: str | None = None
    ) -> Game:
        """Correct the filled *box* of seat *player*: its turn really ended with *dice*,
        to be scored in *to_box* (the same box when None). Every later entry of that
        player is scored anew; the turns after it stay.

        Raises CorrectionError (an open box, nothing changed, or a later entry that the
        correction makes illegal; the game is then unchanged) or UnknownBoxError.
        """
        return self._with(Correct(player, box, dice, to_box))

    def score(self, box: str) -> Game:
        """Fill *box* of the current player with the current dice and pass the turn."""
        return self._with(Score(box))

    def roll_first(self, dice: Dice) -> Game:
        """Record the next pending player's roll for the first player."""
        return self._with(FirstRoll(dice))

    def undo(self) -> Game:
        """Return the game before the last action. Raises NothingToUndoError at the start."""
        if not self.events:
            raise NothingToUndoError("nothing to undo: the game is at its start",
                                     code="nothing_to_undo")
        return replace(self, events=self.events[:-1])

    def _with(self, event: Event) -> Game:
        """Return the game after *event*, applying that one event to the state (no replay)."""
        state, record = _apply(self, self._state, event)
        game = object.__new__(Game)
        for name, value in (("rules", self.rules), ("players", self.players),
                            ("roll_for_first", self.roll_for_first),
                            ("events", (*self.events, event)), ("_state", state),
                            ("_log", (*self._log, record))):
            object.__setattr__(game, name, value)
        return game

    # --- what the events add up to ----------------------------------------

    @property
    def cards(self) -> tuple[Scorecard, ...]:
        """Every player's scorecard, in seat order."""
        return self._state.cards

    @property
    def phase(self) -> Phase:
        """"first-roll" while deciding who starts, "play", then "over"."""
        if self._state.pending:
            return "first-roll"
        return "over" if self.is_over else "play"

    @property
    def is_over(self) -> bool:
        """True when every box of every player is filled."""
        return self._state.turns_done == len(self.players) * len(self.rules.categories)

    @property
    def order(self) -> tuple[int, ...]:
        """Seat indices in playing order, the first player first."""
        return self._state.order

    @property
    def first_roll_pending(self) -> tuple[int, ...]:
        """Players who still have to roll for first, next one first."""
        return self._state.pending

    @property
    def first_rolls(self) -> tuple[tuple[int, Dice], ...]:
        """Every roll for the first player so far: (player, dice)."""
        return self._state.first_rolls

    @property
    def current_player(self) -> int | None:
        """The seat index of the player whose turn it is, or None when not in play."""
        if self.phase != "play":
            return None
        state = self._state
        return state.order[state.turns_done % len(self.players)]

    @property
    def turn(self) -> int:
        """The round number, 1 to the number of boxes."""
        rounds = len(self.rules.categories)
        return min(self._state.turns_done // len(self.players) + 1, rounds)

    @property
    def roll_number(self) -> int:
        """Rolls made in the current turn, 0 to `max_rolls`."""
        return self._state.roll_number

    @property
    def max_rolls(self) -> int:
        """Rolls the current player may make this turn: three, plus their saved rolls."""
        player = self.current_player
        return MAX_ROLLS + (self._state.saved[player] if player is not None else 0)

    @property
    def rolls_left(self) -> int:
        """Rolls the current player may still make this turn (0 when not in play)."""
        return self.max_rolls - self.roll_number if self.current_player is not None else 0

    @property
    def saved_rolls(self) -> tuple[int, ...]:
        """Each seat's saved rolls not yet spent (always 0 but in Maxi Yatzy): the rolls
        left unused in earlier turns, less those the current player rolled beyond three."""
        state, player = self._state, self.current_player
        if player is None or state.roll_number <= MAX_ROLLS:
            return state.saved
        spent = state.roll_number - MAX_ROLLS
        return (*state.saved[:player], state.saved[player] - spent, *state.saved[player + 1:])

    @property
    def dice(self) -> Dice | None:
        """The dice of the current roll, or None before the first roll of a turn."""
        return self._state.dice

    @property
    def kept(self) -> tuple[int, ...]:
        """Positions of the current dice that were kept from the roll before."""
        return self._state.kept

    @property
    def can_undo(self) -> bool:
        """True when there is an action to undo."""
        return bool(self.events)

    def turns(self, player: int) -> tuple[Turn, ...]:
        """The boxes seat *player* filled, in the order filled, each with its dice."""
        return self._state.turns[player]

    def winners(self) -> tuple[int, ...]:
        """Seat indices of the players with the highest grand total (ties share the win)."""
        totals = [card.grand_total for card in self.cards]
        best = max(totals)
        return tuple(i for i, total in enumerate(totals) if total == best)

    def suggestions(self) -> list[Suggestion]:
        """What the current dice may score for the current player, best first."""
        player = self.current_player
        if player is None or self.dice is None:
            return []
        return suggest(self.cards[player], self.dice)

    def history(self) -> tuple[HistoryRecord, ...]:
        """Every action so far, in order: typed records (`scorekeeper.history`)."""
        return self._log

    # --- serialization -------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict from which `from_dict` rebuilds this game exactly."""
        return {
            "format": FORMAT_VERSION,
            "rules": self.rules.name,
            "players": list(self.players),
            "roll_for_first": self.roll_for_first,
            "events": [event_to_dict(e) for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild and re-check a game from `to_dict` output. Raises GameFormatError."""
        try:
            events = tuple(event_from_dict(e) for e in data["events"])
            return cls(
                ruleset(str(data["rules"])),
                tuple(data["players"]),
                bool(data.get("roll_for_first", False)),
                events,
            )
        except (KeyError, TypeError, AttributeError) as error:
            raise GameFormatError(f"not a saved game: {error!r}") from None
        except EventFormatError as error:
            raise GameFormatError(f"not a saved game: {error}") from None
        except RulesError as error:
            raise GameFormatError(f"saved game does not replay: {error}") from None


# --- replay --------------------------------------------------------------------


def _apply(game: Game, state: _State, event: Event) -> tuple[_State, HistoryRecord]:
    """Return the state after *event*, and its history record. Raises GameError."""
    if isinstance(event, FirstRoll):
        return _apply_first_roll(game.rules, state, event.dice)
    if state.pending:
        raise PhaseError("roll for the first player first: every player rolls all "
                         f"{_spelled(game.rules)} dice",
                         code=_coded("first_player_pending", game.rules))
    if isinstance(event, Correct):
        return _apply_correct(game, state, event)
    if state.turns_done == len(game.players) * len(game.rules.categories):
        raise GameOverError("the game is over: every box is filled", code="game_over")
    player = state.order[state.turns_done % len(game.players)]
    if isinstance(event, Roll):
        record = RollRecord(player, event.dice, event.kept, state.roll_number + 1)
        return _apply_roll(game.rules, state, player, event), record
    return _apply_score(game.rules, state, player, event.box)


def _spelled(rules: RuleSet) -> str:
    """Return how many dice a roll of *rules* shows, in English words: "five"."""
    return {5: "five", 6: "six"}.get(rules.dice_count, str(rules.dice_count))


def _coded(code: str, rules: RuleSet) -> str:
    """Return the code of a message that names the dice count: *code* for five dice; for
    six, "five" in it made "six", or ``_six`` added (its own words in every language)."""
    if rules.dice_count == DICE_COUNT:
        return code
    return code.replace("five", "six") if "five" in code else f"{code}_six"


def _apply_roll(rules: RuleSet, state: _State, player: int, event: Roll) -> _State:
    if len(event.dice) != rules.dice_count:
        raise KeptDiceError(f"a roll shows {_spelled(rules)} dice, got {event.dice}",
                            code=_coded("roll_five", rules), dice=event.dice.values)
    saved = state.saved[player]
    if state.roll_number >= MAX_ROLLS + saved:
        if saved:
            raise TooManyRollsError(
                f"only {MAX_ROLLS + saved} rolls this turn ({MAX_ROLLS} and {saved} saved): "
                "choose a box to score", code="too_many_rolls_saved", most=MAX_ROLLS + saved,
                saved=saved)
        raise TooManyRollsError(f"only {MAX_ROLLS} rolls a turn: choose a box to score",
                                code="too_many_rolls", most=MAX_ROLLS)
    _check_kept(rules, state.dice, event)
    return replace(state, roll_number=state.roll_number + 1, dice=event.dice, kept=event.kept)


def _check_kept(rules: RuleSet, previous: Dice | None, event: Roll) -> None:
    if not event.kept:
        return
    if previous is None:
        raise KeptDiceError("nothing can be kept on the first roll of a turn",
                            code="kept_first_roll")
    last = rules.dice_count - 1
    if len(set(event.kept)) != len(event.kept) or not all(0 <= i <= last for i in event.kept):
        raise KeptDiceError(
            f"kept dice are positions 0..{last}, each once, got "
            f"{' '.join(map(str, event.kept))}",
            code=_coded("kept_positions", rules), positions=event.kept)
    for i in event.kept:
        if event.dice.values[i] != previous.values[i]:
            raise KeptDiceError(
                f"die {i + 1} was kept at {previous.values[i]} but shows {event.dice.values[i]}",
                code="kept_changed", die=i + 1, kept=previous.values[i],
                shows=event.dice.values[i],
            )


def _apply_score(rules: RuleSet, state: _State, player: int, box: str
                 ) -> tuple[_State, ScoreRecord]:
    if state.dice is None:
        raise NoRollError("roll the dice before scoring a box", code="roll_before_scoring")
    card = state.cards[player]
    new_card = card.score(box, state.dice)
    cards = (*state.cards[:player], new_card, *state.cards[player + 1 :])
    turns = (*state.turns[:player], (*state.turns[player], (box, state.dice)),
             *state.turns[player + 1 :])
    points = new_card.box(box)
    assert points is not None  # just filled
    record = ScoreRecord(player, state.dice, box, points,
                         new_card.yahtzee_bonus - card.yahtzee_bonus)
    saved = state.saved
    if rules.saved_rolls:  # the rolls left unused are saved for the player's later turns
        left = saved[player] + MAX_ROLLS - state.roll_number
        saved = (*saved[:player], left, *saved[player + 1:])
    after = replace(state, cards=cards, turns=turns, turns_done=state.turns_done + 1, roll_number=0,
                    dice=None, kept=(), saved=saved)
    return after, record


def _apply_correct(game: Game, state: _State, event: Correct) -> tuple[_State, HistoryRecord]:
    player = event.player
    if not 0 <= player < len(game.players):
        raise CorrectionError(
            f"no player {player}: seats are 0 to {len(game.players) - 1}",
            code="correction_player", player=player, last=len(game.players) - 1)
    turns, card, record = correct_turns(game.rules, game.players[player],
                                        state.turns[player], state.cards[player], event)
    return replace(state, cards=(*state.cards[:player], card, *state.cards[player + 1 :]),
                   turns=(*state.turns[:player], turns, *state.turns[player + 1 :])), record


def _apply_first_roll(rules: RuleSet, state: _State, dice: Dice
                      ) -> tuple[_State, FirstRollRecord]:
    if not state.pending:
        raise PhaseError("the first player is already decided", code="first_decided")
    if len(dice) != rules.dice_count:
        raise KeptDiceError(f"roll all {_spelled(rules)} dice for first, got {dice}",
                            code=_coded("first_five", rules), dice=dice.values)
    player, *rest = state.pending
    round_rolls = (*state.round_rolls, (player, dice))
    state = replace(state, first_rolls=(*state.first_rolls, (player, dice)))
    record = FirstRollRecord(player, dice)
    if rest:
        return replace(state, pending=tuple(rest), round_rolls=round_rolls), record
    best = max(d.total for _, d in round_rolls)
    tied = tuple(p for p, d in round_rolls if d.total == best)
    if len(tied) > 1:  # the tied players roll again
        return replace(state, pending=tied, round_rolls=()), record
    seats = len(state.order)
    order = tuple((tied[0] + k) % seats for k in range(seats))  # play passes to the left
    return replace(state, pending=(), round_rolls=(), order=order), record


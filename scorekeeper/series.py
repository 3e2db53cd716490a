"""Series: up to six games by the same players, like the paper pad's Game #1 … #6 columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.game import Game, GameError, GameFormatError
from scorekeeper.rulesets import RuleSet

MAX_GAMES = 6


class SeriesError(GameError):
    """Play again before the game is over, or after the sixth game."""


class GameNotOverError(SeriesError):
    """Play again while the current game is still being played."""


@dataclass(frozen=True)
class Series:
    """The games played so far in one series, the current one last."""

    games: tuple[Game, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.games) <= MAX_GAMES:
            raise SeriesError(f"a series has 1 to {MAX_GAMES} games, got {len(self.games)}")
        first = self.games[0]
        for game in self.games[1:]:
            if (game.rules, game.players) != (first.rules, first.players):
                raise SeriesError("every game of a series has the same rules and players")
        for game in self.games[:-1]:
            if not game.is_over:
                raise SeriesError("only the last game of a series may be unfinished")

    @classmethod
    def new(
        cls, rules: RuleSet | str, players: Sequence[str], roll_for_first: bool = False
    ) -> Series:
        """Return a series holding one new game. Raises GameSetupError or RuleSetError."""
        return cls((Game.new(rules, players, roll_for_first),))

    @property
    def current(self) -> Game:
        """The game being played (the last one)."""
        return self.games[-1]

    @property
    def number(self) -> int:
        """The current game's number, 1 to 6 (the pad's column)."""
        return len(self.games)

    def with_current(self, game: Game) -> Series:
        """Return the series with its current game replaced by *game* (after an action)."""
        return Series((*self.games[:-1], game))

    def play_again(self) -> Series:
        """Return the series with a new game appended. Raises SeriesError when not allowed."""
        if not self.current.is_over:
            raise GameNotOverError(
                "the current game is not over yet: finish the current game before playing again",
                code="game_not_over")
        if self.number >= MAX_GAMES:
            raise SeriesError(f"a score pad holds {MAX_GAMES} games: start a new series",
                              code="pad_full", most=MAX_GAMES)
        game = self.current
        return Series((*self.games, Game(game.rules, game.players, game.roll_for_first)))

    def totals(self) -> tuple[int, ...]:
        """Each player's grand totals added over the games of the series."""
        return tuple(
            sum(game.cards[i].grand_total for game in self.games)
            for i in range(len(self.current.players))
        )

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict from which `from_dict` rebuilds this series."""
        return {"games": [game.to_dict() for game in self.games]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Series:
        """Rebuild a series from `to_dict` output. Raises GameFormatError or SeriesError."""
        try:
            return cls(tuple(Game.from_dict(g) for g in data["games"]))
        except (KeyError, TypeError) as error:
            raise GameFormatError(f"not a saved series: {error!r}") from None

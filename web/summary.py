"""What the game list and the statistics need of a series, computed once per change.

`summarize` returns plain JSON data; the store writes it beside the series, so
listing thousands of games or counting wins reads these small columns only.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.game import Game
from scorekeeper.series import Series


def winners(game: Game) -> list[int]:
    """Return the seats of the winners of a finished game ([] while it is played)."""
    return list(game.winners()) if game.is_over else []


def yahtzees(game: Game, seat: int) -> int:
    """Return the Yahtzees a player scored: 50 in the five-alike box plus the bonus checks."""
    card = game.cards[seat]
    full = game.rules.category(game.rules.five_alike_slug).max_points
    return int(card.box(game.rules.five_alike_slug) == full) + card.bonus_checks


def result(game: Game) -> dict[str, Any]:
    """Return a finished game's grand totals, winners and Yahtzees, per seat."""
    return {
        "totals": [card.grand_total for card in game.cards],
        "winners": winners(game),
        "yahtzees": [yahtzees(game, seat) for seat in range(len(game.players))],
    }


def position(game: Game) -> dict[str, Any]:
    """Return where a game stands: rules, players, phase, winners, whose turn, which round."""
    return {
        "rules": game.rules.name,
        "players": list(game.players),
        "phase": game.phase,
        "finished": game.is_over,
        "winners": winners(game),
        "current_player": game.current_player,
        "turn": game.turn,
    }


def summarize(series: Series) -> dict[str, Any]:
    """Return the series as the game list shows it."""
    game = series.current
    return {
        **position(game),
        "totals": [card.grand_total for card in game.cards],
        "game_number": series.number,
        "series_totals": list(series.totals()),
    }

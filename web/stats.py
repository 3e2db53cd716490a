"""Statistics per player over every finished game that is stored."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.game import Game
from web.store import Record


@dataclass
class PlayerStats:
    """What one player did in the finished games (names compared case-insensitively)."""

    name: str
    totals: list[int] = field(default_factory=list)
    wins: int = 0
    yahtzees: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Return name, games, wins, average (1 decimal), best and Yahtzees scored."""
        games = len(self.totals)
        return {
            "player": self.name,
            "games": games,
            "wins": self.wins,
            "average": round(sum(self.totals) / games, 1) if games else None,
            "best": max(self.totals, default=None),
            "yahtzees": self.yahtzees,
        }


def _yahtzees(game: Game, seat: int) -> int:
    """Yahtzees the player scored: 50 in the Yahtzee (Yacht) box plus the bonus checks."""
    card = game.cards[seat]
    full = game.rules.category(game.rules.five_alike_slug).max_points
    return int(card.box(game.rules.five_alike_slug) == full) + card.bonus_checks


def player_stats(records: Iterable[Record]) -> list[dict[str, Any]]:
    """Return each player's statistics over every finished game, most wins first."""
    players: dict[str, PlayerStats] = {}
    for record in records:
        for game in record.series.games:
            if not game.is_over:
                continue
            winners = game.winners()
            for seat, name in enumerate(game.players):
                stats = players.setdefault(name.casefold(), PlayerStats(name))
                stats.totals.append(game.cards[seat].grand_total)
                stats.wins += seat in winners
                stats.yahtzees += _yahtzees(game, seat)
    ranked = sorted(players.values(), key=lambda s: (-s.wins, -len(s.totals), s.name.casefold()))
    return [s.to_dict() for s in ranked]

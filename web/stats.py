"""Statistics per player over every finished game that is stored."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


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


def player_stats(
    series: Iterable[tuple[list[str], list[dict[str, Any]]]],
) -> list[dict[str, Any]]:
    """Return each player's statistics over every finished game, most wins first.

    *series* holds each series' players and the results of its finished games
    (`web.summary.result`, as `web.store.finished_results` reads them).
    """
    players: dict[str, PlayerStats] = {}
    for names, results in series:
        for result in results:
            for seat, name in enumerate(names):
                stats = players.setdefault(name.casefold(), PlayerStats(name))
                stats.totals.append(result["totals"][seat])
                stats.wins += seat in result["winners"]
                stats.yahtzees += result["yahtzees"][seat]
    ranked = sorted(players.values(), key=lambda s: (-s.wins, -len(s.totals), s.name.casefold()))
    return [s.to_dict() for s in ranked]

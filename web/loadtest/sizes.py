"""How much load each scenario makes, and how long each may take."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Sizes:
    """Counts and time bounds of a run; `QUICK` is a smoke test, `DEFAULT` the full load.

    Tables start *table_gap* seconds apart, and each table's devices join within
    *arrival_seconds* of its start, as players arrive at a club night.
    """

    tables: int = 16
    devices: int = 9
    players: int = 2
    think_min: float = 0.2
    think_max: float = 0.4
    table_gap: float = 0.25
    arrival_seconds: float = 2.0
    table_seconds: float = 120.0
    stream_open_seconds: float = 15.0
    churn: int = 200
    churn_seconds: float = 30.0
    settle_seconds: float = 2.5
    slowloris: int = 100
    slowloris_seconds: float = 10.0
    slow_requests: int = 50
    writers: int = 64
    writer_games: int = 8
    writes: int = 5
    writer_seconds: float = 60.0
    list_games: int = 5000
    list_requests: int = 20
    seed_connections: int = 16
    seed_seconds: float = 120.0
    list_seconds: float = 60.0
    series_players: int = 8
    watchers: int = 100
    cost_seconds: float = 120.0
    stalled: int = 100  # stalled bodies, and as many trickling ones
    stall_seconds: float = 5.0
    heavy_images: int = 3
    heavy_side: int = 7000
    heavy_seconds: float = 60.0
    guesses: int = 30
    guess_creates: int = 35
    timeout: float = 10.0
    seed: int = 1


DEFAULT = Sizes()
QUICK = Sizes(
    tables=2, devices=3, players=1, think_min=0.01, think_max=0.03, table_gap=0.05,
    arrival_seconds=0.2, table_seconds=30.0,
    stream_open_seconds=10.0, churn=20, churn_seconds=15.0, settle_seconds=2.0, slowloris=10,
    slowloris_seconds=2.0, slow_requests=10, writers=8, writer_games=2, writes=3,
    writer_seconds=20.0, list_games=50, list_requests=5, seed_connections=4, seed_seconds=20.0,
    list_seconds=20.0, series_players=1, watchers=5, cost_seconds=30.0, stalled=10,
    stall_seconds=2.0, heavy_images=2, heavy_side=3000, guesses=15, guess_creates=32,
)

"""Benchmark of the advisor: `python -m scorekeeper.advisor.bench [--all]`.

Prints the time to solve `yahtzee` from scratch, the peak memory of the process,
the time to load the cached table, and the time of one `advise` query; with
``--all``, the expected score of every rule set. Targets: solve <= 10 s, load
<= 0.5 s, advise <= 20 ms, memory < 2 GB. Uses a temporary cache folder.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import tempfile
import time

from scorekeeper.advisor.advise import advise
from scorekeeper.advisor.cache import CACHE_ENV, load, save
from scorekeeper.advisor.ruletables import rule_tables
from scorekeeper.advisor.solver import Table, build
from scorekeeper.dice import Dice
from scorekeeper.rulesets import RULESET_NAMES, ruleset
from scorekeeper.scorecard import Scorecard


def _peak_mib() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _random_position(table: Table, rng: random.Random) -> tuple[Scorecard, Dice, int]:
    """Return a card part-way through a game played by random legal choices, dice and a roll."""
    card = Scorecard.empty(table.rules)
    for _turn in range(rng.randrange(len(table.rules.categories))):
        dice = Dice.of(rng.randint(1, 6) for _ in range(5))
        card = card.score(rng.choice(card.legal_boxes(dice)), dice)
    return card, Dice.of(rng.randint(1, 6) for _ in range(5)), rng.randint(1, 3)


def bench_advise(table: Table, queries: int = 200) -> float:
    """Return the median time of one `advise` query on random positions, in milliseconds."""
    rng = random.Random(5)
    positions = [_random_position(table, rng) for _ in range(queries)]
    times = []
    for card, dice, roll in positions:
        start = time.perf_counter()
        advise(table, card, dice, roll)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per figure; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also solve every rule set")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE_ENV] = folder
        rules = ruleset("yahtzee")
        start, cpu = time.perf_counter(), time.process_time()
        table = build(rules)
        print(f"solve yahtzee: {time.perf_counter() - start:.2f} s (target <= 10 s; "
              f"{time.process_time() - cpu:.2f} s of CPU), "
              f"expected score {table.expected_score:.7f}")
        print(f"peak memory: {_peak_mib():.0f} MiB (target < 2048 MiB)")
        save(table)
        rule_tables.cache_clear()  # load as a fresh process would
        start = time.perf_counter()
        loaded = load(rules)
        print(f"load cached table: {time.perf_counter() - start:.3f} s (target <= 0.5 s)")
        assert loaded is not None
        print(f"advise query: {bench_advise(loaded):.2f} ms median (target <= 20 ms)")
    if args.all:
        for name in RULESET_NAMES:
            start = time.perf_counter()
            value = build(name).expected_score
            print(f"{name:<32} {value:.7f}  ({time.perf_counter() - start:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

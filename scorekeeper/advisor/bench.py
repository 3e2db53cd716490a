"""Benchmark of the advisor: `python -m scorekeeper.advisor.bench [--all]`.

Prints the time to solve `yahtzee` from scratch and the peak memory of that build
(traced allocations and the growth of the resident set), the time to load the
cached table, the time to evaluate every keep of a roll for the current card
("all options", `keep_choices`: median and best over many positions, each timed
three times and its best kept) and the time of one whole `advise` query (which
also builds an `Option` per choice and checks the boxes); with ``--all``, the
expected score of every rule set. Targets: solve <= 10 s, build peak <= 25 MiB,
load <= 0.5 s, all options <= 0.07 ms (within 5x of a Rust peer's 0.014 ms),
advise <= 20 ms. Uses a temporary cache folder.
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
import tracemalloc
from collections.abc import Callable
from functools import partial

from scorekeeper.advisor.advise import advise, keep_choices
from scorekeeper.advisor.cache import CACHE_ENV, load, save
from scorekeeper.advisor.ruletables import rule_tables
from scorekeeper.advisor.solver import Table, build
from scorekeeper.dice import Dice
from scorekeeper.rulesets import RULESET_NAMES, RuleSet, ruleset
from scorekeeper.scorecard import Scorecard

MIB = 1024 * 1024
Position = tuple[Scorecard, Dice, int]


def _rss_mib() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / MIB if sys.platform == "darwin" else peak / 1024


def _random_position(table: Table, rng: random.Random) -> Position:
    """Return a card part-way through a game played by random legal choices, dice and a roll."""
    card = Scorecard.empty(table.rules)
    for _turn in range(rng.randrange(len(table.rules.categories))):
        dice = Dice.of(rng.randint(1, 6) for _ in range(5))
        card = card.score(rng.choice(card.legal_boxes(dice)), dice)
    return card, Dice.of(rng.randint(1, 6) for _ in range(5)), rng.randint(1, 3)


def _positions(table: Table, count: int, seed: int = 5) -> list[Position]:
    rng = random.Random(seed)
    return [_random_position(table, rng) for _ in range(count)]


def _best_of(query: Callable[[], object], repeat: int = 3) -> float:
    """Return the best of *repeat* timings of *query*, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        query()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_all_options(table: Table, positions: int = 1000) -> tuple[float, float]:
    """Return (median, best) time in milliseconds to evaluate every keep of a roll.

    The evaluation only (`keep_choices`): the expected score of each keep, as an array.
    """
    chosen = [(card, dice, 1 + i % 2)  # rolls 1 and 2 alike: after roll 3 there is no keep
              for i, (card, dice, _roll) in enumerate(_positions(table, positions))]
    keep_choices(table, *chosen[0])  # first use builds the shared arrays
    times = [_best_of(partial(keep_choices, table, *p)) for p in chosen]
    return 1000 * statistics.median(times), 1000 * min(times)


def bench_advise(table: Table, queries: int = 200) -> float:
    """Return the median time of one `advise` query on random positions, in milliseconds."""
    times = [_best_of(partial(advise, table, *p)) for p in _positions(table, queries)]
    return 1000 * statistics.median(times)


def build_peak(rules: RuleSet) -> float:
    """Return the peak of traced allocations while solving *rules* (rule arrays made), MiB."""
    rule_tables(rules)
    tracemalloc.start()
    try:
        build(rules)
        return tracemalloc.get_traced_memory()[1] / MIB
    finally:
        tracemalloc.stop()


def _print_solve(rules: RuleSet) -> Table:
    before = _rss_mib()
    start, cpu = time.perf_counter(), time.process_time()
    table = build(rules)
    print(f"solve {rules.name}: {time.perf_counter() - start:.2f} s (target <= 10 s; "
          f"{time.process_time() - cpu:.2f} s of CPU), "
          f"expected score {table.expected_score:.7f}")
    print(f"build memory: resident set grew {_rss_mib() - before:.1f} MiB "
          f"(process peak {_rss_mib():.0f} MiB)")
    print(f"build peak (tracemalloc): {build_peak(rules):.1f} MiB (target <= 25 MiB)")
    return table


def _machine() -> str:
    """Return the CPU count and load average: timings stretch when others share the CPUs."""
    load = f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "load unknown"
    return f"machine: {os.cpu_count()} CPUs, {load} (timings stretch when the CPUs are shared)"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per figure; return 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="also solve every rule set")
    args = parser.parse_args(argv)
    print(_machine())
    with tempfile.TemporaryDirectory() as folder:
        os.environ[CACHE_ENV] = folder
        rules = ruleset("yahtzee")
        save(_print_solve(rules))
        rule_tables.cache_clear()  # load as a fresh process would
        start = time.perf_counter()
        loaded = load(rules)
        print(f"load cached table: {time.perf_counter() - start:.3f} s (target <= 0.5 s)")
        assert loaded is not None
        median, best = bench_all_options(loaded)
        print(f"all options (every keep of a roll evaluated): {median:.3f} ms median, "
              f"{best:.3f} ms best "
              "(target <= 0.07 ms; a Rust peer 0.014 ms)")
        print(f"advise query: {bench_advise(loaded):.2f} ms median (target <= 20 ms)")
    if args.all:
        for name in RULESET_NAMES:
            start = time.perf_counter()
            value = build(name).expected_score
            print(f"{name:<32} {value:.7f}  ({time.perf_counter() - start:.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark of the advisor: `python -m scorekeeper.advisor.bench [--all]`.

Prints the time to solve `yahtzee` from scratch and the peak memory of that build
(traced allocations and the growth of the resident set), the time to load the
cached table, the time to evaluate every keep of a roll for the current card
("all options", `keep_choices`: median and best over many positions, each timed
three times and its best kept) and the time of one whole `advise` query (which
also builds an `Option` per choice and checks the boxes). Targets: solve <= 10 s,
build peak <= 25 MiB, load <= 0.5 s, all options <= 0.07 ms (within 5x of a Rust
peer's 0.014 ms), advise <= 20 ms. Uses a temporary cache folder.

Then every rule set beside the reference solver yatzy-solver in the same run
(`bench_reference`): build time, query time and expected score of each. Maxi Yatzy's
whole table (about 17 minutes on 2 shared cores) is built only with ``--all``;
otherwise it is loaded from the user's cache when there (`pipkeeper solve --rules
maxi-yatzy` puts it there) and queried.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from functools import partial

from scorekeeper.advisor import bench_reference as reference
from scorekeeper.advisor.advise import advise, keep_choices
from scorekeeper.advisor.bench_reference import best_of
from scorekeeper.advisor.bench_reference import positions as draw
from scorekeeper.advisor.cache import CACHE_ENV, load, save
from scorekeeper.advisor.ruletables import rule_tables
from scorekeeper.advisor.solver import Table, build
from scorekeeper.rulesets import RULESET_NAMES, RuleSet, ruleset

MIB = 1024 * 1024
FULL_MAXI = "maxi-yatzy"  # built by the bench only with --all


def _rss_mib() -> float:
    """Peak resident memory of this process so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / MIB if sys.platform == "darwin" else peak / 1024


def bench_all_options(table: Table, positions: int = 1000) -> tuple[float, float]:
    """Return (median, best) time in milliseconds to evaluate every keep of a roll.

    The evaluation only (`keep_choices`): the expected score of each keep, as an array.
    """
    chosen = [(card, dice, 1 + i % 2)  # rolls 1 and 2 alike: after roll 3 there is no keep
              for i, (card, dice, _roll) in enumerate(draw(table.rules, positions))]
    keep_choices(table, *chosen[0])  # first use builds the shared arrays
    times = [best_of(partial(keep_choices, table, *p)) for p in chosen]
    return 1000 * statistics.median(times), 1000 * min(times)


def bench_advise(table: Table, queries: int = 200) -> float:
    """Return the median time of one `advise` query on random positions, in milliseconds."""
    times = [best_of(partial(advise, table, *p)) for p in draw(table.rules, queries)]
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
    parser.add_argument("--all", action="store_true",
                        help="build Maxi Yatzy's whole table too (minutes)")
    args = parser.parse_args(argv)
    print(_machine())
    user_cache = os.environ.get(CACHE_ENV)
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
    if user_cache is None:
        del os.environ[CACHE_ENV]
    else:
        os.environ[CACHE_ENV] = user_cache
    compare(build_maxi=args.all)
    return 0


def _ours(name: str, build_maxi: bool, count: int) -> reference.Figures | None:
    """Return our figures for *name*; Maxi Yatzy's whole table from the user's cache unless
    *build_maxi* (None when it is not there)."""
    if name != FULL_MAXI or build_maxi:
        return reference.ours(name, count)
    start = time.perf_counter()
    table = load(name)
    if table is None:
        return None
    print(f"{name}: loaded from the cache in {time.perf_counter() - start:.1f} s")
    return reference.ours(name, count, table)


def compare(build_maxi: bool = False, count: int = 200) -> None:
    """Print every rule set's build time, query time and expected score beside the
    reference solver's (see `bench_reference`)."""
    module, about = reference.reference_module()
    print(f"every rule set beside the reference solver: {about} (it builds on every core, "
          f"we on two; a query: every choice of one position valued, median of {count})")
    print(reference.HEADER)
    for name in RULESET_NAMES:
        mine = _ours(name, build_maxi, count)
        if mine is None:
            print(f"{name:<22} not built: not in the cache (`pipkeeper solve --rules {name}`, "
                  "or --all)")
            continue
        theirs = None
        if module is not None and name in reference.REFERENCE:
            theirs = reference.theirs(module, name, count)
        print(reference.row(name, mine, theirs), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())

"""The advisor beside the reference solver yatzy-solver (PyPI, Rust), rule set by rule set.

For every rule set: the time to build its table from scratch, the median time of one
query (every choice of a position valued: `advise` here, ``option_values`` there, on
the same positions, each timed three times and its best kept) and the expected score,
ours beside the reference's where it has the rule set (Yahtzee with a free or a forced
Joker, Scandinavian Yatzy and its variants, boxes in order in Yatzy; not Yacht, Maxi
Yatzy or the other orders). The reference is not a dependency of pipkeeper: `make bench`
installs it into ``build/bench-deps`` and puts that folder on PYTHONPATH; without it
only our own figures are printed, with the reason.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from types import ModuleType
from typing import Any

from scorekeeper.advisor.advise import advise
from scorekeeper.advisor.solver import Table, build
from scorekeeper.dice import Dice
from scorekeeper.rulesets import RuleSet, ruleset
from scorekeeper.scorecard import Scorecard

REFERENCE_PACKAGE = "yatzy-solver==1.0.0"
REFERENCE: dict[str, str] = {  # our rule set: the reference's variant of the same rules
    "yahtzee": "american+forced-joker",
    "yahtzee+free-joker": "american",
    "yatzy": "yatzy-scandinavian",
    "yatzy+fh5": "yatzy-scandinavian+fh5",
    "yatzy+tp4": "yatzy-scandinavian+tp4",
    "yatzy+fh5+tp4": "yatzy-scandinavian+fh5+tp4",
    "yatzy+in-order": "yatzy-scandinavian+forced",
}
_THEIR_SLUGS = {"aces": "ones", "yahtzee": "five_of_a_kind"}  # the American boxes
Position = tuple[Scorecard, Dice, int]


def best_of(query: Callable[[], object], repeat: int = 3) -> float:
    """Return the best of *repeat* timings of *query*, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        query()
        times.append(time.perf_counter() - start)
    return min(times)


def _random_position(rules: RuleSet, rng: random.Random) -> Position:
    """Return a card part-way through a game played by random legal choices, dice and a roll."""
    count = rules.dice_count
    card = Scorecard.empty(rules)
    for _turn in range(rng.randrange(len(rules.categories))):
        dice = Dice.of((rng.randint(1, 6) for _ in range(count)), count=count)
        card = card.score(rng.choice(card.legal_boxes(dice)), dice)
    dice = Dice.of((rng.randint(1, 6) for _ in range(count)), count=count)
    return card, dice, rng.randint(1, 3)


def positions(rules: RuleSet, count: int, seed: int = 5) -> list[Position]:
    """Return *count* random positions of a game of *rules* (seeded)."""
    rng = random.Random(seed)
    return [_random_position(rules, rng) for _ in range(count)]


def situation(position: Position) -> str:
    """Return *position* in the reference's notation, e.g.
    ``dice 1 3 3 5 6 | rolls 2 | upper 12 | filled threes,chance``."""
    card, dice, roll = position
    filled = [_THEIR_SLUGS.get(slug, slug) for slug in card.rules.slugs
              if card.box(slug) is not None]
    shown = " ".join(map(str, sorted(dice.values)))
    text = (f"dice {shown} | rolls {3 - roll} | upper {card.upper_subtotal} | "
            f"filled {','.join(filled) or '-'}")
    five = card.rules.five_alike_slug
    if card.rules.five_alike_bonus and card.box(five) is not None:
        text += f" | {_THEIR_SLUGS.get(five, five)} {card.box(five)}"
    return text


@dataclass(frozen=True)
class Figures:
    """One solver's figures for one rule set."""

    build_s: float | None  # None: loaded, not built
    query_ms: float
    expected: float


def ours(name: str, count: int, table: Table | None = None) -> Figures:
    """Return our figures for rule set *name* (built unless *table* is given)."""
    start = time.perf_counter()
    built = build(name) if table is None else table
    build_s = time.perf_counter() - start if table is None else None
    times = [best_of(partial(advise, built, *p)) for p in positions(built.rules, count)]
    return Figures(build_s, 1000 * statistics.median(times), built.expected_score)


def theirs(reference: ModuleType, name: str, count: int) -> Figures:
    """Return the reference's figures for our rule set *name* (see REFERENCE)."""
    start = time.perf_counter()
    solver: Any = reference.Solver.build(reference.Variant(REFERENCE[name]))
    build_s = time.perf_counter() - start
    spots = positions(ruleset(name), count)
    times = [best_of(partial(solver.option_values, situation(p))) for p in spots]
    expected = float(solver.state_value("upper 0 | filled -"))
    return Figures(build_s, 1000 * statistics.median(times), expected)


def reference_module() -> tuple[ModuleType | None, str]:
    """Return the reference package, or None and why it is missing."""
    try:
        import yatzy_solver  # a bench-only install (see the module docstring)
    except ImportError as error:
        return None, (f"{REFERENCE_PACKAGE} is not installed ({error}); `make bench` "
                      "installs it into build/bench-deps")
    return yatzy_solver, f"yatzy-solver {yatzy_solver.__version__}"


def _cell(value: float | None, unit: str, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f} {unit}"


def row(name: str, mine: Figures, reference: Figures | None) -> str:
    """Return one line of the comparison table."""
    built = _cell(mine.build_s, "s") if mine.build_s is not None else "loaded"
    line = (f"{name:<22} {built:>10} {_cell(mine.query_ms, 'ms', 3):>10} "
            f"{mine.expected:>12.7f}")
    if reference is None:
        return line + f"  {'-':>10} {'-':>10} {'-':>12}"
    return line + (f"  {_cell(reference.build_s, 's'):>10} "
                   f"{_cell(reference.query_ms, 'ms', 3):>10} {reference.expected:>12.7f}")


HEADER = (f"{'rule set':<22} {'build':>10} {'query':>10} {'expected':>12}  "
          f"{'ref build':>10} {'ref query':>10} {'ref expected':>12}")

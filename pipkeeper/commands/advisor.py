"""Sub-commands of the optimal-play advisor: `solve` (a rule set's table) and `advise` (a roll).

numpy and the advisor are imported inside the handlers, so that other commands start fast.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from pipkeeper.commands.rules import read_file
from scorekeeper import RULESET_NAMES, Dice, RuleSet, Scorecard, ruleset

if TYPE_CHECKING:
    from scorekeeper.advisor import Option, Table
    from scorekeeper.advisor.solver import Progress


def register(subparsers: Any) -> None:
    """Add the `solve` and `advise` sub-commands to *subparsers*."""
    solve = subparsers.add_parser(
        "solve", help="solve a rule set for optimal solitaire play (or load it from the cache)"
    )
    _add_rules_option(solve)
    solve.add_argument(
        "--rebuild", action="store_true", help="solve again even if a cached table exists"
    )
    solve.set_defaults(handler=run_solve)

    advise = subparsers.add_parser(
        "advise", help="every choice for a roll, with its expected final score and loss"
    )
    _add_rules_option(advise)
    advise.add_argument(
        "--card", metavar="PAD_FILE", help="the card so far: a .json file, or a pad .csv"
    )
    advise.add_argument(
        "--roll", type=int, required=True, choices=(1, 2, 3), metavar="N",
        help="which roll of the turn the dice are (1, 2 or 3)",
    )
    advise.add_argument(
        "--rolls-left", type=int, metavar="N",
        help="rolls still to come this turn (default 3 - roll; more with saved rolls)",
    )
    advise.add_argument("--json", action="store_true", help="print one JSON object")
    advise.add_argument("dice", nargs="+", metavar="DICE",
                        help="five dice (six in Maxi Yatzy): 6 6 4 6 6 or 66466")
    advise.set_defaults(handler=run_advise)


def _add_rules_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules", default="yahtzee", metavar="NAME",
        help=f"{', '.join(RULESET_NAMES)} (default yahtzee)",
    )


# --- solve -----------------------------------------------------------------------


def run_solve(args: argparse.Namespace) -> int:
    """Build or load the table of *args.rules*; print the time and, last, the expected score.

    A build shows its progress on stderr. Raises RuleSetError for an unknown rule set.
    """
    from scorekeeper.advisor import build, cache_path, load, save

    rules = ruleset(args.rules)
    start = time.perf_counter()
    table = None if args.rebuild else load(rules)
    if table is not None:
        print(f"loaded {rules.name} from {cache_path(rules)} in {_since(start)}")
    else:
        bar = ProgressBar(sys.stderr)
        table = build(rules, bar)
        bar.close()
        print(f"solved {rules.name} in {_since(start)}")
        try:
            print(f"saved to {save(table)}")
        except OSError as error:
            print(f"not cached: {error}", file=sys.stderr)
    print(f"expected score {table.expected_score:.7f}")
    return 0


def _since(start: float) -> str:
    return f"{time.perf_counter() - start:.2f} s"


class ProgressBar:
    """A build's progress on *stream*: rewritten in place on a terminal, else one line
    every *every* seconds (a log file)."""

    def __init__(self, stream: TextIO, every: float = 30.0) -> None:
        self._stream = stream
        self._live = stream.isatty()
        self._every = 0.5 if self._live else every
        self._shown = -self._every
        self._drawn = False

    def __call__(self, progress: Progress) -> None:
        """Show *progress* unless the last line is younger than the interval."""
        if progress.seconds - self._shown < self._every and progress.done < progress.total:
            return
        self._shown = progress.seconds
        end = "\r" if self._live else "\n"
        self._stream.write(progress.describe() + end)
        self._stream.flush()
        self._drawn = True

    def close(self) -> None:
        """End a bar drawn in place with a new line."""
        if self._live and self._drawn:
            self._stream.write("\n")
            self._stream.flush()


# --- advise ----------------------------------------------------------------------


def run_advise(args: argparse.Namespace) -> int:
    """Print every choice for the dice of *args* on the card, best first.

    Raises RuleSetError, DiceError, PadFormatError (a card file that cannot be read),
    CardFileError, AdvisorError or UnreachableCardError (all RulesError).
    """
    from scorekeeper.advisor import advise

    rules = ruleset(args.rules)
    dice = Dice.parse(" ".join(args.dice), count=rules.dice_count)
    card = read_card(rules, args.card) if args.card else Scorecard.empty(rules)
    table = _table(rules, quiet=args.json)
    options = advise(table, card, dice, args.roll, args.rolls_left)
    if args.json:
        print(json.dumps(_report(table, card, dice, args.roll, options)))
    else:
        _print_options(table, card, dice, args.roll, options)
    return 0


def read_card(rules: RuleSet, path: str) -> Scorecard:
    """Return the card in the file *path*: JSON (see scorekeeper.advisor.cards), or a
    paper-pad CSV (see scorekeeper.audit) when the name ends in .csv; read as
    `pipkeeper check` reads a pad, and refused when no game reaches it.

    Raises PadFormatError when the file cannot be read, CardFileError (a
    PadFormatError) when it is not a card of *rules*, RuleSetError for bad rules.
    """
    from scorekeeper.advisor.cards import card_from_file

    return card_from_file(rules, path, read_file(path, "card"))


def _table(rules: RuleSet, *, quiet: bool) -> Table:
    from scorekeeper.advisor import load, solve

    table = load(rules)
    if table is None:
        if not quiet:
            print(f"solving {rules.name} once (seconds; minutes for six dice); later runs load "
                  "it from the cache", file=sys.stderr)
        table = solve(rules)
    return table


def _report(
    table: Table, card: Scorecard, dice: Dice, roll: int, options: list[Option]
) -> dict[str, object]:
    return {
        "rules": table.rules.name,
        "roll": roll,
        "dice": list(dice.values),
        "card": card.to_dict(),
        "expected_now": table.value(card),
        "assumes": options[0].assumes,
        "options": [option.to_dict() for option in options],
    }


def _print_options(
    table: Table, card: Scorecard, dice: Dice, roll: int, options: list[Option]
) -> None:
    print(
        f"{table.rules.name}: roll {roll} of 3, dice {dice}; {len(card.open_boxes())} open boxes, "
        f"expected final score at the start of this turn {table.value(card):.4f}"
    )
    width = max(len(o.describe()) for o in options)
    print(f"{'#':>3}  {'choice':<{width}}  {'expected':>9}  {'loss':>8}")
    for rank, option in enumerate(options, start=1):
        print(f"{rank:>3}  {option.describe():<{width}}  {option.expected:>9.4f}  "
              f"{option.loss:>8.4f}")
    if options[0].assumes:
        print(f"assumes: {options[0].assumes}")

"""Sub-commands about the rules: `rules` (the rule sets), `score` (a roll), `check` (a pad)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from pipkeeper.commands.padphoto import is_photo, run_photo_check
from scorekeeper import RULESET_NAMES, Dice, Joker, RuleSet, ruleset
from scorekeeper.audit import Pad, PadFormatError, audit
from scorekeeper.cardfile import MAX_FILE_BYTES, file_kind
from scorekeeper.padlayouts import LAYOUT_NAMES
from scorekeeper.rulesets import MAXI_DICE, VARIANTS

EXIT_PROBLEMS = 1

_JOKER_WORDS = {
    Joker.NONE: "none",
    Joker.FORCED: "forced (own upper box first, then any lower box at full value, "
    "then a zero in an upper box)",
    Joker.FREE: "free choice (any open box; lower boxes at full value once the face's "
    "upper box is filled)",
}


def register(subparsers: Any) -> None:
    """Add the `rules`, `score` and `check` sub-commands to *subparsers*."""
    rules = subparsers.add_parser("rules", help="the rule sets, or one rule set's boxes")
    rules.add_argument("name", nargs="?", metavar="NAME", help="a rule set, e.g. yacht")
    rules.set_defaults(handler=run_rules)

    score = subparsers.add_parser("score", help="what dice score in every box of an empty card")
    _add_rules_option(score, default="yahtzee")
    score.add_argument("--box", metavar="SLUG", help="only this box")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.add_argument("dice", nargs="+", metavar="DICE",
                       help="five dice: 6 6 4 6 6 or 66466 (six in Maxi Yatzy)")
    score.set_defaults(handler=run_score)

    check = subparsers.add_parser(
        "check", help="check a filled paper pad: a typed column (.json or .csv) or a photo")
    _add_rules_option(check, default=None)
    check.add_argument("--json", action="store_true", help="print one JSON object per pad")
    check.add_argument(
        "--in-progress", action="store_true", help="the game is not over: blank boxes are fine"
    )
    check.add_argument("--layout", metavar="NAME",
                       help=f"a photo's pad: {', '.join(LAYOUT_NAMES)} (default: pipkeeper's "
                            "printed pad by its markers, else any that fits the rules)")
    check.add_argument("--annotate", metavar="DIR",
                       help="write each photo with its cells and problems drawn into DIR")
    check.add_argument("pad_files", nargs="+", metavar="PAD_FILE",
                       help="the pad, as .json or .csv, or a photo of it (.jpg, .png, ...)")
    check.set_defaults(handler=run_check)


def _add_rules_option(parser: argparse.ArgumentParser, default: str | None) -> None:
    where = f"default {default}" if default else "default: the pad's own"
    parser.add_argument(
        "--rules", default=default, metavar="NAME", help=f"{', '.join(RULESET_NAMES)} ({where})"
    )


# --- rules ---------------------------------------------------------------------


def describe(rules: RuleSet) -> str:
    """Return a one-line description of *rules*."""
    parts = [f"{rules.title}, {len(rules.categories)} boxes"]
    if rules.upper_bonus_threshold is not None:
        parts.append(f"upper bonus {rules.upper_bonus} at {rules.upper_bonus_threshold}")
    if rules.five_alike_bonus:
        parts.append(f"{rules.five_alike_bonus} per extra {rules.title}")
    if rules.joker is not Joker.NONE:
        parts.append(f"{rules.joker.value} Joker")
    if rules.dice_count == MAXI_DICE:
        parts.append("six dice")
    if rules.saved_rolls:
        parts.append("unused rolls saved")
    parts += [VARIANTS[v].summary for v in rules.name.split("+")[1:] if VARIANTS[v].summary]
    if rules.upper_first:
        parts.append("upper section first")
    if rules.in_order:
        parts.append("boxes in order, top to bottom")
    return "; ".join(parts)


def run_rules(args: argparse.Namespace) -> int:
    """Print the rule sets, or the boxes and switches of rule set *args.name*; return 0.

    Raises RuleSetError for an unknown name.
    """
    if args.name is None:
        width = max(map(len, RULESET_NAMES))
        for name in RULESET_NAMES:
            print(f"{name:<{width}}  {describe(ruleset(name))}")
        return 0
    rules = ruleset(args.name)
    print(f"{rules.name}: {describe(rules)}")
    print()
    rows = [("box", "name", "scores", "max")]
    rows += [(c.slug, c.name, c.rule, str(c.max_points)) for c in rules.categories]
    _print_table(rows, right=(3,))
    print()
    for label, value in _switches(rules):
        print(f"{label}: {value}")
    return 0


def _switches(rules: RuleSet) -> list[tuple[str, str]]:
    threshold = rules.upper_bonus_threshold
    upper = f"{rules.upper_bonus} when the upper boxes total {threshold} or more"
    five = rules.category(rules.five_alike_slug).name
    extra = (
        f"{rules.five_alike_bonus} per check, for each further {five} "
        f"after {rules.category(rules.five_alike_slug).max_points} in the {five} box"
    )
    saved = [("Saved rolls", "the rolls a player leaves unused in a turn are added to "
                             "their later turns")] if rules.saved_rolls else []
    return [
        ("Upper bonus", upper if threshold is not None else "none"),
        (f"{five} bonus", extra if rules.five_alike_bonus else "none"),
        *saved,
        ("Joker rules", _JOKER_WORDS[rules.joker]),
        ("Upper section first", "yes" if rules.upper_first else "no"),
        ("Boxes in order", "yes, top to bottom" if rules.in_order else "no"),
    ]


def _print_table(rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()) -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        cells = [
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


# --- score ---------------------------------------------------------------------


def run_score(args: argparse.Namespace) -> int:
    """Print what the dice score in every box (or in --box) on an empty card; return 0.

    Raises DiceError for bad dice, RuleSetError or UnknownBoxError for bad names.
    """
    rules = ruleset(args.rules)
    dice = Dice.parse(" ".join(args.dice), rules.dice_count)
    categories = [rules.category(args.box)] if args.box else list(rules.categories)
    points = {c.slug: c.score(dice) for c in categories}
    if args.json:
        print(json.dumps(points))
        return 0
    print(f"{dice} in {rules.name}, on an empty card:")
    _print_table([(c.slug, c.name, str(points[c.slug])) for c in categories], right=(2,))
    return 0


# --- check ---------------------------------------------------------------------


def read_file(path: str, what: str = "pad") -> bytes:
    """Return the contents of pad or card file *path* (.json or .csv), at most one byte
    more than `MAX_FILE_BYTES` (so that `scorekeeper.cardfile` refuses a bigger one).

    Raises PadFormatError for another suffix or a file that cannot be read.
    """
    file_kind(path)
    try:
        with open(path, "rb") as file:
            return file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise PadFormatError(f"cannot read {what} file {path!r}: {error.strerror}") from None


def read_pad(path: str, rules: str | None) -> Pad:
    """Return the pad in file *path* (.json or .csv).

    Raises PadFormatError for an unreadable file or a bad pad, RuleSetError for bad rules.
    """
    return Pad.from_file(path, read_file(path), rules)


def run_check(args: argparse.Namespace) -> int:
    """Audit each pad file or photo in *args.pad_files*; print the problems; return 0 when
    every one is consistent, else 1.

    Raises PadFormatError or RuleSetError for a file that cannot be read as a pad.
    """
    codes = [run_photo_check(args, name) if is_photo(name) else _check_file(args, name)
             for name in args.pad_files]
    return max(codes)


def _check_file(args: argparse.Namespace, name: str) -> int:
    """Audit the typed pad in file *name*; print; return 0 when consistent, else 1."""
    pad = read_pad(name, args.rules)
    problems = audit(pad, finished=not args.in_progress)
    if args.json:
        report = {
            "ok": not problems,
            "rules": pad.rules.name,
            "problems": [p.to_dict() for p in problems],
        }
        print(json.dumps(report, ensure_ascii=False))
    elif not problems:
        print(f"{name}: pad is consistent ({pad.rules.name})")
    else:
        count = f"{len(problems)} problem{'s' if len(problems) > 1 else ''}"
        print(f"{name}: {count} ({pad.rules.name})")
        for problem in problems:
            print(f"  {problem.message}")
    return EXIT_PROBLEMS if problems else 0

"""`pipkeeper check PHOTO`: read a photographed score pad, let the rules decide between the
readings of every column, and print the audit's problems (or one JSON object per photo)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.audit import PadFormatError
from scorekeeper.layout import TOTAL_NAMES
from scorekeeper.padcheck import ColumnCheck, problem_cells
from scorekeeper.padlayouts import pad_layout
from scorekeeper.rulesets import RuleSet, ruleset

if TYPE_CHECKING:
    from vision.padread import PadPhotoReading

PHOTO_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"})
EXIT_PROBLEMS = 1


def is_photo(path: str) -> bool:
    """True for a file name with an image's suffix."""
    return Path(path).suffix.lower() in PHOTO_SUFFIXES


def report(photo: str, reading: PadPhotoReading, checks: list[ColumnCheck],
           rules: RuleSet) -> dict[str, Any]:
    """Return the JSON report of one photo: layout, columns (cells by name), problems."""
    return {
        "photo": photo, "rules": rules.name, "layout": reading.layout.name,
        "found_by": reading.grid.method,
        "ok": not any(c.problems for c in checks),
        "columns": [{name: cell.to_dict() for name, cell in c.by_name().items()}
                    for c in checks],
        "problems": [[p.to_dict() for p in c.problems] for c in checks],
        "doubtful": [[cell.key for cell in c.doubtful] for c in checks],
        "blank": [c.pad is None for c in checks],
    }


def _label(rules: RuleSet, key: str) -> str:
    return TOTAL_NAMES.get(key) or rules.category(key).name


def describe(photo: str, reading: PadPhotoReading, checks: list[ColumnCheck],
             rules: RuleSet) -> str:
    """Return the report of one photo in words, a column per paragraph."""
    lines = [f"{photo}: {reading.layout.title} found by its {reading.grid.method} "
             f"({len(checks)} columns, {rules.name})"]
    for index, check in enumerate(checks):
        name = reading.column_name(index)
        if check.pad is None:
            lines.append(f"  {name}: blank")
            continue
        count = len(check.problems)
        lines.append(f"  {name}: " + ("consistent" if not count else
                                       f"{count} problem{'s' if count > 1 else ''}"))
        lines += [f"    {p.message}" for p in check.problems]
        if check.doubtful:
            unsure = ", ".join(f"{_label(rules, c.key)} {_shown(c.value)}"
                               f" ({c.confidence:.0%})" for c in check.doubtful)
            lines.append(f"    not sure of: {unsure}; look at these cells")
    return "\n".join(lines)


def _shown(value: int | None) -> str:
    return "blank" if value is None else str(value)


def annotate(reading: PadPhotoReading, checks: list[ColumnCheck], folder: Path,
             photo: str) -> Path:
    """Write the photo with cells and problems drawn into *folder*; return the file."""
    from vision.padannotate import Mark, write_pad

    marks: list[Mark] = []
    number = 0
    for c, check in enumerate(checks):
        quads = reading.grid.photo_cells[c]
        flagged: dict[int, Mark] = {}
        for problem in check.problems:
            number += 1
            for cell in problem_cells(check, problem):
                flagged[cell.row] = Mark(quads[cell.row], number,
                                         f"{reading.column_name(c)}: {problem.message}")
        for cell in check.cells:
            marks.append(flagged.get(cell.row) or Mark(quads[cell.row], doubtful=cell.doubtful))
    return write_pad(reading.image.pixels, marks, folder / f"{Path(photo).stem}-checked.jpg")


def run_photo_check(args: argparse.Namespace, photo: str) -> int:
    """Check the pad in *photo*; print; return 0 when every column is consistent, else 1.

    Raises RulesError for bad rules or layout; VisionError when no pad can be read.
    """
    from vision.padread import read_pad_photo

    if not args.rules:
        raise PadFormatError(f"{photo}: a photo does not say which rules the pad follows; "
                             "give them with --rules (e.g. --rules yahtzee)")
    rules = ruleset(args.rules)
    layout = pad_layout(args.layout) if args.layout else None
    started = time.perf_counter()
    reading = read_pad_photo(photo, rules, layout)
    checks = reading.checks(rules, finished=not args.in_progress)
    seconds = time.perf_counter() - started
    if args.json:
        print(json.dumps(report(photo, reading, checks, rules) | {"seconds": round(seconds, 3)},
                         ensure_ascii=False))
    else:
        print(describe(photo, reading, checks, rules))
    if args.annotate:
        written = annotate(reading, checks, Path(args.annotate), photo)
        if not args.json:
            print(f"  drawn: {written}")
    return EXIT_PROBLEMS if any(c.problems for c in checks) else 0


"""Measure the pad check on photographed pads the project renders itself (`make eval`).

``python -m models.padeval``: for every layout, pads filled in with games of the rules
and written with digits of writers the handwriting reader never trained on (MNIST's
held-out samples; scikit-learn's 1,797 digits of 43 other writers), some columns with a
seeded arithmetic slip, photographed at any quarter turn, under perspective, shadow, a
slight curl, blur and JPEG. Prints, per layout and digit source: the pads found, the
reader's cell accuracy alone, the cell and whole-column accuracy after the rules decide,
the seeded slips found, false alarms on correct columns, and the time to check a 12 MP
photo.

``python -m models.padeval --samples sample_images/pads`` writes the sample photos the
tests use (`SAMPLES`), each with a ``.json`` of what its cells hold. They are written
with MNIST's training digits, and a draw is kept only when the shipped reader reads it
cell for cell as written: the tests check how a pad is found, decided, audited and shown,
and this module measures how well it is read by writers the reader never saw.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from models.handwriting_data import Glyphs, mnist_split, sklearn_glyphs
from models.padrender import Shot, draw_sheet, photograph, write_cells
from scorekeeper.boxvalues import possible_values
from scorekeeper.padcheck import ColumnCheck
from scorekeeper.padlayouts import LayoutRow, PadLayout, pad_layout
from scorekeeper.rulesets import RuleSet, Section, ruleset
from scorekeeper.scorecard import Scorecard
from vision.pad import PadNotFoundError
from vision.padread import read_pad_photo

CASES = (("pipkeeper", "yahtzee"), ("hasbro", "yahtzee"), ("kniffel", "yahtzee"),
         ("yatzy", "yatzy"))
# The photos in sample_images/pads (`--samples`): layout, rules, seed, the first column's
# slip, games written, quarter turns.
SAMPLES = (("hasbro", "yahtzee", 24, "grand_total", 2, 0),
           ("pipkeeper", "yahtzee", 25, None, 2, 2))
SLIP_ROWS = ("upper_subtotal", "upper_total", "lower_total", "grand_total")
ZERO_MARKS = ("0", "0", "-", "/", "x", "ø")


def random_card(rules: RuleSet, rng: np.random.Generator, checks: bool) -> Scorecard:
    """Return a finished card of plausible scores: each box a value it can hold."""
    points = []
    for category in rules.categories:
        legal = possible_values(rules, category.slug)
        values = sorted(v for v in legal if v)
        # a box scratched (0) only where it can hold 0: never Chance
        zero = rng.random() < (0.08 if category.section is Section.UPPER else 0.2) and 0 in legal
        points.append(0 if zero or not values else int(rng.choice(values)))
    card = Scorecard(rules, tuple(points))
    yahtzee = rules.five_alike_slug
    bonus = int(checks and card.box(yahtzee) == 50 and rng.random() < 0.4)
    return Scorecard(rules, tuple(points), bonus)


def _written(value: int | None, rng: np.random.Generator) -> str:
    if value is None:
        return ""
    return str(rng.choice(ZERO_MARKS)) if value == 0 else str(value)


@dataclass
class Column:
    """What a rendered column holds, by grid row (None: blank), and the row of its slip."""

    truth: dict[int, int | None]
    slip: str | None


def fill_column(rows: Sequence[LayoutRow], card: Scorecard, slip: str | None,
                rng: np.random.Generator) -> Column:
    """Return what a player writes in each row for *card*, a total off by a slip if asked."""
    totals = card.totals()
    truth: dict[int, int | None] = {}
    slipped = None
    for i, row in enumerate(rows):
        if not row.read:
            continue
        value = card.box(row.key) if row.kind == "box" else totals[row.key]
        if row.key in ("yahtzee_bonus_checks", "yahtzee_bonus") and not totals[
                "yahtzee_bonus_checks"]:
            value = None if row.key == "yahtzee_bonus_checks" or rng.random() < 0.5 else 0
        elif row.key == "yahtzee_bonus_checks" and row.label == "Yahtzee bonus":
            value = totals["yahtzee_bonus"]  # pipkeeper's pad: the checks' points
        if row.key == slip and value is not None and slipped is None:
            value, slipped = max(0, value + int(rng.choice([-10, -5, -1, 1, 5, 10, 20]))), slip
        truth[i] = value
    return Column(truth, slipped)


@dataclass
class Tally:
    """Counts for one layout and digit source."""

    cells: int = 0
    read_right: int = 0
    chosen_right: int = 0
    columns: int = 0
    columns_right: int = 0
    slips: int = 0
    slips_found: int = 0
    slips_flagged: int = 0  # slipped columns with a problem reported on any row
    clean: int = 0
    false_alarms: int = 0
    pads: int = 0
    pads_missed: int = 0  # no pad found in the photo: all its cells and columns count wrong
    seconds: list[float] = field(default_factory=list)

    def add(self, column: Column, check: ColumnCheck, top: dict[int, int | None]) -> None:
        chosen = {cell.row: cell.value for cell in check.cells}
        self.cells += len(column.truth)
        self.read_right += sum(top[r] == v for r, v in column.truth.items())
        self.chosen_right += sum(chosen.get(r) == v for r, v in column.truth.items())
        self.columns += 1
        self.columns_right += all(chosen.get(r) == v for r, v in column.truth.items())
        rows = {p.row for p in check.problems}
        if column.slip:
            self.slips += 1
            self.slips_found += column.slip in rows
            self.slips_flagged += bool(rows)
        else:
            self.clean += 1
            self.false_alarms += bool(rows)

    def miss(self, columns: Sequence[Column]) -> None:
        """Count a pad not found: none of its cells read, no slip found."""
        self.pads_missed += 1
        self.cells += sum(len(c.truth) for c in columns)
        self.columns += len(columns)
        self.slips += sum(c.slip is not None for c in columns)
        self.clean += sum(c.slip is None for c in columns)


def measure(layout: PadLayout, rules: RuleSet, glyphs: Glyphs, pads: int,
            seed: int) -> Tally:
    """Render, photograph and check *pads* pads; return the counts."""
    rng = np.random.default_rng(seed)
    rows = layout.rows_for(rules)
    tally = Tally()
    for _ in range(pads):
        count = layout.columns or int(rng.integers(2, 5))
        played = count - (2 if layout.columns else 0)
        checks = any(row.marks == "checks" for row in rows)
        columns = [fill_column(rows, random_card(rules, rng, checks),
                               str(rng.choice(SLIP_ROWS)) if rng.random() < 0.3 else None, rng)
                   for _ in range(played)]
        texts = [{r: _written(v, rng) for r, v in c.truth.items()} for c in columns]
        sheet = draw_sheet(layout, rows, count)
        pixels = write_cells(sheet, rows, texts + [{}] * (count - played), glyphs, rng)
        shot = Shot(quarter_turns=int(rng.integers(4)), tilt=float(rng.uniform(-8, 8)),
                    perspective=0.06, shadow=bool(rng.random() < 0.5),
                    curl=float(rng.uniform(0, 0.012)), blur=float(rng.uniform(0.4, 1.0)),
                    quality=int(rng.integers(70, 93)), size=(2000, 1500))
        photo, _ = photograph(pixels, shot, rng)
        tally.pads += 1
        started = time.perf_counter()
        try:
            reading = read_pad_photo(photo, rules, layout)
        except PadNotFoundError:
            tally.miss(columns)
            continue
        checks_found = reading.checks(rules)
        tally.seconds.append(time.perf_counter() - started)
        for c, column in enumerate(columns):
            top = {r: cell.value for r, cell in enumerate(reading.columns[c]) if cell}
            tally.add(column, checks_found[c], top)
        for check in checks_found[played:]:
            tally.false_alarms += check.pad is not None and bool(check.problems)
    return tally


def twelve_megapixels(glyphs: Glyphs, seed: int = 7) -> float:
    """Return the seconds to check a 12 MP JPEG photo of a Hasbro pad (decode included)."""
    rng = np.random.default_rng(seed)
    layout, rules = pad_layout("hasbro"), ruleset("yahtzee")
    rows = layout.rows_for(rules)
    columns = [fill_column(rows, random_card(rules, rng, True), None, rng) for _ in range(6)]
    texts = [{r: _written(v, rng) for r, v in c.truth.items()} for c in columns]
    sheet = draw_sheet(layout, rows, 6)
    pixels = write_cells(sheet, rows, texts, glyphs, rng)
    big = cv2.resize(pixels, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
    photo, _ = photograph(big, Shot(size=(4000, 3000), tilt=4.0, quality=90), rng)
    data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    read_pad_photo(data, rules, layout)  # the model loaded once, as a server does
    started = time.perf_counter()
    reading = read_pad_photo(data, rules, layout)
    reading.checks(rules)
    return time.perf_counter() - started


def write_sample(layout_name: str, rules_name: str, folder: Path, seed: int,
                 slip: str | None = None, columns: int = 2, turns: int = 0,
                 draws: int = 200) -> Path:
    """Write a photo of a pad with *columns* games filled in (the first with *slip*), and
    what its cells hold (``.json``), to *folder*; return the photo's path.

    The pad is written with the reader's training digits, and of the seeded draws
    ``[seed, 0]``, ``[seed, 1]``, ... the first whose photo the shipped reader reads cell
    for cell as written is kept (see the module's doc). Raises RuntimeError when none
    of *draws* is.
    """
    layout, rules = pad_layout(layout_name), ruleset(rules_name)
    rows = layout.rows_for(rules)
    keys = [row.key if row.key not in [r.key for r in rows[:i]] else f"{row.key}_2"
            for i, row in enumerate(rows)]
    for draw in range(draws):
        rng = np.random.default_rng([seed, draw])
        photo, filled = _sample_photo(layout, rules, rows, rng, slip, columns, turns)
        data = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 80])[1].tobytes()
        truth = [{keys[r]: v for r, v in c.truth.items()} for c in filled]
        if _read_as_written(data, rules, layout, truth):
            break
    else:
        raise RuntimeError(f"none of {draws} draws of {layout_name}_{seed} read as written")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{layout_name}_{seed}.jpg"
    path.write_bytes(data)
    path.with_suffix(".json").write_text(json.dumps(
        {"layout": layout_name, "rules": rules_name, "draw": draw, "columns": truth,
         "slips": [c.slip for c in filled]}, indent=1) + "\n")
    return path


def _sample_photo(layout: PadLayout, rules: RuleSet, rows: Sequence[LayoutRow],
                  rng: np.random.Generator, slip: str | None, columns: int,
                  turns: int) -> tuple[np.ndarray, list[Column]]:
    count = layout.columns or columns
    checks = any(row.marks == "checks" for row in rows)
    filled = [fill_column(rows, random_card(rules, rng, checks), slip if i == 0 else None, rng)
              for i in range(columns)]
    texts = [{r: _written(v, rng) for r, v in c.truth.items()} for c in filled]
    sheet = draw_sheet(layout, rows, count)
    pixels = write_cells(sheet, rows, texts + [{}] * (count - columns), mnist_split()[0], rng)
    photo, _ = photograph(pixels, Shot(quarter_turns=turns, tilt=float(rng.uniform(-5, 5)),
                                       shadow=True, quality=80), rng)
    return photo, filled


def _read_as_written(data: bytes, rules: RuleSet, layout: PadLayout,
                     truth: list[dict[str, int | None]]) -> bool:
    """True when every written column of the photo *data* is read, after the rules
    decide, exactly as *truth* holds it, and every other column as a game not played."""
    reading = read_pad_photo(data, rules, layout)
    found = reading.checks(rules)
    read = [{name: cell.value for name, cell in c.by_name().items()} for c in found]
    return read[:len(truth)] == truth and all(c.pad is None for c in found[len(truth):])


def _median(seconds: list[float]) -> str:
    return f"{np.median(seconds):.2f}" if seconds else "–"


def _share(part: int, whole: int) -> str:
    return f"{part / whole:.3f}" if whole else "–"


def report(pads: int, seed: int) -> str:
    """Return the table of every layout and digit source, and the 12 MP timing."""
    _, held = mnist_split()
    sources: list[tuple[str, Glyphs]] = [("MNIST held out", held)]
    try:
        sources.append(("scikit-learn digits", sklearn_glyphs()))
    except ImportError:
        print("scikit-learn is not installed (pip install -e '.[train]'): its digits skipped")
    lines = ["| layout | digits | pads found | columns | cells | reader alone | cells (rules) "
             "| columns (rules) | slips found | slipped columns flagged | false alarms "
             "| s per photo |", "|" + "---|" * 12]
    for layout_name, rules_name in CASES:
        for source, glyphs in sources:
            t = measure(pad_layout(layout_name), ruleset(rules_name), glyphs, pads, seed)
            lines.append(
                f"| {layout_name} | {source} | {t.pads - t.pads_missed}/{t.pads} | "
                f"{t.columns} | {t.cells} | "
                f"{_share(t.read_right, t.cells)} | {_share(t.chosen_right, t.cells)} | "
                f"{_share(t.columns_right, t.columns)} | {t.slips_found}/{t.slips} | "
                f"{t.slips_flagged}/{t.slips} | "
                f"{t.false_alarms}/{t.clean} | {_median(t.seconds)} |")
            print(lines[-1], flush=True)
    lines.append(f"\n12 MP photo of a Hasbro pad checked in {twelve_megapixels(held):.2f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pads", type=int, default=8, help="pads per layout and digit source")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--samples", type=Path, metavar="FOLDER",
                        help="only write the sample photos (sample_images/pads) to FOLDER")
    args = parser.parse_args(argv)
    if args.samples:
        for layout_name, rules_name, seed, slip, columns, turns in SAMPLES:
            print(write_sample(layout_name, rules_name, args.samples, seed, slip, columns, turns))
        return 0
    print(report(args.pads, args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

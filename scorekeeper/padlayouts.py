"""The printed score pads a photo may show, as data: their rows top to bottom, which rows are
totals and which hold checks, how many value columns they have and which rule sets they fit.

- ``pipkeeper``: pipkeeper's own printed pad (a series sheet, Game #1 to Game #6), its rows
  those of `scorekeeper.layout.printed_pad` for the rule set, with a section row above each
  section and four ArUco markers at the corners of its score grid.
- ``hasbro``: the Hasbro Yahtzee pad, one column per game, Game #1 to Game #6.
- ``kniffel``: a Kniffel block: the same six columns, no Yahtzee-bonus row, German labels.
- ``yatzy``: a Scandinavian Yatzy pad: 15 boxes, sum, bonus, total; a column per player.

A row's `key` is a box slug of the rule set or a total key of `Scorecard.totals`; a
checks row (Hasbro's Yahtzee-bonus checks) holds how many checks. Hasbro and Kniffel pads
print "Total of upper section" twice: both rows carry the key ``upper_total``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scorekeeper.errors import RulesError
from scorekeeper.layout import printed_pad
from scorekeeper.rulesets import RuleSet

RowKind = Literal["header", "section", "box", "total"]


class LayoutError(RulesError, ValueError):
    """A pad layout that is not known, or that does not fit the rule set asked for."""


@dataclass(frozen=True)
class LayoutRow:
    """One ruled row of a printed pad: the heading row, a section's title row, a box or a
    total (its key), with the label the pad prints and what is written in it."""

    kind: RowKind
    key: str
    label: str
    marks: Literal["points", "checks"] = "points"

    @property
    def read(self) -> bool:
        """True for a row whose cells hold a value to read (a box or a total)."""
        return self.kind in ("box", "total")


@dataclass(frozen=True)
class PadLayout:
    """A printed pad: its grid's rows top to bottom and its columns left to right.

    `label_columns` columns (the box names, "how to score") come before the value columns;
    `columns` is their number (6 games), or None for a pad with one column per player
    (up to `most_columns`). `rows` is None for pipkeeper's pad, whose rows follow the rule
    set (`rows_for`).
    """

    name: str
    title: str
    games: frozenset[str]
    label_columns: int
    columns: int | None
    rows: tuple[LayoutRow, ...] | None = None
    markers: bool = False
    column_label: str = "Game #{n}"
    most_columns: int = 6

    def fits(self, rules: RuleSet) -> bool:
        """True when a pad of this layout can hold a game of *rules*."""
        return rules.game in self.games

    def rows_for(self, rules: RuleSet) -> tuple[LayoutRow, ...]:
        """Return the grid's rows for a game of *rules*, top to bottom, heading row first.

        Raises LayoutError when the layout does not fit *rules*.
        """
        if not self.fits(rules):
            raise LayoutError(
                f"a {self.title} ({self.name!r}) is not a pad for {rules.name!r}; "
                f"it fits {', '.join(sorted(self.games))}")
        return self.rows if self.rows is not None else _pipkeeper_rows(rules)

    def value_rows(self, rules: RuleSet) -> tuple[LayoutRow, ...]:
        """Return the rows that hold values (boxes and totals), top to bottom."""
        return tuple(row for row in self.rows_for(rules) if row.read)


def _pipkeeper_rows(rules: RuleSet) -> tuple[LayoutRow, ...]:
    """pipkeeper's printed series sheet: a heading row, and a title row above each section."""
    rows = [LayoutRow("header", "", "Box")]
    section = None
    for row in printed_pad(rules):
        if row.section is not section:
            section = row.section
            rows.append(LayoutRow("section", section.value, f"{section.value.title()} section"))
        # A checks row holds the checks (or their points): the count is what it gives.
        rows.append(LayoutRow(row.kind, row.count_key or row.key, row.name, row.marks))
    return tuple(rows)


def _rows(header: str, *spec: tuple[str, str] | tuple[str, str, str]) -> tuple[LayoutRow, ...]:
    """Rows from (key, label) pairs: a key of a box slug or a total (a key ending in _total,
    _subtotal, _bonus or _checks); a third item "checks" marks a checks row."""
    rows = [LayoutRow("header", "", header)]
    for key, label, *marks in spec:
        total = key.endswith(("_total", "_subtotal", "_bonus", "_checks"))
        rows.append(LayoutRow("total" if total else "box", key, label,
                              "checks" if marks else "points"))
    return tuple(rows)


_UPPER_YAHTZEE = (("aces", "Aces"), ("twos", "Twos"), ("threes", "Threes"),
                  ("fours", "Fours"), ("fives", "Fives"), ("sixes", "Sixes"))

HASBRO = PadLayout(
    "hasbro", "Hasbro Yahtzee pad", frozenset({"yahtzee"}), label_columns=2, columns=6,
    rows=_rows(
        "Upper section", *_UPPER_YAHTZEE,
        ("upper_subtotal", "Total score"), ("upper_bonus", "Bonus"),
        ("upper_total", "Total of upper section"),
        ("three_of_a_kind", "3 of a kind"), ("four_of_a_kind", "4 of a kind"),
        ("full_house", "Full house"), ("small_straight", "Sm straight"),
        ("large_straight", "Lg straight"), ("yahtzee", "Yahtzee"), ("chance", "Chance"),
        ("yahtzee_bonus_checks", "Yahtzee bonus ✓", "checks"),
        ("yahtzee_bonus", "Score 100 per ✓"),
        ("lower_total", "Total of lower section"), ("upper_total", "Total of upper section"),
        ("grand_total", "Grand total"),
    ))

KNIFFEL = PadLayout(
    "kniffel", "Kniffel block", frozenset({"yahtzee"}), label_columns=2, columns=6,
    column_label="{n}. Spiel",
    rows=_rows(
        "Oberer Teil", ("aces", "Einser"), ("twos", "Zweier"), ("threes", "Dreier"),
        ("fours", "Vierer"), ("fives", "Fünfer"), ("sixes", "Sechser"),
        ("upper_subtotal", "gesamt"), ("upper_bonus", "Bonus bei 63 oder mehr"),
        ("upper_total", "gesamt oberer Teil"),
        ("three_of_a_kind", "Dreierpasch"), ("four_of_a_kind", "Viererpasch"),
        ("full_house", "Full-House"), ("small_straight", "Kleine Straße"),
        ("large_straight", "Große Straße"), ("yahtzee", "Kniffel"), ("chance", "Chance"),
        ("lower_total", "gesamt unterer Teil"), ("upper_total", "gesamt oberer Teil"),
        ("grand_total", "Endsumme"),
    ))

YATZY = PadLayout(
    "yatzy", "Scandinavian Yatzy pad", frozenset({"yatzy"}), label_columns=1, columns=None,
    column_label="Player {n}",
    rows=_rows(
        "Yatzy", ("ones", "Ones"), ("twos", "Twos"), ("threes", "Threes"), ("fours", "Fours"),
        ("fives", "Fives"), ("sixes", "Sixes"), ("upper_subtotal", "Sum"),
        ("upper_bonus", "Bonus"), ("one_pair", "One pair"), ("two_pairs", "Two pairs"),
        ("three_of_a_kind", "Three of a kind"), ("four_of_a_kind", "Four of a kind"),
        ("small_straight", "Small straight"), ("large_straight", "Large straight"),
        ("full_house", "Full house"), ("chance", "Chance"), ("yatzy", "Yatzy"),
        ("grand_total", "Total"),
    ))

PIPKEEPER = PadLayout(
    "pipkeeper", "pipkeeper printed pad", frozenset({"yahtzee", "yacht", "yatzy", "maxi-yatzy"}),
    label_columns=2, columns=6, markers=True)

LAYOUTS: dict[str, PadLayout] = {layout.name: layout
                                 for layout in (PIPKEEPER, HASBRO, KNIFFEL, YATZY)}
LAYOUT_NAMES: tuple[str, ...] = tuple(LAYOUTS)


def pad_layout(name: str) -> PadLayout:
    """Return the layout called *name*; raises LayoutError naming the known ones."""
    try:
        return LAYOUTS[name.strip().lower()]
    except KeyError:
        raise LayoutError(
            f"unknown pad layout {name!r}; layouts are: {', '.join(LAYOUT_NAMES)}") from None


def layouts_for(rules: RuleSet) -> tuple[PadLayout, ...]:
    """Return the layouts a game of *rules* may be written on, pipkeeper's first."""
    return tuple(layout for layout in LAYOUTS.values() if layout.fits(rules))


def column_keys(layout: PadLayout, rules: RuleSet) -> tuple[str, ...]:
    """Return the keys a column of *layout* holds for *rules*, each once, top to bottom."""
    keys: list[str] = []
    for row in layout.value_rows(rules):
        if row.key not in keys:
            keys.append(row.key)
    return tuple(keys)

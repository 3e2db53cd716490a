"""The printed score pad, row by row: the one definition the audit, the pages and their
scripts follow.

`printed_pad` gives the rows of the paper pad top to bottom: the boxes of the
upper section, its totals, the boxes of the lower section, its totals (the
Hasbro pad repeats the upper total above the grand total). Each row says what
the player writes in it: points, or a check (✓) per Yahtzee bonus, whose count
is the total `count_key` and whose points are the total `key`.
`TOTAL_NAMES` are the English names of a card's totals (`Scorecard.totals`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from scorekeeper.rulesets import RuleSet, Section

TOTAL_NAMES: dict[str, str] = {
    "upper_subtotal": "Upper subtotal",
    "upper_bonus": "Upper bonus",
    "upper_total": "Upper total",
    "yahtzee_bonus_checks": "Yahtzee bonus checks",
    "yahtzee_bonus": "Yahtzee bonus",
    "lower_subtotal": "Lower subtotal",
    "lower_total": "Lower total",
    "grand_total": "Grand total",
}
TOTAL_KEYS: tuple[str, ...] = tuple(TOTAL_NAMES)

# The totals' names as the paper pad prints them.
PRINTED_TOTALS: dict[str, str] = {
    "upper_subtotal": "Total score",
    "upper_bonus": "Bonus",
    "upper_total": "Total of upper section",
    "yahtzee_bonus": "Yahtzee bonus",
    "lower_total": "Total of lower section",
    "grand_total": "Grand total",
}


@dataclass(frozen=True)
class PadRow:
    """One printed row: a box (its slug) or a total (its `Scorecard.totals` key)."""

    kind: Literal["box", "total"]
    key: str
    section: Section
    name: str  # English, as printed
    marks: Literal["points", "checks"] = "points"
    count_key: str | None = None  # for checks: the total holding how many

    def to_dict(self) -> dict[str, Any]:
        """Return the row as JSON data (the section by its value)."""
        return {**asdict(self), "section": self.section.value}


def total_keys(rules: RuleSet) -> tuple[str, ...]:
    """Return the totals a card of *rules* has, in `TOTAL_NAMES` order (Yacht: no bonuses)."""
    skip: tuple[str, ...] = ("upper_bonus",) if rules.upper_bonus_threshold is None else ()
    if not rules.five_alike_bonus:
        skip += ("yahtzee_bonus_checks", "yahtzee_bonus")
    return tuple(k for k in TOTAL_KEYS if k not in skip)


def _total(key: str, section: Section) -> PadRow:
    if key == "yahtzee_bonus":
        return PadRow("total", key, section, PRINTED_TOTALS[key], "checks",
                      "yahtzee_bonus_checks")
    return PadRow("total", key, section, PRINTED_TOTALS[key])


def _printed_totals(rules: RuleSet, section: Section) -> tuple[str, ...]:
    if section is Section.UPPER:
        if rules.upper_bonus_threshold is None:
            return ("upper_total",)
        return ("upper_subtotal", "upper_bonus", "upper_total")
    checks = ("yahtzee_bonus",) if rules.five_alike_bonus else ()
    return (*checks, "lower_total", "upper_total", "grand_total")


def printed_pad(rules: RuleSet) -> tuple[PadRow, ...]:
    """Return the rows of *rules*' paper pad, top to bottom."""
    rows: list[PadRow] = []
    for section in (Section.UPPER, Section.LOWER):
        rows += [PadRow("box", c.slug, section, c.name)
                 for c in rules.categories if c.section is section]
        rows += [_total(key, section) for key in _printed_totals(rules, section)]
    return tuple(rows)


def pad_rows(rules: RuleSet) -> tuple[str, ...]:
    """Return every row a filled pad may hold, top to bottom: the printed rows once each,
    a checks row's count before its points, and the card's other totals above their
    section's total."""
    order: list[str] = []
    for row in printed_pad(rules):
        if row.count_key:
            order.append(row.count_key)
        if row.key not in order:
            order.append(row.key)
    for key in total_keys(rules):
        if key not in order:  # a subtotal the pad does not print: just above its section's total
            order.insert(order.index("upper_total" if key.startswith("upper_") else "lower_total"),
                         key)
    return tuple(order)

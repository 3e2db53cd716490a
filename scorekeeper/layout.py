"""The printed score pad, row by row: the one definition the audit, the pages and their
scripts follow.

`printed_pad` gives the rows of the paper pad top to bottom: the boxes of the
upper section, its totals, the boxes of the lower section, its totals (the
Hasbro pad repeats the upper total above the grand total; a Scandinavian Yatzy
or Maxi Yatzy pad prints only the sum and bonus of the upper boxes and, last, the total). Each
row says what the player writes in it: points, or a check (✓) per Yahtzee bonus,
whose count is the total `count_key` and whose points are the total `key`.
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

# Names a game's pad prints instead of those above.
GAME_PRINTED_TOTALS: dict[str, dict[str, str]] = {
    "yatzy": {"upper_subtotal": "Sum", "grand_total": "Total"},
    "maxi-yatzy": {"upper_subtotal": "Sum", "grand_total": "Total"},
}

# The totals each game's pad prints below its upper boxes and below its lower boxes.
PRINTED_TOTAL_ROWS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "yahtzee": (("upper_subtotal", "upper_bonus", "upper_total"),
                ("yahtzee_bonus", "lower_total", "upper_total", "grand_total")),
    "yacht": (("upper_total",), ("lower_total", "upper_total", "grand_total")),
    "yatzy": (("upper_subtotal", "upper_bonus"), ("grand_total",)),
    "maxi-yatzy": (("upper_subtotal", "upper_bonus"), ("grand_total",)),
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


def printed_name(rules: RuleSet, key: str) -> str:
    """Return the name *rules*' pad prints for total *key*."""
    return GAME_PRINTED_TOTALS.get(rules.game, {}).get(key) or PRINTED_TOTALS[key]


def _total(rules: RuleSet, key: str, section: Section) -> PadRow:
    name = printed_name(rules, key)
    if key == "yahtzee_bonus":
        return PadRow("total", key, section, name, "checks", "yahtzee_bonus_checks")
    return PadRow("total", key, section, name)


def printed_pad(rules: RuleSet) -> tuple[PadRow, ...]:
    """Return the rows of *rules*' paper pad, top to bottom."""
    rows: list[PadRow] = []
    totals = PRINTED_TOTAL_ROWS[rules.game]
    for section, keys in zip((Section.UPPER, Section.LOWER), totals, strict=True):
        rows += [PadRow("box", c.slug, section, c.name)
                 for c in rules.categories if c.section is section]
        rows += [_total(rules, key, section) for key in keys]
    return tuple(rows)


def _total_section(key: str) -> Section:
    return Section.UPPER if key.startswith("upper_") else Section.LOWER


def pad_rows(rules: RuleSet) -> tuple[str, ...]:
    """Return every row a filled pad may hold, top to bottom: the printed rows once each,
    a checks row's count before its points, and the card's other totals in their section,
    above the printed totals that follow them in `TOTAL_KEYS` (else at the section's end)."""
    rows: list[tuple[str, Section]] = []
    for row in printed_pad(rules):
        keys = (row.count_key, row.key) if row.count_key else (row.key,)
        rows += [(key, row.section) for key in keys if key not in dict(rows)]
    rank = TOTAL_KEYS.index
    for key in total_keys(rules):
        if key in dict(rows):
            continue
        section = _total_section(key)
        ours = [i for i, (k, s) in enumerate(rows) if s is section]
        later = [i for i in ours if rows[i][0] in TOTAL_KEYS and rank(rows[i][0]) > rank(key)]
        rows.insert(later[0] if later else ours[-1] + 1, (key, section))
    return tuple(key for key, _ in rows)

"""Check one filled column of a paper score pad: every box, the bonuses and the arithmetic.

A pad is read from a dict, JSON, CSV or a file's bytes (`Pad.from_file`, with
the checks of `scorekeeper.cardfile`). Row names are the box slugs of the rule
set (``aces`` … ``chance``; Yacht ``ones`` … ``yacht``; Yatzy ``ones`` … ``yatzy``)
and the total keys of `Scorecard.totals`: ``upper_subtotal``, ``upper_bonus``,
``upper_total``, ``yahtzee_bonus_checks``, ``yahtzee_bonus`` (points, 100 per
check), ``lower_subtotal``, ``lower_total``, ``grand_total``. Yacht has no bonus
rows; Yatzy has the upper bonus (50 at 63) but no Yahtzee bonus. The printed
English names are accepted too, in any case ("3 of a Kind", "Full House", "Grand
Total", "Total of upper section"; on a Yatzy pad "Sum" and "Total").

JSON ``{"rules": …, "boxes": {row: value}, "totals": {row: value}}`` (or a
saved card), or CSV ``row,value`` lines (checks ``3``, ``✓✓✓`` or ``✓ ✓ ✓``):
see docs/pad-format.md. ``rules`` may be left out when the caller names the
rule set. A missing row, or one without a value, is blank on the pad.

What `audit` reports (`Problem.code`):

- ``blank_box``: a blank box (not with ``audit(pad, finished=False)``).
- ``impossible_value``: no roll scores that there, Joker included (7 in Fours).
- ``wrong_total``: a subtotal or total that is not the sum it stands for.
- ``carried_total``: a total that adds up the rows above it as they are written,
  one of which is wrong, so it is wrong too.
- ``wrong_bonus``: upper bonus not 35 (Yatzy: 50) at 63 or more and 0 below;
  Yahtzee bonus not 100 per check.
- ``bonus_without_yahtzee``: bonus checks without 50 in the Yahtzee box.
- ``too_many_checks``: more checks than other boxes holding a value that a
  Yahtzee scores there (at most 12).

`card_problems` keeps those no game can have at any point (``impossible_value``,
``bonus_without_yahtzee``, ``too_many_checks``); the advisor refuses such a card.

The checks row may hold the checks' points instead (300 for three checks): it
is read as those checks. Totals left blank are not checked, nor are those that
add up a row `card_problems` reports (directly or through another total): what
they should be depends on what that row should hold, so no sum is offered that
counts a value the audit calls impossible. A slip is ``wrong_total`` on its own row;
every total below that carried it down is ``carried_total``, which says so. A
total's `Problem.parts` are the rows it adds up and their right values. The
upper bonus is checked against the upper boxes themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from scorekeeper.boxvalues import bonus_roll_values, describe_values, possible_values
from scorekeeper.cardfile import (
    CARD_CHECK_KEYS,
    card_check_rows,
    csv_rows,
    load_json,
    quote,
    read_content,
    read_number,
    rules_name,
    whole_number,
)
from scorekeeper.cardfile import PadFormatError as PadFormatError
from scorekeeper.layout import (
    PRINTED_TOTALS,
    TOTAL_KEYS,
    TOTAL_NAMES,
    pad_rows,
    printed_pad,
    total_keys,
)
from scorekeeper.rulesets import RuleSet, RuleSetError, Section, ruleset
from scorekeeper.scorecard import Scorecard

# The pad's printed names of its totals, and "checks" for the bonus checks.
_TOTAL_ALIASES = {name.lower(): key for key, name in PRINTED_TOTALS.items()
                  if key != "yahtzee_bonus"} | {"checks": "yahtzee_bonus_checks"}
_CHECK_MARKS = frozenset("✓✔xX/|")
CARD_CODES = frozenset({"impossible_value", "bonus_without_yahtzee", "too_many_checks"})


def row_label(rules: RuleSet, row: str) -> str:
    """Return the English name of box or total *row*."""
    return TOTAL_NAMES.get(row) or rules.category(row).name


@dataclass(frozen=True)
class Pad:
    """One column of a paper pad: every box and total as written (None: left blank).

    The constructor fills rows that are not given with None and raises
    PadFormatError for an unknown row, a bonus row of a game without bonuses,
    or a value that is not a whole number 0 or more.
    """

    rules: RuleSet
    boxes: Mapping[str, int | None]
    totals: Mapping[str, int | None]

    def __post_init__(self) -> None:
        for slug in self.boxes:
            if slug not in self.rules.slugs:
                raise PadFormatError(f"unknown box {quote(slug)}; {_known_rows(self.rules)}")
        allowed = total_keys(self.rules)
        for key in self.totals:
            if key in TOTAL_KEYS and key not in allowed:
                which = "Yahtzee bonus" if self.rules.upper_bonus_threshold else "bonus"
                raise PadFormatError(
                    f"{self.rules.name} has no {which} rows, but the pad has {key!r}")
            if key not in allowed:
                raise PadFormatError(f"unknown total {quote(key)}; {_known_rows(self.rules)}")
        boxes = {s: _check_value(s, self.boxes.get(s)) for s in self.rules.slugs}
        totals = {k: _check_value(k, self.totals.get(k)) for k in allowed}
        object.__setattr__(self, "boxes", boxes)
        object.__setattr__(self, "totals", totals)

    @classmethod
    def from_scorecard(cls, card: Scorecard) -> Pad:
        """Return the pad a careful player would write for *card*: its boxes and all totals."""
        totals = card.totals()
        return cls(card.rules, card.boxes(), {k: totals[k] for k in total_keys(card.rules)})

    @classmethod
    def from_dict(cls, data: object, rules: RuleSet | str | None = None) -> Pad:
        """Return the pad in *data* (``rules``, ``boxes``, ``totals``); *rules* if it has none.

        The checks of a saved card (``bonus_checks``, ``yahtzee_bonus``) count as
        the checks row. Raises PadFormatError quoting the bad part; RuleSetError
        for an unknown rule set.
        """
        if not isinstance(data, Mapping):
            raise PadFormatError(f"a pad is an object with rules, boxes, totals; got {quote(data)}")
        unknown = set(data) - {"rules", "boxes", "totals", *CARD_CHECK_KEYS}
        if unknown:
            raise PadFormatError(
                f"unknown key(s) {quote(', '.join(sorted(map(str, unknown))))}; "
                "a pad has rules, boxes, totals"
            )
        rows: list[tuple[str, object, str]] = []
        for part in ("boxes", "totals"):
            section = data.get(part, {})
            if not isinstance(section, Mapping):
                raise PadFormatError(
                    f"{part!r} must be an object of row: value, got {quote(section)}"
                )
            rows += [(str(name), value, repr(part)) for name, value in section.items()]
        rows += card_check_rows(data)
        return cls._build(_pick_rules(data.get("rules"), rules), rows)

    @classmethod
    def from_json(cls, text: str, rules: RuleSet | str | None = None) -> Pad:
        """Return the pad in JSON *text*; raises PadFormatError or RuleSetError."""
        return cls.from_dict(load_json(text), rules)

    @classmethod
    def from_file(cls, name: str, data: bytes, rules: RuleSet | str | None = None) -> Pad:
        """Return the pad in the contents *data* of file *name* (.json or .csv).

        Raises PadFormatError, its message starting with *name*, for a file that is
        not UTF-8 text or not a pad (see `scorekeeper.cardfile`); RuleSetError.
        """
        kind, content = read_content(name, data)
        try:
            return cls.from_csv(content, rules) if kind == "csv" else cls.from_dict(content, rules)
        except (PadFormatError, RuleSetError) as error:
            raise type(error)(f"{name}: {error}") from None

    @classmethod
    def from_csv(cls, text: str, rules: RuleSet | str | None = None) -> Pad:
        """Return the pad in CSV *text* (``row,value`` lines).

        Raises PadFormatError naming the line, or RuleSetError.
        """
        rows: list[tuple[str, object, str]] = []
        named: str | None = None
        for number, name, value in csv_rows(text):
            if not rows and named is None and (name.lower(), value.lower()) == ("row", "value"):
                continue
            if name.lower() != "rules":
                rows.append((name, value, f"line {number}"))
            elif named is not None:
                raise PadFormatError(f"line {number}: the rules are given twice")
            else:
                named = value
        return cls._build(_pick_rules(named, rules), rows)

    @classmethod
    def _build(cls, rules: RuleSet, rows: Iterable[tuple[str, object, str]]) -> Pad:
        aliases = _aliases(rules)
        boxes: dict[str, int | None] = {}
        totals: dict[str, int | None] = {}
        for name, raw, where in rows:
            key = aliases.get(_normal(name))
            if key is None:
                raise PadFormatError(f"{where}: unknown row {quote(name)}; {_known_rows(rules)}")
            target = boxes if key in rules.slugs else totals
            if key in target:
                raise PadFormatError(f"{where}: row {key!r} is given twice")
            target[key] = _read_value(key, raw, where)
        return cls(rules, boxes, totals)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict that `from_dict` reads back."""
        return {"rules": self.rules.name, "boxes": dict(self.boxes), "totals": dict(self.totals)}


# --- reading -----------------------------------------------------------------


def _pick_rules(named: object, given: RuleSet | str | None) -> RuleSet:
    """Return the rule set the pad names or the caller gives; they must agree if both."""
    from_pad = ruleset(rules_name(named)) if named not in (None, "") else None
    from_caller = ruleset(given) if isinstance(given, str) else given
    if from_pad and from_caller and from_pad.name != from_caller.name:
        raise PadFormatError(
            f"the pad says rules {from_pad.name!r} but {from_caller.name!r} was asked for"
        )
    rules = from_pad or from_caller
    if rules is None:
        raise PadFormatError(
            'the pad does not say which rules it follows: add "rules": "yahtzee" (JSON) '
            "or rules,yahtzee (CSV), or give the rule set (--rules)"
        )
    return rules


def _normal(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def _aliases(rules: RuleSet) -> dict[str, str]:
    """Every accepted spelling of a row name (normalized) mapped to its key."""
    names = {_normal(c.slug): c.slug for c in rules.categories}
    names |= {_normal(c.name): c.slug for c in rules.categories}
    names["aces" if rules.slugs[0] == "ones" else "ones"] = rules.slugs[0]
    # Bonus rows stay known for Yacht too, so the constructor can say why they are refused.
    names |= {_normal(k): k for k in TOTAL_KEYS} | {_normal(v): k for k, v in TOTAL_NAMES.items()}
    printed = {_normal(row.name): row.key for row in printed_pad(rules)
               if row.kind == "total" and row.marks == "points"}  # Yatzy: "Sum", "Total"
    return names | _TOTAL_ALIASES | printed


def _known_rows(rules: RuleSet) -> str:
    return f"rows are: {', '.join((*rules.slugs, *total_keys(rules)))}"


def _read_value(key: str, raw: object, where: str) -> int | None:
    """Return the value *raw* read from a pad cell, or None for a blank one."""
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            return None
        marks = "".join(text.split())
        if key == "yahtzee_bonus_checks" and set(marks) <= _CHECK_MARKS:
            return len(marks)
        try:
            raw = read_number(key, text)
        except PadFormatError as error:
            raise PadFormatError(f"{where}: {error}") from None
    elif isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    try:
        return _check_value(key, raw)
    except PadFormatError as error:
        raise PadFormatError(f"{where}: {error}") from None


def _check_value(key: str, value: object) -> int | None:
    return whole_number(key, value, PadFormatError)


# --- the audit ---------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong on a pad: its row, a stable code, what is written and what fits."""

    row: str  # a box slug or a total key
    code: str  # blank_box, impossible_value, wrong_total, wrong_bonus, ...
    written: int | None
    expected: str  # what the row may hold, in words: "0 or 25", "63"
    message: str  # an English sentence for people
    parts: tuple[tuple[str, int], ...] = ()  # a total's rows (box or total key) and values

    def to_dict(self) -> dict[str, object]:
        """Return a JSON-ready dict of the fields."""
        return asdict(self)


def audit(pad: Pad, *, finished: bool = True) -> list[Problem]:
    """Return every problem on *pad* in pad order; an empty list when it is consistent.

    With *finished* False (a game still being played) blank boxes are not problems.
    """
    found = [*_box_problems(pad, finished), *_checks_problems(pad)]
    unknown = frozenset(p.row for p in found if p.code in CARD_CODES)
    problems = [*found, *_total_problems(pad, unknown)]
    order = pad_rows(pad.rules)
    return sorted(problems, key=lambda p: order.index(p.row))


def card_problems(pad: Pad) -> list[Problem]:
    """Return the problems of *pad* that no game can have at any point, in pad order.

    These are values no roll scores in their box and Yahtzee-bonus checks that
    cannot be (no 50 in the Yahtzee box, or more than the boxes could take).
    """
    return [p for p in audit(pad, finished=False) if p.code in CARD_CODES]


def _box_problems(pad: Pad, finished: bool) -> list[Problem]:
    problems = []
    for category in pad.rules.categories:
        value = pad.boxes[category.slug]
        possible = possible_values(pad.rules, category.slug)
        expected = describe_values(possible)
        if value is None and finished:
            message = f"{category.name} is blank; every box holds a score at the end of a game."
            problems.append(Problem(category.slug, "blank_box", None, expected, message))
        elif value is not None and value not in possible:
            message = f"{category.name}: {value} is written, but this box can only hold {expected}."
            problems.append(Problem(category.slug, "impossible_value", value, expected, message))
    return problems


def _section(pad: Pad, section: Section) -> list[int]:
    return [pad.boxes[c.slug] or 0 for c in pad.rules.categories if c.section is section]


def _total_problems(pad: Pad, unknown: frozenset[str]) -> list[Problem]:
    """Return the problems with the upper bonus and the totals, in pad order, leaving out
    those resting on a row in *unknown* (rows whose right value cannot be known)."""
    correct, carried = _sums(pad, carry=False), _sums(pad, carry=True)

    def knowable(key: str) -> bool:
        return not ({key} | _rows_under(pad.rules, key, correct)) & unknown

    problems = _upper_bonus_check(pad) if knowable("upper_bonus") else []
    for key, (expected, parts) in correct.items():
        value = pad.totals.get(key)
        if value is None or value == expected or not knowable(key):
            continue
        label, formula = row_label(pad.rules, key), _formula(pad.rules, key, parts)
        if value == carried[key][0]:
            code = "carried_total"
            message = (f"{label}: {value} adds up the rows above as written, but one of them "
                       f"is wrong, so it should be {expected} ({formula}).")
        else:
            code = "wrong_bonus" if key == "yahtzee_bonus" else "wrong_total"
            message = f"{label}: {value} is written, but it should be {expected} ({formula})."
        problems.append(Problem(key, code, value, str(expected), message, parts))
    return problems


Sum = tuple[int, tuple[tuple[str, int], ...]]


def _rows_under(rules: RuleSet, key: str, sums: Mapping[str, Sum]) -> set[str]:
    """Return every row total *key* adds up, directly or through the totals it adds up (the
    upper bonus stands on the upper boxes)."""
    if key == "upper_bonus":
        return {c.slug for c in rules.categories if c.section is Section.UPPER}
    rows: set[str] = set()
    for name, _ in sums[key][1] if key in sums else ():
        rows |= {name, *_rows_under(rules, name, sums)}
    return rows


def _formula(rules: RuleSet, key: str, parts: tuple[tuple[str, int], ...]) -> str:
    """Return how total *key* adds up: "3 + 6 + 9", "Upper total 110 + Lower total 314"."""
    if key == "yahtzee_bonus":
        return f"{parts[0][1]} × {rules.five_alike_bonus}"
    return " + ".join(str(value) if name in rules.slugs else f"{row_label(rules, name)} {value}"
                      for name, value in parts)


def _sums(pad: Pad, carry: bool) -> dict[str, Sum]:
    """Return each sum of the pad: its value and the rows it adds up with their values.

    With *carry*, a total written on the pad stands for itself in the sums below it.
    """
    rules, written = pad.rules, pad.totals
    sums: dict[str, Sum] = {}

    def used(key: str, computed: int) -> int:
        value = written.get(key)
        return value if carry and value is not None else computed

    def add(key: str, parts: Mapping[str, int]) -> tuple[str, int]:
        sums[key] = (sum(parts.values()), tuple(parts.items()))
        return key, used(key, sums[key][0])

    for section, key in ((Section.UPPER, "upper_subtotal"), (Section.LOWER, "lower_subtotal")):
        add(key, {c.slug: pad.boxes[c.slug] or 0
                  for c in rules.categories if c.section is section})
    upper = {"upper_subtotal": used("upper_subtotal", sums["upper_subtotal"][0])}
    if "upper_bonus" in written:
        upper["upper_bonus"] = used("upper_bonus", _upper_bonus(rules, sums["upper_subtotal"][0]))
    lower = {"lower_subtotal": used("lower_subtotal", sums["lower_subtotal"][0])}
    if "yahtzee_bonus_checks" in written:
        checks = (_bonus_count(pad) or ("", 0, 0))[2]
        sums["yahtzee_bonus"] = (checks * rules.five_alike_bonus,
                                 (("yahtzee_bonus_checks", checks),))
        lower["yahtzee_bonus"] = used("yahtzee_bonus", sums["yahtzee_bonus"][0])
    add("grand_total", dict([add("upper_total", upper), add("lower_total", lower)]))
    return sums


def _upper_bonus(rules: RuleSet, upper: int) -> int:
    threshold = rules.upper_bonus_threshold
    return rules.upper_bonus if threshold is not None and upper >= threshold else 0


def _upper_bonus_check(pad: Pad) -> list[Problem]:
    upper = sum(_section(pad, Section.UPPER))
    bonus = _upper_bonus(pad.rules, upper)
    value = pad.totals.get("upper_bonus")
    if value is None or value == bonus:
        return []
    threshold = pad.rules.upper_bonus_threshold
    side = f"{threshold} or more" if bonus else f"less than {threshold}"
    message = (
        f"Upper bonus: {value} is written, but it should be {bonus} "
        f"(the upper boxes add up to {upper}, {side})."
    )
    return [Problem("upper_bonus", "wrong_bonus", value, str(bonus), message)]


def _bonus_count(pad: Pad) -> tuple[str, int, int] | None:
    """Return the checks row (or the points row, if no checks): its value, how many checks."""
    checks, points = pad.totals.get("yahtzee_bonus_checks"), pad.totals.get("yahtzee_bonus")
    if checks is not None:
        return ("yahtzee_bonus_checks", checks, _checks_of(pad.rules, checks))
    if points is not None:
        return ("yahtzee_bonus", points, points // pad.rules.five_alike_bonus)
    return None


def _checks_of(rules: RuleSet, value: int) -> int:
    """Return the checks a checks row holding *value* stands for: 300 written there is points,
    three checks (no pad has room for a hundred)."""
    bonus = rules.five_alike_bonus
    return value // bonus if value >= bonus and value % bonus == 0 else value


def _checks_problems(pad: Pad) -> list[Problem]:
    """Return problems with the Yahtzee-bonus checks (points in the checks row read as
    checks): no 50 in the box, or too many."""
    found = _bonus_count(pad)
    if found is None or not found[2]:
        return []
    return _checks_room(pad, *found)


def _checks_room(pad: Pad, row: str, value: int, checks: int) -> list[Problem]:
    """Return the problem of *checks* bonus checks the pad cannot hold, if any."""
    label = row_label(pad.rules, row)
    five_alike = pad.rules.category(pad.rules.five_alike_slug)
    held = pad.boxes[five_alike.slug]
    if held != five_alike.max_points:
        message = (
            f"{label}: {value} is written, but a bonus needs {five_alike.max_points} "
            f"in the {five_alike.name} box, which holds {'nothing' if held is None else held}."
        )
        return [Problem(row, "bonus_without_yahtzee", value, "0", message)]
    others = [c for c in pad.rules.categories if c is not five_alike]
    room = sum(pad.boxes[c.slug] in bonus_roll_values(pad.rules, c) for c in others)
    if checks <= room:
        return []
    message = (
        f"{label}: {value} is written, but each check needs another {five_alike.name} "
        f"scored in another box, and only {room} boxes hold a value it can score there."
    )
    most = room if row == "yahtzee_bonus_checks" else room * pad.rules.five_alike_bonus
    return [Problem(row, "too_many_checks", value, str(most), message)]  # expected: at most

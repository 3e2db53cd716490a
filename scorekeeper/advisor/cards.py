"""Read the card so far for the advisor, from a file's bytes or from parsed JSON data.

Accepted shapes (boxes missing or null are open)::

    {"boxes": {"aces": 5, "yahtzee": 50}, "yahtzee_bonus": 1}         # checks, not points
    {"rules": "yahtzee", "boxes": {...}, "bonus_checks": 1}           # Scorecard.to_dict()
    {"rules": "yahtzee", "boxes": {...}, "totals": {"yahtzee_bonus_checks": 1}}  # a pad

and a pad ``.csv``: any file `pipkeeper check` reads, read by the same code. Only
the boxes and the Yahtzee-bonus checks (or the bonus points, 100 a check) matter
to the advisor; other totals are ignored (`scorekeeper.audit` checks them). A
card no game can reach is refused with the audit's message: a value no roll
scores in its box (20 in Full House), bonus checks without 50 in the Yahtzee
box, or more checks than boxes holding what a further Yahtzee scored.
"""

from __future__ import annotations

from scorekeeper.advisor.solver import AdvisorError
from scorekeeper.audit import Pad, card_problems
from scorekeeper.cardfile import PadFormatError, file_kind, read_content
from scorekeeper.errors import RulesError
from scorekeeper.rulesets import RuleSet
from scorekeeper.scorecard import Scorecard


class CardFileError(AdvisorError, PadFormatError):
    """Card data that cannot be read as a card of the rule set; the message quotes it."""


def card_from_file(rules: RuleSet, name: str, data: bytes) -> Scorecard:
    """Return the card in the contents *data* of file *name*: JSON (.json) or a pad (.csv).

    Raises PadFormatError for a file that is not UTF-8 text or not valid JSON
    (the message `pipkeeper check` gives), CardFileError for one that is not a
    card of *rules* or that no game reaches, RuleSetError for bad rules; each
    message starts with *name*.
    """
    if file_kind(name) == "csv":
        content = Pad.from_file(name, data, rules).to_dict()
    else:
        content = read_content(name, data)[1]
    try:
        return card_from_data(rules, content)
    except RulesError as error:
        raise CardFileError(f"{name}: {error}") from None


def card_from_data(rules: RuleSet, data: object) -> Scorecard:
    """Return the card described by *data* (parsed JSON) under *rules*, read as a pad is
    (`scorekeeper.audit.Pad.from_dict`, which takes a saved card's checks too).

    Raises CardFileError for data that is not a card of *rules* (a wrong shape, an
    unknown row, another rule set, points that are not whole numbers from 0 to
    9999, bonus checks Yacht has not) or a card no game reaches; RuleSetError for
    an unknown rule set.
    """
    try:
        pad = Pad.from_dict(data, rules)
    except PadFormatError as error:
        raise CardFileError(str(error)) from None
    problems = card_problems(pad)
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise CardFileError(f"{problems[0].message}{more}")
    return Scorecard(rules, tuple(pad.boxes[s] for s in rules.slugs), _checks(pad))


def _checks(pad: Pad) -> int:
    """Return the Yahtzee-bonus checks of *pad*: the checks row, else the points row / 100."""
    checks, points = pad.totals.get("yahtzee_bonus_checks"), pad.totals.get("yahtzee_bonus")
    if checks is None and points is not None:
        return points // pad.rules.five_alike_bonus
    return checks or 0

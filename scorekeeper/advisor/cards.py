"""Read the card so far from JSON data for the advisor (the file itself is read by the caller).

Accepted shapes (boxes missing or null are open)::

    {"boxes": {"aces": 3, "full_house": 25}, "yahtzee_bonus": 1}      # checks, not points
    {"rules": "yahtzee", "boxes": {...}, "bonus_checks": 1}           # Scorecard.to_dict()
    {"rules": "yahtzee", "boxes": {...}, "totals": {"yahtzee_bonus_checks": 1}}  # a pad

Only the boxes and the number of Yahtzee-bonus checks matter to the advisor;
other totals are ignored (`scorekeeper.audit` checks them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.advisor.solver import AdvisorError
from scorekeeper.rulesets import RuleSet, ruleset
from scorekeeper.scorecard import Scorecard, check_points

_CHECK_KEYS = ("yahtzee_bonus", "bonus_checks")


class CardFileError(AdvisorError):
    """Card data that cannot be read as a card of the rule set; the message quotes it."""


def card_from_data(rules: RuleSet, data: object) -> Scorecard:
    """Return the card described by *data* (parsed JSON) under *rules*.

    Raises CardFileError for a wrong shape, a rule set other than *rules*, points
    that are not whole numbers >= 0, or bonus checks the rules do not have;
    UnknownBoxError (from `RuleSet.category`) for a box the rules do not have.
    """
    if not isinstance(data, Mapping):
        raise CardFileError(f"a card is a JSON object with \"boxes\", got {data!r}")
    named = data.get("rules")
    if named is not None and ruleset(str(named)).name != rules.name:
        raise CardFileError(f"the card is for {named!r}, not for {rules.name!r}")
    boxes = data.get("boxes", {})
    if not isinstance(boxes, Mapping):
        raise CardFileError(f"\"boxes\" must map box names to points, got {boxes!r}")
    points: dict[str, int | None] = dict.fromkeys(rules.slugs)
    for slug, value in boxes.items():
        points[rules.category(str(slug)).slug] = _points(f"box {slug!r}", value)
    checks = _checks(rules, data)
    return Scorecard(rules, tuple(points[s] for s in rules.slugs), checks)


def _points(where: str, value: object) -> int | None:
    return check_points(where, value, CardFileError)


def _checks(rules: RuleSet, data: Mapping[str, Any]) -> int:
    """Return the number of Yahtzee-bonus checks the data gives (0 when it gives none)."""
    found = [(key, data[key]) for key in _CHECK_KEYS if data.get(key) is not None]
    totals = data.get("totals")
    if isinstance(totals, Mapping) and totals.get("yahtzee_bonus_checks") is not None:
        found.append(("totals.yahtzee_bonus_checks", totals["yahtzee_bonus_checks"]))
    values = {key: _points(key, value) or 0 for key, value in found}
    if len(set(values.values())) > 1:
        raise CardFileError(f"the Yahtzee-bonus checks disagree: {values}")
    checks = next(iter(values.values()), 0)
    if checks and not rules.five_alike_bonus:
        raise CardFileError(f"{rules.name} has no Yahtzee bonus, but the card has {checks} checks")
    return checks

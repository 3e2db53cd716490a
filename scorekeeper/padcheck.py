"""Choose, per column of a photographed pad, the likeliest reading the rules allow, and
audit it.

Each cell comes with its reader's candidates: (value or None for blank, probability). A
box's value must be one it can hold (`scorekeeper.boxvalues`); the totals must add up.
The reading chosen maximizes the product of the cells' probabilities, where a value no
roll scores in its box, or a total that is not its sum, costs a factor `MISTAKE` (the pad
may really be wrong, but rarely is). So a cell read as 7 or 1 in Threes is 1 unless the
reader is sure of the 7; a Grand total read as 215 or 205 is the one that adds up; and
where the likeliest reading still disagrees with a written total, that is a mistake on
the pad, which the audit reports as it reports a typed pad. A total written wrong is
most often off by a box's worth or less (`SLIP_REACH` points): one further off costs
`FAR_SLIP` more, so a Grand total read as 719 (71 %) or 119 (3 %) where 109 adds up is
taken as a 119 written wrong rather than a 719. A cell's confidence is its
chosen value's share under that weighing; below `SURE` it is marked doubtful.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorekeeper.audit import Pad, Problem, audit
from scorekeeper.boxvalues import possible_values
from scorekeeper.padlayouts import LayoutRow
from scorekeeper.rulesets import RuleSet, Section

Candidates = tuple[tuple[int | None, float], ...]
MISTAKE = 0.003
SLIP_REACH = 50  # a total written wrong is most often off by at most this much
FAR_SLIP = 0.01  # the weight of a total written further off than that, on top of MISTAKE
SURE = 0.9
BLANK_COLUMN = 0.9  # a column whose every cell is this surely blank is an unplayed game
KEEP_SUMS = 400  # the likeliest partial sums kept while adding up a section's boxes


@dataclass(frozen=True)
class CellChoice:
    """One cell of a column: its row (index in the layout's rows), the value chosen (None:
    blank), its confidence and the reader's candidates."""

    row: int
    key: str
    value: int | None
    confidence: float
    candidates: Candidates

    @property
    def doubtful(self) -> bool:
        """True when the value chosen is not sure enough to be taken without a look."""
        return self.confidence < SURE

    def to_dict(self) -> dict[str, Any]:
        """Return the cell as JSON data: value, confidence, candidates [[value, p], ...]."""
        return {"value": self.value, "confidence": round(self.confidence, 4),
                "candidates": [[v, round(p, 4)] for v, p in self.candidates]}


@dataclass(frozen=True)
class ColumnCheck:
    """A column read and checked: its cells, the pad they make, the audit's problems; a
    column left blank (a game not played) has no pad."""

    cells: tuple[CellChoice, ...]
    pad: Pad | None
    problems: tuple[Problem, ...]

    @property
    def doubtful(self) -> tuple[CellChoice, ...]:
        """The cells whose reading is not sure."""
        return tuple(cell for cell in self.cells if cell.doubtful)

    def by_name(self) -> dict[str, CellChoice]:
        """Return the cells by box slug or total key; a total printed twice (Hasbro's
        upper total) is the key and then the key with ``_2``."""
        named: dict[str, CellChoice] = {}
        for cell in self.cells:
            name = cell.key if cell.key not in named else f"{cell.key}_2"
            named[name] = cell
        return named

    def to_dict(self) -> dict[str, Any]:
        """Return the column as JSON data: its cells by name, problems, doubtful rows."""
        return {"blank": self.pad is None,
                "cells": {name: cell.to_dict() for name, cell in self.by_name().items()},
                "problems": [p.to_dict() for p in self.problems],
                "doubtful": [cell.key for cell in self.doubtful]}


def _log(p: float) -> float:
    return math.log(max(p, 1e-12))


def _legal(rules: RuleSet, slug: str, finished: bool) -> frozenset[int | None]:
    """The values box *slug* may hold; blank too while the game is being played."""
    values: frozenset[int | None] = frozenset(possible_values(rules, slug))
    return values if finished else values | {None}


def _box_weight(legal: frozenset[int | None], value: int | None) -> float:
    """A box's value no roll scores there, or a box left blank at the end of a game, is a
    mistake on the pad (`audit` reports both), as rare as any other."""
    return 1.0 if value in legal else MISTAKE


def _total_weight(value: int | None, right: int) -> float:
    """A total that is not its sum is a mistake, the rarer the further off it is (see
    SLIP_REACH); one read as blank counts as far off, since reading a written total as
    blank would take a slip out of the audit's sight."""
    if value == right:
        return 1.0
    return MISTAKE if value is not None and abs(value - right) <= SLIP_REACH else (
        MISTAKE * FAR_SLIP)


@functools.lru_cache(maxsize=1024)
def _total_profile(candidates: Candidates) -> tuple[int, np.ndarray, float]:
    """Return a total row's log weight when it should hold each sum: (lo, weights, far),
    weights[s - lo] for a sum s near a value read, far for any other sum. A sum read is
    weighed as read; one within SLIP_REACH of a value read as that value written wrong;
    any other as the likeliest reading written far off (see _total_weight)."""
    far = max(_log(p * MISTAKE * FAR_SLIP) for _, p in candidates)
    values = [(value, p) for value, p in candidates if value is not None]
    if not values:
        return 0, np.zeros(0), far
    lo = max(0, min(v for v, _ in values) - SLIP_REACH)
    weights = np.full(max(v for v, _ in values) + SLIP_REACH + 1 - lo, far)
    for value, p in values:
        near = weights[max(0, value - SLIP_REACH - lo):value + SLIP_REACH + 1 - lo]
        np.maximum(near, _log(p * MISTAKE), out=near)
    for value, p in values:
        weights[value - lo] = max(weights[value - lo], _log(p))
    return lo, weights, far


@functools.lru_cache(maxsize=4096)
def _total_score(candidates: Candidates, right: int) -> float:
    """The log weight of a total row's best reading when it should hold *right*: the
    reading *right* itself, or a reading as a mistake on the pad (the search asks this of
    one row for many sums)."""
    lo, weights, far = _total_profile(candidates)
    return float(weights[right - lo]) if 0 <= right - lo < len(weights) else far


def _totals_scores(candidates: Candidates, sums: np.ndarray) -> np.ndarray:
    """_total_score of one total row for each of the integer *sums* at once."""
    lo, weights, far = _total_profile(candidates)
    index = sums - lo
    inside = (index >= 0) & (index < len(weights))
    scores = np.full(sums.shape, far)
    scores[inside] = weights[index[inside]]
    return scores


def _box_options(rules: RuleSet, slug: str, candidates: Candidates,
                 finished: bool) -> list[tuple[int | None, int, float]]:
    """Return a box's readings as (value, points it adds, log weight)."""
    legal = _legal(rules, slug, finished)
    return [(value, value or 0, _log(p * _box_weight(legal, value))) for value, p in candidates]


def _best_sums(rules: RuleSet, cells: Sequence[tuple[str, Candidates]],
               finished: bool) -> dict[int, float]:
    """Return, for every sum of these boxes' values, the best log weight reaching it."""
    best = {0: 0.0}
    for slug, candidates in cells:
        options = _box_options(rules, slug, candidates, finished)
        nxt: dict[int, float] = {}
        for total, score in best.items():
            for _, points, log_weight in options:
                key, weight = total + points, score + log_weight
                if weight > nxt.get(key, -math.inf):
                    nxt[key] = weight
        best = dict(sorted(nxt.items(), key=lambda kv: -kv[1])[:KEEP_SUMS])
    return best


def _points_weight(rules: RuleSet, value: int | None) -> float:
    """The Yahtzee-bonus points row holds a multiple of the bonus (or nothing); any other
    value is a mistake on the pad."""
    bonus = rules.five_alike_bonus
    return 1.0 if value is None or value == 0 or (bonus and value % bonus == 0) else MISTAKE


def _points_read(rules: RuleSet, candidates: Candidates) -> tuple[int | None, float]:
    """Return the Yahtzee-bonus points row's likeliest reading and its log weight, where
    no checks are read for it to agree with (see _points_weight)."""
    return max(((value, _log(p * _points_weight(rules, value))) for value, p in candidates),
               key=lambda vw: vw[1])


def _bonus_points(rules: RuleSet, checks: int | None, points: int | None) -> int:
    """Return the Yahtzee bonus a column adds: by the checks read, or where none are, by
    the points row read (*points*)."""
    bonus = rules.five_alike_bonus
    if checks is not None:
        return _checks_of(rules, checks) * bonus
    return (points or 0) // bonus * bonus if bonus else 0


def _checks_of(rules: RuleSet, value: int) -> int:
    bonus = rules.five_alike_bonus
    return value // bonus if bonus and value >= bonus and value % bonus == 0 else value


@dataclass(frozen=True)
class _Column:
    """A column's cells sorted out: boxes by section, total rows by key (several rows may
    share one), the checks row."""

    rules: RuleSet
    finished: bool
    upper: tuple[tuple[str, Candidates], ...]
    lower: tuple[tuple[str, Candidates], ...]
    totals: Mapping[str, tuple[Candidates, ...]]

    def total_score(self, key: str, right: int) -> float:
        return sum(_total_score(c, right) for c in self.totals.get(key, ()))

    def bonus(self, upper: int) -> int:
        threshold = self.rules.upper_bonus_threshold
        return self.rules.upper_bonus if threshold is not None and upper >= threshold else 0

    def upper_total(self, upper: int) -> int:
        return upper + self.bonus(upper)


def _sort(rules: RuleSet, rows: Sequence[LayoutRow], readings: Mapping[int, Candidates],
          finished: bool) -> _Column:
    sections = {c.slug: c.section for c in rules.categories}
    upper: list[tuple[str, Candidates]] = []
    lower: list[tuple[str, Candidates]] = []
    totals: dict[str, tuple[Candidates, ...]] = {}
    for i, row in enumerate(rows):
        if i not in readings:
            continue
        if row.kind == "box":
            (upper if sections[row.key] is Section.UPPER else lower).append(
                (row.key, readings[i]))
        else:
            totals[row.key] = (*totals.get(row.key, ()), readings[i])
    return _Column(rules, finished, tuple(upper), tuple(lower), totals)


def _lower_options(column: _Column) -> dict[int, tuple[float, int, int | None]]:
    """Return, per lower total, the best (log weight, lower boxes' sum, checks read)."""
    sums = _best_sums(column.rules, column.lower, column.finished)
    no_row: tuple[Candidates, ...] = (((None, 1.0),),)
    checks = column.totals.get("yahtzee_bonus_checks", no_row)[0]
    best: dict[int, tuple[float, int, int | None]] = {}
    read = [_points_read(column.rules, c) for c in column.totals.get("yahtzee_bonus", ())]
    for low, score in sums.items():
        for k, pk in checks:
            weight = score + _log(pk)
            points = _bonus_points(column.rules, k, read[0][0] if read else None)
            if k is not None:
                weight += column.total_score("yahtzee_bonus", points)
            else:  # no checks: the points row stands for itself
                weight += sum(w for _, w in read)
            lt = low + points
            weight += column.total_score("lower_subtotal", low) + column.total_score(
                "lower_total", lt)
            if weight > best.get(lt, (-math.inf, 0, None))[0]:
                best[lt] = (weight, low, k)
    return best


def _grand_scores(column: _Column, sums: np.ndarray) -> np.ndarray:
    """Return the Grand total rows' log weight for each of the integer *sums*."""
    scores = np.zeros(sums.shape)
    for candidates in column.totals.get("grand_total", ()):
        scores += _totals_scores(candidates, sums)
    return scores


def _choose_sums(column: _Column) -> tuple[int, int, int | None]:
    """Return the upper boxes' sum, the lower boxes' sum and the checks read that make the
    likeliest column: every pairing of the two sections' likeliest sums is weighed with
    the Grand total it makes."""
    upper = {u: s + column.total_score("upper_subtotal", u)
             + column.total_score("upper_bonus", column.bonus(u))
             + column.total_score("upper_total", column.upper_total(u))
             for u, s in _best_sums(column.rules, column.upper, column.finished).items()}
    lower = _lower_options(column)
    ups, lows = list(upper), list(lower)
    grand = (np.array([column.upper_total(u) for u in ups])[:, None]
             + np.array(lows)[None, :])
    scores = (np.array([upper[u] for u in ups])[:, None]
              + np.array([lower[lt][0] for lt in lows])[None, :] + _grand_scores(column, grand))
    i, j = np.unravel_index(int(np.argmax(scores)), scores.shape)
    _, low, checks = lower[lows[j]]
    return ups[i], low, checks


def _pick_boxes(rules: RuleSet, cells: Sequence[tuple[str, Candidates]],
                target: int, finished: bool) -> dict[str, int | None]:
    """Return the likeliest legal-weighted values of *cells* adding up to *target*."""
    best: dict[int, tuple[float, tuple[int | None, ...]]] = {0: (0.0, ())}
    for slug, candidates in cells:
        options = _box_options(rules, slug, candidates, finished)
        nxt: dict[int, tuple[float, tuple[int | None, ...]]] = {}
        for total, (score, values) in best.items():
            for value, points, log_weight in options:
                key, weight = total + points, score + log_weight
                if weight > nxt.get(key, (-math.inf, ()))[0]:
                    nxt[key] = (weight, (*values, value))
        best = dict(sorted(nxt.items(), key=lambda kv: -kv[1][0])[:KEEP_SUMS])
    chosen = best.get(target) or max(best.values(), key=lambda entry: entry[0])
    return dict(zip((slug for slug, _ in cells), chosen[1], strict=True))


def _weighted(candidates: Candidates, weight: Mapping[int | None, float]) -> list[
        tuple[int | None, float]]:
    scored = [(v, p * weight.get(v, 1.0)) for v, p in candidates]
    total = sum(p for _, p in scored) or 1.0
    return [(v, p / total) for v, p in scored]


def _total_choice(candidates: Candidates, right: int) -> tuple[int | None, float]:
    weighted = _weighted(candidates, {v: _total_weight(v, right) for v, _ in candidates})
    return max(weighted, key=lambda vp: vp[1])


def _right_totals(column: _Column, u: int, low: int, checks: int | None,
                  points: int | None) -> dict[str, int]:
    bonus_points = _bonus_points(column.rules, checks, points)
    lower_total = low + bonus_points
    return {"upper_subtotal": u, "upper_bonus": column.bonus(u),
            "upper_total": column.upper_total(u), "lower_subtotal": low,
            "yahtzee_bonus": bonus_points, "yahtzee_bonus_checks": checks or 0,
            "lower_total": lower_total, "grand_total": column.upper_total(u) + lower_total}


def check_column(rules: RuleSet, rows: Sequence[LayoutRow],
                 readings: Mapping[int, Candidates], *, finished: bool = True) -> ColumnCheck:
    """Return the likeliest reading of one column that the rules allow, and its audit.

    *readings* maps the index of each box and total row in *rows* to its candidates.
    """
    if all(dict(c).get(None, 0.0) >= BLANK_COLUMN for c in readings.values()):
        blank = tuple(CellChoice(i, rows[i].key, None, dict(c)[None], c)
                      for i, c in sorted(readings.items()))
        return ColumnCheck(blank, None, ())
    column = _sort(rules, rows, readings, finished)
    u, low, checks = _choose_sums(column)
    boxes = (_pick_boxes(rules, column.upper, u, finished)
             | _pick_boxes(rules, column.lower, low, finished))
    no_row: tuple[Candidates, ...] = (((None, 1.0),),)
    points = _points_read(rules, column.totals.get("yahtzee_bonus", no_row)[0])[0]
    right = _right_totals(column, u, low, checks, points)
    cells: list[CellChoice] = []
    totals: dict[str, int | None] = {}
    for i, candidates in sorted(readings.items()):
        row = rows[i]
        if row.kind == "box":
            legal = _legal(rules, row.key, finished)
            weighted = _weighted(candidates, {v: _box_weight(legal, v) for v, _ in candidates})
            value: int | None = boxes[row.key]
            confidence = dict(weighted)[value]
        elif row.key == "yahtzee_bonus_checks" or (row.key == "yahtzee_bonus" and checks is None):
            value = checks if row.key == "yahtzee_bonus_checks" else points
            confidence = dict(candidates)[value]
        else:
            value, confidence = _total_choice(candidates, right[row.key])
        if row.kind == "total" and totals.get(row.key) in (None, right.get(row.key)):
            totals[row.key] = value  # a total printed twice: the pad keeps a wrong copy
        cells.append(CellChoice(i, row.key, value, confidence, candidates))
    pad = Pad(rules, boxes, totals)
    return ColumnCheck(tuple(cells), pad, tuple(audit(pad, finished=finished)))


def problem_cells(check: ColumnCheck, problem: Problem) -> tuple[CellChoice, ...]:
    """Return the cells *problem* is about: its row's cell (the checks row for a count of
    checks); of a total printed twice, the copies holding the value found wrong."""
    keys = {problem.row}
    if problem.row in ("yahtzee_bonus_checks", "yahtzee_bonus"):
        keys = {"yahtzee_bonus_checks", "yahtzee_bonus"} if problem.code in (
            "bonus_without_yahtzee", "too_many_checks") else keys
    cells = [cell for cell in check.cells if cell.key in keys]
    written = [cell for cell in cells if cell.value == problem.written]
    return tuple(written or cells)

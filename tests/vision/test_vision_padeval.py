"""How `make eval` counts a checked column of a rendered pad."""

from __future__ import annotations

from models.padeval import Column, Tally
from scorekeeper.audit import Problem
from scorekeeper.padcheck import CellChoice, ColumnCheck


def _check(values: dict[int, int | None], problem_rows: tuple[str, ...]) -> ColumnCheck:
    cells = tuple(CellChoice(r, f"row{r}", v, 0.99, ((v, 0.99),)) for r, v in values.items())
    problems = tuple(Problem(row, "wrong_total", 1, "2", "") for row in problem_rows)
    return ColumnCheck(cells, None, problems)


def test_a_slip_is_found_only_at_its_row_and_flagged_at_any() -> None:
    tally = Tally()
    truth = {0: 3, 1: 20, 2: 23}
    slipped = Column(truth, "grand_total")
    tally.add(slipped, _check({0: 3, 1: 20, 2: 23}, ("lower_total",)), truth)
    tally.add(slipped, _check({0: 3, 1: 20, 2: 23}, ("grand_total",)), truth)
    tally.add(slipped, _check({0: 3, 1: 25, 2: 23}, ()), {0: 3, 1: 25, 2: 23})
    assert (tally.slips, tally.slips_found, tally.slips_flagged) == (3, 1, 2)
    assert (tally.cells, tally.chosen_right, tally.read_right) == (9, 8, 8)
    assert (tally.columns, tally.columns_right) == (3, 2)


def test_a_problem_on_a_column_written_right_is_a_false_alarm() -> None:
    tally = Tally()
    truth = {0: 5, 1: 5}
    tally.add(Column(truth, None), _check(truth, ()), truth)
    tally.add(Column(truth, None), _check({0: 5, 1: 6}, ("upper_total",)), truth)
    assert (tally.clean, tally.false_alarms, tally.slips) == (2, 1, 0)
    assert (tally.columns, tally.columns_right) == (2, 1)

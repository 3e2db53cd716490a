"""Load script for `pipkeeper serve`: ``python -m web.loadtest`` (see ``--help``).

`run_suite` returns every scenario's result; `suite_figures` turns them into
figures with targets; `web.loadtest.report` prints them.
"""

from __future__ import annotations

from web.loadtest.sizes import DEFAULT, QUICK, Sizes
from web.loadtest.suite import SuiteResult, run_suite, suite_figures

__all__ = ["DEFAULT", "QUICK", "Sizes", "SuiteResult", "run_suite", "suite_figures"]

"""Fixtures of the advisor tests: the session's cache folder and solved tables.

Every advisor test runs with PIPKEEPER_CACHE_DIR pointing at the session's temporary
folder (tests/conftest.py `advisor_cache`), so the user's own cache is never read or
written; each rule set is solved at most once per session, and a table the web tests
or the browser tests' server solved is loaded instead (the full Yahtzee tables take
seconds, the Yatzy ones about 15 s of CPU each).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.advisor import Table, solve
from scorekeeper.advisor.cache import CACHE_ENV

Solved = Callable[[str], Table]


@pytest.fixture(scope="session")
def cache_folder(advisor_cache: Path) -> Path:
    """The session's advisor cache folder, shared with the other test packages."""
    return advisor_cache


@pytest.fixture(autouse=True)
def _cache_env(cache_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(cache_folder))


@pytest.fixture(scope="session")
def solved(cache_folder: Path) -> Solved:
    """Return a function giving the table of a rule set, solved once per session."""
    tables: dict[str, Table] = {}

    def get(name: str) -> Table:
        if name not in tables:
            with pytest.MonkeyPatch.context() as patch:
                patch.setenv(CACHE_ENV, str(cache_folder))
                tables[name] = solve(name)
        return tables[name]

    return get

"""Fixtures of the advisor tests: a per-session cache folder and solved tables.

Every advisor test runs with PIPKEEPER_CACHE_DIR pointing at a temporary folder,
so the user's own cache is never read or written; each rule set is solved at most
once per session (the full Yahtzee tables take seconds).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.advisor import Table, solve
from scorekeeper.advisor.cache import CACHE_ENV

Solved = Callable[[str], Table]


@pytest.fixture(scope="session")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's advisor cache folder."""
    return tmp_path_factory.mktemp("advisor-cache")


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

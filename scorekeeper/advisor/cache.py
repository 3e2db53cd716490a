"""Solved tables on disk: one compressed file per rule set and algorithm version.

A file is a zip holding ``key.txt`` (the key below) and ``values.f64`` (the table,
little-endian float64, in the rule set's table shape). It is read without Python's
``ast`` module, unlike ``np.load``: CPython 3.11 cannot build syntax trees on two
threads at once (gh-106905), and a table loads on a background thread while the
server may be doing just that.

The folder is ``platformdirs.user_cache_dir("pipkeeper")/advisor``, or the folder
named by the environment variable PIPKEEPER_CACHE_DIR. A file's name carries the
rule-set name, the algorithm version and a fingerprint of everything the values
depend on (box scores over all rolls, Joker rule, bonuses, the order of filling); the
same key is stored inside the file and checked on loading, so a table of one
variant (or of an older algorithm) is never served for another; saving a rule set's
table deletes its files of other keys.

`TableCache` keeps solved tables in memory for whoever owns it (the web app one
per app, the command line one per run): nothing here is a module-level global.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from scorekeeper.advisor.ruletables import rule_tables
from scorekeeper.advisor.solver import ALGORITHM_VERSION, Table, build
from scorekeeper.rulesets import RuleSet, ruleset

CACHE_ENV = "PIPKEEPER_CACHE_DIR"
KEY_MEMBER, VALUES_MEMBER = "key.txt", "values.f64"  # the two members of a table's zip
VALUE_TYPE = np.dtype("<f8")


def cache_dir() -> Path:
    """Return the folder for solved tables (not created here)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    import platformdirs  # only where the default folder is needed

    return Path(platformdirs.user_cache_dir("pipkeeper")) / "advisor"


def cache_key(rules: RuleSet) -> str:
    """Return the versioned key of *rules*' table, e.g. ``yahtzee.v1.3f2a9c01d4e5``."""
    rt = rule_tables(rules)
    parts = [
        rules.name,
        rules.joker.value,
        str(rules.upper_first),
        str(rules.in_order),
        str(rules.upper_bonus_threshold),
        str(rules.upper_bonus),
        rules.five_alike_slug,
        str(rules.five_alike_bonus),
        *(f"{c.slug}:{c.section.value}:{c.face}:{c.joker_points}" for c in rules.categories),
    ]
    digest = hashlib.sha256("|".join(parts).encode())
    digest.update(rt.points.astype(np.int64).tobytes())
    digest.update(rt.joker_points.astype(np.int64).tobytes())
    return f"{rules.name}.v{ALGORITHM_VERSION}.{digest.hexdigest()[:12]}"


def cache_path(rules: RuleSet) -> Path:
    """Return the file that holds (or would hold) *rules*' table."""
    return cache_dir() / f"{cache_key(rules)}.zip"


def load(rules: RuleSet | str) -> Table | None:
    """Return the cached table of *rules*, or None when there is none or it does not fit.

    Raises RuleSetError for an unknown rule-set name.
    """
    rules = ruleset(rules) if isinstance(rules, str) else rules
    shape = rule_tables(rules).shape
    try:
        with zipfile.ZipFile(cache_path(rules)) as archive:
            key = archive.read(KEY_MEMBER).decode()
            raw = archive.read(VALUES_MEMBER)
    except (OSError, EOFError, KeyError, ValueError, UnicodeDecodeError, zipfile.BadZipFile):
        return None
    if key != cache_key(rules) or len(raw) != VALUE_TYPE.itemsize * int(np.prod(shape)):
        return None
    values = np.frombuffer(raw, dtype=VALUE_TYPE).astype(np.float64).reshape(shape)
    return Table(rules, values)


def save(table: Table) -> Path:
    """Write *table* to the cache (atomically) and return its path.

    Raises OSError when the folder cannot be written.
    """
    path = cache_path(table.rules)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".zip.tmp")
    try:
        with os.fdopen(handle, "wb") as out, \
                zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(KEY_MEMBER, cache_key(table.rules))
            archive.writestr(VALUES_MEMBER, table.values.astype(VALUE_TYPE).tobytes())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    prune(table.rules)
    return path


def prune(rules: RuleSet) -> None:
    """Delete *rules*' tables of other keys (older versions or formats): never served again."""
    current = cache_path(rules)
    for stale in current.parent.glob(f"{rules.name}.v*.*"):
        if stale != current and stale.suffix in (".zip", ".npz"):
            with contextlib.suppress(OSError):  # another process may prune it first
                stale.unlink()


def solve(rules: RuleSet | str, *, use_cache: bool = True) -> Table:
    """Return the table of *rules*: from the cache, else solved (and then cached).

    A cache folder that cannot be written only costs the saving. Raises RuleSetError
    for an unknown rule-set name.
    """
    rules = ruleset(rules) if isinstance(rules, str) else rules
    if use_cache:
        cached = load(rules)
        if cached is not None:
            return cached
    table = build(rules)
    if use_cache:
        with contextlib.suppress(OSError):  # a read-only cache folder: the table still answers
            save(table)
    return table


class TableCache:
    """Solved tables in memory, one per rule set, on top of the disk cache (thread-safe).

    A lock per rule set makes concurrent first requests wait for one solve instead
    of each starting its own. *solver* (default `solve`) makes a missing table.
    """

    def __init__(self, solver: Callable[[RuleSet], Table] = solve) -> None:
        self._solver = solver
        self._tables: dict[str, Table] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._registry = threading.Lock()  # guards _locks

    def __contains__(self, name: object) -> bool:
        """Whether the table of the rule set called *name* is already in memory."""
        return name in self._tables

    def _lock_for(self, name: str) -> threading.Lock:
        with self._registry:
            return self._locks.setdefault(name, threading.Lock())

    def get(self, rules: RuleSet | str) -> Table:
        """Return the table of *rules*, solving or loading it on first use (blocking).

        Raises RuleSetError for an unknown rule-set name.
        """
        rules = ruleset(rules) if isinstance(rules, str) else rules
        table = self._tables.get(rules.name)
        if table is not None:
            return table
        with self._lock_for(rules.name):
            table = self._tables.get(rules.name)
            if table is None:
                table = self._solver(rules)
                self._tables[rules.name] = table
        return table

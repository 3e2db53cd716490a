"""Solved tables on disk: one compressed file per rule set and algorithm version.

A file is a zip holding ``key.txt`` (the key below) and ``values.f64`` (the table,
little-endian float64, in the rule set's table shape). A table of more than five dice
(Maxi Yatzy: 713 MB in memory) holds ``kept.f64s`` instead: only the states its solve
works out (the kept upper subtotals, see `upper`), exact float64 values, mask blocks
of one subset of filled upper boxes after another, each block's bytes regrouped by
significance (all first bytes, then all second bytes, ...) so that the deflate of the
zip shrinks the bytes that vary little; loading copies each mask's dead subtotals from
its subtotal 0, as the solve did. It is read without Python's
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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

import numpy as np
import numpy.typing as npt

from scorekeeper.advisor.ruletables import rule_tables
from scorekeeper.advisor.solver import (
    ALGORITHM_VERSION,
    ProgressHook,
    Table,
    blank,
    build,
    plan_for,
)
from scorekeeper.advisor.upper import SUBSETS, spread_dead, upper_classes
from scorekeeper.rulesets import RuleSet, ruleset

CACHE_ENV = "PIPKEEPER_CACHE_DIR"
KEY_MEMBER, VALUES_MEMBER = "key.txt", "values.f64"  # the two members of a table's zip
KEPT_MEMBER = "kept.f64s"  # instead of VALUES_MEMBER: the kept states, bytes regrouped
VALUE_TYPE = np.dtype("<f8")
IntArray = npt.NDArray[np.intp]
FloatArray = npt.NDArray[np.float64]


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
    try:
        with zipfile.ZipFile(cache_path(rules)) as archive:
            if archive.read(KEY_MEMBER).decode() != cache_key(rules):
                return None
            values = _read_values(rules, archive)
    except (OSError, EOFError, KeyError, ValueError, UnicodeDecodeError, zipfile.BadZipFile):
        return None
    return None if values is None else Table(rules, values)


def _kept_only(rules: RuleSet) -> bool:
    """Whether *rules*' table is stored as its kept states only (`KEPT_MEMBER`)."""
    return plan_for(rule_tables(rules)).skip_dead


def _read_values(rules: RuleSet, archive: zipfile.ZipFile) -> FloatArray | None:
    """Return the values in *archive*, or None when they do not fit *rules*' table."""
    shape = rule_tables(rules).shape
    if _kept_only(rules):
        with archive.open(KEPT_MEMBER) as stream:
            return _read_kept(rules, stream)
    raw = archive.read(VALUES_MEMBER)
    if len(raw) != VALUE_TYPE.itemsize * int(np.prod(shape)):
        return None
    return np.frombuffer(raw, dtype=VALUE_TYPE).astype(np.float64).reshape(shape)


def _blocks(rules: RuleSet) -> Iterator[tuple[IntArray, IntArray]]:
    """Yield (masks, ups) of each stored block: one subset of filled upper boxes."""
    rt, classes = rule_tables(rules), upper_classes(rules)
    for subset in range(SUBSETS):
        masks, ups = classes.subset_masks(rt, subset), np.flatnonzero(classes.kept[subset])
        if masks.size and ups.size:
            yield masks, ups


def _regroup(block: FloatArray) -> bytes:
    """Return the little-endian bytes of *block*, all first bytes first, then the second..."""
    raw = np.ascontiguousarray(block, dtype=VALUE_TYPE).view(np.uint8)
    return raw.reshape(-1, VALUE_TYPE.itemsize).T.tobytes()


def _ungroup(raw: bytes) -> FloatArray:
    planes = np.frombuffer(raw, dtype=np.uint8).reshape(VALUE_TYPE.itemsize, -1)
    return np.ascontiguousarray(planes.T).view(VALUE_TYPE).reshape(-1).astype(np.float64)


def _write_kept(table: Table, out: IO[bytes]) -> None:
    for masks, ups in _blocks(table.rules):
        out.write(_regroup(table.values[masks[:, None], ups[None, :], :]))


def _read_kept(rules: RuleSet, stream: IO[bytes]) -> FloatArray | None:
    """Return the whole table from its kept states, or None when the sizes do not fit."""
    rt = rule_tables(rules)
    values = blank(rt)
    for masks, ups in _blocks(rules):
        size = masks.size * ups.size * rt.flags
        raw = stream.read(size * VALUE_TYPE.itemsize)
        if len(raw) != size * VALUE_TYPE.itemsize:
            return None
        values[masks[:, None], ups[None, :], :] = _ungroup(raw).reshape(masks.size, ups.size,
                                                                         rt.flags)
    if stream.read(1):
        return None
    spread_dead(upper_classes(rules), rt, values, np.flatnonzero(rt.mask_reachable))
    return values


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
            if _kept_only(table.rules):
                with archive.open(KEPT_MEMBER, "w", force_zip64=True) as member:
                    _write_kept(table, member)
            else:
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


def solve(rules: RuleSet | str, *, use_cache: bool = True,
          progress: ProgressHook | None = None) -> Table:
    """Return the table of *rules*: from the cache, else solved (and then cached).

    A cache folder that cannot be written only costs the saving. *progress* follows a
    solve (see `build`). Raises RuleSetError for an unknown rule-set name.
    """
    rules = ruleset(rules) if isinstance(rules, str) else rules
    if use_cache:
        cached = load(rules)
        if cached is not None:
            return cached
    table = build(rules, progress)
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

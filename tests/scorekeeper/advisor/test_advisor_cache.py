"""Advisor cache: one file per rule set and algorithm version, never served for another."""

from __future__ import annotations

import ast
import shutil
import zipfile
from pathlib import Path

import numpy as np
import platformdirs
import pytest

from scorekeeper import RULESET_NAMES, ruleset
from scorekeeper.advisor import ALGORITHM_VERSION, cache, cache_key, cache_path, load, save, solve
from scorekeeper.advisor.cache import CACHE_ENV


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty cache folder of this test only."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    return tmp_path


def test_keys_differ_per_rule_set_and_carry_the_version() -> None:
    keys = [cache_key(ruleset(name)) for name in RULESET_NAMES]
    assert len(set(keys)) == len(RULESET_NAMES)
    for name, key in zip(RULESET_NAMES, keys, strict=True):
        assert key.startswith(f"{name}.v{ALGORITHM_VERSION}.")
    # Variants in any order name the same rule set, and so the same table.
    assert cache_key(ruleset("yahtzee+upper-first+free-joker")) == cache_key(
        ruleset("yahtzee+free-joker+upper-first")
    )


def test_folder_from_the_environment_or_the_user_cache(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache.cache_dir() == folder
    assert cache_path(ruleset("yacht")).parent == folder
    monkeypatch.delenv(CACHE_ENV)
    assert cache.cache_dir() == Path(platformdirs.user_cache_dir("pipkeeper")) / "advisor"


def test_save_and_load_round_trip(folder: Path) -> None:
    assert load("yacht") is None
    table = solve("yacht")
    assert cache_path(table.rules).is_file()
    loaded = load("yacht")
    assert loaded is not None and loaded.rules == table.rules
    assert np.array_equal(loaded.values, table.values, equal_nan=True)


def test_solve_loads_instead_of_solving_again(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = solve("yacht+upper-first")

    def no_build(rules: object) -> None:
        raise AssertionError("solved again although cached")

    monkeypatch.setattr(cache, "build", no_build)
    assert solve("yacht+upper-first").expected_score == first.expected_score


def test_a_table_of_one_variant_is_never_served_for_another(folder: Path) -> None:
    save(solve("yacht"))
    shutil.copy(cache_path(ruleset("yacht")), cache_path(ruleset("yacht+upper-first")))
    assert load("yacht+upper-first") is None  # the key inside the file is yacht's
    assert solve("yacht+upper-first").expected_score == pytest.approx(137.7122415, abs=1e-6)
    assert solve("yacht").expected_score == pytest.approx(169.7738891, abs=1e-6)


def test_a_table_of_another_version_is_not_served(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    solve("yacht")
    old_file = cache_path(ruleset("yacht"))
    monkeypatch.setattr(cache, "ALGORITHM_VERSION", ALGORITHM_VERSION + 1)
    assert cache_path(ruleset("yacht")) != old_file
    assert load("yacht") is None
    shutil.copy(old_file, cache_path(ruleset("yacht")))
    assert load("yacht") is None


@pytest.mark.parametrize("content", [b"", b"not a zip file", b"PK\x03\x04broken"])
def test_a_broken_file_is_solved_again(folder: Path, content: bytes) -> None:
    path = cache_path(ruleset("yacht"))
    path.write_bytes(content)
    assert load("yacht") is None
    assert solve("yacht").expected_score == pytest.approx(169.7738891, abs=1e-6)
    assert load("yacht") is not None


def test_an_unwritable_cache_folder_only_costs_the_saving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    assert solve("yacht").expected_score == pytest.approx(169.7738891, abs=1e-6)
    with pytest.raises(OSError):
        save(solve("yacht", use_cache=False))


def test_a_table_loads_without_building_syntax_trees(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loading runs on a background thread: CPython 3.11 breaks when two threads build
    syntax trees at once (gh-106905), so the file is read without the ast module."""
    table = solve("yacht")

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the ast module was used")

    with monkeypatch.context() as patch:  # undone before pytest reports a failure
        patch.setattr(ast, "parse", refuse)
        patch.setattr(ast, "literal_eval", refuse)
        loaded = load("yacht")
    assert loaded is not None and loaded.values.shape == table.values.shape
    assert np.array_equal(loaded.values, table.values, equal_nan=True)


def test_a_file_of_the_wrong_size_is_solved_again(folder: Path) -> None:
    path = save(solve("yacht"))
    with zipfile.ZipFile(path, "w") as archive:  # the right key, too few values
        archive.writestr(cache.KEY_MEMBER, cache_key(ruleset("yacht")))
        archive.writestr(cache.VALUES_MEMBER, b"\0" * 16)
    assert load("yacht") is None
    assert solve("yacht").expected_score == pytest.approx(169.7738891, abs=1e-6)


def test_saving_a_table_deletes_its_older_versions_only(folder: Path) -> None:
    older = [folder / "yacht.v0.0123456789ab.zip", folder / "yacht.v1.0123456789ab.npz"]
    others = [folder / "yacht+upper-first.v0.0123456789ab.zip", folder / "yacht.v1.notes.txt"]
    for path in older + others:
        path.write_bytes(b"old")
    path = save(solve("yacht", use_cache=False))
    assert sorted(folder.iterdir()) == sorted([path, *others])


def test_six_dice_tables_store_their_kept_states_only(folder: Path) -> None:
    """Maxi Yatzy's file holds the solved subtotals, exact, and loads to the same array."""
    table = solve("maxi-yatzy+in-order")
    path = cache_path(table.rules)
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == sorted([cache.KEY_MEMBER, cache.KEPT_MEMBER])
        raw = archive.read(cache.KEPT_MEMBER)
    assert path.stat().st_size < 64 * 1024
    loaded = load("maxi-yatzy+in-order")
    assert loaded is not None and np.array_equal(loaded.values, table.values)
    for cut in (raw[:-8], raw + b"\0" * 8):  # a value short, a value more
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr(cache.KEY_MEMBER, cache_key(table.rules))
            archive.writestr(cache.KEPT_MEMBER, cut)
        assert load("maxi-yatzy+in-order") is None

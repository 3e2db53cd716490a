"""The reader alone on labelled dice (models.values): counts, figures and the table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from models import evalsets, values
from vision.faces import default_reader


def test_figures_count_faces_read_and_dice_called_not_a_die() -> None:
    counts = np.zeros((6, 7), np.int64)
    np.fill_diagonal(counts, 10)
    counts[3, 1] = 5  # five fours read as twos
    counts[0, 6] = 5  # five ones called not a die
    f = values.figures(counts)
    assert f["dice"] == 70
    assert f["value_accuracy"] == pytest.approx(60 / 65)
    assert f["not_a_die"] == pytest.approx(5 / 70)
    assert (f["worst_face"], f["worst_accuracy"]) == (4, pytest.approx(10 / 15))


def test_rendered_dice_are_counted_by_their_true_face(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evalsets, "RUNS", tmp_path)
    photos = evalsets.scene_set("tables", 3, 5, evalsets.table_scene)
    counts = values.tally(photos, default_reader())
    assert counts.sum(axis=1).tolist() == np.bincount(
        [v - 1 for p in photos for v in p.values], minlength=6).tolist()
    assert np.trace(counts[:, :6]) / counts.sum() > 0.9


def test_the_table_has_a_row_per_source_and_names_missing_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evalsets, "RUNS", tmp_path)
    photos = evalsets.scene_set("tables", 3, 5, evalsets.table_scene)

    def missing() -> list[Any]:
        raise FileNotFoundError("dice data not found at /nowhere")

    text = values.table(rows={"rendered": lambda: photos, "absent": missing})
    row = next(line.split() for line in text.splitlines() if line.startswith("  rendered"))
    assert int(row[1]) == sum(len(p.values) for p in photos)
    assert 0.9 < float(row[2]) <= 1.0 and 0.0 <= float(row[3]) < 0.1
    assert "  absent" in text and "data missing: dice data not found at /nowhere" in text

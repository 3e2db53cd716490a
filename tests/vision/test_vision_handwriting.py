"""Turning the handwriting network's CTC output into a cell's readings."""

from __future__ import annotations

import numpy as np

from vision.handwriting import BLANK, averaged, ctc_candidates, shifted, to_candidates

STEPS, CLASSES = 24, 11


def _output(columns: dict[int, dict[str, float]]) -> np.ndarray:
    """A CTC output: blank everywhere but at the given steps, where digits share the rest."""
    probs = np.zeros((STEPS, CLASSES))
    probs[:, BLANK] = 1.0
    for step, digits in columns.items():
        for digit, p in digits.items():
            probs[step, int(digit) + 1] = p
        probs[step, BLANK] = 1.0 - sum(digits.values())
    return probs


def test_a_clear_number_is_read_with_its_probability() -> None:
    probs = _output({5: {"1": 0.98}, 6: {"1": 0.98}, 14: {"2": 0.99}})
    (best, p), *_ = ctc_candidates(probs)
    assert best == "12"
    assert 0.95 < p < 0.99


def test_beam_probabilities_are_the_sums_over_alignments() -> None:
    """Two steps of "1" or blank: "1" is read by three alignments (1-, -1, 11), "" by one."""
    probs = np.zeros((2, CLASSES))
    probs[:, BLANK], probs[:, 2] = 0.4, 0.6
    readings = dict(ctc_candidates(probs))
    assert abs(readings["1"] - (0.6 * 0.4 * 2 + 0.6 * 0.6)) < 1e-12
    assert abs(readings[""] - 0.16) < 1e-12


def test_a_long_unsure_output_does_not_underflow() -> None:
    """600 steps, each blank or a 5 at even odds: the likeliest readings keep their share."""
    probs = np.zeros((600, CLASSES))
    probs[:, BLANK], probs[:, 6] = 0.5, 0.5
    probs[:, 1:] += 1e-9
    readings = ctc_candidates(probs / probs.sum(1, keepdims=True))
    assert readings[0][1] > 0
    assert all(len(text) <= 4 for text, _ in readings)  # at most MAX_DIGITS + 1 grow


def test_spellings_of_one_value_are_merged() -> None:
    readings = to_candidates([("07", 0.3), ("7", 0.5), ("", 0.1), ("1234", 0.1)])
    assert [v for v, _ in readings] == [7, None]
    assert abs(readings[0][1] - 0.8 / 0.9) < 1e-12


def test_a_hard_cell_keeps_readings_beyond_the_fifth() -> None:
    """A leading 1 or 7 and an unsure second digit: the writer's 75 is the tenth likeliest
    reading, and the column check can still pick it."""
    second = dict(zip("0235689", (0.2, 0.18, 0.16, 0.14, 0.12, 0.1, 0.08), strict=True))
    probs = _output({4: {"1": 0.6, "7": 0.39}, 12: second})
    readings = to_candidates(ctc_candidates(probs))
    values = [v for v, _ in readings]
    assert values.index(75) >= 5
    assert values[:2] == [10, 12]
    probs_kept = [p for _, p in readings]
    assert probs_kept == sorted(probs_kept, reverse=True)


def test_a_shifted_cell_moves_its_ink_and_fills_the_edge_with_paper() -> None:
    cells = np.zeros((2, 4, 8), np.float32)
    cells[:, :, 0] = 1.0
    cells[:, :, 7] = 0.5
    right, left = shifted(cells, 3), shifted(cells, -3)
    assert right.shape == left.shape == cells.shape
    assert right[0, 0].tolist() == [0, 0, 0, 1, 0, 0, 0, 0]
    assert left[1, 2].tolist() == [0, 0, 0, 0, 0.5, 0, 0, 0]
    assert np.array_equal(shifted(cells, 0), cells)


def test_views_are_averaged_value_by_value() -> None:
    """One view sure of a wrong 17 is outweighed by two that read 11."""
    views = [((17, 0.9), (11, 0.1)), ((11, 0.8), (17, 0.2)), ((11, 0.7), (None, 0.3))]
    readings = averaged(views)
    assert [v for v, _ in readings] == [11, 17, None]
    assert [round(p, 6) for _, p in readings] == [round(1.6 / 3, 6), round(1.1 / 3, 6), 0.1]
    assert averaged(views, top=1) == ((11, readings[0][1]),)

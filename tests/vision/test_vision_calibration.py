"""Calibrated confidence: the stored calibration, its fit, and the reliability figures."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from models.calibrate import fit_platt
from models.reliability import diagram, ece
from vision.calibration import CALIBRATION_FILE, Calibration, load_calibration
from vision.faces import Faces
from vision.image import DecodedImage
from vision.onnx import MODELS, ModelError
from vision.pipeline import combine


def test_identity_by_default_and_both_scores_used() -> None:
    scores = np.array([0.1, 0.5, 0.9])
    assert Calibration()(scores).tolist() == pytest.approx(scores.tolist())
    sure_die = Calibration(1.0, 0.0, die_slope=1.0)(np.array([0.5]), np.array([0.9]))
    assert sure_die[0] == pytest.approx(0.9)


def test_load_from_a_folder_missing_and_broken(tmp_path: Path) -> None:
    assert load_calibration(tmp_path) == Calibration()
    (tmp_path / CALIBRATION_FILE).write_text(json.dumps(
        {"slope": 2.0, "intercept": -1.0, "die_slope": 0.5, "fitted_on": {}}))
    assert load_calibration(tmp_path) == Calibration(2.0, -1.0, 0.5)
    (tmp_path / CALIBRATION_FILE).write_text('{"slope": 2.0}')
    with pytest.raises(ModelError, match="is not valid"):
        load_calibration(tmp_path)


def test_the_shipped_calibration_is_monotone_in_both_scores() -> None:
    calibration = load_calibration(MODELS)
    assert calibration != Calibration()
    grid = np.linspace(0.05, 0.99, 20)
    assert np.all(np.diff(calibration(grid, np.full(20, 0.9))) > 0)
    assert np.all(np.diff(calibration(np.full(20, 0.9), grid)) > 0)


def test_combine_applies_the_calibration() -> None:
    image = DecodedImage(np.zeros((100, 100, 3), np.uint8), 100, 100, 1.0)
    probs = np.full((1, 7), 0.01, np.float32)
    probs[0, 2] = 0.94
    faces = Faces(probs, np.array([[10, 10, 30, 30]], np.float32))
    halved = Calibration(1.0, -np.log(0.94 / 0.06 / (0.47 / 0.53)))
    reading = combine(image, faces, calibration=halved)
    assert reading.found[0].confidence == pytest.approx(0.47, abs=1e-3)
    assert reading.found[0].doubtful


def test_fit_recovers_a_known_calibration() -> None:
    rng = np.random.default_rng(0)
    scores, is_die = rng.uniform(0.02, 0.98, 20000), rng.uniform(0.3, 0.99, 20000)
    truth = Calibration(1.5, -0.5, die_slope=0.7)
    right = rng.random(20000) < truth(scores, is_die)
    fitted = fit_platt((scores, is_die, right), np.ones(20000))
    assert (fitted.slope, fitted.intercept, fitted.die_slope) == pytest.approx(
        (1.5, -0.5, 0.7), abs=0.1)


def test_ece_and_diagram() -> None:
    confidence = np.array([0.05, 0.05, 0.95, 0.95, 0.55, 0.55])
    right = np.array([False, False, True, True, True, False])
    assert ece(confidence, right) == pytest.approx((2 * 0.05 + 2 * 0.05 + 2 * 0.05) / 6)
    assert ece(np.array([0.9, 0.9]), np.array([False, False])) == pytest.approx(0.9)
    text = diagram(confidence, right)
    assert "0.5-0.6        2      0.550     0.500" in text
    assert "ECE, 10 bins): 0.0500 over 6 finds" in text

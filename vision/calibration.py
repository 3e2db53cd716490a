"""Turning the reader's scores into a probability: Platt scaling fitted by models.calibrate.

The fitted slope and intercept live in ``calibration.json`` beside the ONNX models;
a folder without one (e.g. a model just trained) uses the raw score unchanged.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.onnx import MODELS, ModelError

CALIBRATION_FILE = "calibration.json"


@dataclass(frozen=True, slots=True)
class Calibration:
    """p = sigmoid(slope * logit(score) + die_slope * logit(is_die) + intercept).

    *score* is the reader's probability of the face read (times the squared share of
    the die inside the photo), *is_die* its probability of a die at all. The default
    is the identity on *score*.
    """

    slope: float = 1.0
    intercept: float = 0.0
    die_slope: float = 0.0

    def __call__(self, score: np.ndarray, is_die: np.ndarray | None = None) -> np.ndarray:
        """Return the calibrated probabilities of raw scores 0..1."""
        z = self.slope * logit(score) + self.intercept
        if is_die is not None:
            z = z + self.die_slope * logit(is_die)
        return np.asarray(1 / (1 + np.exp(-z)))

    def to_dict(self) -> dict[str, float]:
        """Return the parameters as a JSON-ready dict."""
        return {"slope": self.slope, "intercept": self.intercept, "die_slope": self.die_slope}


def logit(p: np.ndarray) -> np.ndarray:
    """Return log(p / (1 - p)), with p kept inside 1e-6..1-1e-6."""
    clipped = np.clip(np.asarray(p, np.float64), 1e-6, 1 - 1e-6)
    return np.asarray(np.log(clipped / (1 - clipped)))


def load_calibration(folder: Path | None = None) -> Calibration:
    """Return the calibration stored in *folder* (default: where the models are), or identity.

    Raises ModelError when the file exists but is not a valid calibration.
    """
    path = (folder or Path(os.environ.get("PIPKEEPER_MODELS", MODELS))) / CALIBRATION_FILE
    if not path.exists():
        return Calibration()
    try:
        data = json.loads(path.read_text())
        return Calibration(float(data["slope"]), float(data["intercept"]),
                           float(data.get("die_slope", 0.0)))
    except (ValueError, KeyError, TypeError) as error:
        raise ModelError(f"calibration {path} is not valid: {error}") from None

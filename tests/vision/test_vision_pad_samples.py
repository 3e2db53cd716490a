"""The sample pad photos the pad tests use (`python -m models.padeval --samples`): a
seeded draw the shipped reader reads as written, found again from its seed."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.handwriting_data import load_mnist
from models.padeval import SAMPLES, write_sample

PADS = Path(__file__).resolve().parents[2] / "sample_images" / "pads"


@pytest.fixture
def digits() -> None:
    try:
        load_mnist()
    except FileNotFoundError as error:
        pytest.skip(f"the shared digits are needed to write a sample pad: {error}")


@pytest.mark.usefixtures("digits")
def test_a_sample_is_written_again_as_committed(tmp_path: Path) -> None:
    layout, rules, seed, slip, columns, turns = SAMPLES[0]
    path = write_sample(layout, rules, tmp_path, seed, slip, columns, turns)
    written = json.loads(path.with_suffix(".json").read_text())
    committed = json.loads((PADS / path.name).with_suffix(".json").read_text())
    assert written == committed
    assert written["slips"][0] == slip and written["slips"][1] is None
    again, kept = (cv2.imread(str(p), cv2.IMREAD_GRAYSCALE) for p in (path, PADS / path.name))
    assert again is not None and kept is not None and again.shape == kept.shape
    assert float(np.abs(again.astype(float) - kept).mean()) < 1.0


def test_no_draw_read_as_written_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="none of 0 draws of hasbro_24 read as written"):
        write_sample("hasbro", "yahtzee", tmp_path, 24, draws=0)
    assert not list(tmp_path.iterdir())

"""The trained models end to end: sample photos, the shared validation photos, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from vision_samples import SAMPLES, encode, sample_truth

from models.evaluate import Tally, evaluate
from models.labels import photos_in
from pipkeeper.cli import main
from scorekeeper.dice import Dice
from vision import DiceCountReadError, read_dice
from vision.calibration import CALIBRATION_FILE
from vision.detect import DETECTOR_MODEL, iou
from vision.faces import FACES_MODEL
from vision.onnx import MODELS

SAMPLE_NAMES = sorted(str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("sample_*.jpg"))


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_sample_photos_read_their_true_values(name: str) -> None:
    """Every die is found and read right, and nothing else; told how many were thrown
    (as the game page does), the reader counts exactly those."""
    truth = sample_truth(name)
    plain = read_dice(SAMPLES / name)
    assert sorted(d.value for d in plain.found) == sorted(truth["values"])
    assert len(plain.doubtful) <= 1
    reading = read_dice(SAMPLES / name, expect=len(truth["values"]))
    assert sorted(reading.values) == sorted(truth["values"])
    image = cv2.imread(str(SAMPLES / name))
    assert (reading.width, reading.height) == (image.shape[1], image.shape[0])
    if truth["boxes"]:  # every true box has a read box that fits it closely
        overlap = iou(np.array(truth["boxes"], float), np.array(reading.boxes, float))
        assert overlap.max(axis=1).min() >= 0.7


@pytest.mark.parametrize("name", [n for n in SAMPLE_NAMES if "/" not in n])
def test_five_dice_samples_become_scorekeeper_dice_left_to_right(name: str) -> None:
    truth = sample_truth(name)
    reading = read_dice((SAMPLES / name).read_bytes(), expect=5)
    by_left_edge = [v for _, v in sorted(zip([b[0] for b in truth["boxes"]], truth["values"],
                                             strict=True))]
    assert reading.dice() == Dice.of(by_left_edge)
    assert min(reading.confidences) > 0.3


@pytest.mark.parametrize("background", [(90, 90, 90), (200, 170, 120), (30, 60, 20)])
def test_a_photo_without_dice_reads_as_no_dice(background: tuple[int, int, int]) -> None:
    rng = np.random.default_rng(3)
    image = np.clip(np.full((480, 640, 3), background) + rng.normal(0, 6, (480, 640, 3)), 0, 255)
    reading = read_dice(encode(image.astype(np.uint8), ".jpg"))
    assert reading.values == ()
    with pytest.raises(DiceCountReadError, match="read 0 dice, need 5"):
        reading.dice()


def test_validation_photos_f1_floor(shared_data: Path) -> None:
    """Read plainly and, as the game page reads a roll, told how many dice there are."""
    folders = [shared_data / "byler" / "images" / split for split in ("val", "test")]
    told = Tally()
    tally = evaluate((p for folder in folders for p in photos_in(folder)), told=told)
    assert tally.photos == told.photos == 50
    assert tally.f1() >= 0.98
    assert told.f1() >= 0.99
    assert told.exact / told.photos >= 0.94


def test_cli_read_json_one_line_per_image_and_exit_1_on_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    good = str(SAMPLES / "sample_02.jpg")
    code = main(["read", "--json", "--annotate", str(tmp_path / "out"), good, str(broken)])
    lines = capsys.readouterr().out.splitlines()
    assert code == 1
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["image"] == good
    assert (first["width"], first["height"]) == (640, 480)
    assert sorted(d["value"] for d in first["dice"]) == sorted(sample_truth(good)["values"])
    assert all(len(d["box"]) == 4 and 0 <= d["confidence"] <= 1 for d in first["dice"])
    assert first["ms"] > 0
    assert second["image"] == str(broken) and "not an image" in second["error"]
    assert cv2.imread(str(tmp_path / "out" / "sample_02_read.jpg")) is not None


def test_cli_read_plain_text_exit_0(capsys: pytest.CaptureFixture[str]) -> None:
    good = str(SAMPLES / "more" / "sample_06.jpg")
    assert main(["read", good]) == 0
    value = sample_truth(good)["values"][0]
    assert capsys.readouterr().out == f"{good}: {value} (1 die)\n"


def test_cli_read_with_rules_scores_five_dice(capsys: pytest.CaptureFixture[str]) -> None:
    good = str(SAMPLES / "sample_01.jpg")
    assert main(["read", "--rules", "yahtzee", "--expect", "5", good]) == 0
    out = capsys.readouterr().out
    assert "chance " + str(sum(sample_truth(good)["values"])) in out


def test_shipped_model_files_stay_within_5_mb() -> None:
    names = (DETECTOR_MODEL, FACES_MODEL, CALIBRATION_FILE)
    sizes = [(MODELS / name).stat().st_size for name in names]
    assert min(sizes) > 0 and sum(sizes) <= 5_000_000

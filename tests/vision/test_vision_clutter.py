"""Rendered decoys, small dice and the evaluation tables (rendered, no shared data)."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import models
from models import data, evalsets, evaluate, heldout, loso
from models.clutter import DECOYS, cluttered_background, decoy
from models.render import render_scene
from models.samples import close_up, scene_photo
from vision.detect import (
    CLOSE_SIDE,
    COARSE_SIDE,
    Detections,
    DiceDetector,
    default_detector,
    iou,
    scaled,
    wants_fine_view,
)
from vision.faces import default_reader
from vision.image import load
from vision.onnx import MODELS
from vision.pipeline import read_image
from vision.reading import Die


@pytest.mark.parametrize("kind", sorted(DECOYS))
def test_every_decoy_kind_draws_something_die_sized(kind: str) -> None:
    image, alpha = decoy(np.random.default_rng(1), 40, kind)
    assert image.shape[:2] == alpha.shape and image.dtype == np.uint8
    assert 20 <= max(alpha.shape) <= 110
    assert (alpha > 128).mean() > 0.15


def test_cluttered_scene_keeps_decoys_apart_from_dice() -> None:
    scene = render_scene(np.random.default_rng(2), 640, 480, 6, 40, clutter=10)
    assert len(scene.values) == 6 and len(scene.decoys) == 10
    photo = scene_photo(scene)
    assert len(photo.hard) > 0
    assert iou(photo.hard, photo.boxes).max() < 0.3
    assert cluttered_background(np.random.default_rng(3), 50, 70).shape == (50, 70, 3)


def test_close_up_crops_around_one_die() -> None:
    photo = scene_photo(render_scene(np.random.default_rng(4), 640, 480, 3, 60))
    near = close_up(photo, np.random.default_rng(5))
    h, w = near.image.shape[:2]
    assert 160 <= max(h, w) <= 640 and len(near.boxes) >= 1
    side = (near.boxes[:, 2] - near.boxes[:, 0]).max()
    assert side >= 0.45 * max(h, w)


def test_the_finer_view_is_asked_for_small_sure_dice_or_none() -> None:
    def found(side: float, n: int, score: float = 0.9) -> Detections:
        return Detections(np.array([[0, 0, side, side]] * n, np.float32),
                          np.full(n, score, np.float32))
    assert wants_fine_view(found(10, 0))
    assert wants_fine_view(found(12, 3))
    assert wants_fine_view(found(24, 3), scale=0.5)
    assert not wants_fine_view(found(40, 3))
    assert not wants_fine_view(found(12, 30, score=0.3))  # weak finds on a texture


def test_the_finer_view_reads_tiny_dice_the_first_views_miss() -> None:
    session = default_detector().session
    found = {False: 0, True: 0}
    for seed in range(2, 12):  # busy tables of ten dice of 8 px among decoys
        scene = render_scene(np.random.default_rng(seed), 640, 640, 10, 8, clutter=8)
        truth = np.array(scene.boxes, np.float32)
        for fine in found:
            reading = read_image(load(scene.image), DiceDetector(session, fine), default_reader())
            boxes = np.array(reading.boxes, np.float32).reshape(-1, 4)
            if len(boxes):
                found[fine] += int((iou(truth, boxes).max(axis=1) >= 0.5).sum())
    assert found[True] >= found[False] + 2
    assert found[True] >= 20  # of 100


def test_loso_report_names_pairs_not_trained_yet(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loso, "RUNS", tmp_path)
    text = loso.report()
    for source in loso.SOURCES:
        assert f"not trained yet: python -m models.loso train --without {source}" in text


def test_loso_report_sets_a_pair_beside_the_shipped_pair(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loso, "RUNS", tmp_path)
    pair = loso.run_folder("rendered")
    pair.mkdir()
    for name in ("detector.onnx", "faces.onnx"):  # the shipped models, as if trained so
        (pair / name).write_bytes((MODELS / name).read_bytes())
    photos = evalsets.scene_set("tables", 3, 5, evalsets.table_scene)
    monkeypatch.setattr(loso, "held_out_photos", lambda source: photos)
    text = loso.report()
    row = next(line.split() for line in text.splitlines() if line.strip().startswith("rendered"))
    truth = sum(len(p.values) for p in photos)
    assert row[1:3] == ["3", str(truth)]
    f1, values_f1, told_f1 = (float(v) for v in row[6:9])
    shipped, shipped_values, shipped_told = (float(v) for v in row[10:13])
    assert row[9] == "|"
    assert 0.5 < f1 <= values_f1 <= 1.0
    assert 0.5 < told_f1 <= 1.0
    # The same networks; the shipped pair is calibrated, which may count or reorder a die
    # or two (each die of *truth* moves F1 by 1 / truth).
    assert abs(f1 - shipped) <= 2 / truth + 1e-9
    assert shipped <= shipped_values <= 1.0
    assert abs(told_f1 - shipped_told) <= 2 / truth + 1e-9
    assert "not trained yet: python -m models.loso train --without byler" in text
    results = json.loads((tmp_path / "loso.json").read_text())
    assert set(results) == {"rendered"} and results["rendered"]["f1"] == pytest.approx(f1, abs=1e-3)


@pytest.mark.parametrize(("name", "kind"), [
    ("PXL_20240219_191021760_jpg.rf.00ca4402a1.jpg", "trays"),
    ("00096_jpg.rf.310e8ab7e8.jpg", "closeups"),
    ("IMG_0654_jpeg_jpg.rf.21ecd84fef.jpg", "tables"),
    ("2nLHs8jFh4scTPB8JqNf_jpg.rf.72e978b561.jpg", "tables"),
    ("000961_jpg.rf.310e8ab7e8.jpg", "tables"),
])
def test_rune55_kinds_are_told_apart_by_the_source_photos_name(name: str, kind: str) -> None:
    assert data.rune55_kind(Path(name)) == kind


def test_held_out_sources_are_never_trained_on() -> None:
    for name in data.HELD_OUT:
        assert name not in data.TRAINING
        if name in data.SPLITS:
            assert data.SPLITS[name][1] and name.replace("-quarter", "-rest") in data.TRAINING


def test_roboflow_quarter_holds_out_every_export_of_a_photo() -> None:
    names = [f"dice_{n}_jpg.rf.{tag}.jpg" for n in range(200) for tag in ("a1", "b2", "c3")]
    held = {data.taken_from(Path(name)) for name in names if data.in_held_out_quarter(Path(name))}
    for name in names:
        assert data.in_held_out_quarter(Path(name)) == (data.taken_from(Path(name)) in held)
    assert 30 <= len(held) <= 70  # about a quarter of 200 photos
    assert data.taken_from(Path("IMG_0042.jpg")) == "IMG_0042.jpg"


@pytest.mark.parametrize("full", [False, True])
def test_loso_trains_short_or_full_schedule(full: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    trainer = types.ModuleType("models.train")
    trainer.main = calls.append  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "models.train", trainer)
    monkeypatch.setattr(models, "train", trainer, raising=False)
    argv = ["train", "--without", "rendered", "--without", "rune55"] + (["--full"] if full
                                                                           else [])
    monkeypatch.setattr(loso, "report", lambda: "")
    loso.main(argv)
    rendered, rune55 = calls
    assert rendered[:8] == ["--sources", "byler-train", "roboflow-rest", "rune55-trays-rest",
                            "rune55-closeups-rest", "rune55-tables-rest", "--rendered", "0"]
    assert rune55[:5] == ["--sources", "byler-train", "roboflow-rest", "--rendered", "300"]
    assert rune55[rune55.index("--out") + 1] == str(loso.run_folder("rune55"))
    short = ["--detector-steps=1000", "--detector-refine-steps=200", "--classifier-steps=2000"]
    for args in calls:
        assert (args[-3:] == short) != full and "--threads" in args


def test_rendered_evaluation_tables_are_written_once(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evalsets, "RUNS", tmp_path)
    photos = evalsets.scene_set("tiny", 2, 9, evalsets.board_scene)
    assert len(photos) == 2 and all(len(p.values) >= 2 for p in photos)
    stamp = photos[0].path.stat().st_mtime_ns
    assert evalsets.scene_set("tiny", 2, 9, evalsets.board_scene)[0].path.stat().st_mtime_ns \
        == stamp


def test_a_die_filling_most_of_a_small_photo_is_read_without_false_dice() -> None:
    rng = np.random.default_rng(99)
    right = false = 0
    for _ in range(4):
        photo = close_up(scene_photo(render_scene(rng, 640, 480, 1, 70)), rng)
        reading = read_image(load(photo.image), default_detector(), default_reader())
        boxes = np.array(reading.boxes, np.float32).reshape(-1, 4)
        hit = iou(photo.boxes, boxes)[0] >= 0.5 if len(boxes) else np.zeros(0, bool)
        right += sum(d.value == photo.values[0] for d, h in zip(reading.certain, hit,
                                                                 strict=True) if h)
        false += int((~hit).sum())
    assert right >= 3 and false == 0


def test_a_view_of_pixels_already_scaled_gives_boxes_in_the_photos_pixels() -> None:
    photo = close_up(scene_photo(render_scene(np.random.default_rng(5), 640, 480, 1, 70)),
                     np.random.default_rng(6))
    pixels = load(photo.image).pixels
    detector = default_detector()
    coarse, factor = scaled(pixels, COARSE_SIDE)
    close, close_factor = scaled(coarse, CLOSE_SIDE)
    direct = detector.view(pixels, CLOSE_SIDE, 0.25)
    via_coarse = detector.found_in(close, factor * close_factor, 0.25)
    assert len(direct.boxes) and len(via_coarse.boxes)
    assert iou(direct.boxes[:1], via_coarse.boxes[:1])[0, 0] > 0.9
    assert iou(photo.boxes, via_coarse.boxes[:1])[0, 0] >= 0.5


class RecordingSession:
    """The real detector session, noting the longer side of every view it is given."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.sides: list[int] = []

    def get_inputs(self) -> Any:
        return self.session.get_inputs()

    def run(self, names: Any, feed: dict[str, np.ndarray]) -> Any:
        image = next(iter(feed.values()))
        self.sides.append(max(image.shape[2:]))
        return self.session.run(names, feed)


def test_small_dice_take_the_finer_view_instead_of_the_coarse_ones() -> None:
    """Dice of 16 px are far from the camera: the 320 and 96 px views (for dice close
    to it) are skipped when the finer view runs, which keeps such a frame within budget."""
    session = RecordingSession(default_detector().session)
    detector = DiceDetector(session)
    small = render_scene(np.random.default_rng(4), 640, 640, 10, 16, clutter=8).image
    assert wants_fine_view(detector.view(small, 512, 0.25), 512 / 640)
    session.sides.clear()
    detector.detect(small)
    assert session.sides == [512, 768]
    session.sides.clear()
    detector.detect(render_scene(np.random.default_rng(4), 640, 480, 5, 80).image)
    assert sorted(session.sides) == [96, 320, 512]
    session.sides.clear()
    detector.detect(np.full((480, 640, 3), 90, np.uint8))  # nothing found: every view looks
    assert sorted(session.sides) == [96, 320, 512, 768]


def test_values_f1_counts_each_photos_values_wherever_the_boxes_lie() -> None:
    tally = evaluate.Tally()
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], np.float32)
    # the same values read, boxes a die's width off (IoU 0 with each true box), one extra 6
    tally.add((1, 2, 2), truth, (2, 1, 2, 6), truth[[1, 0, 2, 2]] + [5, 0, 5, 0])
    s = tally.summary()
    assert tally.values_right == 3 and tally.correct == 0
    assert s["f1"] == 0.0
    assert s["values_f1"] == pytest.approx(2 * 3 / 7)
    tally.add((5,), truth[:1], (), np.zeros((0, 4), np.float32))  # a photo with its die missed
    assert tally.values_f1() == pytest.approx(2 * 3 / 8)


def test_a_labelled_face_matches_its_found_cube_only_when_nested_counts() -> None:
    # a die's top face labelled (40 x 24 at the top of its cube), its 40 x 60 cube found
    truth = np.array([[100, 100, 140, 124], [300, 100, 320, 120]], np.float32)
    found = np.array([[100, 100, 140, 160],  # the first die's cube: IoU 0.4
                      [280, 80, 340, 140]], np.float32)  # 9 times the second box's area
    assert iou(truth[:1], found[:1])[0, 0] == pytest.approx(0.4)
    assert evaluate.match(truth, found) == []
    assert evaluate.match(truth, found, nested=True) == [(0, 0)]
    strict, nested = evaluate.Tally(), evaluate.Tally(nested=True)
    for tally in (strict, nested):
        tally.add((5, 2), truth, (5, 2), found)
    assert (strict.correct, nested.correct, nested.matched) == (0, 1, 1)
    # a box matching at IoU 0.5 is taken before a nested one
    inner = np.array([[100, 100, 140, 124], [100, 100, 140, 150]], np.float32)
    assert evaluate.match(truth[:1], inner, nested=True) == [(0, 0)]


def test_finds_whose_confidence_contradicts_their_value_are_counted() -> None:
    tally = evaluate.Tally()
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10]],
                     np.float32)
    found = (Die(3, (0, 0, 10, 10), 0.9),  # misread, drawn as sure
             Die(2, (20, 0, 30, 10), 0.3),  # right, doubtful
             Die(3, (40, 0, 50, 10), 0.6),  # misread and marked to check: as it should be
             Die(4, (60, 0, 70, 10), 0.8),  # right and drawn as sure
             Die(5, (80, 0, 90, 10), 0.95),  # on no true die: neither count
             Die(6, (100, 0, 110, 10), 0.7))  # right, marked to check
    truth = np.vstack([truth, [[100, 0, 110, 10]]])
    tally.add_finds((1, 2, 4, 4, 6), truth, found)
    assert (tally.sure_wrong, tally.unsure_right) == (1, 2)
    assert tally.hits == [False, True, False, True, False, True]


def test_evaluation_prints_the_reading_told_how_many_dice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(evalsets, "RUNS", tmp_path)
    photos = evalsets.scene_set("tables", 4, 5, evalsets.table_scene)
    assert evaluate.main([str(photos[0].path.parent)]) == 0
    lines = capsys.readouterr().out.splitlines()
    plain = float(next(line for line in lines if line.startswith("per-die F1")).split()[-1])
    told = next(line for line in lines if line.startswith("told how many dice"))
    told_f1 = float(told.split("per-die F1 ")[1].split(",")[0])
    assert 0.5 < plain <= 1.0 and 0.5 < told_f1 <= 1.0
    assert "photos exactly right" in told


def test_heldout_table_has_a_row_per_source_and_names_missing_data(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evalsets, "RUNS", tmp_path)
    photos = evalsets.scene_set("tables", 3, 5, evalsets.table_scene)

    def missing() -> list[Any]:
        raise FileNotFoundError("dice data not found at /nowhere")

    monkeypatch.setattr(heldout, "ROWS", {"rendered": lambda: photos, "absent": missing})
    text, results = heldout.table()
    row = next(line.split() for line in text.splitlines() if line.startswith("  rendered"))
    assert row[1:3] == [str(len(photos)), str(sum(len(p.values) for p in photos))]
    recall, precision, value, f1, told_f1, exact, ece = (float(v) for v in row[3:10])
    sure_wrong, unsure_right = (int(v) for v in row[10:12])
    assert 0 <= sure_wrong + unsure_right <= int(row[2])
    assert 0.5 < f1 <= 1.0 and 0.5 < told_f1 <= 1.0 and 0.0 <= exact <= 1.0
    assert f1 <= 2 * recall * precision / (recall + precision) + 1e-3  # value errors cost F1
    assert value > 0.8 and 0.0 <= ece < 0.5
    assert results["rendered"]["f1"] == pytest.approx(f1, abs=1e-3)
    assert results["rendered"]["sure_wrong"] == sure_wrong
    nested = next(line.split() for line in text.splitlines()[text.splitlines().index(
        heldout.NESTED_HEADER):] if line.startswith("  rendered"))
    assert float(nested[1]) >= recall and float(nested[4]) >= f1 - 1e-3
    assert results["rendered"]["nested_f1"] == pytest.approx(float(nested[4]), abs=1e-3)
    assert "  absent" in text and "data missing: dice data not found at /nowhere" in text
    assert set(results) == {"rendered"}

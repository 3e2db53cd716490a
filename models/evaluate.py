"""Measure reading accuracy on folders of photos with YOLO labels.

``python -m models.evaluate`` prints the table of every source's held-out photos
(models.heldout) and the reader's values on their labelled dice (models.values).
``python -m models.evaluate DIR [DIR...]`` prints detection recall and precision,
value accuracy of matched dice, per-die F1 (right place and right value), values F1
(each photo's values as a multiset, wherever the boxes lie: what the scorekeeper
gets), the share of photos read exactly right, a confusion table, ms per photo and whether
the confidence is a probability (reliability diagram and ECE over every find, the
doubtful ones included). With ``--loso`` it also prints the leave-one-source-out
table of models.loso and the small-dice check of models.evalsets. Labels
are found in the sibling ``labels/...`` folder (as in ``images/val`` ->
``labels/val``) or in ``../labels``.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from models.labels import LabelledPhoto, photos_in
from models.reliability import diagram
from vision.detect import DiceDetector, areas, default_detector, intersection, iou
from vision.faces import FaceReader, default_reader
from vision.image import load
from vision.pipeline import read_image
from vision.reading import DiceReading, Die, judge

MATCH_IOU = 0.5
# Some sources box a die's face turned to the camera, others its whole cube. With
# ``nested`` a find also matches a true box when the smaller of the two lies at least
# NESTED_INSIDE inside the larger and the larger is at most NESTED_AREA times its area
# (the face labelled, its cube found, or the other way round).
NESTED_INSIDE = 0.8
NESTED_AREA = 4.0


@dataclass
class Tally:
    """Counts over many photos; ``confusion[true-1][read-1]`` over matched dice."""

    truth: int = 0
    read: int = 0
    matched: int = 0
    correct: int = 0
    values_right: int = 0  # per photo, values read that a true die shows (as multisets)
    photos: int = 0
    exact: int = 0
    seconds: float = 0.0
    confusion: np.ndarray = field(default_factory=lambda: np.zeros((6, 6), np.int64))
    confidences: list[float] = field(default_factory=list)  # of every find, doubtful too
    hits: list[bool] = field(default_factory=list)  # whether that find was right
    sure_wrong: int = 0  # finds on a true die, its value misread, yet drawn as sure
    unsure_right: int = 0  # finds on a true die, its value right, yet marked or doubtful
    told_n: bool = False  # as a tally of evaluate's *also*: count as told how many dice
    nested: bool = False  # a face's box inside its die's box matches too (see NESTED_*)

    def add(self, true_values: tuple[int, ...], true_boxes: np.ndarray,
            values: tuple[int, ...], boxes: np.ndarray) -> None:
        """Count one photo: greedy one-to-one matching at IoU >= 0.5 (or nested)."""
        self.photos += 1
        self.truth += len(true_values)
        self.read += len(values)
        pairs = match(true_boxes, boxes, self.nested)
        right = 0
        for t, r in pairs:
            self.confusion[true_values[t] - 1, values[r] - 1] += 1
            right += true_values[t] == values[r]
        self.matched += len(pairs)
        self.correct += right
        self.values_right += sum((Counter(true_values) & Counter(values)).values())
        self.exact += right == len(true_values) == len(values)

    def add_finds(self, true_values: tuple[int, ...], true_boxes: np.ndarray,
                  found: tuple[Die, ...]) -> None:
        """Record each find's confidence and whether it is a true die with its true value;
        count the finds on a true die whose confidence says the opposite of their value
        (misread yet drawn as sure, read right yet marked to check or doubtful: see
        Die.check)."""
        boxes = np.array([d.box for d in found], np.float32).reshape(-1, 4)
        on_die = match(true_boxes, boxes, self.nested)
        right = {r for t, r in on_die if true_values[t] == found[r].value}
        self.confidences.extend(d.confidence for d in found)
        self.hits.extend(i in right for i in range(len(found)))
        sure = {r for _, r in on_die if not found[r].check}
        self.sure_wrong += len(sure - right)
        self.unsure_right += len(right - sure)

    def f1(self) -> float:
        """Return per-die F1, where a die counts only in the right place with the right value."""
        return 2 * self.correct / max(1, self.truth + self.read)

    def values_f1(self) -> float:
        """Return F1 over each photo's values as a multiset, whatever the boxes."""
        return 2 * self.values_right / max(1, self.truth + self.read)

    def summary(self) -> dict[str, float]:
        """Return the headline figures."""
        return {"recall": self.matched / max(1, self.truth),
                "precision": self.matched / max(1, self.read),
                "value_accuracy": self.correct / max(1, self.matched),
                "f1": self.f1(), "values_f1": self.values_f1(),
                "exact_photos": self.exact / max(1, self.photos),
                "ms_per_photo": 1000 * self.seconds / max(1, self.photos)}


def nested_boxes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Return whether each box of *a* and each of *b* (x1y1x2y2) nest: the smaller at least
    NESTED_INSIDE inside the larger, the larger at most NESTED_AREA times as large."""
    inter = intersection(a, b)
    area_a, area_b = areas(a)[:, None], areas(b)[None, :]
    smaller = np.maximum(np.minimum(area_a, area_b), 1e-9)
    larger = np.maximum(area_a, area_b)
    return np.asarray((inter >= NESTED_INSIDE * smaller) & (larger <= NESTED_AREA * smaller))


def match(truth: np.ndarray, found: np.ndarray,
          nested: bool = False) -> list[tuple[int, int]]:
    """Return (truth index, found index) pairs, best IoU first, each used once: pairs of
    IoU >= MATCH_IOU, and with *nested* also pairs of nested boxes (see nested_boxes)."""
    if len(truth) == 0 or len(found) == 0:
        return []
    overlap = iou(truth, found)
    allowed = overlap >= MATCH_IOU
    if nested:
        allowed |= nested_boxes(truth, found)
    pairs: list[tuple[int, int]] = []
    for flat in np.argsort(-np.where(allowed, overlap, -1.0), axis=None)[:allowed.sum()]:
        t, r = np.unravel_index(flat, overlap.shape)
        if all(t != a and r != b for a, b in pairs):
            pairs.append((int(t), int(r)))
    return pairs


def evaluate(photos: Iterable[LabelledPhoto], detector: DiceDetector | None = None,
             reader: FaceReader | None = None, told: Tally | None = None,
             also: Sequence[Tally] = ()) -> Tally:
    """Return the tally of reading every photo with the given (or the default) models.

    *told*, when given, also tallies the same finds counted as the game page counts
    them, told how many dice were thrown (``expect=N``, N the photo's true count).
    The tallies *also* count the same readings too, each as its flags say.
    """
    detector, reader = detector or default_detector(), reader or default_reader()
    tally = Tally()
    for photo in photos:
        started = time.perf_counter()
        image = load(photo.path)
        reading = read_image(image, detector, reader)
        tally.seconds += time.perf_counter() - started
        truth = photo.boxes * np.array([image.width, image.height] * 2, np.float32)
        count(tally, photo.values, truth, reading, told_n=False)
        if told is not None:
            count(told, photo.values, truth, reading, told_n=True)
        for each in also:
            count(each, photo.values, truth, reading, each.told_n)
    return tally


def count(tally: Tally, true_values: tuple[int, ...], true_boxes: np.ndarray,
          reading: DiceReading, told_n: bool) -> None:
    """Count one photo's reading in *tally*: its finds (unless *told_n*) and the dice
    counted, all of them or, told N, the N likeliest."""
    if told_n:
        expected = judge(reading.found, len(true_values))
        reading = DiceReading(reading.width, reading.height, expected)
    else:
        tally.add_finds(true_values, true_boxes, reading.found)
    add_reading(tally, true_values, true_boxes, reading)


def add_reading(tally: Tally, true_values: tuple[int, ...], true_boxes: np.ndarray,
                reading: DiceReading) -> None:
    """Count one photo's counted dice against its true dice."""
    boxes = np.array(reading.boxes, np.float32).reshape(-1, 4)
    tally.add(true_values, true_boxes, reading.values, boxes)


def report(tally: Tally, told: Tally | None = None) -> str:
    """Return the tally (and the *told* one, see evaluate) as printable text."""
    s = tally.summary()
    lines = [f"photos {tally.photos}, dice {tally.truth}, read {tally.read}",
             f"detection recall {s['recall']:.4f}  precision {s['precision']:.4f}",
             f"value accuracy of matched dice {s['value_accuracy']:.4f}",
             f"per-die F1 {s['f1']:.4f}",
             f"values F1 {s['values_f1']:.4f} (each photo's values, wherever the boxes lie)",
             f"photos exactly right {s['exact_photos']:.4f} ({tally.exact}/{tally.photos})",
             f"{s['ms_per_photo']:.1f} ms per photo (decode + read)",
             *([] if told is None else [
                 f"told how many dice (expect=N, as the game page): per-die F1 {told.f1():.4f},"
                 f" photos exactly right {told.exact / max(1, told.photos):.4f}"]),
             "confusion (rows: true 1..6, columns: read 1..6; last: accuracy)"]
    for face, row in enumerate(tally.confusion, start=1):
        accuracy = row[face - 1] / max(1, row.sum())
        lines.append(f"  {face}: " + " ".join(f"{n:4d}" for n in row) + f"   {accuracy:.3f}")
    lines.append("reliability of the confidence (every find, doubtful ones included):")
    lines.append(diagram(np.array(tally.confidences), np.array(tally.hits)))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Evaluate the folders given on the command line; return the exit code."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path,
                        help="folders of labelled photos (default: every source's held-out "
                             "photos, one row each)")
    parser.add_argument("--loso", action="store_true",
                        help="also print leave-one-source-out and small-dice figures")
    args = parser.parse_args(argv)
    if args.folders:
        photos = [p for folder in args.folders for p in photos_in(folder)]
        told = Tally()
        print(report(evaluate(photos, told=told), told), flush=True)
    else:
        from models import heldout, values

        print(heldout.table()[0], flush=True)
        print(values.table(), flush=True)
    if args.loso:
        from models import evalsets, loso

        print(evalsets.small_dice_report(), flush=True)
        print(loso.report(), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

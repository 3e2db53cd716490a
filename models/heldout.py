"""Every source's held-out photos read by one pair: the table `make eval` prints first.

One row per source: byler val + test, each of Rune55's kinds of scene (its held-out
quarter of source photos, every export of each), Roboflow's held-out quarter and the
rendered tables of models.evalsets; and Rune55's trays again against their labels
checked by eye (models.labelchecks). Columns: detection recall and precision (IoU 0.5),
value accuracy of the dice found, per-die F1 (place and value) read plainly and told
how many dice there are (``expect=N``, as the game page reads), the share of photos
exactly right when told N, the expected calibration error of the confidence, and the
dice found on a true die whose confidence says the opposite of their value (misread yet
drawn as sure, read right yet marked to check or doubtful). A second table counts the
same readings with a find also matching a true box nested in it or around it (a die's
face labelled, its cube found: models.evaluate.NESTED_*), since sources box dice either
way.
``python -m models.heldout [--models DIR]`` prints it for the pair in DIR.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np

from models.data import source_photos
from models.evalsets import RUNS, rendered_eval
from models.evaluate import NESTED_AREA, NESTED_INSIDE, Tally, evaluate
from models.labelchecks import checked, load_checks
from models.labels import LabelledPhoto
from models.reliability import ece
from vision.calibration import load_calibration
from vision.detect import DETECTOR_MODEL, DiceDetector
from vision.faces import FACES_MODEL, FaceReader
from vision.onnx import open_session
from vision.reading import CHECK_BELOW

ROWS: dict[str, Callable[[], list[LabelledPhoto]]] = {
    "byler val+test": lambda: source_photos("byler-val"),
    "rune55 trays": lambda: source_photos("rune55-trays-quarter"),
    "trays checked": lambda: checked(source_photos("rune55-trays-quarter"), load_checks()),
    "rune55 close-ups": lambda: source_photos("rune55-closeups-quarter"),
    "rune55 tables": lambda: source_photos("rune55-tables-quarter"),
    "roboflow 1/4": lambda: source_photos("roboflow-quarter"),
    "rendered": rendered_eval,
}

HEADER = (f"  {'source':<18}{'photos':>7}{'dice':>6}{'recall':>8}{'precis.':>8}{'value':>7}"
          f"{'F1':>7}{'told N':>8}{'exact':>7}{'ECE':>7}{'sure wrong':>11}{'unsure right':>13}")
NOTE = ("  value: accuracy of the dice found; F1: per die, place and value; told N: F1 when "
        "told how many dice there are; exact: photos read exactly right told N; ECE: of the "
        "confidence over every find; sure wrong / unsure right: dice found on a true die, "
        "misread yet drawn as sure / read right yet marked to check or doubtful "
        f"(below {CHECK_BELOW}); trays checked: Rune55's trays against labels checked by eye "
        "where the photo plainly shows another value (models/label_checks.json)")


NESTED_HEADER = (f"  {'source':<18}{'recall':>8}{'precis.':>8}{'value':>7}{'F1':>7}"
                 f"{'told N':>8}{'exact':>7}")
NESTED_TITLE = (f"the same readings, a find also matching a true box nested in it or around it "
                f"(the smaller at least {NESTED_INSIDE:.0%} inside the larger, at most "
                f"{NESTED_AREA:.0f} times its area: a die's face labelled, its cube found):")


def nested_figures(tally: Tally, told: Tally) -> dict[str, float]:
    """Return one row of the nested table from its plain and told-N tallies (its keys
    begin with "nested_")."""
    s = tally.summary()
    return {"nested_recall": s["recall"], "nested_precision": s["precision"],
            "nested_value_accuracy": s["value_accuracy"], "nested_f1": s["f1"],
            "nested_told_f1": told.f1(), "nested_told_exact": told.exact / max(1, told.photos)}


def nested_line(label: str, f: dict[str, float]) -> str:
    """Return one printed row of the nested table."""
    return (f"  {label:<18}{f['nested_recall']:>8.3f}{f['nested_precision']:>8.3f}"
            f"{f['nested_value_accuracy']:>7.3f}{f['nested_f1']:>7.3f}"
            f"{f['nested_told_f1']:>8.3f}{f['nested_told_exact']:>7.3f}")


def figures(tally: Tally, told: Tally) -> dict[str, float]:
    """Return one row's figures from the plain and the told-N tallies of the same finds."""
    s = tally.summary()
    hits = np.array(tally.hits, float)
    return {"photos": tally.photos, "dice": tally.truth, "recall": s["recall"],
            "precision": s["precision"], "value_accuracy": s["value_accuracy"],
            "f1": s["f1"], "told_f1": told.f1(),
            "told_exact": told.exact / max(1, told.photos),
            "ece": ece(np.array(tally.confidences), hits) if len(hits) else 0.0,
            "sure_wrong": tally.sure_wrong, "unsure_right": tally.unsure_right}


def line(label: str, f: dict[str, float]) -> str:
    """Return one printed row."""
    return (f"  {label:<18}{f['photos']:>7.0f}{f['dice']:>6.0f}{f['recall']:>8.3f}"
            f"{f['precision']:>8.3f}{f['value_accuracy']:>7.3f}{f['f1']:>7.3f}"
            f"{f['told_f1']:>8.3f}{f['told_exact']:>7.3f}{f['ece']:>7.3f}"
            f"{f['sure_wrong']:>11.0f}{f['unsure_right']:>13.0f}")


def pair(folder: Path | None) -> tuple[DiceDetector, FaceReader]:
    """Return the detector and calibrated reader in *folder* (default: the shipped pair)."""
    reader = FaceReader(open_session(FACES_MODEL, folder), load_calibration(folder))
    return DiceDetector(open_session(DETECTOR_MODEL, folder)), reader


def table(folder: Path | None = None) -> tuple[str, dict[str, dict[str, float]]]:
    """Return the printed table and its figures by source for the pair in *folder*.

    A source whose photos are missing is named with the reason instead of figures.
    """
    detector, reader = pair(folder)
    lines = ["every source's held-out photos:", HEADER]
    nested_lines = [NESTED_TITLE, NESTED_HEADER]
    results: dict[str, dict[str, float]] = {}
    for label, photos in ROWS.items():
        try:
            held_out = photos()
        except FileNotFoundError as error:
            lines.append(f"  {label:<18}data missing: {error}")
            continue
        told, nested, nested_told = Tally(), Tally(nested=True), Tally(nested=True, told_n=True)
        tally = evaluate(held_out, detector, reader, told, also=(nested, nested_told))
        results[label] = figures(tally, told) | nested_figures(nested, nested_told)
        lines.append(line(label, results[label]))
        nested_lines.append(nested_line(label, results[label]))
    return "\n".join([*lines, NOTE, *nested_lines]), results


def main(argv: list[str] | None = None) -> int:
    """Print the table for a pair and keep its figures in runs/heldout.json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, help="folder of the pair (default: shipped)")
    args = parser.parse_args(argv)
    text, results = table(args.models)
    print(text, flush=True)
    RUNS.mkdir(exist_ok=True)
    (RUNS / "heldout.json").write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Generalization: leave one source out, train on the others, read the one left out.

``python -m models.loso train [--without byler|roboflow|rune55|rendered ...]`` trains
one model pair per source left out into ``runs/loso-without-<source>`` (git-ignored),
with a shorter schedule than the shipped models (``--full``: the same schedule).
``python -m models.loso`` (also part of ``make eval``) prints per-source F1 of each
such pair on the source it did not see (per die, of each photo's values wherever the
boxes lie, and told how many dice there are), beside the same figures of the shipped
pair on the same photos (which trained on most of them: how far reading an unseen
source falls behind a seen one), and says which pairs are not trained yet.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from models.data import source_photos
from models.evalsets import RUNS, rendered_eval
from models.evaluate import Tally, evaluate
from models.labels import LabelledPhoto
from vision.detect import DETECTOR_MODEL, DiceDetector
from vision.faces import FACES_MODEL, FaceReader
from vision.onnx import open_session

SOURCES = ("byler", "roboflow", "rune55", "rendered")
TRAINING = {"byler": ["byler-train"], "roboflow": ["roboflow-rest"],
            "rune55": ["rune55-trays-rest", "rune55-closeups-rest", "rune55-tables-rest"]}
SHORT = {"detector_steps": 1000, "detector_refine_steps": 200, "classifier_steps": 2000}


def run_folder(without: str) -> Path:
    """Return where the pair trained without *without* lives."""
    return RUNS / f"loso-without-{without}"


def held_out_photos(source: str) -> list[LabelledPhoto]:
    """Return every photo of a source (all of byler: a model left without it saw none)."""
    if source == "rendered":
        return rendered_eval()
    if source == "byler":
        return source_photos("byler-train") + source_photos("byler-val")
    if source == "rune55":  # every 4th file: each kind and photo, in a third of the time
        return source_photos("rune55")[::4]
    return source_photos(source)


def train_pair(sources: list[str], rendered: int, out: Path, threads: int,
               full: bool = False) -> None:
    """Train a pair on *sources* and *rendered* scenes, on the short schedule or, *full*,
    on `make train`'s (needs the `train` extra)."""
    from models import train  # PyTorch: only for training, not for reading the table

    steps = [] if full else [f"--{name.replace('_', '-')}={count}"
                             for name, count in SHORT.items()]
    train.main(["--sources", *sources, "--rendered", str(rendered),
                "--composites", str(rendered),  # tables with real dice on them too
                "--out", str(out), "--threads", str(threads), *steps])


def train_without(without: str, threads: int, full: bool = False) -> None:
    """Train a pair on every source but *without*."""
    sources = [s for name, group in TRAINING.items() if name != without for s in group]
    train_pair(sources, 0 if without == "rendered" else 300, run_folder(without), threads,
               full)


def score(without: str, photos: list[LabelledPhoto],
          told: Tally | None = None) -> Tally | None:
    """Return the tally of the pair trained without *without* on *photos* of that source
    (and fill *told*, see models.evaluate.evaluate), or None when that pair is not
    trained yet."""
    return score_pair(run_folder(without), photos, told)


def score_pair(folder: Path, photos: list[LabelledPhoto],
               told: Tally | None = None) -> Tally | None:
    """Return the tally of the pair in *folder* on *photos* (None if it is not there)."""
    if not (folder / DETECTOR_MODEL).exists() or not (folder / FACES_MODEL).exists():
        return None
    detector = DiceDetector(open_session(DETECTOR_MODEL, folder))
    reader = FaceReader(open_session(FACES_MODEL, folder))
    return evaluate(photos, detector, reader, told)


HEADER = (f"  {'source':<10}{'photos':>7}{'dice':>7}{'recall':>8}{'precis.':>8}{'value':>7}"
          f"{'F1':>7}{'values':>8}{'told N':>8} | {'shipped F1':>10}{'values':>8}{'told N':>8}")
NOTE = ("  F1: per die, place and value; values: each photo's values wherever the boxes lie;"
        " told N: F1 when told how many dice there are, as the game page tells the reader")


def row(label: str, tally: Tally, told: Tally, shipped: Tally,
        shipped_told: Tally) -> tuple[str, dict[str, float]]:
    """Return one line of the table and its figures."""
    s = tally.summary()
    figures = {**s, "told_f1": told.f1(), "shipped_f1": shipped.f1(),
               "shipped_values_f1": shipped.values_f1(), "shipped_told_f1": shipped_told.f1()}
    line = (f"  {label:<10}{tally.photos:>7}{tally.truth:>7}{s['recall']:>8.3f}"
            f"{s['precision']:>8.3f}{s['value_accuracy']:>7.3f}{s['f1']:>7.3f}"
            f"{s['values_f1']:>8.3f}{told.f1():>8.3f} | {shipped.f1():>10.3f}"
            f"{shipped.values_f1():>8.3f}{shipped_told.f1():>8.3f}")
    return line, figures


def report() -> str:
    """Return the leave-one-source-out table, naming pairs not trained yet."""
    lines = ["leave-one-source-out (trained without the source, read that source):", HEADER]
    results: dict[str, object] = {}
    for source in SOURCES:
        folder = run_folder(source)
        if not (folder / DETECTOR_MODEL).exists() or not (folder / FACES_MODEL).exists():
            lines.append(f"  {source:<10} not trained yet: python -m models.loso train "
                         f"--without {source}")
            continue
        try:
            photos = held_out_photos(source)
        except FileNotFoundError as error:
            lines.append(f"  {source:<10} data missing: {error}")
            continue
        told, shipped_told = Tally(), Tally()
        tally = score(source, photos, told)
        assert tally is not None  # the pair's files are there
        shipped = evaluate(photos, told=shipped_told)
        line, results[source] = row(source, tally, told, shipped, shipped_told)
        lines.append(line)
    (RUNS / "loso.json").parent.mkdir(exist_ok=True)
    (RUNS / "loso.json").write_text(json.dumps(results, indent=1) + "\n")
    return "\n".join([*lines, NOTE])


def main(argv: list[str] | None = None) -> None:
    """Train the chosen pairs (``train``) or print the table (default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", nargs="?", choices=["train", "report"], default="report")
    parser.add_argument("--without", choices=SOURCES, action="append")
    parser.add_argument("--full", action="store_true",
                        help="train on make train's schedule (about 25 min a pair) "
                             "instead of the short one (about 10 min)")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    if args.action == "train":
        for source in args.without or SOURCES:
            train_without(source, args.threads, args.full)
    print(report(), flush=True)


if __name__ == "__main__":
    main()

"""Generalization check: train on one source, read the other (both directions).

``python -m models.crosscheck [--direction byler|roboflow]`` trains into
``runs/cross-<source>`` (git-ignored) with a shorter schedule than the shipped
models and prints models.evaluate's report on the source it did not see.
Rendered dice are part of the recipe and are used in both directions.
"""

from __future__ import annotations

import argparse

from models import train
from models.data import source_photos
from models.evaluate import evaluate, report
from vision.detect import DETECTOR_MODEL, DiceDetector
from vision.faces import FACES_MODEL, FaceReader
from vision.onnx import open_session

RUNS = train.MODELS.parent / "runs"
DIRECTIONS = {"byler": ("byler-train", ("roboflow",)),
              "roboflow": ("roboflow", ("byler-val", "byler-train"))}


def run(direction: str, detector_steps: int, classifier_steps: int, threads: int) -> str:
    """Train on one source, evaluate on the other; return the printable report."""
    source, unseen = DIRECTIONS[direction]
    out = RUNS / f"cross-{source}"
    train.main(["--sources", source, "--out", str(out), "--threads", str(threads),
                "--detector-steps", str(detector_steps), "--detector-refine-steps", "0",
                "--classifier-steps", str(classifier_steps)])
    detector = DiceDetector(open_session(DETECTOR_MODEL, out))
    reader = FaceReader(open_session(FACES_MODEL, out))
    lines = []
    for name in unseen:
        tally = evaluate(source_photos(name), detector, reader)
        lines.append(f"== trained on {source}, read {name} ==\n{report(tally)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Run the chosen direction(s) and print their reports."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--direction", choices=sorted(DIRECTIONS), action="append")
    parser.add_argument("--detector-steps", type=int, default=600)
    parser.add_argument("--classifier-steps", type=int, default=1200)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args(argv)
    for direction in args.direction or sorted(DIRECTIONS):
        print(run(direction, args.detector_steps, args.classifier_steps, args.threads),
              flush=True)


if __name__ == "__main__":
    main()

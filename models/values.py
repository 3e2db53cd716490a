"""The face reader alone, on every labelled die of each source's held-out photos.

The detector decides where the dice are; once a die is found, its value is the
reader's alone. Here each labelled box is handed to the reader as if the detector had
found it exactly, so the figures say how well faces are read whatever the detector
does: value accuracy (argmax over the six faces), the share of real dice the reader
calls "not a die", and the confusion of faces. ``python -m models.values [--models DIR]``
prints one row per source.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import numpy as np

from models.heldout import ROWS
from models.labels import LabelledPhoto
from vision.faces import FACES_MODEL, NOT_A_DIE, FaceReader
from vision.image import load
from vision.onnx import open_session

HEADER = f"  {'source':<18}{'dice':>6}{'value':>8}{'not die':>9}   worst face"


def tally(photos: list[LabelledPhoto], reader: FaceReader) -> np.ndarray:
    """Return the (6, 7) counts of true face (rows) against the reader's argmax over faces
    1..6 and "not a die" (last column), over every labelled die of *photos*."""
    counts = np.zeros((6, NOT_A_DIE + 1), np.int64)
    for photo in photos:
        image = load(photo.path)
        h, w = image.pixels.shape[:2]
        boxes = photo.boxes * np.array([w, h, w, h], np.float32)
        if len(boxes) == 0:
            continue
        probs = reader.read(image.pixels, boxes).probs
        faces = probs[:, :NOT_A_DIE].argmax(axis=1)
        rejected = probs[:, NOT_A_DIE] > 0.5
        for value, face, no in zip(photo.values, faces, rejected, strict=True):
            counts[value - 1, NOT_A_DIE if no else face] += 1
    return counts


def figures(counts: np.ndarray) -> dict[str, float]:
    """Return dice, value accuracy (of the faces read, "not a die" aside), the share
    called not a die, and the worst face's accuracy with that face."""
    read = counts[:, :NOT_A_DIE]
    per_face = np.diag(read) / np.maximum(read.sum(axis=1), 1)
    worst = int(per_face.argmin())
    return {"dice": float(counts.sum()), "value_accuracy": float(np.trace(read)
                                                                 / max(1, read.sum())),
            "not_a_die": float(counts[:, NOT_A_DIE].sum() / max(1, counts.sum())),
            "worst_face": float(worst + 1), "worst_accuracy": float(per_face[worst])}


def table(folder: Path | None = None,
          rows: dict[str, Callable[[], list[LabelledPhoto]]] = ROWS) -> str:
    """Return the printed table for the reader in *folder* (default: the shipped one)."""
    reader = FaceReader(open_session(FACES_MODEL, folder))
    lines = ["the reader alone, on every labelled die (boxes as labelled):", HEADER]
    for label, photos in rows.items():
        try:
            held_out = photos()
        except FileNotFoundError as error:
            lines.append(f"  {label:<18}data missing: {error}")
            continue
        f = figures(tally(held_out, reader))
        lines.append(f"  {label:<18}{f['dice']:>6.0f}{f['value_accuracy']:>8.3f}"
                     f"{f['not_a_die']:>9.3f}   {f['worst_face']:.0f}: "
                     f"{f['worst_accuracy']:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the table for the reader in --models (default: shipped)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, help="folder of the reader (default: shipped)")
    args = parser.parse_args(argv)
    print(table(args.models), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Sheets of the dice a pair misreads on a source's held-out photos, to be looked at by eye.

``python -m models.misreads SOURCE [--min-confidence P] [--models DIR] [--out FOLDER]``
reads the held-out photos of SOURCE (a row of models.heldout: "rune55 trays", ...) with
the pair in DIR (default: the shipped one). Every find matched to a labelled die (IoU
≥ 0.5) whose value is not the label's, and whose confidence is at least P, is cut out
with a third of its size around it, enlarged and headed "#K label L read R p"; sheets
of eight go to FOLDER (default ``runs/misreads/SOURCE``) and a line per die is printed.
Looking at them tells a reader's mistake from a label's: the model card's audit of the
confident misreads was made with them.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from models.evalsets import RUNS
from models.evaluate import match
from models.heldout import ROWS, pair
from models.labels import LabelledPhoto
from vision.detect import DiceDetector
from vision.faces import FaceReader
from vision.image import load
from vision.pipeline import candidates

TILE = 260  # side of a die's picture on a sheet
HEAD = 28  # height of its heading
PER_ROW, ROWS_PER_SHEET = 4, 2


@dataclass(frozen=True)
class Misread:
    """A labelled die read otherwise: its photo, found box (pixels), label, value read and
    calibrated confidence."""

    path: Path
    box: tuple[int, int, int, int]
    label: int
    read: int
    confidence: float


def misreads(photos: Iterable[LabelledPhoto], detector: DiceDetector, reader: FaceReader,
             min_confidence: float = 0.0) -> Iterator[Misread]:
    """Yield every matched die of *photos* read with another value than its label's, with a
    confidence of at least *min_confidence*, photo by photo."""
    for photo in photos:
        image = load(photo.path)
        found = candidates(image, reader.read(image.pixels, detector.detect(image.pixels).boxes))
        confidence = reader.calibration(found.scores, found.is_die)
        truth = photo.boxes * np.array([image.width, image.height] * 2, np.float32)
        for t, r in sorted(match(truth, found.boxes.astype(np.float32))):
            label, read = photo.values[t], int(found.values[r])
            if label != read and confidence[r] >= min_confidence:
                x1, y1, x2, y2 = (int(v) for v in found.boxes[r])
                yield Misread(photo.path, (x1, y1, x2, y2), label, read, float(confidence[r]))


def picture(path: Path) -> np.ndarray:
    """Return the photo at *path* as BGR pixels, upright; raises OSError when unreadable."""
    pixels = cv2.imread(str(path))
    if pixels is None:
        raise OSError(f"cannot read {path}")
    return np.asarray(pixels)


def tile(pixels: np.ndarray, die: Misread, number: int) -> np.ndarray:
    """Return the picture of *die* in *pixels* (BGR) with a third of its size around it,
    TILE pixels square under a heading of HEAD pixels."""
    x1, y1, x2, y2 = die.box
    margin = max(x2 - x1, y2 - y1) // 3
    h, w = pixels.shape[:2]
    crop = pixels[max(0, y1 - margin):min(h, y2 + margin), max(0, x1 - margin):min(w, x2 + margin)]
    picture = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    headed = cv2.copyMakeBorder(picture, HEAD, 0, 0, 4, cv2.BORDER_CONSTANT, value=(255,) * 3)
    heading = f"#{number} label {die.label} read {die.read} {die.confidence:.2f}"
    cv2.putText(headed, heading, (3, HEAD - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 200), 2)
    return np.asarray(headed)


def sheets(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """Return the tiles laid out PER_ROW by ROWS_PER_SHEET a sheet, the last filled white."""
    per = PER_ROW * ROWS_PER_SHEET
    pages = []
    for start in range(0, len(tiles), per):
        page = tiles[start:start + per]
        page += [np.full_like(tiles[0], 255)] * (per - len(page))
        pages.append(np.vstack([np.hstack(page[r * PER_ROW:(r + 1) * PER_ROW])
                                for r in range(ROWS_PER_SHEET)]))
    return pages


def main(argv: list[str] | None = None) -> int:
    """Write the sheets of one source's misread dice and print one line per die."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", choices=sorted(ROWS))
    parser.add_argument("--min-confidence", type=float, default=0.5)
    parser.add_argument("--models", type=Path, help="folder of the pair (default: shipped)")
    parser.add_argument("--out", type=Path, help="folder of the sheets")
    args = parser.parse_args(argv)
    out = args.out or RUNS / "misreads" / args.source.replace(" ", "-").replace("/", "")
    out.mkdir(parents=True, exist_ok=True)
    detector, reader = pair(args.models)
    tiles = []
    photo: tuple[Path, np.ndarray] | None = None  # misreads come photo by photo
    for number, die in enumerate(misreads(ROWS[args.source](), detector, reader,
                                          args.min_confidence)):
        print(f"#{number} {die.path.name} box {die.box}: label {die.label}, "
              f"read {die.read} ({die.confidence:.2f})")
        if photo is None or photo[0] != die.path:
            photo = die.path, picture(die.path)
        tiles.append(tile(photo[1], die, number))
    pages = sheets(tiles)
    for page, sheet in enumerate(pages):
        cv2.imwrite(str(out / f"sheet-{page + 1}.png"), sheet)
    print(f"{len(tiles)} misread dice, {len(pages)} sheets in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

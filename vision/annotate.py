"""Draw what was read: a box and the value on every die, for people to check."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.image import DecodedImage
from vision.reading import DiceReading, Die

COUNTED, CHECK, DOUBTFUL = (40, 200, 40), (0, 200, 255), (0, 140, 255)  # BGR


def draw(image: DecodedImage, reading: DiceReading) -> np.ndarray:
    """Return a copy of the decoded pixels with each die's box and value drawn on it.

    Counted dice are drawn in green, those to check (see Die.check) in
    yellow, doubtful ones in orange.
    """
    canvas = image.pixels.copy()
    scale = 1.0 / image.scale
    thickness = max(2, round(max(canvas.shape[:2]) / 400))
    for die in reading.found:
        x1, y1, x2, y2 = (round(v * scale) for v in die.box)
        colour = _colour(die)
        cv2.rectangle(canvas, (x1, y1), (x2, y2), colour, thickness)
        label = str(die.value)
        font_scale = max(0.6, (y2 - y1) / 45)
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
        top = max(th + base, y1)
        cv2.rectangle(canvas, (x1, top - th - base), (x1 + tw + 4, top), colour, -1)
        cv2.putText(canvas, label, (x1 + 2, top - base // 2), cv2.FONT_HERSHEY_SIMPLEX,
                    font_scale, (255, 255, 255), thickness, cv2.LINE_AA)
    return canvas


def _colour(die: Die) -> tuple[int, int, int]:
    if die.doubtful:
        return DOUBTFUL
    return CHECK if die.check else COUNTED


def write_annotated(image: DecodedImage, reading: DiceReading, path: Path) -> Path:
    """Write the annotated photo to *path* (JPEG or PNG by suffix); return the path.

    Raises OSError when it cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), draw(image, reading), [cv2.IMWRITE_JPEG_QUALITY, 85]):
        raise OSError(f"cannot write {path}")
    return path

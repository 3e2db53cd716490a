"""Draw a checked pad for people to look at: every cell read, the unsure ones in orange,
the problem cells in red with a number, and the problems listed by number."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

CELL = (60, 170, 60)
DOUBTFUL = (0, 140, 255)
PROBLEM = (30, 30, 220)


@dataclass(frozen=True)
class Mark:
    """A cell to outline: its corners in the image's pixels, and a problem's number and
    reason (0 and "" for a cell read without a problem), or a doubtful cell."""

    quad: np.ndarray
    number: int = 0
    reason: str = ""
    doubtful: bool = False


def draw_pad(pixels: np.ndarray, marks: Sequence[Mark]) -> np.ndarray:
    """Return a copy of *pixels* with every mark drawn and the problems listed at the top."""
    canvas = pixels.copy()
    thick = max(1, round(max(canvas.shape[:2]) / 800))
    for mark in sorted(marks, key=lambda m: (m.number > 0, m.doubtful)):
        colour = PROBLEM if mark.number else DOUBTFUL if mark.doubtful else CELL
        width = thick * (3 if mark.number else 2 if mark.doubtful else 1)
        cv2.polylines(canvas, [np.round(mark.quad).astype(np.int32)], True, colour, width,
                      cv2.LINE_AA)
        if mark.number:
            x, y = (int(v) for v in mark.quad.max(0))
            _label(canvas, str(mark.number), (x + 2 * thick, y), thick)
    reasons = {m.number: m.reason for m in marks if m.number}
    for line, number in enumerate(sorted(reasons)):
        _label(canvas, f"{number}: {reasons[number]}", (10, 30 * thick * (line + 1)), thick)
    return canvas


def _label(canvas: np.ndarray, text: str, at: tuple[int, int], thick: int) -> None:
    scale = 0.5 * thick
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x, y = at
    cv2.rectangle(canvas, (x - 2, y - th - base), (x + tw + 2, y + base), (255, 255, 255), -1)
    cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, PROBLEM, thick,
                cv2.LINE_AA)


def write_pad(pixels: np.ndarray, marks: Sequence[Mark], path: Path) -> Path:
    """Write the drawn pad to *path* (JPEG or PNG by suffix); return the path.

    Raises OSError when it cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), draw_pad(pixels, marks)):
        raise OSError(f"cannot write {path}")
    return path

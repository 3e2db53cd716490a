"""Digits drawn with a pen from stroke outlines, in the forms people write them.

MNIST's writers write each digit in few forms (a 1 is mostly one stroke, a 4 mostly open),
while a score pad is filled by whoever holds the pen: a 1 with a flag and a foot, a
closed 4, a 7 with a crossbar, a 9 with a curled tail. Each digit here has several such
forms, each a few strokes through points in a box one high and about 0.7 wide (y down).
A glyph is a form drawn again every time: its points moved a little, the whole turned,
sheared and stretched, the pen thicker or thinner, and scaled down to MNIST's size.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from models.handwriting_data import ink_cropped

Stroke = tuple[tuple[float, float], ...]
Form = tuple[Stroke, ...]

DRAW_H = 64  # the height the strokes are drawn at before scaling down
GLYPH_H = 20  # MNIST's digits are about 20 px high


def arc(cx: float, cy: float, rx: float, ry: float, start: float, end: float,
        count: int = 10) -> Stroke:
    """Return points along an ellipse from angle *start* to *end* (degrees; 0 is right,
    90 down)."""
    angles = np.radians(np.linspace(start, end, count))
    return tuple((float(cx + rx * np.cos(a)), float(cy + ry * np.sin(a))) for a in angles)


def joined(*parts: Stroke) -> Stroke:
    """Return one stroke through every part in turn."""
    return tuple(point for part in parts for point in part)


FORMS: tuple[tuple[Form, ...], ...] = (
    (  # 0: an oval, closed at the top or overlapping a little
        (arc(0.35, 0.5, 0.3, 0.48, -90, 270, 16),),
        (arc(0.35, 0.5, 0.26, 0.5, -60, 320, 16),),
    ),
    (  # 1: a stroke; with a flag; with a flag and a foot; a long European flag
        (((0.35, 0.0), (0.35, 1.0)),),
        (((0.12, 0.22), (0.38, 0.0), (0.38, 1.0)),),
        (((0.12, 0.22), (0.38, 0.0), (0.38, 1.0)), ((0.12, 1.0), (0.62, 1.0))),
        (((0.1, 0.3), (0.42, 0.0), (0.4, 1.0)),),
    ),
    (  # 2: a hook and a base; with a loop at the foot
        (joined(arc(0.35, 0.28, 0.28, 0.26, 200, 400), ((0.05, 1.0), (0.68, 1.0))),),
        (joined(arc(0.35, 0.28, 0.28, 0.26, 200, 400),
                ((0.06, 0.95), (0.18, 0.86), (0.22, 0.96), (0.1, 1.0), (0.68, 0.97))),),
    ),
    (  # 3: two bows; a flat top
        (joined(arc(0.33, 0.25, 0.27, 0.23, 200, 450), arc(0.33, 0.73, 0.3, 0.26, 270, 520)),),
        (joined(((0.05, 0.0), (0.6, 0.0), (0.28, 0.42)), arc(0.33, 0.7, 0.3, 0.28, 250, 520)),),
    ),
    (  # 4: open; closed
        (((0.15, 0.0), (0.07, 0.62), (0.7, 0.62)), ((0.52, 0.08), (0.52, 1.0))),
        (((0.5, 0.0), (0.04, 0.66), (0.7, 0.66)), ((0.5, 0.0), (0.5, 1.0))),
    ),
    (  # 5: a flag, a stem and a belly; in one stroke
        (((0.64, 0.0), (0.16, 0.0)),
         joined(((0.16, 0.0), (0.12, 0.45)), arc(0.33, 0.7, 0.3, 0.28, 235, 520))),
        (joined(((0.64, 0.02), (0.16, 0.0), (0.12, 0.45)), arc(0.33, 0.7, 0.3, 0.28, 235, 520)),),
    ),
    (  # 6: a curve down into a loop; straighter
        (joined(((0.58, 0.02), (0.3, 0.2), (0.07, 0.62)), arc(0.35, 0.72, 0.28, 0.27, 180, 540)),),
        (joined(((0.45, 0.0), (0.12, 0.55)), arc(0.36, 0.74, 0.27, 0.26, 200, 560)),),
    ),
    (  # 7: two strokes; with a crossbar; a curved stem
        (((0.04, 0.02), (0.66, 0.02), (0.25, 1.0)),),
        (((0.04, 0.02), (0.66, 0.02), (0.25, 1.0)), ((0.18, 0.52), (0.62, 0.5))),
        (((0.04, 0.08), (0.66, 0.02), (0.46, 0.4), (0.3, 1.0)),),
    ),
    (  # 8: two loops; a small head on a big body
        (arc(0.35, 0.25, 0.22, 0.24, -90, 270, 14), arc(0.35, 0.74, 0.29, 0.26, -90, 270, 14)),
        (arc(0.36, 0.2, 0.17, 0.2, 90, 450, 14), arc(0.35, 0.68, 0.32, 0.32, -90, 270, 14)),
    ),
    (  # 9: a loop and a straight stem; a curled tail
        (joined(arc(0.33, 0.28, 0.27, 0.27, 0, 360, 14), ((0.6, 0.28), (0.55, 1.0))),),
        (joined(arc(0.33, 0.28, 0.27, 0.27, 0, 360, 14),
                ((0.6, 0.3), (0.58, 0.78), (0.42, 1.0), (0.15, 0.95))),),
    ),
)


def smooth(points: np.ndarray, per_span: int = 4) -> np.ndarray:
    """Return a Catmull-Rom curve through *points* (n x 2), *per_span* points a span."""
    if len(points) < 3:
        return points
    padded = np.vstack([points[:1], points, points[-1:]])
    t = np.linspace(0, 1, per_span, endpoint=False)[:, None]
    out = []
    for i in range(1, len(padded) - 2):
        p0, p1, p2, p3 = padded[i - 1:i + 3]
        out.append(0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                          + (3 * p1 - p0 - 3 * p2 + p3) * t ** 3))
    return np.vstack([*out, points[-1:]])


def draw(form: Form, rng: np.random.Generator) -> np.ndarray:
    """Return *form* written once (ink 0..1, cropped to its strokes, GLYPH_H high)."""
    angle = np.radians(rng.uniform(-8, 8))
    shear, stretch = rng.uniform(-0.2, 0.2), rng.uniform(0.7, 1.3)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    shape = turn @ np.array([[stretch, shear], [0.0, 1.0]])
    wobble = rng.uniform(0.015, 0.045)
    strokes = [smooth(np.asarray(s) + rng.normal(0, wobble, (len(s), 2))) @ shape.T
               for s in form]
    every = np.vstack(strokes)
    low = every.min(axis=0)
    scale = DRAW_H / max(float(np.ptp(every[:, 1])), 0.3)
    thick = int(rng.integers(3, 10))
    pad = thick + 2
    size = np.ceil((every.max(axis=0) - low) * scale).astype(int) + 2 * pad
    canvas = np.zeros((size[1], size[0]), np.float32)
    for stroke in strokes:
        line = np.round(((stroke - low) * scale + pad) * 16).astype(np.int32)
        cv2.polylines(canvas, [line], False, 1.0, thick, cv2.LINE_AA, shift=4)
    small = cv2.resize(canvas, (max(2, round(size[0] * GLYPH_H / size[1])), GLYPH_H),
                       interpolation=cv2.INTER_AREA)
    return ink_cropped(np.clip(small, 0, 1))


@dataclass(frozen=True)
class StrokeGlyphs:
    """Digits drawn from `FORMS`, every pick a new glyph (as `Glyphs` picks)."""

    def pick(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        """Return *digit* written in one of its forms, drawn anew."""
        forms = FORMS[digit]
        return draw(forms[int(rng.integers(len(forms)))], rng)

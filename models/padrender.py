"""Score pads the project draws and photographs itself: a layout's grid filled in with
handwritten numbers, then photographed (perspective, rotation, a curled sheet, shadow,
light, blur, noise, JPEG), with the truth kept: what each cell holds and where it lies.

Used by the tests and `models.padeval`; never by the code a player runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from models.handwriting_data import Glyphs, Pen, f32, write_text
from scorekeeper.padlayouts import LayoutRow, PadLayout
from vision.padmarkers import MARKER_GAP, marker_image

ROW_H = 56  # sheet pixels (about 7 mm at 8 px/mm)
VALUE_W = 140
LABEL_W = (440, 260)  # the box names, "how to score"
MARGIN = 150
MARKER = 96
_ASCII = str.maketrans({"ü": "ue", "ß": "ss", "ö": "oe", "ä": "ae", "✓": "v"})


@dataclass(frozen=True)
class Sheet:
    """A drawn pad: its pixels, the x of its column lines and the y of its row lines."""

    pixels: np.ndarray
    xs: tuple[int, ...]
    ys: tuple[int, ...]
    value_columns: int
    label_columns: int

    def cell(self, column: int, row: int) -> np.ndarray:
        """Return value column *column*'s cell in grid row *row*: 4 corners, clockwise."""
        x0, x1 = self.xs[self.label_columns + column], self.xs[self.label_columns + column + 1]
        y0, y1 = self.ys[row], self.ys[row + 1]
        return f32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def _text(image: np.ndarray, text: str, x: int, y: int, scale: float = 0.7) -> None:
    cv2.putText(image, text.translate(_ASCII), (x + 8, y + ROW_H // 2 + 8),
                cv2.FONT_HERSHEY_SIMPLEX, scale, (40, 40, 40), 1, cv2.LINE_AA)


def draw_sheet(layout: PadLayout, rows: Sequence[LayoutRow], columns: int,
               ruling: tuple[int, int, int] = (30, 30, 30)) -> Sheet:
    """Return an empty pad of *layout* with *rows* and *columns* value columns."""
    widths = [*LABEL_W[:layout.label_columns], *([VALUE_W] * columns)]
    xs = tuple(int(v) for v in MARGIN + np.concatenate([[0], np.cumsum(widths)]))
    ys = tuple(MARGIN + ROW_H * i for i in range(len(rows) + 1))
    sheet = np.full((ys[-1] + MARGIN, xs[-1] + MARGIN, 3), 250, np.uint8)
    for i, row in enumerate(rows):
        label = row.label if row.kind != "header" else ""
        _text(sheet, label, xs[0], ys[i], 0.6 if row.kind != "section" else 0.7)
        if row.kind == "header":
            for c in range(columns):
                _text(sheet, layout.column_label.format(n=c + 1), xs[layout.label_columns + c],
                      ys[i], 0.5)
    for y in ys:
        cv2.line(sheet, (xs[0], y), (xs[-1], y), ruling, 2)
    for x in xs:
        cv2.line(sheet, (x, ys[0]), (x, ys[-1]), ruling, 2)
    if layout.markers:
        _markers(sheet, xs, ys)
    return Sheet(sheet, xs, ys, columns, layout.label_columns)


def _markers(sheet: np.ndarray, xs: Sequence[int], ys: Sequence[int]) -> None:
    """Print pipkeeper's four markers just outside the grid's corners (ids 0..3 clockwise
    from the top left), `MARKER_GAP` of a marker's side away from them."""
    gap = round(MARKER * MARKER_GAP)
    corners = [(xs[0] - gap - MARKER, ys[0] - gap - MARKER), (xs[-1] + gap, ys[0] - gap - MARKER),
               (xs[-1] + gap, ys[-1] + gap), (xs[0] - gap - MARKER, ys[-1] + gap)]
    for marker_id, (x, y) in enumerate(corners):
        sheet[y:y + MARKER, x:x + MARKER] = marker_image(marker_id, MARKER)[..., None]


INKS = {"blue": (150, 60, 25), "black": (30, 30, 30), "pencil": (95, 95, 95)}


def write_cells(sheet: Sheet, rows: Sequence[LayoutRow],
                columns: Sequence[Mapping[int, str]], glyphs: Glyphs,
                rng: np.random.Generator) -> np.ndarray:
    """Return *sheet* with each column's texts (by grid row) written in, a writer and
    pen per column."""
    out = sheet.pixels.astype(np.float32)
    for c, texts in enumerate(columns):
        pen, ink = Pen.random(rng), INKS[str(rng.choice(list(INKS)))]
        pen = Pen(min(pen.height, 0.8), pen.stretch, pen.gap, pen.slant, pen.weight)
        for r, text in texts.items():
            if not text or not rows[r].read:
                continue
            (x0, y0), _, (x1, y1), _ = sheet.cell(c, r).astype(int)
            alpha = write_text(text, glyphs, pen, (y1 - y0 + 8, x1 - x0 - 6), rng)
            alpha = np.clip(alpha * float(rng.uniform(0.75, 1.0)), 0, 1)[..., None]
            ys, xs = slice(y0 - 4, y1 + 4), slice(x0 + 3, x1 - 3)
            out[ys, xs] = out[ys, xs] * (1 - alpha) + f32(ink) * alpha
    return out.astype(np.uint8)


@dataclass(frozen=True)
class Shot:
    """How a sheet is photographed."""

    size: tuple[int, int] = (1600, 1200)  # photo width, height
    quarter_turns: int = 0
    tilt: float = 0.0  # degrees beyond the quarter turns
    perspective: float = 0.08  # how far corners move, as a share of the sheet
    fill: float = 0.8  # the sheet's share of the photo's shorter side
    curl: float = 0.0  # the sheet's bend, as a share of its height
    shadow: bool = False
    blur: float = 0.6
    quality: int = 85
    shift: tuple[float, float] = (0.0, 0.0)  # the sheet's centre off the photo's, in shares


def _curled(sheet: np.ndarray, curl: float) -> np.ndarray:
    if not curl:
        return sheet
    h, w = sheet.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bend = curl * h * (1 - ((xx / w) * 2 - 1) ** 2)
    return cv2.remap(sheet, xx, yy - bend, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def photograph(sheet: np.ndarray, shot: Shot, rng: np.random.Generator) -> tuple[np.ndarray,
                                                                                 np.ndarray]:
    """Return (a photo of *sheet*, the homography from sheet to photo pixels)."""
    h, w = sheet.shape[:2]
    sheet = _curled(sheet, shot.curl)
    pw, ph = shot.size
    turns = shot.quarter_turns % 4
    side = w if turns % 2 else h
    other = h if turns % 2 else w
    scale = shot.fill * min(ph / side, pw / other)
    angle = np.deg2rad(90 * turns + shot.tilt)
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    src = f32([[0, 0], [w, 0], [w, h], [0, h]])
    centred = (src - [w / 2, h / 2]) * scale
    jitter = rng.uniform(-shot.perspective, shot.perspective, (4, 2)) * [w * scale, h * scale]
    dst = (centred + jitter) @ rot.T + [pw / 2 + shot.shift[0] * pw, ph / 2 + shot.shift[1] * ph]
    matrix = cv2.getPerspectiveTransform(src, f32(dst))
    table = rng.uniform(60, 140, 3)
    photo: np.ndarray = np.empty((ph, pw, 3), np.uint8)
    photo[:] = table.astype(np.uint8)
    noise = cv2.GaussianBlur(rng.normal(0, 18, (ph // 8, pw // 8)).astype(np.float32), (0, 0), 2)
    photo = np.clip(photo + cv2.resize(noise, (pw, ph))[..., None], 0, 255).astype(np.uint8)
    cv2.warpPerspective(sheet, matrix, (pw, ph), dst=photo, borderMode=cv2.BORDER_TRANSPARENT)
    photo = _lit(photo, shot, rng)
    if shot.blur:
        photo = cv2.GaussianBlur(photo, (0, 0), shot.blur)
    photo = np.clip(photo + rng.normal(0, 3, photo.shape), 0, 255).astype(np.uint8)
    jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, shot.quality])[1]
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)), np.asarray(matrix)


def _lit(photo: np.ndarray, shot: Shot, rng: np.random.Generator) -> np.ndarray:
    ph, pw = photo.shape[:2]
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = 1 + gx * (xx / pw - 0.5) + gy * (yy / ph - 0.5)
    if shot.shadow:
        angle = float(rng.uniform(0, np.pi))
        side = ((xx - pw * rng.uniform(0.3, 0.7)) * np.cos(angle)
                + (yy - ph * rng.uniform(0.3, 0.7)) * np.sin(angle))
        light = light * (1 - 0.45 / (1 + np.exp(-side / 25)))
    return np.asarray(np.clip(photo * light[..., None], 0, 255), dtype=np.uint8)

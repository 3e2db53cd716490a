"""Handwritten digits and the score pad cells rendered from them, for training and measuring
the handwriting reader (`vision.handwriting`).

The digits are MNIST's (``../shared/data/digits/mnist-10k.npz``, see its README): a fixed
shuffle keeps the last `HELD_OUT` samples out of training, for measuring only; scikit-learn's
1,797 `load_digits` (43 other writers) are a second held-out sample. A number is written by
composing digit glyphs with a writer's spacing, size, slant and pen; a cell adds the ruling
at its edges, paper, ink colour, lighting, blur, noise and JPEG, and is cut as the pipeline
cuts cells from a photo.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from vision.handwriting import MARGIN, WORK_H, WORK_W, fit_cell, normalize_cell

ROOT = Path(__file__).resolve().parent.parent
DIGITS = Path(os.environ.get("PIPKEEPER_DIGITS", ROOT.parent / "shared" / "data" / "digits"))
MNIST = DIGITS / "mnist-10k.npz"
HELD_OUT = 2000
SPLIT_SEED = 24


def f32(values: object) -> np.ndarray:
    """Return *values* as a float32 array."""
    return np.asarray(values, dtype=np.float32)


class DigitsMissingError(FileNotFoundError):
    """The shared handwritten digits are not where they are looked for."""


# The share of training glyphs seen at low resolution (see varied).
LOW_RES = 0.2


@dataclass(frozen=True)
class Glyphs:
    """Handwritten digits as ink 0..1 cropped to their strokes, grouped by value. Glyphs
    that *vary* are redrawn at every pick (`varied`): as its writer might write it again."""

    by_digit: tuple[tuple[np.ndarray, ...], ...]
    vary: bool = False
    low_res: float = LOW_RES  # of the varied glyphs, the share seen at low resolution

    def pick(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        """Return one random glyph of *digit*."""
        pool = self.by_digit[digit]
        glyph = pool[int(rng.integers(len(pool)))]
        return varied(glyph, rng, self.low_res) if self.vary else glyph


class GlyphSource(Protocol):
    """Where a number's digits are taken from."""

    def pick(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        """Return one glyph of *digit* (ink 0..1, cropped to its strokes)."""
        ...


@dataclass(frozen=True)
class Blend:
    """Digits taken from *second* with probability *share*, else from *first*."""

    first: GlyphSource
    second: GlyphSource
    share: float

    def pick(self, digit: int, rng: np.random.Generator) -> np.ndarray:
        """Return one glyph of *digit* from either source."""
        source = self.second if rng.random() < self.share else self.first
        return source.pick(digit, rng)


def varied(glyph: np.ndarray, rng: np.random.Generator, low_res: float = LOW_RES) -> np.ndarray:
    """Return *glyph* written again a little otherwise: turned, narrower or wider, its
    strokes bent by a smooth random field; a *low_res* share of the time seen at 7-12 px
    (a far pad, a webcam, a coarse scan) and enlarged back."""
    h = glyph.shape[0]
    pad = max(2, h // 6)
    ink = np.pad(glyph, pad)
    ph, pw = ink.shape
    angle = float(rng.uniform(-12, 12))
    matrix = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    stretch = float(rng.uniform(0.85, 1.15))  # about the centre
    matrix[0] = matrix[0] * stretch + [0, 0, (1 - stretch) * pw / 2]
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32)
    bend = float(rng.uniform(0.0, 0.09)) * ph
    fields = [cv2.GaussianBlur(rng.uniform(-1, 1, (ph, pw)).astype(np.float32), (0, 0),
                               ph / 7) for _ in range(2)]
    fields = [f / max(float(np.abs(f).max()), 1e-6) * bend for f in fields]
    map_x = matrix[0, 0] * xx + matrix[0, 1] * yy + matrix[0, 2] + fields[0]
    map_y = matrix[1, 0] * xx + matrix[1, 1] * yy + matrix[1, 2] + fields[1]
    out = cv2.remap(ink, map_x.astype(np.float32), map_y.astype(np.float32),
                    cv2.INTER_LINEAR, borderValue=0.0)
    if rng.random() < low_res:
        small = int(rng.integers(7, 13))
        size = (max(2, round(pw * small / ph)), small)
        out = cv2.resize(cv2.resize(out, size, interpolation=cv2.INTER_AREA), (pw, ph),
                         interpolation=cv2.INTER_CUBIC)
        out[out < 0.15] = 0
    return ink_cropped(np.clip(out, 0, 1).astype(np.float32))


def ink_cropped(ink: np.ndarray) -> np.ndarray:
    """Return *ink* cut to its strokes (unchanged when it holds none)."""
    rows, cols = np.nonzero(ink > 0.1)
    if not len(rows):
        return ink
    return ink[rows.min():rows.max() + 1, cols.min():cols.max() + 1]


def _glyphs(images: np.ndarray, labels: np.ndarray) -> Glyphs:
    ink = images.astype(np.float32) / float(images.max())
    return Glyphs(tuple(tuple(ink_cropped(ink[i]) for i in np.flatnonzero(labels == d))
                        for d in range(10)))


def load_mnist() -> tuple[np.ndarray, np.ndarray]:
    """Return MNIST's images and labels; raises DigitsMissingError when absent."""
    if not MNIST.exists():
        raise DigitsMissingError(f"handwritten digits not found at {MNIST} (see its README)")
    data = np.load(MNIST)
    return data["images"], data["labels"]


def mnist_split() -> tuple[Glyphs, Glyphs]:
    """Return (training glyphs, held-out glyphs) of MNIST: a fixed shuffle, the last
    `HELD_OUT` samples never trained on."""
    images, labels = load_mnist()
    order = np.random.default_rng(SPLIT_SEED).permutation(len(labels))
    train, held = order[:-HELD_OUT], order[-HELD_OUT:]
    return _glyphs(images[train], labels[train]), _glyphs(images[held], labels[held])


def sklearn_glyphs() -> Glyphs:
    """Return scikit-learn's 8x8 digits of 43 other writers, enlarged to MNIST's 20 px.

    Raises ImportError when scikit-learn is not installed (the ``train`` extra has it).
    """
    from sklearn.datasets import load_digits  # only for measuring

    digits = load_digits()
    big = np.stack([cv2.resize(im.astype(np.float32), (20, 20), interpolation=cv2.INTER_CUBIC)
                    for im in digits.images])
    big = np.clip(big / 16.0, 0, 1)
    big[big < 0.15] = 0
    return _glyphs((big * 255).astype(np.uint8), digits.target)


# --- writing a number ----------------------------------------------------------------------


@dataclass(frozen=True)
class Pen:
    """How one writer writes: size, slant, spacing and stroke weight."""

    height: float  # the digits' height, as a share of the cell's height
    stretch: float  # horizontal scale of the digits
    gap: float  # space between digits, as a share of their height (negative: touching)
    slant: float  # shear
    weight: int  # -1 thinner, 0, 1 or 2 thicker strokes

    @classmethod
    def random(cls, rng: np.random.Generator) -> Pen:
        """Return a random writer's pen."""
        return cls(float(rng.uniform(0.45, 0.95)), float(rng.uniform(0.65, 1.45)),
                   float(rng.uniform(-0.12, 0.4)), float(rng.uniform(-0.25, 0.25)),
                   int(rng.choice([-1, 0, 0, 1, 1, 2])))


def _weighted(glyph: np.ndarray, weight: int) -> np.ndarray:
    if weight == 0:
        return glyph
    kernel = np.ones((2, 2), np.uint8) if abs(weight) == 1 else np.ones((3, 3), np.uint8)
    padded = np.pad(glyph, 2)
    return cv2.dilate(padded, kernel) if weight > 0 else cv2.erode(padded, kernel)


def write_text(text: str, glyphs: GlyphSource, pen: Pen, size: tuple[int, int],
               rng: np.random.Generator) -> np.ndarray:
    """Return the ink 0..1 (height x width of *size*) of *text* written across a cell of
    that size: digits, or a scratch mark ("-" dash, "/" slash, "x" cross, "ø" slashed 0)."""
    h, w = size
    canvas = np.zeros((h, w), np.float32)
    if text in ("-", "/", "x"):
        return _scratch(canvas, text, pen, rng)
    digits = "0" if text == "ø" else text
    height = pen.height * h
    parts = []
    for char in digits:
        glyph = _weighted(glyphs.pick(int(char), rng), pen.weight)
        scale = height / glyph.shape[0] * float(rng.uniform(0.92, 1.08))
        gw = max(2, round(glyph.shape[1] * scale * pen.stretch))
        parts.append(cv2.resize(glyph, (gw, max(2, round(glyph.shape[0] * scale))),
                                interpolation=cv2.INTER_LINEAR))
    gap = pen.gap * height
    total = sum(p.shape[1] for p in parts) + gap * (len(parts) - 1)
    shrink = min(1.0, (w * 0.92) / max(total, 1))
    x = (w - total * shrink) / 2 + float(rng.uniform(-0.2, 0.2)) * (w - total * shrink)
    for part in parts:
        if shrink < 1:
            part = cv2.resize(part, (max(2, round(part.shape[1] * shrink)), part.shape[0]))
        y = (h - part.shape[0]) / 2 + float(rng.normal(0, 0.08)) * h
        _paste(canvas, part, round(x), round(y))
        x += part.shape[1] + gap * shrink
    if text == "ø":
        _scratch(canvas, "/", pen, rng, reach=0.6)
    return _sheared(canvas, pen.slant)


def _paste(canvas: np.ndarray, part: np.ndarray, x: int, y: int) -> None:
    h, w = canvas.shape
    y0, x0 = max(y, 0), max(x, 0)
    y1, x1 = min(y + part.shape[0], h), min(x + part.shape[1], w)
    if y1 > y0 and x1 > x0:
        piece = part[y0 - y:y1 - y, x0 - x:x1 - x]
        canvas[y0:y1, x0:x1] = np.maximum(canvas[y0:y1, x0:x1], piece)


def _sheared(canvas: np.ndarray, slant: float) -> np.ndarray:
    h, w = canvas.shape
    matrix = f32([[1, -slant, slant * h / 2], [0, 1, 0]])
    return np.asarray(cv2.warpAffine(canvas, matrix, (w, h), flags=cv2.INTER_LINEAR))


def _scratch(canvas: np.ndarray, mark: str, pen: Pen, rng: np.random.Generator,
             reach: float = 1.0) -> np.ndarray:
    h, w = canvas.shape
    thick = max(1, round(h * float(rng.uniform(0.03, 0.09))))
    cx, cy = w / 2 + float(rng.uniform(-0.15, 0.15)) * w, h / 2 + float(rng.normal(0, 0.06)) * h
    half_w = float(rng.uniform(0.12, 0.35)) * w * reach
    half_h = pen.height * h / 2 * reach
    if mark == "-":
        tilt = float(rng.uniform(-0.12, 0.12)) * half_w
        lines = [((cx - half_w, cy - tilt), (cx + half_w, cy + tilt))]
    else:
        half_w = min(half_w, half_h * 1.2)
        lines = [((cx - half_w, cy + half_h), (cx + half_w, cy - half_h))]
        if mark == "x":
            lines.append(((cx - half_w, cy - half_h), (cx + half_w, cy + half_h)))
    for (x0, y0), (x1, y1) in lines:
        cv2.line(canvas, (round(x0), round(y0)), (round(x1), round(y1)), 1.0, thick,
                 cv2.LINE_AA)
    return canvas


# --- a cell as the pipeline cuts it -------------------------------------------------------


def random_text(rng: np.random.Generator) -> tuple[str, int | None]:
    """Return what a random cell holds, as written and as its value (None: blank)."""
    kind = rng.random()
    if kind < 0.07:
        return "", None
    if kind < 0.14:
        return str(rng.choice(["-", "/", "x", "ø", "0"])), 0
    digits = int(rng.choice([1, 2, 3], p=[0.32, 0.5, 0.18]))
    first = "7" if rng.random() < 0.12 else str(rng.integers(1, 10))
    text = first + "".join(str(d) for d in rng.integers(0, 10, digits - 1))
    return text, int(text)


def _ruling(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """The cell's printed ruling at its edges (a margin of MARGIN of the cell's height
    inside the cut on every side), now and then a little off, as ink 0..1."""
    h, w = shape
    edge = h * MARGIN / (1 + 2 * MARGIN)
    lines = np.zeros(shape, np.float32)
    for axis, at in ((0, edge), (0, h - edge), (1, edge), (1, w - edge)):
        if rng.random() < 0.12:
            continue
        pos = round(at + float(rng.normal(0, 0.035)) * h)
        thick = int(rng.integers(1, 5))
        strength = float(rng.uniform(0.25, 1.0))
        if axis == 0:
            lines[max(pos - thick // 2, 0):max(pos + thick - thick // 2, 0), :] = strength
        else:
            lines[:, max(pos - thick // 2, 0):max(pos + thick - thick // 2, 0)] = strength
    return lines


def _light(gray: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    h, w = gray.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.3, 0.3, 2)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    if rng.random() < 0.3:  # the edge of a shadow across the cell
        angle = float(rng.uniform(0, np.pi))
        side = (xx - w * rng.random()) * np.cos(angle) + (yy - h * rng.random()) * np.sin(angle)
        light = light * np.where(side > 0, float(rng.uniform(0.45, 0.85)), 1.0)
    return np.asarray(gray * light)


def render_cell(text: str, glyphs: GlyphSource, rng: np.random.Generator) -> np.ndarray:
    """Return a gray cell (uint8, WORK_H high, as wide as the cell's shape) with *text*
    written in it, as cut from a photo: the ruling at its edges, paper, ink, light, blur,
    noise and JPEG."""
    h = WORK_H
    inner_h = h / (1 + 2 * MARGIN)
    edge = inner_h * MARGIN
    w = int(min(WORK_W, round(inner_h * float(rng.uniform(1.6, 3.6)) + 2 * edge)))
    ink: np.ndarray = np.zeros((h, w), np.float32)
    if text:
        # As on a pad: the pen may reach a little past the cell, onto its ruling.
        area = (round(inner_h * 1.15), round(w - 2 * edge - 4))
        written = write_text(text, glyphs, Pen.random(rng), area, rng)
        dy, dx = edge - inner_h * 0.075, edge + 2
        shift = rng.normal(0, 0.04, 2) * h
        ink = cv2.warpAffine(written, f32([[1, 0, dx + shift[1]], [0, 1, dy + shift[0]]]),
                             (w, h))
    if rng.random() < 0.3:  # pencil: grainy, lighter strokes
        ink = ink * rng.uniform(0.5, 1.0, ink.shape).astype(np.float32)
    paper = float(rng.uniform(150, 250))
    darkness = float(rng.uniform(0.45, 0.95))
    rule = _ruling((h, w), rng) * float(rng.uniform(0.3, 0.9))
    gray: np.ndarray = paper * (1 - darkness * np.clip(ink, 0, 1)) * (1 - rule)
    gray = _light(gray, rng)
    if rng.random() < 0.6:
        gray = cv2.GaussianBlur(gray, (0, 0), float(rng.uniform(0.3, 2.0)))
    gray = gray + rng.normal(0, float(rng.uniform(0, 8)), gray.shape)
    gray = np.clip(gray, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        quality = int(rng.integers(25, 90))
        gray = np.asarray(cv2.imdecode(
            cv2.imencode(".jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, quality])[1],
            cv2.IMREAD_GRAYSCALE))
    return gray


def cell_batch(count: int, glyphs: GlyphSource, seed: int) -> tuple[np.ndarray, list[str]]:
    """Return *count* normalized cells (count x CELL_H x CELL_W float32) and their labels
    (the digits of the value, "" for blank)."""
    from vision.handwriting import CELL_H, CELL_W

    rng = np.random.default_rng(seed)
    cells = np.zeros((count, CELL_H, CELL_W), np.float32)
    labels: list[str] = []
    for i in range(count):
        text, value = random_text(rng)
        cells[i] = normalize_cell(fit_cell(render_cell(text, glyphs, rng)))
        labels.append("" if value is None else str(value))
    return cells, labels

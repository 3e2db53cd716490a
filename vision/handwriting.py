"""Read what is written in a score pad's cell: a number of one to three digits, nothing, or a
scratch mark (a dash, a slash, a cross or a 0: the box scores 0).

A cell is cut from the photo with a small margin (`cut_cell`), turned into ink darkness
0..1 against its own paper (`normalize_cell`) and read by ``handwriting.onnx``, a small
convolutional network whose output is a CTC sequence over 24 steps of the cell's width
(classes: CTC blank, digits 0..9). A prefix beam search (`ctc_candidates`) turns it into
the cell's likeliest readings with their probabilities: ``None`` for a blank cell, else
the number (a scratch mark is read as 0). Each cell is read by every network the file
holds (one output each) as cut, and, unless they all read it alike and surely, twice
more, moved a little either way (`SHIFTS`); the readings are averaged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from vision.onnx import open_session

CELL_H, CELL_W = 32, 96  # the network's input: one cell, ink 0..1
WORK_H, WORK_W = 2 * CELL_H, 2 * CELL_W  # cells are cut at twice that, then reduced
MARGIN = 0.12  # share of the cell's height added around it, so strokes over the ruling stay
BLANK = 0  # CTC blank class; digit d is class d + 1
MAX_DIGITS = 3
MODEL = "handwriting.onnx"
# A step's class below this probability is not followed by the beam search: it changes a
# candidate's probability by less than that and keeps the search fast.
PRUNE = 1e-3
# Readings kept per cell: the pad check picks, among them, those that make a column add up,
# and a hard cell's right reading is often beyond the fifth likeliest.
BEAM = 24
CANDIDATES = 20
# Each cell is read as cut and moved this many pixels sideways, and the readings averaged:
# the network's steps fall otherwise on the strokes, and one view's sure misreading is
# outweighed by the others.
SHIFTS = (0, -3, 3)
# A cell that every network reads as cut as one value, together at least this surely, is
# not read again moved: the rules would not choose another of its readings.
SURE_AT_ONCE = 0.999

Candidate = tuple[int | None, float]
_PAPER_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))


@dataclass(frozen=True)
class CellReading:
    """A cell's likeliest readings, best first: (value or None for blank, probability)."""

    candidates: tuple[Candidate, ...]

    @property
    def value(self) -> int | None:
        """The likeliest reading (None: blank)."""
        return self.candidates[0][0]

    @property
    def confidence(self) -> float:
        """The likeliest reading's probability."""
        return self.candidates[0][1]


def cell_quad_with_margin(quad: np.ndarray) -> np.ndarray:
    """Return *quad* (4x2: top-left, top-right, bottom-right, bottom-left) grown by
    `MARGIN` of its height on every side."""
    quad = np.asarray(quad, dtype=np.float32)
    left, right = quad[[0, 3]].mean(0), quad[[1, 2]].mean(0)
    top, bottom = quad[[0, 1]].mean(0), quad[[3, 2]].mean(0)
    across = (right - left) / max(float(np.linalg.norm(right - left)), 1e-6)
    down = (bottom - top) / max(float(np.linalg.norm(bottom - top)), 1e-6)
    pad = MARGIN * float(np.linalg.norm(bottom - top))
    grow = np.array([-across - down, across - down, across + down, -across + down])
    return (quad + pad * grow).astype(np.float32)


def cut_cell(gray: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Return the cell *quad* of image *gray* (with its margin), straightened at its own
    shape to WORK_H pixels high (at most WORK_W wide), then fitted by `fit_cell`."""
    grown = cell_quad_with_margin(quad)
    across = float(np.linalg.norm(grown[1] - grown[0]) + np.linalg.norm(grown[2] - grown[3]))
    down = float(np.linalg.norm(grown[3] - grown[0]) + np.linalg.norm(grown[2] - grown[1]))
    width = int(min(WORK_W, max(WORK_H, round(WORK_H * across / max(down, 1e-6)))))
    target = np.array([[0, 0], [width, 0], [width, WORK_H], [0, WORK_H]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(grown, target)
    work = cv2.warpPerspective(gray, matrix, (width, WORK_H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return fit_cell(work)


def fit_cell(work: np.ndarray) -> np.ndarray:
    """Return a cell cut WORK_H high at its own shape as CELL_H x CELL_W gray pixels: halved,
    then centred on paper of its own brightness (a cell wider than that is narrowed), so
    digits keep their shape on pads of any cell width."""
    width = round(work.shape[1] * CELL_H / work.shape[0])
    small = cv2.resize(work, (min(width, CELL_W), CELL_H), interpolation=cv2.INTER_AREA)
    spare = CELL_W - small.shape[1]
    if spare <= 0:
        return np.asarray(small)
    paper = float(np.percentile(small, 90))
    return np.asarray(cv2.copyMakeBorder(small, 0, 0, spare // 2, spare - spare // 2,
                                         cv2.BORDER_CONSTANT, value=paper))


def normalize_cell(gray: np.ndarray) -> np.ndarray:
    """Return the ink darkness 0..1 of a CELL_H x CELL_W gray cell against its own paper:
    each pixel against the brightest paper near it (which takes out shadows and uneven
    light), a faint cell not stretched to full contrast."""
    pixels = gray.astype(np.float32) + 1.0
    paper = cv2.GaussianBlur(cv2.dilate(pixels, _PAPER_KERNEL), (0, 0), 2.0)
    dark = np.clip(1.0 - pixels / np.maximum(paper, pixels), 0.0, 1.0)
    span = max(float(dark.max()), 0.35)
    return np.asarray(dark / span, dtype=np.float32)


def ink_of(image: np.ndarray) -> np.ndarray:
    """Return the single channel in which ink of any colour is dark: a colour image's
    darkest channel (blue ink is dark in red), a gray one as it is."""
    if image.ndim == 2:
        return image
    blue, green, red = cv2.split(image)  # cv2.min: numpy's min over 3 channels is slow
    return np.asarray(cv2.min(cv2.min(blue, green), red))


def _add(beams: dict[str, list[float]], prefix: str, blank: float, char: float) -> None:
    old = beams.get(prefix)
    if old is None:
        beams[prefix] = [blank, char]
    else:
        old[0] += blank
        old[1] += char


def ctc_candidates(probs: np.ndarray, beam: int = BEAM) -> list[tuple[str, float]]:
    """Return the likeliest label strings of a CTC output *probs* (steps x classes, rows
    summing to 1) by prefix beam search, best first, with their probabilities.

    The beams' probabilities are rescaled after every step (the scale's log is kept), so
    that long outputs do not underflow."""
    rows = np.maximum(probs, 1e-12).tolist()
    followed = (probs > PRUNE).tolist()
    beams: dict[str, list[float]] = {"": [1.0, 0.0]}  # prefix: [ends blank, ends char]
    log_scale = 0.0
    for step, row in enumerate(rows):
        classes = [c for c in range(1, len(row)) if followed[step][c]]
        nxt: dict[str, list[float]] = {}
        for prefix, (p_blank, p_char) in beams.items():
            total = p_blank + p_char
            last = int(prefix[-1]) + 1 if prefix else -1
            _add(nxt, prefix, total * row[BLANK], p_char * row[last] if prefix else 0.0)
            if len(prefix) > MAX_DIGITS:
                continue
            for c in classes:
                _add(nxt, prefix + str(c - 1), 0.0, (p_blank if c == last else total) * row[c])
        # A step of blank only grows no prefix: the beams stay as many, in need of no cut.
        beams = dict(sorted(nxt.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:beam]) \
            if classes else nxt
        top = max(p_blank + p_char for p_blank, p_char in beams.values())
        if top > 0:
            log_scale += math.log(top)
            beams = {prefix: [p_blank / top, p_char / top]
                     for prefix, (p_blank, p_char) in beams.items()}
    scored = [(text, math.exp(math.log(p_blank + p_char) + log_scale) if p_blank + p_char else 0.0)
              for text, (p_blank, p_char) in beams.items()]
    return sorted(scored, key=lambda kv: -kv[1])


def to_candidates(texts: Sequence[tuple[str, float]],
                  top: int = CANDIDATES) -> tuple[Candidate, ...]:
    """Return label strings as values (a number of up to three digits; "" is blank), merging
    spellings of one value ("07" is 7), renormalized over what is kept, best first."""
    merged: dict[int | None, float] = {}
    for text, p in texts:
        if len(text) > MAX_DIGITS:
            continue
        value = int(text) if text else None
        merged[value] = merged.get(value, 0.0) + p
    total = sum(merged.values()) or 1.0
    return _best({value: p / total for value, p in merged.items()}, top)


def _best(readings: dict[int | None, float], top: int) -> tuple[Candidate, ...]:
    """Return the *top* likeliest of *readings*, best first."""
    return tuple(sorted(readings.items(), key=lambda kv: -kv[1])[:top])


def shifted(cells: np.ndarray, dx: int) -> np.ndarray:
    """Return *cells* (N x H x W) moved *dx* pixels right (left when negative), the edge
    they leave filled with paper."""
    out = np.zeros_like(cells)
    if dx >= 0:
        out[:, :, dx:] = cells[:, :, :cells.shape[2] - dx]
    else:
        out[:, :, :dx] = cells[:, :, -dx:]
    return out


def averaged(views: Sequence[tuple[Candidate, ...]],
             top: int = CANDIDATES) -> tuple[Candidate, ...]:
    """Return the readings of several views of one cell averaged value by value (a value
    a view did not give counts 0 there), best first."""
    merged: dict[int | None, float] = {}
    for view in views:
        for value, p in view:
            merged[value] = merged.get(value, 0.0) + p / len(views)
    return _best(merged, top)


class HandwritingReader:
    """The handwriting model's session; per-call data is passed in, never kept."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.session = session
        self.input_name = session.get_inputs()[0].name

    def read(self, cells: np.ndarray) -> list[CellReading]:
        """Return the reading of each normalized cell (N x CELL_H x CELL_W, ink 0..1): read
        as cut by every network, and read again moved (`SHIFTS`) unless `sure_at_once`."""
        if not len(cells):
            return []
        per_cell = self.views(cells, SHIFTS[:1])
        again = [i for i, readings in enumerate(per_cell) if not sure_at_once(readings)]
        if again:
            for i, more in zip(again, self.views(cells[again], SHIFTS[1:]), strict=True):
                per_cell[i] += more
        return [CellReading(averaged(readings)) for readings in per_cell]

    def views(self, cells: np.ndarray, shifts: Sequence[int]) -> list[list[tuple[Candidate, ...]]]:
        """Return each cell's readings by every network, moved by each of *shifts*."""
        batch = np.concatenate([shifted(cells, dx) for dx in shifts])
        # One output per network, each len(shifts)*N x steps x classes.
        probs = np.concatenate(self.session.run(
            None, {self.input_name: np.ascontiguousarray(batch[:, None], dtype=np.float32)}))
        per_cell = probs.reshape(-1, len(cells), *probs.shape[1:]).swapaxes(0, 1)
        return [[to_candidates(ctc_candidates(p), BEAM) for p in cell] for cell in per_cell]


def sure_at_once(readings: Sequence[tuple[Candidate, ...]]) -> bool:
    """True when a cell's readings as cut agree on one value, together at least `SURE_AT_ONCE`
    likely: reading it moved would change no choice the rules make."""
    return len({reading[0][0] for reading in readings}) == 1 and \
        averaged(readings)[0][1] >= SURE_AT_ONCE


@cache
def handwriting_reader(folder: Path | None = None) -> HandwritingReader:
    """Return the shared reader of ``handwriting.onnx``; raises ModelError when missing."""
    return HandwritingReader(open_session(MODEL, folder))

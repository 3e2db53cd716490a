"""Find a score pad's grid in a photo and every cell's place in it.

pipkeeper's printed pad is aligned by its four ArUco markers (`vision.padmarkers`), which
also say which way up it is. Other pads are aligned from their ruling: the grid's outer
quadrilateral is the largest shape drawn by long horizontal and vertical strokes; which way
up it lies is told by its counts of rows and columns (a pad is taller than wide in rows)
and by its wide label columns, which come first. In the straightened grid, row and column
lines are found from the strokes' profiles; the row lines are then found again within each
value column, so a curled sheet's bent rows are followed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import VisionError
from vision.padmarkers import MARKER_IDS, find_markers

DETECT_SIDE = 1400  # the photo is searched for the grid at this size
ROW_PX = 48  # a row's height in the straightened grid
BORDER = 16  # straightened grid's margin around the outer ruling
# Pieces of ruling join the grid's largest piece when they lie within this share of its
# size around it and hold at least PIECE_SHARE of its ruling (see _grid_pieces).
PIECE_MARGIN, PIECE_SHARE = 0.15, 0.01


class PadNotFoundError(VisionError, ValueError):
    """No pad of the layout asked for is in the photo; the message says what was found."""


@dataclass(frozen=True)
class GridSpec:
    """What the finder needs of a layout: its grid's rows (heading and section rows too),
    label columns before the value columns, value columns (None: one per player, up to
    `most_columns`), whether it carries pipkeeper's markers, and its name for messages."""

    title: str
    rows: int
    label_columns: int
    columns: int | None
    markers: bool = False
    most_columns: int = 6


@dataclass(frozen=True)
class PadGrid:
    """A pad found in a photo: how, its grid's corners in photo pixels (top left first,
    clockwise, as the pad reads), the quarter turns it lay at, the straightened grid
    (gray, ink dark) and each cell's quad in it and in the photo, by value column and row."""

    method: str
    corners: np.ndarray
    turns: int
    straight: np.ndarray
    cells: tuple[tuple[np.ndarray, ...], ...]
    photo_cells: tuple[tuple[np.ndarray, ...], ...]


def _small(gray: np.ndarray) -> tuple[np.ndarray, float]:
    scale = min(1.0, DETECT_SIDE / max(gray.shape))
    if scale == 1.0:
        return gray, 1.0
    size = (round(gray.shape[1] * scale), round(gray.shape[0] * scale))
    return cv2.resize(gray, size, interpolation=cv2.INTER_AREA), scale


def _strokes(gray: np.ndarray, length: int, block: int = 31) -> tuple[np.ndarray, np.ndarray]:
    """Return masks of the horizontal and vertical strokes of *gray* at least *length* long."""
    ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV,
                                block, 8)
    # Closing first bridges the gaps of a thin line that the photo broke into dashes.
    across = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, 5), np.uint8))
    across = cv2.morphologyEx(across, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((5, 1), np.uint8))
    down = cv2.morphologyEx(down, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    return across, down


def _order(points: np.ndarray) -> np.ndarray:
    """Return 4 points as top left, top right, bottom right, bottom left (in the photo)."""
    centre = points.mean(0)
    angles = np.arctan2(points[:, 1] - centre[1], points[:, 0] - centre[0])
    ring = points[np.argsort(angles)]  # clockwise from the left, y pointing down
    start = int(np.argmin(ring.sum(1)))
    return np.roll(ring, -start, axis=0).astype(np.float32)


def ruled_quad(gray: np.ndarray) -> np.ndarray:
    """Return the corners of the largest ruled grid in *gray* (photo pixels), ordered as
    `_order` does. Raises PadNotFoundError when there is none or it is cut by the edge."""
    small, scale = _small(gray)
    across, down = _strokes(small, 15)
    lines = cv2.dilate(across | down, np.ones((5, 5), np.uint8))
    # The grid is the shape with the most ruling, not the largest: a sheet's edge against
    # the table is a long stroke too, but only four of them.
    count, labels, stats, _ = cv2.connectedComponentsWithStats(lines)
    area = small.shape[0] * small.shape[1]
    big = [i for i in range(1, count)
           if stats[i, cv2.CC_STAT_WIDTH] * stats[i, cv2.CC_STAT_HEIGHT] > 0.04 * area]
    if not big:
        raise PadNotFoundError("no score pad found in the photo: no ruled grid and no "
                               "pipkeeper markers; photograph the whole pad, flat and lit")
    grid = max(big, key=lambda i: stats[i, cv2.CC_STAT_AREA])
    points = cv2.findNonZero(np.isin(labels, _grid_pieces(stats, grid)).astype(np.uint8))
    hull = cv2.convexHull(points)
    quad = _four_corners(hull)
    h, w = small.shape
    if (quad.min(0) < 3).any() or quad[:, 0].max() > w - 4 or quad[:, 1].max() > h - 4:
        raise PadNotFoundError("the pad's grid runs off the edge of the photo: part of it "
                               "is cut off; photograph the whole pad with a margin around it")
    return _order(quad / scale)


def _grid_pieces(stats: np.ndarray, grid: int) -> list[int]:
    """Return the components of the ruling that make up the grid: the one with the most
    ruling and those beside it, within a margin around it (PIECE_MARGIN of its size), with
    PIECE_SHARE of its ruling or more, each smaller than half the grid. A shadow's edge
    can break every line of a corner of the grid off the rest; the sheet's edge around the
    grid is not a piece of it."""
    x, y, w, h = (int(v) for v in stats[grid, :4])
    mx, my = PIECE_MARGIN * w, PIECE_MARGIN * h
    pieces = [grid]
    for i in range(1, len(stats)):
        px, py, pw, ph, area = (int(v) for v in stats[i])
        inside = (px >= x - mx and py >= y - my and px + pw <= x + w + mx
                  and py + ph <= y + h + my)
        smaller = pw * ph < w * h / 2  # not the sheet's edge, drawn around the grid
        if i != grid and inside and smaller and area >= PIECE_SHARE * stats[grid, cv2.CC_STAT_AREA]:
            pieces.append(i)
    return pieces


def _four_corners(hull: np.ndarray) -> np.ndarray:
    perimeter = cv2.arcLength(hull, True)
    for share in (0.01, 0.02, 0.03, 0.05, 0.08):
        approx = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)


def _straighten(gray: np.ndarray, corners: np.ndarray, size: tuple[int, int]) -> tuple[
        np.ndarray, np.ndarray]:
    """Return (the grid *corners* enclose, straightened to *size* plus BORDER, and the
    homography from the straightened grid to the photo)."""
    w, h = size
    target = np.array([[BORDER, BORDER], [BORDER + w, BORDER], [BORDER + w, BORDER + h],
                       [BORDER, BORDER + h]], dtype=np.float32)
    to_grid = cv2.getPerspectiveTransform(corners, target)
    out = cv2.warpPerspective(gray, to_grid, (w + 2 * BORDER, h + 2 * BORDER),
                              flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    return out, np.linalg.inv(to_grid)


def _peaks(profile: np.ndarray, spacing: float, floor: float = 0.35) -> list[int]:
    """Return the positions of the profile's peaks over *floor* of its top, at least
    *spacing* apart (the stronger kept). A peak's height is the profile's highest value
    within a pixel of it, so a thin line counts as much as a thick one of its length."""
    if profile.max() <= 0:
        return []
    smooth: list[float] = np.convolve(profile, np.ones(3) / 3, mode="same").tolist()
    padded = np.pad(profile, 1)
    height = np.maximum(np.maximum(padded[:-2], padded[1:-1]), padded[2:])
    least, last = floor * float(profile.max()), len(smooth) - 1
    candidates = [i for i, v in enumerate(smooth) if height[i] >= least
                  and v >= smooth[max(i - 1, 0)] and v >= smooth[min(i + 1, last)]]
    kept: list[int] = []
    for i in sorted(candidates, key=lambda k: -smooth[k]):
        if all(abs(i - k) >= spacing for k in kept):
            kept.append(int(i))
    return sorted(kept)


def _lines(straight: np.ndarray, row_px: float) -> tuple[list[int], list[int], np.ndarray]:
    """Return (row line ys, column line xs, the horizontal strokes mask) of a grid."""
    across, down = _strokes(straight, max(9, round(row_px * 0.9)))
    rows = _peaks(across.sum(1).astype(np.float64), row_px * 0.5)
    # A column's ruling runs the grid's whole height; the strokes of digits written one
    # above another in a column (a run of 1s) add up to a third of it at most.
    columns = _peaks(down.sum(0).astype(np.float64), row_px * 0.8, floor=0.5)
    return rows, columns, across


def _fit(found: list[int], count: int, start: float, end: float, tolerance: float) -> list[float]:
    """Return *count* lines from *start* to *end*: the lines found when there are as many,
    else evenly spaced ones, each moved to a found line near it."""
    if len(found) == count:
        return [float(v) for v in found]
    even = np.linspace(start, end, count)
    return [_nearest(found, float(y), tolerance) for y in even]


def _orientation(gray: np.ndarray, corners: np.ndarray, spec: GridSpec) -> int:
    """Return the quarter turns (clockwise) that bring the ruled grid's first row to the top,
    judged by its counts of row and column lines and its wide label columns first."""
    side = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    w, h = float(side[0] + side[2]) / 2, float(side[1] + side[3]) / 2
    scale = 1000 / max(w, h)
    straight, _ = _straighten(gray, corners, (round(w * scale), round(h * scale)))
    best: tuple[float, int] | None = None
    for turns in range(4):
        view = np.rot90(straight, -turns)
        rows_px = (view.shape[0] - 2 * BORDER) / spec.rows
        rows, columns, _ = _lines(view, rows_px)
        wanted = spec.label_columns + (spec.columns or len(columns) - 1 - spec.label_columns) + 1
        miss = float(abs(len(rows) - (spec.rows + 1)) + abs(len(columns) - wanted))
        if len(columns) >= 3:
            widths = np.diff(columns)
            labels = spec.label_columns
            miss += 0.0 if widths[:labels].sum() > widths[-labels:].sum() else 0.5
        if best is None or miss < best[0]:
            best = (miss, turns)
    assert best is not None
    return best[1]


def find_grid(gray: np.ndarray, spec: GridSpec) -> PadGrid:
    """Return the pad of *spec* found in *gray* (the photo's ink channel, ink dark).

    Raises PadNotFoundError saying what was found when the pad is not there whole.
    """
    if spec.markers:
        corners, method = _marker_corners(gray), "markers"
        turns = 0
    else:
        corners, method = ruled_quad(gray), "ruling"
        turns = _orientation(gray, corners, spec)
        corners = np.roll(corners, turns, axis=0)
    side = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    aspect = float(side[0] + side[2]) / float(side[1] + side[3])
    height = spec.rows * ROW_PX
    straight, to_photo = _straighten(gray, corners, (round(height * aspect), height))
    cells = _cells(straight, spec)
    photo_cells = tuple(tuple(_to_photo(q, to_photo) for q in column) for column in cells)
    return PadGrid(method, corners, _turns_of(corners), straight, cells, photo_cells)


def _turns_of(corners: np.ndarray) -> int:
    """Return how many quarter turns clockwise the grid lies at in the photo."""
    top = corners[1] - corners[0]
    angle = np.degrees(np.arctan2(top[1], top[0]))
    return round(float(angle) / 90) % 4


def _marker_corners(gray: np.ndarray) -> np.ndarray:
    small, scale = _small(gray)
    markers = find_markers(small)
    if not markers.complete:
        found = sorted(markers.corners)
        if not found:
            raise PadNotFoundError(
                "no pipkeeper markers found: this is not pipkeeper's printed pad, or its "
                "corners are hidden; photograph the whole pad, or name its layout")
        missing = [i for i in MARKER_IDS if i not in found]
        raise PadNotFoundError(
            f"found {len(found)} of the 4 pipkeeper markers (missing the "
            f"{', '.join(_CORNER_NAMES[i] for i in missing)}): part of the pad is outside the "
            "photo or covered; photograph the whole pad")
    return markers.grid_corners() / scale


_CORNER_NAMES = {0: "top left", 1: "top right", 2: "bottom right", 3: "bottom left"}


def _cells(straight: np.ndarray, spec: GridSpec) -> tuple[tuple[np.ndarray, ...], ...]:
    """Return each value column's cell quads in the straightened grid, row by row."""
    h = straight.shape[0] - 2 * BORDER
    rows, columns, across = _lines(straight, ROW_PX)
    ys = _fit(rows, spec.rows + 1, BORDER, BORDER + h, ROW_PX * 0.4)
    count = spec.columns
    if count is None:
        count = len(columns) - 1 - spec.label_columns
        if not 1 <= count <= spec.most_columns:
            raise PadNotFoundError(
                f"found a grid of {len(columns) - 1} columns; a {spec.title} has "
                f"{spec.label_columns} label column(s) and 1 to {spec.most_columns} players")
    _check_counts(spec, rows, columns, count)
    out = []
    for c in range(count):
        x0, x1 = columns[spec.label_columns + c], columns[spec.label_columns + c + 1]
        local = _peaks(across[:, x0:x1].sum(1).astype(np.float64), ROW_PX * 0.5)
        col_ys = [_nearest(local, y, ROW_PX * 0.3) for y in ys]
        out.append(tuple(np.array([[x0, col_ys[r]], [x1, col_ys[r]], [x1, col_ys[r + 1]],
                                   [x0, col_ys[r + 1]]], dtype=np.float32)
                         for r in range(spec.rows)))
    return tuple(out)


def _nearest(found: list[int], y: float, tolerance: float) -> float:
    """Return the line found nearest *y* within *tolerance* (this column's own ruling, where
    a curled sheet bends it), else *y*."""
    near = [float(f) for f in found if abs(f - y) <= tolerance]
    return min(near, key=lambda f: abs(f - y)) if near else y


def _check_counts(spec: GridSpec, rows: list[int], columns: list[int], count: int) -> None:
    """Refuse a grid whose columns or rows are not the layout's (another pad, or part of
    one), saying what was found."""
    wanted_columns = spec.label_columns + count
    row_slack = 1  # a row line missed is placed evenly; two would be another pad
    if len(columns) - 1 != wanted_columns or abs(len(rows) - 1 - spec.rows) > row_slack:
        raise PadNotFoundError(
            f"found a grid of {len(rows) - 1} rows and {len(columns) - 1} columns, but a "
            f"{spec.title} has {spec.rows} rows (with its heading) and {wanted_columns} "
            "columns: is it another pad, or is part of it outside the photo? "
            "Name the pad's layout, or photograph the whole pad")


def _to_photo(quad: np.ndarray, to_photo: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(quad.reshape(1, 4, 2), to_photo).reshape(4, 2)

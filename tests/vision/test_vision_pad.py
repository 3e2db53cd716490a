"""Finding a pad's grid and cells in a photo: pipkeeper's printed pad by its markers, the
other layouts by their ruling, at any quarter turn, under perspective; and the clear
refusals of a photo with no pad, part of a pad, or a pad of another layout."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.padrender import Shot, draw_sheet, photograph
from scorekeeper import ruleset
from scorekeeper.padlayouts import pad_layout
from vision.handwriting import ink_of
from vision.pad import PadNotFoundError, find_grid
from vision.padmarkers import marker_bits
from vision.padread import grid_spec

ROOT = Path(__file__).resolve().parents[2]
RULES = {"pipkeeper": "yahtzee", "hasbro": "yahtzee", "kniffel": "yahtzee", "yatzy": "yatzy"}


def test_the_printed_page_carries_the_markers_the_finder_reads() -> None:
    script = (ROOT / "web" / "static" / "js" / "print.js").read_text()
    start = script.index("MARKER_BITS = [")
    table = script[start:script.index("];", start)]
    printed = [re.findall(r'"([01]{4})"', row) for row in table.split("\n")[1:] if '"' in row]
    assert printed == [marker_bits(i) for i in range(4)]


def shoot(layout: str, shot: Shot, columns: int = 4, seed: int = 0) -> tuple[
        np.ndarray, np.ndarray, object, object]:
    pad = pad_layout(layout)
    rows = pad.rows_for(ruleset(RULES[layout]))
    sheet = draw_sheet(pad, rows, pad.columns or columns)
    photo, matrix = photograph(sheet.pixels, shot, np.random.default_rng(seed))
    return photo, matrix, sheet, grid_spec(pad, rows)


def worst_error(layout: str, shot: Shot, seed: int = 0) -> float:
    """Return the largest distance, in photo pixels, from a found cell's centre to the true
    one, over every value cell."""
    photo, matrix, sheet, spec = shoot(layout, shot, seed=seed)
    return cells_off_by(photo, matrix, sheet, spec)


def cells_off_by(photo: np.ndarray, matrix: np.ndarray, sheet: object, spec: object) -> float:
    """Return the largest distance from a found value cell's centre to the true one."""
    grid = find_grid(ink_of(photo), spec)  # type: ignore[arg-type]
    worst = 0.0
    for c, column in enumerate(grid.photo_cells):
        for r, quad in enumerate(column):
            true = cv2.perspectiveTransform(sheet.cell(c, r).reshape(1, 4, 2), matrix)  # type: ignore[attr-defined]
            worst = max(worst, float(np.linalg.norm(quad.mean(0) - true.reshape(4, 2).mean(0))))
    return worst


@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_the_printed_pad_aligns_by_its_markers(turns: int) -> None:
    shot = Shot(quarter_turns=turns, tilt=6.0, perspective=0.1, shadow=True)
    assert worst_error("pipkeeper", shot, seed=turns) < 3.0


@pytest.mark.parametrize("layout", ["hasbro", "kniffel", "yatzy"])
@pytest.mark.parametrize("turns", [0, 1, 2, 3])
def test_ruled_pads_align_by_their_ruling(layout: str, turns: int) -> None:
    shot = Shot(quarter_turns=turns, tilt=-5.0, perspective=0.08, shadow=True)
    assert worst_error(layout, shot, seed=turns) < 4.0


def test_ones_written_one_above_another_are_no_column_line() -> None:
    """Bold 1s in every third cell of a column, each over its cell's ruling, are strokes,
    not a column line."""
    pad = pad_layout("kniffel")
    rows = pad.rows_for(ruleset("yahtzee"))
    sheet = draw_sheet(pad, rows, 6)
    x = (sheet.cell(3, 0)[0, 0] + sheet.cell(3, 0)[1, 0]) / 2
    for r in range(1, len(rows), 3):
        y0, y1 = sheet.cell(3, r)[0, 1], sheet.cell(3, r)[2, 1]
        cv2.line(sheet.pixels, (int(x), int(y0) - 3), (int(x), int(y1) + 3), (20, 20, 90), 7)
    photo, _ = photograph(sheet.pixels, Shot(quarter_turns=2, tilt=3.0),
                          np.random.default_rng(1))
    grid = find_grid(ink_of(photo), grid_spec(pad, rows))
    assert [len(column) for column in grid.cells] == [len(rows)] * 6


def test_a_corner_of_the_grid_broken_off_by_a_gap_in_every_line_stays_in_it() -> None:
    """A band across the lower right corner (as a shadow's edge leaves it) breaks every
    line there: the corner is still part of the grid, not cut away with its cells."""
    pad = pad_layout("kniffel")
    rows = pad.rows_for(ruleset("yahtzee"))
    sheet = draw_sheet(pad, rows, 6)
    corner = sheet.cell(5, len(rows) - 1)[2]
    start = (int(corner[0] - 0.2 * sheet.pixels.shape[1]), int(corner[1] + 40))
    end = (int(corner[0] + 40), int(corner[1] - 0.25 * sheet.pixels.shape[0]))
    cv2.line(sheet.pixels, start, end, (255, 255, 255), 9)
    photo, matrix = photograph(sheet.pixels, Shot(quarter_turns=1, tilt=-6.0),
                               np.random.default_rng(5))
    assert cells_off_by(photo, matrix, sheet, grid_spec(pad, rows)) < 4.0


def test_a_yatzy_pad_has_a_column_per_player() -> None:
    photo, _, _, spec = shoot("yatzy", Shot(tilt=3.0))
    grid = find_grid(ink_of(photo), spec)  # type: ignore[arg-type]
    assert (grid.method, len(grid.cells)) == ("ruling", 4)
    assert len(grid.cells[0]) == 19


def test_a_photo_without_a_pad_is_refused() -> None:
    rng = np.random.default_rng(3)
    table = cv2.GaussianBlur(rng.uniform(60, 160, (1200, 1600)).astype(np.uint8), (0, 0), 4)
    with pytest.raises(PadNotFoundError, match="no score pad found in the photo"):
        find_grid(table, shoot("hasbro", Shot())[3])  # type: ignore[arg-type]
    with pytest.raises(PadNotFoundError, match="no pipkeeper markers found"):
        find_grid(table, shoot("pipkeeper", Shot())[3])  # type: ignore[arg-type]


def test_a_printed_pad_cut_by_the_photo_says_which_markers_it_lacks() -> None:
    photo, _, _, spec = shoot("pipkeeper", Shot(fill=0.9, shift=(0.35, 0.0), perspective=0))
    with pytest.raises(PadNotFoundError, match=r"found 2 of the 4 pipkeeper markers \(missing "
                                               r"the top right, bottom right\)"):
        find_grid(ink_of(photo), spec)  # type: ignore[arg-type]


def test_a_ruled_pad_cut_by_the_photo_is_refused() -> None:
    photo, _, _, spec = shoot("hasbro", Shot(fill=0.9, shift=(0.0, 0.3), perspective=0))
    with pytest.raises(PadNotFoundError, match="runs off the edge of the photo"):
        find_grid(ink_of(photo), spec)  # type: ignore[arg-type]


def test_a_pad_of_another_layout_is_refused_saying_what_was_found() -> None:
    photo, _, _, _ = shoot("yatzy", Shot(tilt=2.0))
    hasbro = pad_layout("hasbro")
    spec = grid_spec(hasbro, hasbro.rows_for(ruleset("yahtzee")))
    with pytest.raises(PadNotFoundError, match=r"found a grid of 19 rows and 5 columns, but a "
                                               r"Hasbro Yahtzee pad has 22 rows"):
        find_grid(ink_of(photo), spec)

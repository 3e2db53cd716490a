"""Photo of a score pad -> every cell's quad and the handwriting reader's candidates.

`read_pad_photo` decodes the photo, finds the pad of the layout asked for (or, without
one, pipkeeper's printed pad by its markers, else the first of the layouts fitting the
rule set whose ruling matches), and reads every box and total cell of every column. The
choice among the candidates by the rules is `scorekeeper.padcheck`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scorekeeper.padcheck import ColumnCheck, check_column
from scorekeeper.padlayouts import LayoutRow, PadLayout, layouts_for
from scorekeeper.rulesets import RuleSet
from vision.handwriting import (
    CELL_H,
    CELL_W,
    CellReading,
    HandwritingReader,
    cut_cell,
    handwriting_reader,
    ink_of,
    normalize_cell,
)
from vision.image import DecodedImage, ImageSource, load
from vision.pad import GridSpec, PadGrid, PadNotFoundError, find_grid

# Pads are read from a view of about this many pixels on the photo's longest side: a
# 12 MP photo is decoded at half size, enough for cells of 30 px and more.
PAD_SIDE = 2000


@dataclass(frozen=True)
class PadPhotoReading:
    """A pad read from a photo: its layout, its rows, the grid found (cells in the pixels of
    the decoded `image`, which is `image.scale` photo pixels each) and, per value column,
    each row's reading (None for the heading and section rows)."""

    layout: PadLayout
    rows: tuple[LayoutRow, ...]
    grid: PadGrid
    columns: tuple[tuple[CellReading | None, ...], ...]
    image: DecodedImage

    def cell_quad(self, column: int, row: int) -> np.ndarray:
        """Return the cell's corners in the original photo's pixels."""
        return self.grid.photo_cells[column][row] * self.image.scale

    def checks(self, rules: RuleSet, *, finished: bool = True) -> list[ColumnCheck]:
        """Return every value column checked by the rules (scorekeeper.padcheck): the
        likeliest reading they allow, and its audit."""
        return [check_column(rules, self.rows, {r: cell.candidates for r, cell in
                                                enumerate(column) if cell is not None},
                             finished=finished)
                for column in self.columns]

    def column_name(self, column: int) -> str:
        """Return the heading the layout prints over value column *column*."""
        return self.layout.column_label.format(n=column + 1)


def grid_spec(layout: PadLayout, rows: Sequence[LayoutRow]) -> GridSpec:
    """Return what the grid finder needs to know of *layout* with *rows*."""
    return GridSpec(layout.title, len(rows), layout.label_columns, layout.columns,
                    layout.markers, layout.most_columns)


def read_cells(gray: np.ndarray, grid: PadGrid, rows: Sequence[LayoutRow],
               reader: HandwritingReader) -> tuple[tuple[CellReading | None, ...], ...]:
    """Return the reading of every value cell of *grid*, column by column, row by row."""
    wanted = [(c, r) for c in range(len(grid.cells)) for r, row in enumerate(rows) if row.read]
    cells = np.zeros((len(wanted), CELL_H, CELL_W), np.float32)
    for i, (c, r) in enumerate(wanted):
        cells[i] = normalize_cell(cut_cell(grid.straight, grid.cells[c][r]))
    readings = dict(zip(wanted, reader.read(cells), strict=True))
    return tuple(tuple(readings.get((c, r)) for r in range(len(rows)))
                 for c in range(len(grid.cells)))


def _candidates(rules: RuleSet, layout: PadLayout | None) -> list[PadLayout]:
    if layout is not None:
        layout.rows_for(rules)  # raises LayoutError when it does not fit the rules
        return [layout]
    return list(layouts_for(rules))


def read_pad_photo(source: ImageSource, rules: RuleSet, layout: PadLayout | None = None,
                   reader: HandwritingReader | None = None) -> PadPhotoReading:
    """Return the pad in photo *source* for a game of *rules*, every cell read.

    Raises ImageError for a file that is not an image, PadNotFoundError saying what was
    found when no pad of the layout (or of any layout fitting *rules*) is there whole,
    LayoutError when *layout* does not fit *rules*, ModelError when the model is missing.
    """
    image = load(source, working_side=PAD_SIDE) if not isinstance(source, np.ndarray) \
        else load(source)
    gray = ink_of(image.pixels)
    errors: list[str] = []
    for candidate in _candidates(rules, layout):
        rows = candidate.rows_for(rules)
        try:
            grid = find_grid(gray, grid_spec(candidate, rows))
        except PadNotFoundError as error:
            errors.append(f"{candidate.title}: {error}")
            continue
        columns = read_cells(gray, grid, rows, reader or handwriting_reader())
        return PadPhotoReading(candidate, rows, grid, columns, image)
    if len(errors) == 1:
        raise PadNotFoundError(errors[0])
    raise PadNotFoundError("no pad for " + rules.name + " found: " + "; ".join(errors))

"""POST /api/pad-photo: a photographed score pad read and checked, column by column.

Multipart fields: ``photo`` (the image), ``rules`` (a rule set name), ``layout`` (optional:
pipkeeper, hasbro, kniffel, yatzy; by default pipkeeper's printed pad by its markers, else
any layout fitting the rules) and ``finished`` ("false" while the game is played). The
answer: the layout, its rows, the photo's size, and per column the cells chosen by the
rules (value, confidence, candidates, the cell's corners in the photo's pixels), the values
as the page's typed grid holds them, the audit's problems and the doubtful rows.

`vision` is imported on the first photo, as for dice photos (`web.photos`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from flask import Blueprint, request

from scorekeeper.padcheck import ColumnCheck
from scorekeeper.padlayouts import LayoutError, pad_layout
from scorekeeper.rulesets import RuleSet, ruleset
from web.errors import ApiError
from web.parsing import flag_of
from web.photos import decode_slot, upload_bytes

if TYPE_CHECKING:
    from vision.padread import PadPhotoReading

bp = Blueprint("padphotos", __name__, url_prefix="/api")


def grid_values(check: ColumnCheck) -> dict[str, int | None]:
    """Return a column as the page's typed grid holds it: boxes and totals by key, the
    checks row (key ``yahtzee_bonus``) as the count of checks, or their points."""
    if check.pad is None:
        return {}
    totals = dict(check.pad.totals)
    checks = totals.pop("yahtzee_bonus_checks", None)
    if "yahtzee_bonus" in totals:
        totals["yahtzee_bonus"] = checks if checks is not None else totals["yahtzee_bonus"]
    return {**check.pad.boxes, **totals}


def _column(reading: PadPhotoReading, index: int, check: ColumnCheck) -> dict[str, Any]:
    cells = []
    for cell in check.cells:
        quad = reading.cell_quad(index, cell.row)
        cells.append({"row": cell.row, "key": cell.key, **cell.to_dict(),
                      "doubtful": cell.doubtful,
                      "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in quad]})
    return {"name": reading.column_name(index), "blank": check.pad is None, "cells": cells,
            "values": grid_values(check), "problems": [p.to_dict() for p in check.problems],
            "doubtful": [cell.key for cell in check.doubtful]}


def pad_report(reading: PadPhotoReading, rules: RuleSet, finished: bool) -> dict[str, Any]:
    """Return the answer for a pad read from a photo: every column checked."""
    checks = reading.checks(rules, finished=finished)
    return {
        "rules": rules.name, "layout": reading.layout.name, "title": reading.layout.title,
        "found_by": reading.grid.method,
        "width": reading.image.width, "height": reading.image.height,
        "rows": [{"key": row.key, "label": row.label, "kind": row.kind}
                 for row in reading.rows],
        "columns": [_column(reading, i, check) for i, check in enumerate(checks)],
    }


def _read(data: bytes, rules: RuleSet, layout_name: str) -> PadPhotoReading:
    try:
        from vision import ImageError, ModelError
        from vision.image import decode_cost
        from vision.pad import PadNotFoundError
        from vision.padread import read_pad_photo
    except ImportError as error:
        raise ApiError(f"reading photos is not available on this server: {error}", 503,
                       code="photos_unavailable") from None
    try:
        layout = pad_layout(layout_name) if layout_name else None
        with decode_slot(decode_cost(data)):
            return read_pad_photo(data, rules, layout)
    except (PadNotFoundError, LayoutError) as error:
        raise ApiError(str(error)) from None  # what was found, in English
    except ImageError as error:
        raise ApiError(f"not a readable image: {error}", code="unreadable_image") from None
    except ModelError as error:
        raise ApiError(f"reading photos is not available on this server: {error}", 503,
                       code="photos_unavailable") from None


@bp.post("/pad-photo")
def pad_photo() -> dict[str, Any]:
    """Read and check the pad in an uploaded photo."""
    data = upload_bytes(request.files.get("photo"))
    rules = ruleset(request.form.get("rules", "yahtzee"))
    finished = flag_of(request.form.get("finished", "true"), "finished")
    reading = _read(data, rules, request.form.get("layout", "").strip())
    return pad_report(reading, rules, finished)
